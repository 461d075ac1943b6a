#pragma once
// The shell environment of gateway commands (spec §3.5, §3.7): the user's login-shell PATH and
// the startup snapshot (aliases, functions, tool variables) of bash and zsh. Both are costly to
// produce (a login or interactive shell start, 5-150 ms) and rarely change, so they are made
// once, cached, and made again only when a startup file they depend on changes.
//
// Everything runs on the io_context thread: answers come from the cache synchronously when
// they can, otherwise from helper shells run without blocking (concurrent callers share one
// run). Failures are answers too ("no login PATH", "no snapshot"): commands then run as they
// would without this feature.

#include <boost/asio/io_context.hpp>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "env/env_list.h"
#include "proc/spawner.h"
#include "shellenv/snapshot_text.h"

namespace clawexec::shellenv {

struct ShellEnvironmentSettings {
  env::EnvList server_env;  // the server's own environment
  std::string home;         // the user's home directory
  std::string state_dir;    // snapshots live in <state_dir>/cache/shell-snapshots
  std::string etc_shells = "/etc/shells";
};

class ShellEnvironment {
 public:
  ShellEnvironment(boost::asio::io_context& io, proc::Spawner& spawner, ShellEnvironmentSettings settings);
  ~ShellEnvironment();
  ShellEnvironment(const ShellEnvironment&) = delete;
  ShellEnvironment& operator=(const ShellEnvironment&) = delete;

  using LoginPathDone = std::function<void(const std::optional<std::string>& path)>;
  /// The login shell's PATH, nullopt when the probe failed or printed none. Calls `done` on the
  /// io thread, before returning when the answer is cached.
  void login_path(LoginPathDone done);

  struct Snapshot {
    std::string path;      // the sourceable file
    env::EnvList baseline;  // the environment it was captured with (for restore lines)
  };
  using SnapshotDone = std::function<void(std::shared_ptr<const Snapshot>)>;
  /// The snapshot for `shell` (bash or zsh, with `shell_args`), captured with `path_value` as
  /// PATH; null when snapshots are disabled or none could be made. Like login_path, answers
  /// synchronously from the cache.
  void snapshot(const std::string& shell, const std::vector<std::string>& shell_args, const std::string& path_value,
                SnapshotDone done);

  bool snapshots_enabled() const { return snapshots_enabled_; }
  /// Helper shells started so far (login probes and captures), for tests and diagnostics.
  int probes_started() const { return probes_started_; }
  int captures_started() const { return captures_started_; }

 private:
  struct LoginState;
  struct SnapshotEntry;
  std::string login_signature() const;
  void start_login_probe(const std::string& signature);
  void start_capture(const std::shared_ptr<SnapshotEntry>& entry);
  void validate_then(const std::shared_ptr<SnapshotEntry>& entry, const std::string& file, std::function<void(bool)> next);
  void finish_snapshot(const std::shared_ptr<SnapshotEntry>& entry, std::shared_ptr<const Snapshot> snapshot);
  void remove_stale_files();

  boost::asio::io_context& io_;
  proc::Spawner& spawner_;
  ShellEnvironmentSettings settings_;
  bool snapshots_enabled_ = true;
  int64_t login_timeout_ms_ = 0;
  std::string snapshot_dir_;
  std::unique_ptr<LoginState> login_;
  std::map<std::string, std::shared_ptr<SnapshotEntry>> snapshots_;
  /// Key inputs (shell, args, PATH, startup file identities) -> {key, capture environment}.
  std::map<std::string, std::pair<std::string, env::EnvList>> keys_;
  bool stale_files_removed_ = false;
  int probes_started_ = 0;
  int captures_started_ = 0;
  uint64_t temp_counter_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace clawexec::shellenv
