// Startup-file fingerprints (see startup_fingerprint.h).
//
// Problem: the server must tell whether ~/.profile and friends still hold what they held when
// the operator started it, on every gateway call, without re-reading a dozen files each time
// and without being fooled by a reset mtime. Approach: stat each path (cheap), reuse the
// content hash taken under the same identity, and hash again only when the identity moved or
// is too recent to rely on (the same rule git uses for "racily clean" index entries). Reads go
// through the bounded, non-blocking reader, so a FIFO or a huge file planted in place of a
// startup file cannot stall the io thread.

#include "shellenv/startup_fingerprint.h"

#include <algorithm>
#include <chrono>

#include "hash/sha256.h"
#include "sys/bounded_read.h"
#include "sys/file_system.h"

namespace clawexec::shellenv {
namespace {

// An identity younger than this may still change without moving (same timestamp tick).
constexpr int64_t kRacyWindowNs = 1'000'000'000;

std::string identity_text(const sys::FileInfo& info) {
  return std::to_string(static_cast<int>(info.type)) + ':' + std::to_string(info.dev) + ':' +
         std::to_string(info.ino) + ':' + std::to_string(info.size) + ':' + std::to_string(info.mtime_ns) + ':' +
         std::to_string(info.ctime_ns);
}

bool is_racy(const sys::FileInfo& info) {
  int64_t now = std::chrono::duration_cast<std::chrono::nanoseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count();
  return now - std::max(info.mtime_ns, info.ctime_ns) < kRacyWindowNs;
}

}  // namespace

std::string StartupFingerprints::of(const std::string& path) { return fingerprint_file(path, 0); }

std::string StartupFingerprints::signature(const std::vector<std::string>& paths) {
  std::string out;
  for (const std::string& path : paths) out += path + '=' + of(path) + '\n';
  return out;
}

std::string StartupFingerprints::fingerprint_file(const std::string& path, int depth) {
  Result<std::optional<sys::FileInfo>> stat = sys::stat_path(path);
  if (!stat.ok()) {
    known_.erase(path);
    return "unreadable:" + stat.error().message;
  }
  if (!stat.value()) {
    known_.erase(path);
    return "absent";
  }
  const sys::FileInfo& info = *stat.value();
  const Identity identity{static_cast<int>(info.type), info.dev, info.ino, info.size, info.mtime_ns, info.ctime_ns};
  auto known = known_.find(path);
  if (info.type == sys::FileType::kDirectory) {
    // Editing a file inside does not move the directory's identity: look at every entry.
    if (depth > 0) return "directory:" + identity_text(info);
    Result<std::vector<std::string>> names = sys::list_directory(path);
    if (!names.ok()) return "directory:" + identity_text(info);
    std::vector<std::string> sorted = names.value();
    std::sort(sorted.begin(), sorted.end());
    std::string listing;
    for (const std::string& name : sorted) listing += name + '=' + fingerprint_file(path + "/" + name, depth + 1) + '\n';
    known = known_.find(path);  // the entries' lookups may have rehashed the map
    if (known != known_.end() && known->second.listing == listing) return known->second.fingerprint;
    std::string fingerprint = "directory:sha256:" + hash::sha256_hex(listing);
    known_[path] = Known{identity, fingerprint, std::move(listing)};
    return fingerprint;
  }
  if (known != known_.end() && known->second.identity == identity) return known->second.fingerprint;
  std::string fingerprint = "identity:" + identity_text(info);
  if (info.type == sys::FileType::kRegular && path.size() > 1 && path[0] == '/' &&
      static_cast<uint64_t>(info.size) <= kMaxFingerprintedFileBytes) {
    Result<sys::BoundedRead> read = sys::read_file_within_root("/", path.substr(1), kMaxFingerprintedFileBytes);
    if (read.ok() && read->content) {
      ++files_hashed_;
      fingerprint = "sha256:" + hash::sha256_hex(*read->content);
    }
  }
  if (is_racy(info)) {
    known_.erase(path);
  } else {
    known_[path] = Known{identity, fingerprint, {}};
  }
  return fingerprint;
}

}  // namespace clawexec::shellenv
