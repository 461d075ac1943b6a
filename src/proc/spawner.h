#pragma once
// Spawner: starts commands through one long-lived `clawexec-shim spawner` helper, which forks a
// per-command supervisor for each request (see shim/spawner.cc). Forking that tiny helper is
// several times cheaper than exec'ing a new shim per command. If the helper cannot be started
// or has died and cannot be restarted, commands fall back to exec'ing the shim directly
// (spawn_with_shim), so a spawn never fails only because of the helper.

#include <sys/types.h>

#include <string>

#include "base/result.h"
#include "proc/spawn.h"
#include "sys/fd.h"

namespace clawexec::proc {

class Spawner {
 public:
  explicit Spawner(std::string shim_path);
  ~Spawner();
  Spawner(const Spawner&) = delete;
  Spawner& operator=(const Spawner&) = delete;

  /// Starts `spec`. The result has no shim pid/pidfd when the helper was used; the control
  /// socket's end-of-file tells when the supervisor is gone.
  Result<SpawnedShim> spawn(const SpawnSpec& spec);

  const std::string& shim_path() const { return shim_path_; }
  /// Whether the helper is running (for tests and diagnostics).
  bool helper_running() const { return socket_.valid(); }
  pid_t helper_pid() const { return helper_pid_; }

 private:
  Result<void> start_helper();
  void stop_helper();
  Result<SpawnedShim> spawn_via_helper(const SpawnSpec& spec);

  std::string shim_path_;
  pid_t helper_pid_ = -1;
  sys::UniqueFd socket_;
};

}  // namespace clawexec::proc
