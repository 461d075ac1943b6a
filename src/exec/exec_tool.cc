// The `exec` tool pipeline (reference §1.4), in the reference's order: legacy `timeout`
// rejected, argument repair, yield window, elevation gate, host validation and target
// resolution, policy, sandbox availability, empty command, control-command guards, working
// directory, the live-state sqlite3 guard, environment, node hand-off, spawn (with the PTY
// fallback), then the race between the command's exit and the yield timer. Errors the reference throws become ToolResult::thrown; an unusable working
// directory is a failed result.

#include <boost/asio/steady_timer.hpp>

#include "base/strings.h"
#include "base/time.h"
#include "base/utf.h"
#include "env/host_exec_env.h"
#include "env/shell_select.h"
#include "exec/service.h"
#include "exec/tool_args.h"
#include "shell/control_guard.h"
#include "exec/target.h"
#include "sys/sys.h"

namespace clawexec::exec {
namespace asio = boost::asio;
namespace {

constexpr int64_t kMinYieldMs = 10;
constexpr int64_t kMaxYieldMs = 120'000;

// Models sometimes leave a broken XML tool-call suffix on string arguments.
void strip_xml_artifacts(json::Object& args) {
  constexpr std::string_view kTag = "</arg_value>";
  for (std::string_view key : {"command", "workdir", "host", "security", "ask", "node"}) {
    auto it = args.find(key);
    if (it == args.end() || !it->value().is_string()) continue;
    std::string s(it->value().get_string());
    size_t end = s.size();
    size_t gts = 0;
    while (end > 0 && s[end - 1] == '>') --end, ++gts;
    // "</arg_value>" plus at least one more '>' at the very end.
    if (gts >= 2 && end + 1 >= kTag.size() && s.compare(end + 1 - kTag.size(), kTag.size() - 1, kTag.substr(0, kTag.size() - 1)) == 0) {
      s.erase(end + 1 - kTag.size());
      it->value() = s;
    }
  }
}

int64_t yield_window_ms(const json::Object& args, int64_t default_ms) {
  std::optional<double> requested = number_arg(args, "yieldMs");
  double ms = requested && !std::isnan(*requested) ? *requested : static_cast<double>(default_ms);
  if (ms < kMinYieldMs) ms = kMinYieldMs;
  if (ms > kMaxYieldMs) ms = kMaxYieldMs;
  return static_cast<int64_t>(ms);
}

// Reference §4.3. Without a chat provider, "allowed" is just "enabled".
Result<bool> resolve_elevated(const ElevatedSettings& settings, std::optional<bool> requested) {
  std::string level = settings.default_level;
  std::string default_mode = level == "full" ? "full" : (level == "ask" || level == "on") ? "ask" : "off";
  std::string mode;
  if (requested) {
    mode = *requested ? (default_mode == "full" ? "full" : "ask") : "off";
  } else {
    mode = settings.enabled ? default_mode : "off";
  }
  if (mode == "off") return false;
  if (!settings.enabled) {
    return Error::rejected(
        "elevated is not available right now (runtime=direct).\n"
        "Failing gates: enabled (tools.elevated.enabled / agents.entries.*.tools.elevated.enabled)\n"
        "Fix-it keys:\n- tools.elevated.enabled\n- tools.elevated.allowFrom.<provider>\n"
        "- agents.entries.*.tools.elevated.enabled\n- agents.entries.*.tools.elevated.allowFrom.<provider>");
  }
  return true;
}

// Until the approvals engine exists only the reference default (security=full, ask=off) and
// an explicit deny are honoured; anything that would need allowlists or approval fails closed.
Result<void> check_policy(const config::ExecSettings& s, ExecHost host) {
  config::ExecSecurity security = s.security.value_or(config::ExecSecurity::kFull);
  config::ExecAsk ask = s.ask.value_or(config::ExecAsk::kOff);
  if (security == config::ExecSecurity::kDeny) {
    return Error::rejected("exec denied: host=" + std::string(host_name(host)) + " security=deny");
  }
  if (security != config::ExecSecurity::kFull || ask != config::ExecAsk::kOff) {
    return Error::rejected("exec denied: host=" + std::string(host_name(host)) + " security=" +
                           std::string(config::to_string(security)) + " ask=" + std::string(config::to_string(ask)) +
                           " needs the approvals engine, which this build does not include yet; set "
                           "tools.exec.security=full and tools.exec.ask=off to run commands");
  }
  return {};
}

struct Workdir {
  std::string path;     // canonical directory, when available
  std::string request;  // what was asked for (for the unavailable text)
  bool available = false;
};

Workdir resolve_workdir(const json::Object& args, const std::string& configured_default) {
  std::optional<std::string> raw = string_arg(args, "workdir");
  Workdir w;
  if (raw && !raw->empty()) {
    std::string_view trimmed = js_trim(*raw);
    if (trimmed.empty()) {
      w.request = *raw;  // whitespace-only is never a directory
      return w;
    }
    w.request = std::string(trimmed);
  } else if (!configured_default.empty()) {
    w.request = configured_default;
  } else {
    Result<std::string> cwd = sys::current_directory();
    if (!cwd.ok()) {
      w.request = "current working directory";
      return w;
    }
    w.request = cwd.value();
  }
  // A NUL would silently cut the path short in every system call.
  if (w.request.find('\0') != std::string::npos) return w;
  Result<std::string> real = sys::real_path(w.request);
  if (real.ok() && sys::is_directory(real.value())) {
    w.path = real.value();
    w.available = true;
  }
  return w;
}

env::EnvList overrides_of(const json::Object& args) {
  env::EnvList out;
  const json::Value* v = json::find(args, "env");
  if (!v || !v->is_object()) return out;
  for (const auto& kv : v->get_object()) {
    if (kv.value().is_string()) out.emplace_back(std::string(kv.key()), std::string(kv.value().get_string()));
  }
  return out;
}

// The shell and its arguments (§3.6), resolved to an absolute path through the server's PATH.
std::pair<std::string, std::vector<std::string>> shell_for(const env::EnvList& server_env) {
  const std::string* shell = env::find_var(server_env, "SHELL");
  const std::string* path = env::find_var(server_env, "PATH");
  env::ShellSelectionInput input{.shell_env = shell ? std::optional<std::string>(*shell) : std::nullopt,
                                 .path_env = path ? *path : "",
                                 .is_executable = [](const std::string& p) { return sys::is_executable_file(p); }};
  env::ShellConfig config = env::select_posix_shell(input);
  std::string program = config.shell;
  if (program.find('/') == std::string::npos) {
    if (auto found = env::find_executable_on_path(program, path ? *path : "/usr/bin:/bin", input.is_executable)) {
      program = *found;
    }
  }
  if (!program.empty() && program[0] != '/') {
    Result<std::string> cwd = sys::current_directory();
    if (cwd.ok()) program = env::posix_join(cwd.value(), program);
  }
  return {program, config.args};
}

json::Object running_details(const session::Session& s) {
  json::Object d;
  d["status"] = "running";
  d["sessionId"] = s.id;
  if (s.pid > 0) d["pid"] = s.pid;
  d["startedAt"] = s.started_at;
  d["cwd"] = s.cwd;
  d["tail"] = s.output.tail();
  d["followUp"] = kBackgroundFollowUp;
  return d;
}

// One exec call in flight: waits for the start, then races the exit against the yield timer
// and the caller's cancellation. Exactly one result is delivered.
class ExecCall : public std::enable_shared_from_this<ExecCall> {
 public:
  ExecCall(ExecService& service, std::shared_ptr<Run> run, int64_t yield_ms, std::vector<std::string> warnings,
           CallContext ctx, ToolDone done)
      : service_(service),
        run_(std::move(run)),
        yield_ms_(yield_ms),
        warnings_(std::move(warnings)),
        ctx_(std::move(ctx)),
        done_(std::move(done)),
        yield_timer_(service.io()) {}

