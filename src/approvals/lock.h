#pragma once
// The approvals lock file (§1.6 "Locking"): `<dir>/exec-approvals.json.lock`, created with
// O_EXCL and holding {pid, createdAt, nonce} as pretty JSON. Waiting is bounded. While we hold
// the lock we also hold an flock on that file, which the kernel drops when we die however we
// die; so a lock file left behind by a crashed (SIGKILLed) owner is recognised and removed
// safely: its recorded pid is gone AND nobody holds its flock (a live owner - ours in any pid
// namespace, or one of the reference's, whose pid is alive - is never broken).

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "base/result.h"
#include "sys/fd.h"

namespace clawexec::approvals {

struct LockOptions {
  int retries = 10;          // further attempts after the first
  int retry_delay_ms = 20;   // between attempts
  std::function<int64_t()> now_ms;           // createdAt; defaults to the wall clock
  std::function<std::string()> new_nonce;    // defaults to a random UUID
  std::function<void()> before_break;        // test seam: runs just before a crashed owner's file is removed
};

/// A held lock; releasing (or destroying) it removes the file only if it is still ours
/// (same device/inode and the same nonce).
class ApprovalsLock {
 public:
  /// Errors: "Exec approvals are locked: <lock>" (retries exhausted, or held by this process),
  /// "Exec approvals lock has a stale owner: <lock>" (a dead owner's lock that could not be
  /// removed, e.g. the directory is not writable), or the system error of creating the file.
  static Result<ApprovalsLock> acquire(const std::string& lock_path, const LockOptions& options);

  ApprovalsLock(ApprovalsLock&& other) noexcept;
  ApprovalsLock& operator=(ApprovalsLock&& other) noexcept;
  ApprovalsLock(const ApprovalsLock&) = delete;
  ApprovalsLock& operator=(const ApprovalsLock&) = delete;
  ~ApprovalsLock();

  void release();
  const std::string& path() const { return path_; }

 private:
  ApprovalsLock(std::string path, std::string nonce, uint64_t dev, uint64_t ino, sys::UniqueFd fd);
  std::string path_;
  std::string nonce_;
  uint64_t dev_ = 0;
  uint64_t ino_ = 0;
  sys::UniqueFd fd_;  // holds the flock while the lock is ours
  bool held_ = false;
};

/// The pid recorded in a lock file's text, if it parses.
std::optional<pid_t> lock_owner_pid(const std::string& lock_text);

}  // namespace clawexec::approvals
