// The `exec` tool pipeline (reference §1.4), in the reference's order: legacy `timeout`
// rejected, argument repair, yield window, elevation gate, host validation and target
// resolution, policy, sandbox availability, empty command, control-command guards, working
// directory, the live-state sqlite3 guard, environment, node hand-off, spawn (with the PTY
// fallback), then the race between the command's exit and the yield timer. Errors the reference throws become ToolResult::thrown; an unusable working
// directory is a failed result.

#include <variant>

#include "base/strings.h"
#include "base/time.h"
#include "base/utf.h"
#include "env/host_exec_env.h"
#include "env/shell_select.h"
#include "exec/exec_call.h"
#include "exec/exec_plan.h"
#include "exec/gateway_approval.h"
#include "exec/policy_gate.h"
#include "exec/service.h"
#include "exec/tool_args.h"
#include "shell/control_guard.h"
#include "exec/target.h"
#include "sys/sys.h"

namespace clawexec::exec {
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


// Steps 2-15 of the reference pipeline: either a plan to run, or the result to return instead
// (a thrown error, or the failed result of an unusable working directory).
std::variant<ToolResult, ExecPlan> plan_exec(const ServiceConfig& config, const json::Object& raw_args,
                                             const CallContext& ctx) {
  if (raw_args.contains("timeout")) {
    return ToolResult::thrown("exec parameter \"timeout\" is unsupported; use \"timeoutSeconds\" instead");
  }
  json::Object args = raw_args;
  strip_xml_artifacts(args);
  const config::ExecSettings& settings = config.exec;
  ExecPlan plan;
  if (ctx.continuation_available) {
    plan.yield_ms = bool_arg(args, "background") == true ? 0 : yield_window_ms(args, settings.background_ms);
  } else if (bool_arg(args, "background") == true || number_arg(args, "yieldMs")) {
    plan.warnings.push_back("Warning: continuation options are unavailable; running synchronously.");
  }
  Result<bool> elevated = resolve_elevated(config.elevated, bool_arg(args, "elevated"));
  if (!elevated.ok()) return ToolResult::thrown(elevated.error().message);
  Result<std::optional<ExecHost>> requested = parse_requested_host(json::find(args, "host"));
  if (!requested.ok()) return ToolResult::thrown(requested.error().message);
  Result<Target> target = resolve_exec_target(
      {.configured = settings.host, .requested = requested.value(), .elevated_requested = elevated.value()});
  if (!target.ok()) return ToolResult::thrown(target.error().message);
  ExecHost host = target->effective;
  if (Result<void> floor = check_security_floor(config, host); !floor.ok()) return ToolResult::thrown(floor.error().message);
  if (host == ExecHost::kSandbox) {
    return ToolResult::thrown(
        "exec host=sandbox requires a sandbox runtime for this session.\nEnable sandbox mode "
        "(`agents.defaults.sandbox.mode=\"non-main\"` or `\"all\"`) or use host=auto/gateway/node.");
  }
  plan.command = string_arg(args, "command").value_or("");
  if (plan.command.empty()) return ToolResult::thrown("Provide a command to start.");
  if (Result<void> guard = shell::check_control_commands(plan.command); !guard.ok()) {
    return ToolResult::thrown(guard.error().message);
  }
  int64_t started = steady_ms();
  Workdir workdir = resolve_workdir(args, config.default_cwd);
  if (!workdir.available) {
    ExecOutcome failed = build_runtime_error_outcome(workdir_unavailable_text(workdir.request), "", steady_ms() - started);
    return ToolResult{failed.reason, foreground_details(failed, workdir.request), true};
  }
  plan.workdir = workdir.path;
  if (host == ExecHost::kGateway && !config.state_dir.empty()) {
    shell::StateDbContext state{.state_dir = sys::canonicalize_existing_prefix(config.state_dir),
                                .home_dir = config.home_dir,
                                .workdir = plan.workdir,
                                .canonicalize = [](const std::string& p) { return sys::canonicalize_existing_prefix(p); }};
    if (Result<void> guard = shell::check_state_db_access(plan.command, state); !guard.ok()) {
      return ToolResult::thrown(guard.error().message);
    }
  }
  plan.env_overrides = overrides_of(args);
  Result<env::EnvList> env = env::build_host_exec_env(config.inherited_env, plan.env_overrides);
  if (!env.ok()) return ToolResult::thrown(env.error().message);
  plan.env = std::move(env).value();
  if (host == ExecHost::kGateway) {
    const std::string* path = env::find_var(plan.env, "PATH");
    ApprovalRoute route = ctx.elicit || ctx.pending_approvals ? ApprovalRoute::kAvailable : ApprovalRoute::kNone;
    Result<GateOutcome> gate =
        gateway_policy_gate(config, args, plan.command, plan.workdir, path ? *path : std::string(), route);
    if (!gate.ok()) return ToolResult::thrown(gate.error().message);
    plan.approval = std::move(gate->approval);
    if (!plan.approval) plan.command = std::move(gate->command);
    plan.warnings.insert(plan.warnings.end(), gate->warnings.begin(), gate->warnings.end());
    plan.bookkeeping = std::move(gate->bookkeeping);
  }
  if (host == ExecHost::kNode) {
    std::string node = string_arg(args, "node").value_or(settings.node.value_or(""));
    return ToolResult::thrown("exec host=node: no paired node" + (node.empty() ? std::string() : " matches \"" + node + "\"") +
                              ". This server has no node hosts paired; run the command with host=auto or host=gateway.");
  }
  plan.pty = bool_arg(args, "pty") == true;
  std::optional<double> timeout = number_arg(args, "timeoutSeconds");
  plan.timeout_seconds = timeout ? *timeout : static_cast<double>(settings.default_timeout_seconds);
  return plan;
}

// No program argument or environment entry can carry a NUL byte; say so instead of letting the
// string be cut short.
std::optional<std::string> nul_byte_problem(const ExecPlan& plan, const std::string& shell) {
  if (plan.command.find('\0') != std::string::npos) {
    return "spawn " + shell + ": the command contains a NUL byte, which a program argument cannot hold";
  }
  for (const auto& [key, value] : plan.env) {
    if (key.find('\0') != std::string::npos || value.find('\0') != std::string::npos) {
      return "spawn " + shell + ": environment variable \"" + std::string(key.substr(0, key.find('\0'))) +
             "\" contains a NUL byte, which the environment cannot hold";
    }
  }
  return std::nullopt;
}

RunRequest run_request(const ServiceConfig& config, const ExecPlan& plan, const CallContext& ctx,
                       const std::pair<std::string, std::vector<std::string>>& shell) {
  RunRequest request;
  request.command = plan.command;
  request.cwd = plan.workdir;
  request.scope_key = ctx.scope_key;
  request.timeout_seconds = plan.timeout_seconds;
  request.continuation_available = ctx.continuation_available;
  request.cleanup_ms = config.exec.cleanup_ms;
  request.limits = {static_cast<size_t>(config.exec.max_output_chars),
                    static_cast<size_t>(config.exec.pending_max_output_chars)};
  request.spawn.program = shell.first;
  request.spawn.argv = {shell.first};
  request.spawn.argv.insert(request.spawn.argv.end(), shell.second.begin(), shell.second.end());
  request.spawn.argv.push_back(plan.command);
  request.spawn.cwd = plan.workdir;
  request.spawn.ptmx = config.ptmx;
  return request;
}

// A PTY when asked for one; if the PTY cannot be set up, pipes with stdin kept open and the
// reference's warning.
Result<std::shared_ptr<Run>> start_with_fallback(ExecService& service, RunRequest request, const ExecPlan& plan,
                                                 std::vector<std::string>& warnings) {
  env::EnvList env = plan.env;
  env::set_var(env, "OPENCLAW_SHELL", "exec");
  if (plan.pty) {
    env::EnvList pty_env = env;
    const std::string* term = env::find_var(pty_env, "TERM");
    if (!term || term->empty() || *term == "dumb") env::set_var(pty_env, "TERM", "xterm-256color");
    request.spawn.env = env::to_assignments(pty_env);
    request.spawn.terminal = proc::Terminal::kPty;
    Result<std::shared_ptr<Run>> run = service.start_run(request);
    if (run.ok()) return run;
    warnings.push_back("Warning: PTY spawn failed (Error: " + run.error().message + "); retrying without PTY for `" +
                       plan.command + "`.");
    request.spawn.stdin_mode = proc::StdinMode::kPipe;
  }
  request.spawn.env = env::to_assignments(env);
  request.spawn.terminal = proc::Terminal::kPipes;
  return service.start_run(std::move(request));
}

// One exec call waiting for its approval.
struct ApprovalWait {
  explicit ApprovalWait(boost::asio::io_context& io) : expiry(io) {}
  ExecPlan plan;
  CallContext ctx;
  ToolDone done;
  boost::asio::steady_timer expiry;
  bool finished = false;
};

}  // namespace

