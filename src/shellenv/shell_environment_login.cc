// The cached login PATH and the start-up trust in startup files (see shell_environment.h).
//
// Problem: the login PATH comes from running the user's login shell, which reads ~/.profile
// and friends; an agent whose commands are restricted may still be able to write those files
// (a command the policy allowed, an operator's apply_patch key), and a server that re-runs
// them on a change would run the agent's code outside the policy.
//
// Approach: at construction, fingerprint (hash) every startup file a probe or a capture may
// read: that is what the operator trusted by starting the server. Each call looks at the
// fingerprints again (cheap: files are re-read only when their identity moved). Answers are
// kept per lane and fingerprint set: a "start-up" answer is made only while the files still
// read as trusted, and is the only one strict (kTrustedOnly) calls get; a full-policy
// (kRerunChanged) call probes again when the files differ from any answer it has, into the
// "rerun" lane, so what it ran never reaches strict calls. A failed start-up probe is an answer
// too: it is not retried for strict calls, whatever the files say later.

#include <cstdio>

#include "shellenv/login_shell.h"
#include "shellenv/shell_environment.h"
#include "shellenv/shell_run.h"
#include "sys/sys.h"

namespace clawexec::shellenv {
namespace {

constexpr std::string_view kNotSeenAtStartUp = "not-seen-at-start-up";
constexpr size_t kMaxLoginAnswers = 4;

std::optional<std::string> optional_var(const env::EnvList& env, std::string_view name) {
  const std::string* v = env::find_var(env, name);
  return v ? std::optional<std::string>(*v) : std::nullopt;
}

std::string signature_of(const std::vector<StartupFileState>& state) {
  std::string out;
  for (const StartupFileState& f : state) out += f.path + '=' + f.fingerprint + '\n';
  return out;
}

}  // namespace

struct ShellEnvironment::LoginAnswer {
  bool ready = false;
  std::optional<std::string> path;
  std::vector<LoginPathDone> waiters;
};

ShellEnvironment::ShellEnvironment(boost::asio::io_context& io, proc::Spawner& spawner,
                                   ShellEnvironmentSettings settings)
    : io_(io), spawner_(spawner), settings_(std::move(settings)) {
  snapshots_enabled_ = !snapshot_disabled_by(optional_var(settings_.server_env, kSnapshotSwitchKey));
  login_timeout_ms_ = login_probe_timeout_ms(optional_var(settings_.server_env, "OPENCLAW_SHELL_ENV_TIMEOUT_MS"));
  snapshot_dir_ = settings_.state_dir.empty() ? std::string() : settings_.state_dir + "/cache/shell-snapshots";
  login_files_ = login_startup_files(settings_.home);
  if (!settings_.warn) {
    settings_.warn = [](const std::string& text) { std::fprintf(stderr, "clawexec: warning: %s\n", text.c_str()); };
  }
  trust_current_files();
}

ShellEnvironment::~ShellEnvironment() { *alive_ = false; }

void ShellEnvironment::trust_current_files() {
  const std::string* zdotdir = env::find_var(settings_.server_env, "ZDOTDIR");
  std::vector<std::string> files = login_files_;
  for (const char* shell : {"bash", "zsh"}) {
    for (std::string& f : snapshot_startup_files(shell, settings_.home, zdotdir ? *zdotdir : std::string())) {
      files.push_back(std::move(f));
    }
  }
  for (const std::string& file : files) trusted_[file] = fingerprints_.of(file);
}

std::vector<StartupFileState> ShellEnvironment::usable_state(const std::vector<std::string>& files,
                                                             StartupFileUse use, bool& may_run) {
  std::vector<StartupFileState> current;
  std::vector<StartupFileState> trusted;
  bool changed = false;
  for (const std::string& file : files) {
    current.push_back({file, fingerprints_.of(file)});
    auto it = trusted_.find(file);
    trusted.push_back({file, it == trusted_.end() ? std::string(kNotSeenAtStartUp) : it->second});
    changed = changed || current.back().fingerprint != trusted.back().fingerprint;
  }
  if (use == StartupFileUse::kRerunChanged || !changed) {
    may_run = true;
    return current;
  }
  may_run = false;
  std::vector<std::string> differing;
  for (size_t i = 0; i < files.size(); ++i) {
    if (current[i].fingerprint != trusted[i].fingerprint && warned_[files[i]] != current[i].fingerprint) {
      warned_[files[i]] = current[i].fingerprint;
      differing.push_back(files[i]);
    }
  }
  warn_changed(differing);
  return trusted;
}

void ShellEnvironment::warn_changed(const std::vector<std::string>& files) {
  for (const std::string& file : files) {
    settings_.warn("shell startup file " + file +
                   " changed since this server started; it is not run again for calls whose policy is stricter "
                   "than security=full ask=off (they keep the login PATH and shell snapshot made from the start-up "
                   "contents, or none). Restart the server to trust the new contents.");
  }
}

void ShellEnvironment::login_path(StartupFileUse use, LoginPathDone done) {
  bool may_run = false;
  std::string signature = signature_of(usable_state(login_files_, use, may_run));
  std::string startup_key = "start-up\n" + signature;
  auto answer = login_.find(startup_key);
  if (answer == login_.end() && use == StartupFileUse::kRerunChanged) answer = login_.find("rerun\n" + signature);
  if (answer != login_.end()) {
    if (!answer->second->ready) return answer->second->waiters.push_back(std::move(done));
    return done(answer->second->path);
  }
  if (!may_run) return done(std::nullopt);  // nothing made from the start-up contents
  // A strict call that finds the files as trusted makes the start-up answer (the cold path);
  // a full-policy call makes a rerun answer, which strict calls never see.
  std::string key = use == StartupFileUse::kTrustedOnly ? startup_key : "rerun\n" + signature;
  if (login_.size() >= kMaxLoginAnswers) {
    for (auto it = login_.begin(); it != login_.end();) {
      it = it->first.starts_with("rerun\n") && it->second->ready ? login_.erase(it) : std::next(it);
    }
  }
  auto created = std::make_shared<LoginAnswer>();
  created->waiters.push_back(std::move(done));
  login_[key] = created;
  start_login_probe(key);
}

void ShellEnvironment::start_login_probe(const std::string& answer_key) {
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
  run_shell(io_, spawner_, spec, [this, alive = alive_, answer_key](ShellRunResult result) {
    if (!*alive) return;
    auto it = login_.find(answer_key);
    if (it == login_.end()) return;
    std::shared_ptr<LoginAnswer> answer = it->second;
    answer->ready = true;
    answer->path = result.succeeded() ? login_path_of(parse_login_env(result.output)) : std::nullopt;
    std::vector<LoginPathDone> waiters = std::move(answer->waiters);
    answer->waiters.clear();
    for (auto& w : waiters) w(answer->path);
  });
}

}  // namespace clawexec::shellenv