  void begin() {
    auto self = shared_from_this();
    run_->on_started([self](Result<pid_t> pid) { self->started(std::move(pid)); });
    run_->on_exited([self](const ExecOutcome& outcome) { self->exited(outcome); });
    // Weak: the signal outlives this call in its owner, and must not keep the call alive.
    std::weak_ptr<ExecCall> weak = self;
    if (ctx_.cancel) {
      ctx_.cancel->on_cancel([weak] {
        if (auto call = weak.lock()) call->cancelled();
      });
    }
  }

 private:
  void started(Result<pid_t> pid) {
    if (!pid.ok()) return respond(ToolResult::thrown(pid.error().message));
    if (responded_ || yield_ms_ < 0) return;
    if (yield_ms_ == 0) return background();
    auto self = shared_from_this();
    yield_timer_.expires_after(std::chrono::milliseconds(yield_ms_));
    yield_timer_.async_wait([self](const boost::system::error_code& ec) {
      if (!ec) self->background();
    });
  }

  void background() {
    if (responded_ || run_->exited()) return;
    session::Session& s = *run_->session();
    service_.registry().mark_backgrounded(s);
    std::string text = warning_block(warnings_) + "Command still running (session " + s.id + ", pid " +
                       (s.pid > 0 ? std::to_string(s.pid) : std::string("n/a")) + "). " +
                       std::string(kBackgroundFollowUp);
    respond(ToolResult{std::move(text), running_details(s), false});
  }