void ExecService::exec(const json::Object& args, CallContext ctx, ToolDone done) {
  if (ctx.cancel && ctx.cancel->cancelled()) return done(ToolResult::thrown("Tool execution was aborted"));
  // An operator's /exec policy applies to this run only, and only tightens.
  std::optional<ServiceConfig> once;
  if (next_run_security_ || next_run_ask_) {
    once = config_;
    if (next_run_security_) {
      once->session_security =
          once->session_security ? std::min(*once->session_security, *next_run_security_) : *next_run_security_;
    }
    if (next_run_ask_) once->session_ask = once->session_ask ? std::max(*once->session_ask, *next_run_ask_) : *next_run_ask_;
    next_run_security_.reset();
    next_run_ask_.reset();
  }
  std::variant<ToolResult, ExecPlan> planned = plan_exec(once ? *once : config_, args, ctx);
  if (auto* early = std::get_if<ToolResult>(&planned)) return done(std::move(*early));
  ExecPlan& plan = std::get<ExecPlan>(planned);
  if (plan.approval && ctx.elicit) return ask_then_launch(std::move(plan), std::move(ctx), std::move(done));
  if (plan.approval) return register_pending(std::move(plan), std::move(ctx), std::move(done));
  launch(std::move(plan), std::move(ctx), std::move(done));
}

