// Cross-process mutual exclusion for approvals updates with nothing but the file system: the
// lock is a file created with O_EXCL (atomic on local file systems), so exactly one process
// wins; the reference's processes take it the same way. Losers look at the recorded pid: a
// live other owner is waited for a bounded number of times.
//
// A crashed owner used to leave the file behind and disable approvals until a human removed
// it. Now the owner also holds an flock on its lock file for as long as it owns it; the kernel
// releases that when the process dies, however it dies. A loser that finds a dead pid takes
// the flock itself (without waiting): if it gets it, nobody owns that file - not a live owner
// of ours in another pid namespace (whose pid means nothing here), not another loser breaking
// it at this moment - so, after checking that the path still names the very file it holds
// and still carries the same content, it removes it and competes again. A loser that does not
// get the flock waits like for a live owner. Two breakers cannot both remove: the second one
// either fails to get the flock, or gets it on a file the path no longer names. The owner
// takes its flock before writing its pid, so a pid is never seen without it.

#include "approvals/lock.h"

#include <chrono>
#include <optional>
#include <thread>

#include "approvals/random.h"
#include "base/time.h"
#include "json/json.h"
#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::approvals {
namespace {

std::string iso_time(int64_t ms) {
  const time_t seconds = static_cast<time_t>(ms / 1000);
  struct tm utc {};
  gmtime_r(&seconds, &utc);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

// Breaking a crashed owner's lock does not count as waiting; this bounds it anyway.
constexpr int kMaxBreaks = 16;

enum class Owner { kUnknown, kAlive, kSelf, kBroken, kStuck };

// Looks at the lock file someone else created; removes it when its owner is provably gone.
Owner inspect_owner(const std::string& lock_path, const LockOptions& options) {
  auto fd = sys::open_read_nofollow(lock_path);
  if (!fd.ok()) return Owner::kUnknown;
  auto text = sys::read_to_end(fd->get(), lock_path);
  if (!text.ok()) return Owner::kUnknown;
  const auto pid = lock_owner_pid(*text);
  if (!pid) return Owner::kUnknown;  // being written right now, or not ours to judge
  if (*pid == sys::current_pid()) return Owner::kSelf;
  if (sys::process_alive(*pid)) return Owner::kAlive;
  // The pid is gone. Whoever still holds this file's flock is alive (or breaking it now).
  auto locked = sys::lock_exclusive(fd->get(), lock_path, sys::LockWait::kNo);
  if (!locked.ok() || !*locked) return Owner::kAlive;
  auto held = sys::fstat_fd(fd->get());
  auto named = sys::lstat_path(lock_path);
  if (!held.ok() || !named.ok() || !*named || (*named)->dev != held->dev || (*named)->ino != held->ino) {
    return Owner::kUnknown;  // already replaced: look again
  }
  auto again = sys::open_read_nofollow(lock_path);
  auto now = again.ok() ? sys::read_to_end(again->get(), lock_path) : Result<std::string>(std::move(again).error());
  if (!now.ok() || *now != *text) return Owner::kUnknown;
  if (options.before_break) options.before_break();
  return sys::remove_file(lock_path).ok() ? Owner::kBroken : Owner::kStuck;
}

}  // namespace

std::optional<pid_t> lock_owner_pid(const std::string& lock_text) {
  const auto parsed = json::parse(lock_text);
  if (!parsed || !parsed->is_object()) return std::nullopt;
  const auto* pid = json::find(parsed->get_object(), "pid");
  if (pid == nullptr) return std::nullopt;
  const auto n = json::as_number(*pid);
  if (!n || *n <= 0 || *n != static_cast<double>(static_cast<pid_t>(*n))) return std::nullopt;
  return static_cast<pid_t>(*n);
}

Result<ApprovalsLock> ApprovalsLock::acquire(const std::string& lock_path, const LockOptions& options) {
  const std::string nonce = options.new_nonce ? options.new_nonce() : random_uuid();
  const int64_t created = options.now_ms ? options.now_ms() : epoch_ms();
  boost::json::object payload{{"pid", sys::current_pid()}, {"createdAt", iso_time(created)}, {"nonce", nonce}};
  const std::string text = json::stringify(payload, 2) + "\n";

  int broken = 0;
  for (int attempt = 0;; ++attempt) {
    auto fd = sys::create_exclusive(lock_path, 0600);
    if (fd.ok()) {
      // A breaker that opened the new, still empty file finds no pid and leaves it alone; it
      // may hold the flock for a moment, hence the wait.
      auto flocked = sys::lock_exclusive(fd->get(), lock_path, sys::LockWait::kYes);
      auto written = flocked.ok() ? sys::write_all(fd->get(), text) : Result<void>(std::move(flocked).error());
      auto info = sys::fstat_fd(fd->get());
      if (!written.ok() || !info.ok()) {
        ignore_error(sys::remove_file(lock_path));
        return written.ok() ? std::move(info).error() : std::move(written).error();
      }
      return ApprovalsLock(lock_path, nonce, info->dev, info->ino, std::move(*fd));
    }
    if (fd.error().sys_errno != EEXIST) return std::move(fd).error();
    const Owner owner = inspect_owner(lock_path, options);
    if (owner == Owner::kStuck) {
      return Error{ErrorCode::kRejected, 0, "Exec approvals lock has a stale owner: " + lock_path};
    }
    if (owner == Owner::kBroken && ++broken <= kMaxBreaks) {
      --attempt;  // a crashed owner's file is gone: compete again without counting a wait
      continue;
    }
    if (owner == Owner::kSelf || attempt >= options.retries) {
      return Error{ErrorCode::kTimedOut, 0, "Exec approvals are locked: " + lock_path};
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(options.retry_delay_ms));
  }
}

ApprovalsLock::ApprovalsLock(std::string path, std::string nonce, uint64_t dev, uint64_t ino, sys::UniqueFd fd)
    : path_(std::move(path)), nonce_(std::move(nonce)), dev_(dev), ino_(ino), fd_(std::move(fd)), held_(true) {}

ApprovalsLock::ApprovalsLock(ApprovalsLock&& other) noexcept
    : path_(std::move(other.path_)), nonce_(std::move(other.nonce_)), dev_(other.dev_), ino_(other.ino_),
      fd_(std::move(other.fd_)), held_(std::exchange(other.held_, false)) {}

ApprovalsLock& ApprovalsLock::operator=(ApprovalsLock&& other) noexcept {
  if (this != &other) {
    release();
    path_ = std::move(other.path_);
    nonce_ = std::move(other.nonce_);
    dev_ = other.dev_;
    ino_ = other.ino_;
    fd_ = std::move(other.fd_);
    held_ = std::exchange(other.held_, false);
  }
  return *this;
}

ApprovalsLock::~ApprovalsLock() { release(); }

void ApprovalsLock::release() {
  if (!held_) return;
  held_ = false;
  // The file is removed before its flock is dropped (closing fd_ at the end), so nobody can
  // take a released lock for a crashed one.
  struct CloseAtEnd {
    sys::UniqueFd& fd;
    ~CloseAtEnd() { fd.reset(); }
  } close_at_end{fd_};
  auto info = sys::lstat_path(path_);
  if (!info.ok() || !info->has_value() || (*info)->dev != dev_ || (*info)->ino != ino_) return;
  auto fd = sys::open_read_nofollow(path_);
  if (!fd.ok()) return;
  auto text = sys::read_to_end(fd->get(), path_);
  if (!text.ok()) return;
  const auto parsed = json::parse(*text);
  if (!parsed || !parsed->is_object()) return;
  const auto* nonce = json::find(parsed->get_object(), "nonce");
  if (nonce == nullptr || !nonce->is_string() || std::string_view(nonce->get_string()) != nonce_) return;
  ignore_error(sys::remove_file(path_));
}

}  // namespace clawexec::approvals
