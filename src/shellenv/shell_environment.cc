// The cached startup snapshots (see shell_environment.h for the contract; the login PATH and
// the start-up trust live in shell_environment_login.cc).
//
// Freshness: snapshots are keyed by the shell, home, state dir, the capture environment and
// the rc files' content fingerprints (not by the command's working directory, as the
// reference does: captures run in the home directory, so one snapshot serves every workdir).
// Two lanes never share an entry or a file: "start-up" snapshots, made only from the rc files
// as they were when the server started and never refreshed, are the only ones strict calls
// use; "rerun" snapshots serve security=full ask=off calls, which begin with the start-up
// snapshot while it is young, and are recaptured in the background once older than five
// minutes (which catches changes in files the rc file sources). A failed capture is
// remembered under its key, so a broken or secret-bearing rc file costs one capture, not one
// per command. On-disk files younger than five minutes are reused after a restart once they
// still source cleanly; files older than 72 hours are removed once per process.

#include "shellenv/shell_environment.h"

#include "shell/word.h"

#include <algorithm>
#include <deque>

#include "env/shell_select.h"
#include "shellenv/login_shell.h"
#include "shellenv/shell_run.h"
#include "sys/file_system.h"
#include "sys/sys.h"
#include "sys/whole_file.h"

namespace clawexec::shellenv {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::string_view kStartupLane = "start-up";
constexpr std::string_view kRerunLane = "rerun";
constexpr int64_t kSnapshotMaxAgeNs = int64_t{72} * 3600 * 1000000000;
constexpr int64_t kCaptureTimeoutMs = 5000;
constexpr int64_t kValidateTimeoutMs = 2000;
constexpr size_t kMaxSnapshotEntries = 64;

// Capture output and not-yet-validated snapshots are scratch files: nothing reads a .tmp file
// again, and the stale-file sweep of a later server removes any left behind (once 72 hours
// old), so a failed removal is not worth reporting.
void remove_scratch_file(const std::string& path) { ignore_error(sys::remove_file(path)); }

int64_t wall_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

struct ShellEnvironment::SnapshotEntry {
  std::string key;
  std::string shell;
  std::vector<std::string> shell_args;
  env::EnvList capture;
  bool ready = false;
  bool running = false;
  Clock::time_point made_at;
  std::shared_ptr<const Snapshot> snapshot;
  std::vector<SnapshotDone> waiters;
};

std::shared_ptr<ShellEnvironment::SnapshotEntry> ShellEnvironment::find_snapshot(
    const std::string& shell, const std::vector<std::string>& shell_args, const std::string& path_value,
    const std::vector<StartupFileState>& state, std::string_view lane, IfMissing if_missing) {
  // The server environment, home and state dir are fixed, so these inputs decide the key; the
  // hash is computed once per distinct set of them, not per command.
  std::string inputs = std::string(lane) + '\0' + shell + '\0' + path_value;
  for (const std::string& a : shell_args) inputs += '\0' + a;
  for (const StartupFileState& f : state) inputs += '\0' + f.path + '=' + f.fingerprint;
  auto known = keys_.find(inputs);
  if (known == keys_.end()) {
    if (keys_.size() >= kMaxSnapshotEntries * 2) keys_.clear();
    env::EnvList base = settings_.server_env;
    env::set_var(base, "PATH", path_value);
    env::EnvList capture_environment = capture_env(base, settings_.home);
    std::string computed =
        snapshot_key(shell, shell_args, settings_.home, settings_.state_dir, capture_environment, state, lane);
    known = keys_.emplace(inputs, std::make_pair(std::move(computed), std::move(capture_environment))).first;
  }
  const std::string& key = known->second.first;
  auto it = snapshots_.find(key);
  if (it != snapshots_.end()) return it->second;
  if (if_missing == IfMissing::kNull) return nullptr;
  if (snapshots_.size() >= kMaxSnapshotEntries) {
    auto oldest = std::min_element(snapshots_.begin(), snapshots_.end(), [](const auto& a, const auto& b) {
      return a.second->made_at < b.second->made_at;
    });
    if (oldest->second->ready && !oldest->second->running) snapshots_.erase(oldest);
  }
  auto entry = std::make_shared<SnapshotEntry>();
  entry->key = key;
  entry->shell = shell;
  entry->shell_args = shell_args;
  entry->capture = known->second.second;
  snapshots_[key] = entry;
  return entry;
}

void ShellEnvironment::snapshot(const std::string& shell, const std::vector<std::string>& shell_args,
                                const std::string& path_value, StartupFileUse use, SnapshotDone done) {
  if (!snapshots_enabled_ || snapshot_dir_.empty() || !snapshot_supported(shell, shell_args)) return done(nullptr);
  const std::string* zdotdir = env::find_var(settings_.server_env, "ZDOTDIR");
  std::vector<std::string> files = snapshot_startup_files(shell, settings_.home, zdotdir ? *zdotdir : std::string());
  bool may_run = false;
  std::vector<StartupFileState> state = usable_state(files, use, may_run);
  auto serve = [&](const std::shared_ptr<SnapshotEntry>& entry) {
    if (!entry->ready) return entry->waiters.push_back(std::move(done));
    done(entry->snapshot);
  };
  std::shared_ptr<SnapshotEntry> startup = find_snapshot(shell, shell_args, path_value, state, kStartupLane, IfMissing::kNull);
  if (use == StartupFileUse::kTrustedOnly) {
    if (startup) return serve(startup);  // never refreshed: it may only hold the start-up contents
    if (!may_run) return done(nullptr);
    startup = find_snapshot(shell, shell_args, path_value, state, kStartupLane, IfMissing::kCreate);
    startup->waiters.push_back(std::move(done));
    return reuse_or_capture(startup);
  }
  std::shared_ptr<SnapshotEntry> rerun = find_snapshot(shell, shell_args, path_value, state, kRerunLane, IfMissing::kNull);
  if (!rerun && startup) {
    // A young start-up snapshot (or the capture making it) serves full-policy calls too; once
    // it is old, a rerun entry takes over with it and is recaptured in the background.
    if (!startup->ready || Clock::now() - startup->made_at < settings_.snapshot_refresh) return serve(startup);
    rerun = find_snapshot(shell, shell_args, path_value, state, kRerunLane, IfMissing::kCreate);
    rerun->ready = true;
    rerun->made_at = startup->made_at;
    rerun->snapshot = startup->snapshot;
  }
  if (rerun) {
    if (rerun->ready && !rerun->running && Clock::now() - rerun->made_at >= settings_.snapshot_refresh) {
      start_capture(rerun);
    }
    return serve(rerun);
  }
  rerun = find_snapshot(shell, shell_args, path_value, state, kRerunLane, IfMissing::kCreate);
  rerun->waiters.push_back(std::move(done));
  reuse_or_capture(rerun);
}

void ShellEnvironment::reuse_or_capture(const std::shared_ptr<SnapshotEntry>& entry) {
  // A file written by an earlier server run is reused while fresh and still sourceable.
  std::string file = snapshot_dir_ + "/" + entry->key + ".sh";
  Result<std::optional<sys::FileInfo>> info = sys::lstat_path(file);
  bool fresh = info.ok() && info.value() && info.value()->type == sys::FileType::kRegular &&
               wall_clock_ns() - info.value()->mtime_ns < std::chrono::nanoseconds(settings_.snapshot_refresh).count();
  if (!fresh) return start_capture(entry);
  entry->running = true;
  validate_then(entry, file, [this, entry, file](bool ok) {
    entry->running = false;
    if (!ok) return start_capture(entry);
    finish_snapshot(entry, std::make_shared<Snapshot>(Snapshot{file, entry->capture}));
  });
}

void ShellEnvironment::start_capture(const std::shared_ptr<SnapshotEntry>& entry) {
  entry->running = true;
  ++captures_started_;
  // A capture that could not run (time limit, file errors) keeps an earlier snapshot of the
  // same key; one whose output is refused (secret-looking, malformed) leaves no snapshot at all,
  // not even an earlier file under that key.
  auto fail = [this, entry] { finish_snapshot(entry, entry->snapshot); };
  auto refuse = [this, entry] {
    // An earlier file under this key would be reused by a later server (reuse_or_capture):
    // when it cannot be removed, say so.
    const std::string file = snapshot_dir_ + "/" + entry->key + ".sh";
    if (Result<void> removed = sys::remove_file(file); !removed.ok()) {
      settings_.warn("could not remove the refused shell snapshot (" + removed.error().message +
                     "); a later server may reuse it until it is 5 minutes old");
    }
    finish_snapshot(entry, nullptr);
  };
  if (!sys::make_directories(snapshot_dir_).ok() || !sys::change_mode(snapshot_dir_, 0700).ok()) return fail();
  remove_stale_files();
  std::string stem = snapshot_dir_ + "/" + entry->key + "." + std::to_string(sys::current_pid()) + "." +
                     std::to_string(++temp_counter_);
  std::string output_file = stem + ".out.tmp";
  {
    Result<sys::UniqueFd> created = sys::create_exclusive(output_file, 0600);
    if (!created.ok()) return fail();
  }
  std::vector<std::string> argv = {entry->shell};
  for (const std::string& a : capture_shell_args(entry->shell)) argv.push_back(a);
  argv.push_back(capture_command(entry->shell, output_file));
  ShellRunSpec spec{.argv = std::move(argv),
                    .env = entry->capture,
                    .cwd = sys::is_directory(settings_.home) ? settings_.home : std::string("/"),
                    .timeout_ms = kCaptureTimeoutMs,
                    .max_output_bytes = 0};
  run_shell(io_, spawner_, spec, [this, alive = alive_, entry, output_file, stem, fail, refuse](ShellRunResult result) {
    if (!*alive) return;
    Result<std::string> captured = sys::read_whole_file(output_file);
    remove_scratch_file(output_file);
    if (!result.succeeded() || !captured.ok()) return fail();
    std::optional<SnapshotFile> text = build_snapshot_file(captured.value());
    if (!text) return refuse();
    std::string temp = stem + ".tmp";
    if (!sys::replace_file_atomically(temp, text->text, 0600, sys::Durability::kNone).ok()) return fail();
    validate_then(entry, temp, [this, entry, temp, fail, refuse](bool ok) {
      std::string file = snapshot_dir_ + "/" + entry->key + ".sh";
      if (!ok) {
        remove_scratch_file(temp);
        return refuse();  // it does not source cleanly: never use it
      }
      // The temp file is already exactly 0600 (replace_file_atomically), and so is the file.
      if (!sys::rename_path(temp, file).ok()) {
        remove_scratch_file(temp);
        return fail();
      }
      finish_snapshot(entry, std::make_shared<Snapshot>(Snapshot{file, entry->capture}));
    });
  });
}

void ShellEnvironment::validate_then(const std::shared_ptr<SnapshotEntry>& entry, const std::string& file,
                                     std::function<void(bool)> next) {
  std::vector<std::string> argv = {entry->shell};
  argv.insert(argv.end(), entry->shell_args.begin(), entry->shell_args.end());
  argv.push_back(". " + shell::single_quote(file) + " >/dev/null 2>&1");
  ShellRunSpec spec{.argv = std::move(argv),
                    .env = entry->capture,
                    .cwd = sys::is_directory(settings_.home) ? settings_.home : std::string("/"),
                    .timeout_ms = kValidateTimeoutMs,
                    .max_output_bytes = 0};
  run_shell(io_, spawner_, spec, [alive = alive_, next = std::move(next)](ShellRunResult result) {
    if (*alive) next(result.succeeded());
  });
}

void ShellEnvironment::finish_snapshot(const std::shared_ptr<SnapshotEntry>& entry,
                                       std::shared_ptr<const Snapshot> snapshot) {
  entry->running = false;
  entry->ready = true;
  entry->made_at = Clock::now();
  entry->snapshot = std::move(snapshot);
  std::vector<SnapshotDone> waiters = std::move(entry->waiters);
  entry->waiters.clear();
  for (auto& w : waiters) w(entry->snapshot);
}

void ShellEnvironment::remove_stale_files() {
  if (stale_files_removed_) return;
  stale_files_removed_ = true;
  Result<std::vector<std::string>> names = sys::list_directory(snapshot_dir_);
  if (!names.ok()) return;
  int64_t cutoff = wall_clock_ns() - kSnapshotMaxAgeNs;
  for (const std::string& name : names.value()) {
    bool ours = name.size() > 3 && (name.ends_with(".sh") || name.ends_with(".tmp"));
    if (!ours) continue;
    std::string path = snapshot_dir_ + "/" + name;
    Result<std::optional<sys::FileInfo>> info = sys::lstat_path(path);
    if (info.ok() && info.value() && info.value()->type == sys::FileType::kRegular && info.value()->mtime_ns < cutoff) {
      // Best effort: a file that cannot be removed now is tried again by the next server.
      ignore_error(sys::remove_file(path));
    }
  }
}

}  // namespace clawexec::shellenv