void ExecService::launch(ExecPlan plan, CallContext ctx, ToolDone done) {
  if (plan.bookkeeping) post_background(std::move(plan.bookkeeping));
  auto shell = shell_for(config_.inherited_env);
  if (std::optional<std::string> problem = nul_byte_problem(plan, shell.first)) {
    return done(ToolResult::thrown(*problem));
  }
  std::vector<std::string> warnings = std::move(plan.warnings);
  Result<std::shared_ptr<Run>> run = start_with_fallback(*this, run_request(config_, plan, ctx, shell), plan, warnings);
  if (!run.ok()) return done(ToolResult::thrown(run.error().message));
  if (plan.on_started) plan.on_started(run.value());
  auto call = std::make_shared<ExecCall>(*this, run.value(), plan.yield_ms, std::move(warnings), std::move(ctx),
                                         std::move(done));
  call->begin();
}

// §7.1 step 7 with an inline approval route: ask through MCP elicitation, then run the command
// as approved (bound to what was shown), or return the denial (§1.5 (f)).
void ExecService::ask_then_launch(ExecPlan plan, CallContext ctx, ToolDone done) {
  std::shared_ptr<GatewayApproval> approval = plan.approval;
  auto state = std::make_shared<ApprovalWait>(io_);
  state->plan = std::move(plan);
  state->ctx = ctx;
  state->done = std::move(done);
  auto finish = [this, state, approval](std::optional<policy::ApprovalDecision> decision) {
    if (state->finished) return;
    state->finished = true;
    state->expiry.cancel();
    if (state->ctx.cancel && state->ctx.cancel->cancelled()) return;
    ApprovalOutcome outcome = decision ? approval->decide(*decision, config_) : approval->no_answer(config_);
    if (!outcome.approved) return state->done(denied_tool_result(*approval, outcome.reason));
    state->plan.command = std::move(outcome.command);
    launch(std::move(state->plan), std::move(state->ctx), std::move(state->done));
  };
  state->expiry.expires_after(std::chrono::milliseconds(config_.approval_timeout_ms));
  state->expiry.async_wait([finish](const boost::system::error_code& ec) {
    if (!ec) finish(std::nullopt);
  });
  if (ctx.cancel) {
    // Weak: the wait owns the call context, which owns this signal (no reference cycle).
    ctx.cancel->on_cancel([weak = std::weak_ptr<ApprovalWait>(state)] {
      if (auto s = weak.lock()) {
        s->finished = true;
        s->expiry.cancel();
      }
    });
  }
  ctx.elicit(elicitation_message(*approval), elicitation_schema(*approval),
             [finish, approval, state](Result<json::Object> answer) {
               // The client went away: nobody is waiting for a result, so nothing may run.
               if (!answer.ok() && answer.error().code == ErrorCode::kCancelled) {
                 state->finished = true;
                 state->expiry.cancel();
                 return;
               }
               finish(answer.ok() ? elicitation_decision(answer.value(), *approval) : std::nullopt);
             });
}
}  // namespace clawexec::exec
