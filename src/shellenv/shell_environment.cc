// The cached login PATH and startup snapshots (see shell_environment.h for the contract).
//
// Freshness: the login PATH is keyed by the identities (mtime, size, inode) of the startup
// files a login shell reads, so editing ~/.profile or /etc/profile means one new probe, and an
// unchanged system never probes twice. Snapshots are keyed by the shell, home, state dir, the
// capture environment and the rc files' identities (not by the command's working directory, as
// the reference does: captures run in the home directory, so one snapshot serves every
// workdir). A snapshot older than five minutes is recaptured in the background while commands
// keep using the current one, which catches changes in files the rc file sources; a failed
// capture is remembered under the same key, so a broken or secret-bearing rc file costs one
// capture, not one per command. On-disk files younger than five minutes are reused after a
// restart once they still source cleanly; files older than 72 hours are removed once per process.

#include "shellenv/shell_environment.h"

#include <algorithm>
#include <deque>

#include "env/shell_select.h"
#include "shellenv/login_shell.h"
#include "shellenv/shell_run.h"
#include "sys/approvals_fs.h"
#include "sys/patch_fs.h"
#include "sys/sys.h"

namespace clawexec::shellenv {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::chrono::minutes kSnapshotRefresh{5};
constexpr int64_t kSnapshotMaxAgeNs = int64_t{72} * 3600 * 1000000000;
constexpr int64_t kCaptureTimeoutMs = 5000;
constexpr int64_t kValidateTimeoutMs = 2000;
constexpr size_t kMaxSnapshotEntries = 64;

const std::string* server_var(const env::EnvList& env, std::string_view name) { return env::find_var(env, name); }

std::optional<std::string> optional_var(const env::EnvList& env, std::string_view name) {
  const std::string* v = env::find_var(env, name);
  return v ? std::optional<std::string>(*v) : std::nullopt;
}

StartupFileState file_state(const std::string& path) {
  StartupFileState state{.path = path};
  Result<std::optional<sys::FileInfo>> info = sys::stat_path(path);
  if (info.ok() && info.value()) {
    state.mtime_ns = info.value()->mtime_ns;
    state.size = info.value()->size;
    state.inode = info.value()->ino;
  }
  return state;
}

int64_t wall_clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

struct ShellEnvironment::LoginState {
  bool ready = false;
  bool running = false;
  std::string signature;
  std::optional<std::string> path;
  std::vector<LoginPathDone> waiters;
};

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

ShellEnvironment::ShellEnvironment(boost::asio::io_context& io, proc::Spawner& spawner,
                                   ShellEnvironmentSettings settings)
    : io_(io), spawner_(spawner), settings_(std::move(settings)), login_(std::make_unique<LoginState>()) {
  snapshots_enabled_ = !snapshot_disabled_by(optional_var(settings_.server_env, kSnapshotSwitchKey));
  login_timeout_ms_ = login_probe_timeout_ms(optional_var(settings_.server_env, "OPENCLAW_SHELL_ENV_TIMEOUT_MS"));
  snapshot_dir_ = settings_.state_dir.empty() ? std::string() : settings_.state_dir + "/cache/shell-snapshots";
}

ShellEnvironment::~ShellEnvironment() { *alive_ = false; }

std::string ShellEnvironment::login_signature() const {
  std::string signature;
  for (const std::string& path : login_startup_files(settings_.home)) {
    StartupFileState s = file_state(path);
    signature += path;
    if (s.mtime_ns) {
      signature += ':' + std::to_string(*s.mtime_ns) + ':' + std::to_string(*s.size) + ':' + std::to_string(*s.inode);
    }
    signature += '\n';
  }
  return signature;
}

void ShellEnvironment::login_path(LoginPathDone done) {
  std::string signature = login_signature();
  if (login_->ready && !login_->running && login_->signature == signature) return done(login_->path);
  login_->waiters.push_back(std::move(done));
  if (!login_->running) start_login_probe(signature);
}

void ShellEnvironment::start_login_probe(const std::string& signature) {
  login_->running = true;
  ++probes_started_;
  Result<std::optional<std::string>> shells_text = sys::read_file_if_exists(settings_.etc_shells, "read");
  std::set<std::string> shells;
  if (shells_text.ok() && shells_text.value()) shells = parse_etc_shells(*shells_text.value());
  std::string shell = select_login_shell(optional_var(settings_.server_env, "SHELL"), shells);
  ShellRunSpec spec{.argv = login_probe_argv(shell),
                    .env = login_probe_env(settings_.server_env, settings_.home),
                    .cwd = sys::is_directory(settings_.home) ? settings_.home : std::string("/"),
                    .timeout_ms = login_timeout_ms_,
                    .max_output_bytes = kLoginProbeMaxBytes};
  run_shell(io_, spawner_, spec, [this, alive = alive_, signature](ShellRunResult result) {
    if (!*alive) return;
    login_->running = false;
    login_->ready = true;
    login_->signature = signature;
    login_->path = result.succeeded() ? login_path_of(parse_login_env(result.output)) : std::nullopt;
    std::vector<LoginPathDone> waiters = std::move(login_->waiters);
    login_->waiters.clear();
    for (auto& w : waiters) w(login_->path);
  });
}

void ShellEnvironment::snapshot(const std::string& shell, const std::vector<std::string>& shell_args,
                                const std::string& path_value, SnapshotDone done) {
  if (!snapshots_enabled_ || snapshot_dir_.empty() || !snapshot_supported(shell, shell_args)) return done(nullptr);
  std::vector<StartupFileState> startup;
  const std::string* zdotdir = server_var(settings_.server_env, "ZDOTDIR");
  for (const std::string& file : snapshot_startup_files(shell, settings_.home, zdotdir ? *zdotdir : std::string())) {
    startup.push_back(file_state(file));
  }
  // The server environment, home and state dir are fixed, so these inputs decide the key; the
  // hash is computed once per distinct set of them, not per command.
  std::string inputs = shell + '\0' + path_value;
  for (const std::string& a : shell_args) inputs += '\0' + a;
  for (const StartupFileState& f : startup) {
    inputs += '\0' + f.path + ':' + std::to_string(f.mtime_ns.value_or(-1)) + ':' + std::to_string(f.size.value_or(-1)) +
              ':' + std::to_string(f.inode.value_or(0));
  }
  auto known = keys_.find(inputs);
  if (known == keys_.end()) {
    if (keys_.size() >= kMaxSnapshotEntries) keys_.clear();
    env::EnvList base = settings_.server_env;
    env::set_var(base, "PATH", path_value);
    env::EnvList capture_environment = capture_env(base, settings_.home);
    std::string computed =
        snapshot_key(shell, shell_args, settings_.home, settings_.state_dir, capture_environment, startup);
    known = keys_.emplace(inputs, std::make_pair(std::move(computed), std::move(capture_environment))).first;
  }
  const std::string& key = known->second.first;
  env::EnvList capture = known->second.second;
  auto it = snapshots_.find(key);
  if (it != snapshots_.end()) {
    std::shared_ptr<SnapshotEntry> entry = it->second;
    if (!entry->ready) {
      entry->waiters.push_back(std::move(done));
      return;
    }
    if (!entry->running && Clock::now() - entry->made_at >= kSnapshotRefresh) start_capture(entry);
    return done(entry->snapshot);
  }
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
  entry->capture = std::move(capture);
  entry->waiters.push_back(std::move(done));
  snapshots_[key] = entry;
  // A file written by an earlier server run is reused while fresh and still sourceable.
  std::string file = snapshot_dir_ + "/" + key + ".sh";
  Result<std::optional<sys::FileInfo>> info = sys::lstat_path(file);
  bool fresh = info.ok() && info.value() && info.value()->type == sys::FileType::kRegular &&
               wall_clock_ns() - info.value()->mtime_ns < std::chrono::nanoseconds(kSnapshotRefresh).count();
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
    (void)sys::unlink_path(snapshot_dir_ + "/" + entry->key + ".sh");
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
    (void)sys::unlink_path(output_file);
    if (!result.succeeded() || !captured.ok()) return fail();
    std::optional<SnapshotFile> text = build_snapshot_file(captured.value());
    if (!text) return refuse();
    std::string temp = stem + ".tmp";
    if (!sys::replace_file_atomically(temp, text->text, 0600, sys::Durability::kNone).ok()) return fail();
    validate_then(entry, temp, [this, entry, temp, fail, refuse](bool ok) {
      std::string file = snapshot_dir_ + "/" + entry->key + ".sh";
      if (!ok) {
        (void)sys::unlink_path(temp);
        return refuse();  // it does not source cleanly: never use it
      }
      if (!sys::rename_path(temp, file).ok()) {
        (void)sys::unlink_path(temp);
        return fail();
      }
      (void)sys::change_mode(file, 0600);
      finish_snapshot(entry, std::make_shared<Snapshot>(Snapshot{file, entry->capture}));
    });
  });
}

void ShellEnvironment::validate_then(const std::shared_ptr<SnapshotEntry>& entry, const std::string& file,
                                     std::function<void(bool)> next) {
  std::vector<std::string> argv = {entry->shell};
  argv.insert(argv.end(), entry->shell_args.begin(), entry->shell_args.end());
  argv.push_back(". " + sh_quote(file) + " >/dev/null 2>&1");
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
      (void)sys::unlink_path(path);
    }
  }
}

}  // namespace clawexec::shellenv
