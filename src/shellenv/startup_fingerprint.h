#pragma once
// Content fingerprints of shell startup files (~/.profile, ~/.bashrc, /etc/profile.d, ...):
// what decides whether the server may run them again (shell_environment.h) and whether its
// cached login PATH and snapshots still describe them.
//
// A fingerprint is the SHA-256 of the file's bytes, so resetting a file's mtime (`touch -d`)
// after changing it does not hide the change. Files are re-read only when their identity
// (device, inode, size, mtime, ctime) changed; ctime cannot be set back by an unprivileged
// user, and an identity younger than a second is never trusted to stay put (a second change
// within the same timestamp tick would keep it), so such a file is re-read on every look.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace clawexec::shellenv {

/// The largest startup file that is hashed whole; a bigger one is fingerprinted by identity
/// (including its ctime, which a change always moves).
inline constexpr size_t kMaxFingerprintedFileBytes = 4 * 1024 * 1024;

class StartupFingerprints {
 public:
  /// The fingerprint of `path` now: "absent", "sha256:<hex>" of a regular file's content, a
  /// directory's sorted entry names with each entry's fingerprint (one level: /etc/profile.d),
  /// or the identity of anything that cannot be read (too large, no access, a FIFO...).
  /// Symlinks are followed, as the shell follows them.
  std::string of(const std::string& path);

  /// "path=fingerprint\n" for each file, in order: what a set of files looks like now.
  std::string signature(const std::vector<std::string>& paths);

  /// How many files were read and hashed so far (for tests: unchanged files are not re-read).
  int files_hashed() const { return files_hashed_; }

 private:
  /// What a file's stat says: when it is unchanged, so is the fingerprint taken under it.
  struct Identity {
    int type = 0;
    uint64_t dev = 0, ino = 0;
    int64_t size = 0, mtime_ns = 0, ctime_ns = 0;
    bool operator==(const Identity&) const = default;
  };
  struct Known {
    Identity identity;
    std::string fingerprint;
    std::string listing;  // directories: the entry listing the fingerprint hashes
  };
  std::string fingerprint_file(const std::string& path, int depth);
  std::map<std::string, Known> known_;
  int files_hashed_ = 0;
};

}  // namespace clawexec::shellenv