  void exited(const ExecOutcome& outcome) {
    if (responded_) return;
    const session::Session& s = *run_->session();
    std::string text = foreground_text(outcome, s.output.retention_capped(), warning_block(warnings_));
    respond(ToolResult{std::move(text), foreground_details(outcome, s.cwd), !outcome.completed});
  }

  void cancelled() {
    // Abort before backgrounding kills the run; a backgrounded run keeps going.
    if (responded_) return;
    run_->cancel();
    respond(ToolResult::thrown("Tool execution was aborted"));
  }

  void respond(ToolResult result) {
    if (responded_) return;
    responded_ = true;
    yield_timer_.cancel();
    ctx_.cancel.reset();
    ToolDone done = std::move(done_);
    done(std::move(result));
  }

  ExecService& service_;
  std::shared_ptr<Run> run_;
  int64_t yield_ms_;
  std::vector<std::string> warnings_;
  CallContext ctx_;
  ToolDone done_;
  asio::steady_timer yield_timer_;
  bool responded_ = false;
};

}  // namespace

void ExecService::exec(const json::Object& raw_args, CallContext ctx, ToolDone done) {
  if (ctx.cancel && ctx.cancel->cancelled()) return done(ToolResult::thrown("Tool execution was aborted"));
  if (raw_args.contains("timeout")) {
    return done(ToolResult::thrown("exec parameter \"timeout\" is unsupported; use \"timeoutSeconds\" instead"));
  }
  json::Object args = raw_args;
  strip_xml_artifacts(args);
  const config::ExecSettings& settings = config_.exec;
  // -1: no yield window (the run stays in the foreground until it ends).
  int64_t yield_ms = -1;
  std::optional<std::string> continuation_warning;
  if (ctx.continuation_available) {
    yield_ms = bool_arg(args, "background") == true ? 0 : yield_window_ms(args, settings.background_ms);
  } else if (bool_arg(args, "background") == true || number_arg(args, "yieldMs")) {
    continuation_warning = "Warning: continuation options are unavailable; running synchronously.";
  }

  Result<bool> elevated = resolve_elevated(config_.elevated, bool_arg(args, "elevated"));
  if (!elevated.ok()) return done(ToolResult::thrown(elevated.error().message));
  Result<std::optional<ExecHost>> requested = parse_requested_host(json::find(args, "host"));
  if (!requested.ok()) return done(ToolResult::thrown(requested.error().message));
  ExecHost configured = settings.host;
  Result<Target> target = resolve_exec_target(
      {.configured = configured, .requested = requested.value(), .elevated_requested = elevated.value()});
  if (!target.ok()) return done(ToolResult::thrown(target.error().message));
  ExecHost host = target->effective;
  if (Result<void> policy = check_policy(settings, host); !policy.ok()) {
    return done(ToolResult::thrown(policy.error().message));
  }
  if (host == ExecHost::kSandbox) {
    return done(ToolResult::thrown(
        "exec host=sandbox requires a sandbox runtime for this session.\nEnable sandbox mode "
        "(`agents.defaults.sandbox.mode=\"non-main\"` or `\"all\"`) or use host=auto/gateway/node."));
  }
  std::string command = string_arg(args, "command").value_or("");
  if (command.empty()) return done(ToolResult::thrown("Provide a command to start."));
  if (Result<void> guard = shell::check_control_commands(command); !guard.ok()) {
    return done(ToolResult::thrown(guard.error().message));
  }

  int64_t started = steady_ms();
  Workdir workdir = resolve_workdir(args, config_.default_cwd);
  if (!workdir.available) {
    ExecOutcome failed = build_runtime_error_outcome(workdir_unavailable_text(workdir.request), "", steady_ms() - started);
    return done(ToolResult{failed.reason, foreground_details(failed, workdir.request), true});
  }
  if (host == ExecHost::kGateway && !config_.state_dir.empty()) {
    shell::StateDbContext state{.state_dir = sys::canonicalize_existing_prefix(config_.state_dir),
                                .home_dir = config_.home_dir,
                                .workdir = workdir.path,
                                .canonicalize = [](const std::string& p) { return sys::canonicalize_existing_prefix(p); }};
    if (Result<void> guard = shell::check_state_db_access(command, state); !guard.ok()) {
      return done(ToolResult::thrown(guard.error().message));
    }
  }
  Result<env::EnvList> env = env::build_host_exec_env(config_.inherited_env, overrides_of(args));
  if (!env.ok()) return done(ToolResult::thrown(env.error().message));
  if (host == ExecHost::kNode) {
    std::string node = string_arg(args, "node").value_or(settings.node.value_or(""));
    return done(ToolResult::thrown("exec host=node: no paired node" + (node.empty() ? std::string() : " matches \"" + node + "\"") +
                                   ". This server has no node hosts paired; run the command with host=auto or host=gateway."));
  }

  // No program argument or environment entry can carry a NUL byte; say so instead of letting the
  // string be cut short.
  auto shell_and_args = shell_for(config_.inherited_env);
  if (command.find('\0') != std::string::npos) {
    return done(ToolResult::thrown("spawn " + shell_and_args.first +
                                   ": the command contains a NUL byte, which a program argument cannot hold"));
  }
  for (const auto& [key, value] : *env) {
    if (key.find('\0') != std::string::npos || value.find('\0') != std::string::npos) {
      return done(ToolResult::thrown("spawn " + shell_and_args.first + ": environment variable \"" +
                                     std::string(key.substr(0, key.find('\0'))) +
                                     "\" contains a NUL byte, which the environment cannot hold"));
    }
  }

  std::vector<std::string> warnings;
  if (continuation_warning) warnings.push_back(*continuation_warning);
  env::set_var(*env, "OPENCLAW_SHELL", "exec");
  bool want_pty = bool_arg(args, "pty") == true;
  auto& [shell, shell_args] = shell_and_args;
  RunRequest request;
  request.command = command;
  request.cwd = workdir.path;
  request.scope_key = ctx.scope_key;
  std::optional<double> timeout = number_arg(args, "timeoutSeconds");
  request.timeout_seconds = timeout ? *timeout : static_cast<double>(settings.default_timeout_seconds);
  request.continuation_available = ctx.continuation_available;
  request.cleanup_ms = settings.cleanup_ms;
  request.limits = {static_cast<size_t>(settings.max_output_chars), static_cast<size_t>(settings.pending_max_output_chars)};
  request.spawn.program = shell;
  request.spawn.argv = {shell};
  request.spawn.argv.insert(request.spawn.argv.end(), shell_args.begin(), shell_args.end());
  request.spawn.argv.push_back(command);
  request.spawn.cwd = workdir.path;
  request.spawn.ptmx = config_.ptmx;

  Result<std::shared_ptr<Run>> run = Error::internal("not started");
  if (want_pty) {
    env::EnvList pty_env = *env;
    const std::string* term = env::find_var(pty_env, "TERM");
    if (!term || term->empty() || *term == "dumb") env::set_var(pty_env, "TERM", "xterm-256color");
    request.spawn.env = env::to_assignments(pty_env);
    request.spawn.terminal = proc::Terminal::kPty;
    run = start_run(request);
    if (!run.ok()) {
      warnings.push_back("Warning: PTY spawn failed (Error: " + run.error().message + "); retrying without PTY for `" +
                         command + "`.");
      request.spawn.stdin_mode = proc::StdinMode::kPipe;  // the fallback keeps stdin open
    }
  }
  if (!want_pty || !run.ok()) {
    request.spawn.env = env::to_assignments(*env);
    request.spawn.terminal = proc::Terminal::kPipes;
    run = start_run(request);
  }
  if (!run.ok()) return done(ToolResult::thrown(run.error().message));
  auto call = std::make_shared<ExecCall>(*this, run.value(), yield_ms, std::move(warnings), std::move(ctx), std::move(done));
  call->begin();
}

}  // namespace clawexec::exec
