#pragma once
// The shell environment of gateway commands (spec §3.5, §3.7): the user's login-shell PATH and
// the startup snapshot (aliases, functions, tool variables) of bash and zsh. Both are costly to
// produce (a login or interactive shell start, 5-150 ms) and rarely change, so they are made
// once, cached, and made again only when a startup file they depend on changes.
//
// Trust: producing either means running the user's startup files (~/.profile, ~/.bashrc, ...),
// which an agent may have written. The files as they are when the server starts are trusted
// (the operator launched it). A call whose policy is stricter than security=full ask=off
// (StartupFileUse::kTrustedOnly) never makes a helper shell run anything else: when a file's
// content differs from the start-up one, it keeps the answer made from the start-up contents
// (or none, if there was none), no snapshot is refreshed, and the server warns once per change
// on stderr. Only a restart trusts new contents (SIGHUP stops the server, it does not re-trust).
// A call under security=full ask=off (kRerunChanged) could run the files itself, so for it a
// change means a new probe or capture, as in the reference.
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
#include <string_view>
#include <vector>

#include "env/env_list.h"
#include "proc/spawner.h"
#include "shellenv/snapshot_text.h"
#include "shellenv/startup_fingerprint.h"

namespace clawexec::shellenv {

struct ShellEnvironmentSettings {
  env::EnvList server_env;  // the server's own environment
  std::string home;         // the user's home directory
  std::string state_dir;    // snapshots live in <state_dir>/cache/shell-snapshots
  std::string etc_shells = "/etc/shells";
  /// A ready snapshot older than this is recaptured in the background (kRerunChanged calls only).
  std::chrono::milliseconds snapshot_refresh = std::chrono::minutes(5);
  /// Where warnings go (a startup file changed); unset: stderr, prefixed "clawexec: warning: ".
  std::function<void(const std::string&)> warn;
};

/// May the helper shells run startup files whose content changed since the server started?
/// kRerunChanged only for calls whose effective policy is security=full ask=off.
enum class StartupFileUse { kTrustedOnly, kRerunChanged };

class ShellEnvironment {
 public:
  ShellEnvironment(boost::asio::io_context& io, proc::Spawner& spawner, ShellEnvironmentSettings settings);
  ~ShellEnvironment();
  ShellEnvironment(const ShellEnvironment&) = delete;
  ShellEnvironment& operator=(const ShellEnvironment&) = delete;

  using LoginPathDone = std::function<void(const std::optional<std::string>& path)>;
  /// The login shell's PATH, nullopt when the probe failed or printed none. Calls `done` on the
  /// io thread, before returning when the answer is cached.
  void login_path(StartupFileUse use, LoginPathDone done);

  struct Snapshot {
    std::string path;      // the sourceable file
    env::EnvList baseline;  // the environment it was captured with (for restore lines)
  };
  using SnapshotDone = std::function<void(std::shared_ptr<const Snapshot>)>;
  /// The snapshot for `shell` (bash or zsh, with `shell_args`), captured with `path_value` as
  /// PATH; null when snapshots are disabled or none could be made. Like login_path, answers
  /// synchronously from the cache.
  void snapshot(const std::string& shell, const std::vector<std::string>& shell_args, const std::string& path_value,
                StartupFileUse use, SnapshotDone done);

  bool snapshots_enabled() const { return snapshots_enabled_; }
  /// Helper shells started so far (login probes and captures), for tests and diagnostics.
  int probes_started() const { return probes_started_; }
  int captures_started() const { return captures_started_; }

 private:
  struct LoginAnswer;
  struct SnapshotEntry;
  /// What `files` look like for this call: their current fingerprints, or, for a kTrustedOnly
  /// call when any changed since start-up, the start-up ones (and a warning about the change).
  /// `may_run` tells whether a helper shell may read the files now (they hold what the
  /// returned fingerprints say, and the call may run them).
  std::vector<StartupFileState> usable_state(const std::vector<std::string>& files, StartupFileUse use, bool& may_run);
  void warn_changed(const std::vector<std::string>& files);
  void trust_current_files();
  enum class IfMissing { kNull, kCreate };
  /// The snapshot entry of these inputs in `lane` ("start-up" or "rerun").
  std::shared_ptr<SnapshotEntry> find_snapshot(const std::string& shell, const std::vector<std::string>& shell_args,
                                               const std::string& path_value, const std::vector<StartupFileState>& state,
                                               std::string_view lane, IfMissing if_missing);
  /// Reuses a fresh file an earlier server left for the entry's key, else captures.
  void reuse_or_capture(const std::shared_ptr<SnapshotEntry>& entry);
  void start_login_probe(const std::string& answer_key);
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
  StartupFingerprints fingerprints_;
  /// Each startup file's fingerprint when the server started.
  std::map<std::string, std::string> trusted_;
  /// The fingerprint last warned about, per file (one warning per change).
  std::map<std::string, std::string> warned_;
  std::vector<std::string> login_files_;
  /// Login answers by lane ("start-up"/"rerun") and fingerprints of the login startup files.
  std::map<std::string, std::shared_ptr<LoginAnswer>> login_;
  std::map<std::string, std::shared_ptr<SnapshotEntry>> snapshots_;
  /// Key inputs (lane, shell, args, PATH, startup fingerprints) -> {key, capture environment}.
  std::map<std::string, std::pair<std::string, env::EnvList>> keys_;
  bool stale_files_removed_ = false;
  int probes_started_ = 0;
  int captures_started_ = 0;
  uint64_t temp_counter_ = 0;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace clawexec::shellenv
