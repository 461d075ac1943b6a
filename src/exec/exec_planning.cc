// Planning an exec call (reference §1.4 steps 2-18 up to the spawn): the yield
// window, elevation, host, security floor, command guards, working directory, environment
// (channel context, login-shell PATH, pathPrepend) and the policy gate. Pure decisions over the
// configuration and the call, apart from the file-system answers the guards and the working
// directory need.

#include "exec/exec_planning.h"

#include <cmath>
#include <mutex>
#include <unordered_map>

#include "base/strings.h"
#include "base/time.h"
#include "base/utf.h"
#include "env/channel_context.h"
#include "env/host_exec_env.h"
#include "env/interactive_tools.h"
#include "env/path_prepend.h"
#include "env/shell_select.h"
#include "exec/gateway_approval.h"
#include "exec/outcome.h"
#include "exec/policy_gate.h"
#include "exec/gateway_context.h"
#include "exec/sandbox_call.h"
#include "sys/file_system.h"
#include "shell/control_guard.h"
#include "sys/sys.h"

namespace clawexec::exec {
namespace {

constexpr int64_t kMinYieldMs = 10;
constexpr int64_t kMaxYieldMs = 120'000;

// The env's PATH value (under whatever key holds it), "" when there is none.
std::string path_value(const env::EnvList& env) {
  const std::string* path = env::find_var(env, env::find_path_key(env));
  return path ? *path : std::string();
}

int64_t yield_window_ms(const std::optional<double>& requested, int64_t default_ms) {
  double ms = requested && !std::isnan(*requested) ? *requested : static_cast<double>(default_ms);
  if (ms < kMinYieldMs) ms = kMinYieldMs;
  if (ms > kMaxYieldMs) ms = kMaxYieldMs;
  return static_cast<int64_t>(ms);
}

// Reference §4.3: the mode (a per-call `elevated` wins over the default level, which applies
// only when the gates pass), then the gates.
Result<bool> resolve_elevated(const config::ElevatedSettings& settings, const CallContext& ctx,
                              const std::string& session_key, std::optional<bool> requested, bool sandboxed) {
  const config::ElevatedPermission permission =
      config::elevated_permission(settings, {.provider = ctx.provider, .sender_id = ctx.channel_sender_id});
  // The reference's resolvedElevatedLevel: the session's /elevated level, else the agent's
  // elevatedDefault, else "on" (an approved sender's calls are elevated unless they say not).
  const std::string level = ctx.elevated_level.value_or(settings.level());
  std::string default_mode = level == "full" ? "full" : (level == "ask" || level == "on") ? "ask" : "off";
  std::string mode;
  if (requested) {
    mode = *requested ? (default_mode == "full" ? "full" : "ask") : "off";
  } else {
    mode = permission.enabled && permission.allowed ? default_mode : "off";
  }
  if (mode == "off") return false;
  if (!permission.enabled || !permission.allowed) {
    std::string gates = std::string("Failing gates: ") +
                        (!permission.enabled
                             ? "enabled (tools.elevated.enabled / agents.entries.*.tools.elevated.enabled)"
                             : "allowFrom (tools.elevated.allowFrom.<provider> / agents.entries.*.tools.elevated.allowFrom.<provider>)");
    std::string context;
    if (!ctx.provider.empty()) context += "provider=" + ctx.provider;
    if (!session_key.empty()) context += (context.empty() ? "" : " ") + ("session=" + session_key);
    std::vector<std::string> context_lines;
    if (!context.empty()) context_lines.push_back("Context: " + context);
    return Error::rejected(elevated_unavailable_text(sandboxed, gates, context_lines, {}));
  }
  return true;
}

// The call's working directory: the requested one (trimmed), the configured default, or the
// server's current directory, resolved to a canonical existing directory.
struct Workdir {
  std::string path;     // canonical directory, when available
  std::string request;  // what was asked for (for the unavailable text)
  bool available = false;
};

Workdir resolve_workdir(const std::optional<std::string>& raw, const std::string& configured_default) {
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

}  // namespace

std::string elevated_unavailable_text(bool sandboxed, const std::string& gates, const std::vector<std::string>& context,
                                      const std::vector<std::string>& after) {
  std::vector<std::string> lines{std::string("elevated is not available right now (runtime=") +
                                     (sandboxed ? "sandboxed" : "direct") + ").",
                                 gates};
  lines.insert(lines.end(), context.begin(), context.end());
  for (const char* line : {"Fix-it keys:", "- tools.elevated.enabled", "- tools.elevated.allowFrom.<provider>",
                           "- agents.entries.*.tools.elevated.enabled",
                           "- agents.entries.*.tools.elevated.allowFrom.<provider>"}) {
    lines.emplace_back(line);
  }
  lines.insert(lines.end(), after.begin(), after.end());
  return join(lines, "\n");
}

std::optional<std::string> command_size_problem(size_t bytes) {
  if (bytes <= kMaxCommandBytes) return std::nullopt;
  return "exec: the command is " + std::to_string(bytes) + " bytes; the limit is " +
         std::to_string(kMaxCommandBytes) +
         " bytes (the shell gets the command as one argument, which Linux caps at 131072 bytes including the "
         "server's shell prologue). Write long scripts to a file and run the file instead.";
}

// The shell and its arguments (§3.6), resolved to an absolute path through the server's PATH.
ShellInvocation shell_for(const env::EnvList& server_env) {
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

namespace {

// The real program's name of a shell path, remembered per path: the shell of a server does not
// change, and each analysed call would otherwise walk its symlinks (analysis threads share it).
std::string real_program_name(const std::string& program) {
  static std::mutex mutex;
  static std::unordered_map<std::string, std::string> names;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = names.find(program);
  if (it != names.end()) return it->second;
  if (names.size() > 64) names.clear();
  Result<std::string> real = sys::real_path(program);
  std::string name(env::posix_basename(real.ok() ? real.value() : program));
  names.emplace(program, name);
  return name;
}

}  // namespace

shell::ShellDialect dialect_of(const std::string& shell_program) {
  std::string name = real_program_name(shell_program);
  // $'...' and friends: bash, zsh, ksh/mksh and busybox ash have them; dash (Debian's sh) has not.
  if (name == "dash" || name == "sh" || name == "posh") return shell::ShellDialect::kDash;
  return shell::ShellDialect::kBash;
}

ShellInvocation shell_for_rendered(const ShellInvocation& shell) {
  static constexpr std::string_view kPosixFamily[] = {"bash", "dash", "sh", "zsh", "ksh", "ksh93", "mksh", "ash", "busybox", "posh"};
  std::string name = real_program_name(shell.first);
  for (std::string_view known : kPosixFamily) {
    if (name == known) return shell;
  }
  return {"/bin/sh", {"-c"}};
}

namespace {

// Steps 12-14 for host=sandbox: the directory inside, the sandbox's environment; no host
// guards and no approvals (the sandbox is the boundary).
std::variant<Reply, ExecPlan> plan_sandboxed(const ServiceConfig& config, ExecRequest request, const CallContext& ctx,
                                             ExecPlan plan, const std::string& scope) {
  if (Result<void> workspace = check_agent_workspace(config); !workspace.ok()) {
    return Reply::thrown(workspace.error().message);
  }
  if (Result<void> binds = check_binds_now(config); !binds.ok()) return Reply::thrown(binds.error().message);
  sandbox::SandboxSpec spec = sandbox_spec(config, scope);
  std::string source = sandbox::workspace_source(spec);
  // The scope's own workspace is made on first use; a missing one is simply empty.
  if (config.sandbox->settings.workspace_access != config::WorkspaceAccess::kRw) ignore_error(sys::make_directories(source));
  int64_t started = steady_ms();
  std::optional<std::string> workdir = sandbox_workdir(config, source, request.workdir);
  if (!workdir) {
    std::string asked = request.workdir && !request.workdir->empty() ? *request.workdir : config.sandbox->settings.workdir;
    ExecOutcome failed = build_runtime_error_outcome(workdir_unavailable_text(asked), "", steady_ms() - started);
    return Reply{failed.reason, foreground_details(failed, asked), true};
  }
  plan.workdir = *workdir;
  plan.env_overrides = std::move(request.env);
  env::EnvList requested_env = plan.env_overrides;
  if (auto context = env::channel_context_json(ctx.channel_sender_id, ctx.channel_chat_id)) {
    env::set_var(requested_env, env::kChannelContextKey, std::move(*context));
  }
  Result<env::EnvList> env = sandbox_env(config, requested_env);
  if (!env.ok()) return Reply::thrown(env.error().message);
  plan.env = std::move(env).value();
  plan.host = ExecHost::kSandbox;
  plan.sandbox_scope = scope;
  plan.original_command = plan.command;
  request.command.clear();
  plan.request = std::move(request);
  return plan;
}

}  // namespace

// Steps 2-14 of the reference pipeline: either a plan to run, or the result to return instead
// (a thrown error, or the failed result of an unusable working directory).
std::variant<Reply, ExecPlan> plan_exec(const ServiceConfig& config, ExecRequest request, const CallContext& ctx) {
  if (request.legacy_timeout) {
    return Reply::thrown("exec parameter \"timeout\" is unsupported; use \"timeoutSeconds\" instead");
  }
  const config::ExecSettings& settings = config.exec;
  ExecPlan plan;
  if (ctx.continuation_available) {
    plan.yield_ms = request.background ? 0 : yield_window_ms(request.yield_ms, settings.background_ms);
  } else if (request.background || request.yield_ms) {
    plan.warnings.push_back("Warning: continuation options are unavailable; running synchronously.");
  }
  std::string session_key = effective_session_key(config, ctx.session_key);
  SandboxChoice sandbox = sandbox_choice(config, session_key);
  Result<bool> elevated = resolve_elevated(config.elevated, ctx, session_key, request.elevated, sandbox.active);
  if (!elevated.ok()) return Reply::thrown(elevated.error().message);
  Result<std::optional<ExecHost>> requested = parse_requested_host(request.host);
  if (!requested.ok()) return Reply::thrown(requested.error().message);
  // A session the configuration sandboxes never falls back to the host because the sandbox
  // cannot be built here: it fails closed, saying what is missing.
  if (sandbox.active && !sandbox.unavailable.empty() && !elevated.value()) {
    return Reply::thrown("This session requires a sandbox, but its sandbox runtime is unavailable: " +
                         sandbox.unavailable);
  }
  bool sandbox_available = sandbox.active && sandbox.unavailable.empty();
  Result<Target> target = resolve_exec_target({.configured = settings.host,
                                               .requested = requested.value(),
                                               .elevated_requested = elevated.value(),
                                               .sandbox_available = sandbox_available});
  if (!target.ok()) return Reply::thrown(target.error().message);
  ExecHost host = target->effective;
  if (Result<void> floor = check_security_floor(config, host); !floor.ok()) return Reply::thrown(floor.error().message);
  if (host == ExecHost::kSandbox && !sandbox_available) {
    return Reply::thrown(
        "exec host=sandbox requires a sandbox runtime for this session.\nEnable sandbox mode "
        "(`agents.defaults.sandbox.mode=\"non-main\"` or `\"all\"`) or use host=auto/gateway/node.");
  }
  plan.command = std::move(request.command);
  if (plan.command.empty()) return Reply::thrown("Provide a command to start.");
  // Both guards read one analysis of the command (the state-database one needs the workdir).
  shell::CommandGuards guards(plan.command);
  if (Result<void> guard = guards.check_control_commands(); !guard.ok()) {
    return Reply::thrown(guard.error().message);
  }
  if (host == ExecHost::kSandbox) return plan_sandboxed(config, std::move(request), ctx, std::move(plan), sandbox.scope);
  if (host == ExecHost::kNode) {
    // The working directory and the environment are the node's: a workdir is passed on as
    // given (the node checks it), and only the call's own overrides travel.
    plan.workdir = request.workdir.value_or("");
    plan.env_overrides = std::move(request.env);
    plan.host = host;
    plan.original_command = plan.command;
    request.command.clear();
    plan.request = std::move(request);
    return plan;
  }
  int64_t started = steady_ms();
  Workdir workdir = resolve_workdir(request.workdir, config.default_cwd);
  if (!workdir.available) {
    ExecOutcome failed = build_runtime_error_outcome(workdir_unavailable_text(workdir.request), "", steady_ms() - started);
    return Reply{failed.reason, foreground_details(failed, workdir.request), true};
  }
  plan.workdir = workdir.path;
  if (host == ExecHost::kGateway && !config.state_dir.empty()) {
    shell::StateDbContext state{.state_dir = sys::canonicalize_existing_prefix(config.state_dir),
                                .home_dir = config.home_dir,
                                .workdir = plan.workdir,
                                .canonicalize = [](const std::string& p) { return sys::canonicalize_existing_prefix(p); }};
    if (Result<void> guard = guards.check_state_db_access(state); !guard.ok()) {
      return Reply::thrown(guard.error().message);
    }
  }
  plan.env_overrides = std::move(request.env);
  // The chat identity joins the requested environment (validated like it, winning over a
  // same-named `env` entry).
  env::EnvList requested_env = plan.env_overrides;
  if (auto context = env::channel_context_json(ctx.channel_sender_id, ctx.channel_chat_id)) {
    env::set_var(requested_env, env::kChannelContextKey, std::move(*context));
  }
  Result<env::EnvList> env = config.filtered_inherited_env
                                  ? env::build_host_exec_env_over_filtered(*config.filtered_inherited_env, requested_env)
                                  : env::build_host_exec_env(config.inherited_env, requested_env);
  if (!env.ok()) return Reply::thrown(env.error().message);
  plan.env = std::move(env).value();
  plan.host = host;
  plan.original_command = plan.command;
  request.command.clear();
  plan.request = std::move(request);
  return plan;
}

shellenv::StartupFileUse startup_file_use(const ServiceConfig& config, ExecPlan& plan) {
  if (plan.host != ExecHost::kGateway) return shellenv::StartupFileUse::kTrustedOnly;
  // The same effective policy the gate decides with (it asks the cached approvals document).
  Result<std::shared_ptr<GatewayContext>> g = gateway_context(config, &plan.request);
  if (g.ok()) plan.gateway_context = *g;
  bool full = g.ok() && (*g)->host.host_security == config::ExecSecurity::kFull && (*g)->host.host_ask == config::ExecAsk::kOff;
  return full ? shellenv::StartupFileUse::kRerunChanged : shellenv::StartupFileUse::kTrustedOnly;
}

std::string gateway_command_path(const ServiceConfig& config, const std::optional<std::string>& login_path,
                                 PathPrependPart prepend) {
  env::EnvList env = env::filter_inherited_env(config.inherited_env);
  if (login_path) env::apply_path_prepend(env, env::path_entries(*login_path));
  if (prepend == PathPrependPart::kIncluded) {
    env::apply_path_prepend(env, env::expand_home_in_entries(config.exec.path_prepend, config.home_dir));
  }
  return path_value(env);
}

// Steps 14 (rest) to 18 once the login PATH is known: PATH assembly, the policy gate, node
// hand-off, timeout and whether scripts are preflighted.
std::variant<Reply, ExecPlan> complete_plan(const ServiceConfig& config, ExecPlan plan, const CallContext& ctx,
                                                 const std::optional<std::string>& login_path) {
  const config::ExecSettings& settings = config.exec;
  const ExecRequest& request = plan.request;
  if (plan.host == ExecHost::kGateway && login_path) {
    env::apply_path_prepend(plan.env, env::path_entries(*login_path));
  }
  plan.snapshot_path = path_value(plan.env);
  plan.path_prepend = env::expand_home_in_entries(settings.path_prepend, config.home_dir);
  if (plan.host == ExecHost::kNode && !plan.path_prepend.empty()) {
    plan.warnings.push_back(
        "Warning: tools.exec.pathPrepend is ignored for host=node. Configure PATH on the node host/service instead.");
    plan.path_prepend.clear();
  } else {
    env::apply_path_prepend(plan.env, plan.path_prepend);
  }
  if (plan.host == ExecHost::kGateway) {
    ApprovalRoute route = ctx.elicit || ctx.pending_approvals ? ApprovalRoute::kAvailable : ApprovalRoute::kNone;
    Result<GateOutcome> gate =
        gateway_policy_gate(config, request, plan.command, plan.workdir, path_value(plan.env), route, std::move(plan.gateway_context));
    if (!gate.ok()) return Reply::thrown(gate.error().message);
    plan.approval = std::move(gate->approval);
    plan.no_route_denial = std::move(gate->no_route_denial);
    if (!plan.approval) {
      plan.command = std::move(gate->command);
      plan.rendered = gate->rendered;
    }
    plan.warnings.insert(plan.warnings.end(), gate->warnings.begin(), gate->warnings.end());
    plan.bookkeeping = std::move(gate->bookkeeping);
    plan.preflight = gate->preflight;
    // Under a restricted policy, a pager or editor the command starts cannot be driven by the
    // agent's later input into running other commands (env/interactive_tools.h).
    if (gate->preflight) env::apply_non_interactive_tools(plan.env);
  }
  plan.pty = request.pty;
  plan.timeout_seconds = request.timeout_seconds ? *request.timeout_seconds
                                                 : static_cast<double>(settings.default_timeout_seconds);
  return plan;
}


}  // namespace clawexec::exec
