// The `exec` tool pipeline (reference §1.4), in the reference's order: legacy `timeout`
// rejected, argument repair, yield window, elevation gate, host validation and target
// resolution, policy, sandbox availability, empty command, control-command guards, working
// directory, the live-state sqlite3 guard, environment (channel context, login-shell PATH,
// pathPrepend), policy gate, node hand-off, script preflight, the shell snapshot, spawn (with
// the PTY fallback), then the race between the command's exit and the yield timer. Errors the
// reference throws become Reply::thrown; an unusable working directory is a failed result.
//
// Two steps may wait without blocking: the login-shell PATH (before the policy gate, which
// resolves executables with it) and the shell snapshot (just before spawning). Both answer
// from a cache after the first time.

#include <variant>

#include "base/time.h"
#include "base/utf.h"
#include "env/host_exec_env.h"
#include "env/path_prepend.h"
#include "exec/exec_plan.h"
#include "exec/exec_planning.h"
#include "exec/gateway_approval.h"
#include "exec/sandbox_call.h"
#include "exec/script_preflight.h"
#include "exec/service.h"
#include "shellenv/shell_run.h"

#include <chrono>
#include <thread>

namespace clawexec::exec {
namespace {

// A call that was still preparing (login PATH, snapshot) when the server began stopping its
// commands: it is answered, but nothing is started any more.
constexpr const char* kStoppingText = "exec: the server is shutting down; the command was not started.";

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
                       const ShellInvocation& shell, const std::string& shell_command) {
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
  request.spawn.argv.push_back(shell_command);
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
  ExecStartDone done;
  boost::asio::steady_timer expiry;
  bool finished = false;
};

}  // namespace

void ExecService::exec(ExecRequest request, std::shared_ptr<ClientSession> client, CallOptions options,
                       ExecStartDone done) {
  if (options.cancel && options.cancel->cancelled()) return done(Reply::thrown("Tool execution was aborted"));
  clients_[client->scope_key] = client;
  CallContext ctx;
  ctx.scope_key = client->scope_key;
  ctx.session_key = client->session_key;
  ctx.cancel = std::move(options.cancel);
  ctx.continuation_available = client->continuation_available;
  ctx.elicit = client->elicit;
  if (ctx.elicit) {
    ctx.stop_eliciting = [weak = std::weak_ptr<ClientSession>(client)] {
      if (auto c = weak.lock()) c->elicit = nullptr;
    };
  }
  ctx.pending_approvals = client->pending_approvals && (!approval_route_ || approval_route_());
  ctx.channel_sender_id = std::move(options.channel_sender_id);
  ctx.channel_chat_id = std::move(options.channel_chat_id);
  ctx.provider = options.channel_provider.empty() ? client->message_provider : std::move(options.channel_provider);
  ctx.elevated_level = client->elevated_level;
  std::shared_ptr<const ServiceConfig> config = config_for(*client);
  // Refused before the request is copied anywhere (a 15 MB command is not worth a copy).
  if (std::optional<std::string> too_long = command_size_problem(request.command.size())) {
    return done(Reply::thrown(*too_long));
  }
  struct Planning {
    std::shared_ptr<const ServiceConfig> config;
    ExecRequest request;
    CallContext ctx;
    ExecStartDone done;
    std::variant<Reply, ExecPlan> planned;
  };
  auto call = std::make_shared<Planning>(
      Planning{std::move(config), std::move(request), std::move(ctx), std::move(done), Reply{}});
  // Steps 2-14 analyse the command (control guards, sqlite3 guard): off the io thread.
  off_io_thread(
      [call] {
        if (call->config->analysis_delay_ms > 0) {
          std::this_thread::sleep_for(std::chrono::milliseconds(call->config->analysis_delay_ms));
        }
        call->planned = plan_exec(*call->config, std::move(call->request), call->ctx);
        if (auto* plan = std::get_if<ExecPlan>(&call->planned)) plan->startup_files = startup_file_use(*call->config, *plan);
      },
      [this, call] {
        if (auto* early = std::get_if<Reply>(&call->planned)) return call->done(std::move(*early));
        ExecPlan& plan = std::get<ExecPlan>(call->planned);
        if (plan.host != ExecHost::kGateway) {
          return exec_with_login_path(std::move(call->config), std::move(plan), std::move(call->ctx),
                                      std::move(call->done), std::nullopt);
        }
        // Answered at once from the cache; the first call (or a full-policy one after a startup
        // file changed) waits for the login shell.
        begin_preparing();
        shell_env_->login_path(plan.startup_files, [this, call](const std::optional<std::string>& login_path) {
          if (!end_preparing()) return call->done(Reply::thrown(kStoppingText));
          exec_with_login_path(std::move(call->config), std::get<ExecPlan>(std::move(call->planned)),
                               std::move(call->ctx), std::move(call->done), login_path);
        });
      },
      [call] { call->done(Reply::thrown(kStoppingText)); });
}

void ExecService::exec_with_login_path(std::shared_ptr<const ServiceConfig> config, ExecPlan plan, CallContext ctx,
                                       ExecStartDone done, const std::optional<std::string>& login_path) {
  if (ctx.cancel && ctx.cancel->cancelled()) return done(Reply::thrown("Tool execution was aborted"));
  struct Deciding {
    std::shared_ptr<const ServiceConfig> config;
    CallContext ctx;
    ExecStartDone done;
    std::variant<Reply, ExecPlan> planned;
  };
  auto call = std::make_shared<Deciding>(Deciding{config ? std::move(config) : shared_config(), std::move(ctx),
                                                  std::move(done), std::move(plan)});
  // The policy gate (and, for a command that runs without asking, the script preflight) analyse
  // the command again: off the io thread too.
  off_io_thread(
      [call, login_path] {
        call->planned = complete_plan(*call->config, std::get<ExecPlan>(std::move(call->planned)), call->ctx, login_path);
        auto* ready = std::get_if<ExecPlan>(&call->planned);
        if (!ready || ready->approval || !ready->preflight) return;
        if (Result<void> checked = run_script_preflight(ready->original_command, ready->workdir); !checked.ok()) {
          call->planned = Reply::thrown(checked.error().message);
          return;
        }
        ready->preflight = false;  // done
      },
      [this, call] {
        if (auto* early = std::get_if<Reply>(&call->planned)) return call->done(std::move(*early));
        if (call->ctx.cancel && call->ctx.cancel->cancelled()) {
          return call->done(Reply::thrown("Tool execution was aborted"));
        }
        ExecPlan& ready = std::get<ExecPlan>(call->planned);
        if (ready.host == ExecHost::kNode) return run_on_node(std::move(ready), std::move(call->ctx), std::move(call->done));
        if (ready.approval && ready.approval->reviewable()) {
          return review_then_launch(std::move(ready), std::move(call->ctx), std::move(call->done));
        }
        if (ready.approval) return ask_human(std::move(ready), std::move(call->ctx), std::move(call->done));
        launch(std::move(ready), std::move(call->ctx), std::move(call->done));
      },
      [call] { call->done(Reply::thrown(kStoppingText)); });
}

void ExecService::ask_human(ExecPlan plan, CallContext ctx, ExecStartDone done) {
  // Only the reviewer could have let it run, and it did not: nobody can be asked. Its answer
  // comes first.
  if (!plan.no_route_denial.empty()) {
    std::string reviewer = plan.warnings.empty() ? std::string() : plan.warnings.back() + "\n";
    return done(Reply::thrown(reviewer + plan.no_route_denial));
  }
  if (ctx.elicit) return ask_then_launch(std::move(plan), std::move(ctx), std::move(done));
  plan.preflight = false;  // as in the reference, the approval path runs without a preflight
  register_pending(std::move(plan), std::move(ctx), std::move(done));
}

void ExecService::launch(ExecPlan plan, CallContext ctx, ExecStartDone done) {
  if (!plan.preflight) return launch_checked(std::move(plan), std::move(ctx), std::move(done));
  // An approved command still preflighted (inline approval): reading and scanning its scripts
  // happens off the io thread.
  struct Preflighting {
    ExecPlan plan;
    CallContext ctx;
    ExecStartDone done;
    Result<void> checked;
  };
  auto call = std::make_shared<Preflighting>(Preflighting{std::move(plan), std::move(ctx), std::move(done), {}});
  off_io_thread([call] { call->checked = run_script_preflight(call->plan.original_command, call->plan.workdir); },
                [this, call] {
                  if (!call->checked.ok()) return call->done(Reply::thrown(call->checked.error().message));
                  call->plan.preflight = false;
                  launch_checked(std::move(call->plan), std::move(call->ctx), std::move(call->done));
                },
                [call] { call->done(Reply::thrown(kStoppingText)); });
}

void ExecService::launch_checked(ExecPlan plan, CallContext ctx, ExecStartDone done) {
  if (plan.bookkeeping) post_background(std::move(plan.bookkeeping));
  // The snapshot replays the user's aliases and functions around the call's own command; a
  // command the policy rewrote to resolved executables runs as rendered (reference: no
  // snapshot for an execCommand).
  auto shell = server_shell(config_);
  if (plan.rendered) shell = shell_for_rendered(shell);
  // Inside a sandbox: `sh -lc`, as OpenClaw runs `docker exec ... /bin/sh -lc`.
  if (plan.host == ExecHost::kSandbox) shell = {"/bin/sh", {"-lc"}};
  bool snapshot_wanted = plan.host == ExecHost::kGateway && !plan.rendered && plan.command == plan.original_command &&
                         shell_env_->snapshots_enabled() && shellenv::snapshot_supported(shell.first, shell.second);
  if (!snapshot_wanted) return spawn_plan(std::move(plan), std::move(ctx), std::move(done), shell, nullptr);
  struct AwaitingSnapshot {
    ExecPlan plan;
    CallContext ctx;
    ExecStartDone done;
  };
  auto pending = std::make_shared<AwaitingSnapshot>(AwaitingSnapshot{std::move(plan), std::move(ctx), std::move(done)});
  std::string capture_path = pending->plan.snapshot_path;
  shellenv::StartupFileUse use = pending->plan.startup_files;
  begin_preparing();
  shell_env_->snapshot(shell.first, shell.second, capture_path, use,
                       [this, pending, shell](std::shared_ptr<const shellenv::ShellEnvironment::Snapshot> snapshot) {
                         AwaitingSnapshot& p = *pending;
                         if (!end_preparing()) return p.done(Reply::thrown(kStoppingText));
                         if (p.ctx.cancel && p.ctx.cancel->cancelled()) {
                           return p.done(Reply::thrown("Tool execution was aborted"));
                         }
                         spawn_plan(std::move(p.plan), std::move(p.ctx), std::move(p.done), shell, std::move(snapshot));
                       });
}

namespace {

// A call waiting for its new sandbox's setupCommand.
struct AwaitingSetup {
  ExecPlan plan;
  CallContext ctx;
  ExecStartDone done;
  ShellInvocation shell;
  std::shared_ptr<const shellenv::ShellEnvironment::Snapshot> snapshot;
};

}  // namespace

void ExecService::set_up_sandbox(const std::shared_ptr<sandbox::Sandbox>& box, std::function<void(Result<void>)> then) {
  const std::string scope = box->spec().scope;
  const uint64_t id = box->id();
  auto [it, first] = sandbox_setups_.try_emplace(id);
  it->second.push_back(std::move(then));
  if (!first) return;  // its setup is already running
  shellenv::ShellRunSpec run;
  run.argv = {"/bin/sh", "-lc", box->spec().setup_command};
  Result<env::EnvList> env = sandbox_env(config_, {});
  if (env.ok()) run.env = std::move(env).value();
  run.cwd = box->spec().layout.workdir;
  run.timeout_ms = config_.exec.default_timeout_seconds > 0 ? config_.exec.default_timeout_seconds * 1000 : 0;
  run.max_output_bytes = 64 * 1024;
  run.sandbox = box->join();
  std::weak_ptr<sandbox::Sandbox> weak = box;
  shellenv::run_shell(io_, spawner_, run, [this, scope, id, weak](shellenv::ShellRunResult r) {
    Result<void> outcome;
    if (!r.succeeded()) {
      std::string why = !r.error.empty()   ? r.error
                        : r.timed_out      ? "timed out"
                        : r.output_overflow ? "printed more than 64 KiB"
                        : r.exit_code       ? "exited with code " + std::to_string(*r.exit_code)
                                            : "was killed by a signal";
      std::string output(js_trim(r.output));
      if (output.size() > 2000) output = "..." + output.substr(output.size() - 2000);
      outcome = Error::rejected("sandbox " + scope + ": docker.setupCommand " + why +
                                (output.empty() ? std::string() : ":\n" + output));
      // Never a half-set-up sandbox: the next call makes a new one and runs the setup again.
      if (auto b = weak.lock(); b && sandboxes_.all().count(scope) && sandboxes_.all().at(scope) == b) {
        sandboxes_.remove(scope);
      }
    } else if (auto b = weak.lock()) {
      b->mark_set_up();
    }
    std::vector<std::function<void(Result<void>)>> waiters = std::move(sandbox_setups_[id]);
    sandbox_setups_.erase(id);
    for (auto& w : waiters) w(outcome);
  });
}

void ExecService::spawn_plan(ExecPlan plan, CallContext ctx, ExecStartDone done, const ShellInvocation& shell,
                             std::shared_ptr<const shellenv::ShellEnvironment::Snapshot> snapshot) {
  // pathPrepend goes inside the command (after the snapshot's exports), so nothing the shell
  // sources can put other directories in front of it.
  std::string shell_command = plan.command;
  if (plan.host == ExecHost::kGateway) {
    shell_command = env::wrap_command_with_path_prepend(shell_command, plan.env, plan.path_prepend);
  }
  std::shared_ptr<const proc::SandboxJoin> join;
  if (plan.host == ExecHost::kSandbox) {
    shell_command = sandbox_shell_command(shell_command, plan.env);
    Result<std::shared_ptr<sandbox::Sandbox>> box =
        sandboxes_.get_or_create(sandbox_spec(config_, plan.sandbox_scope), steady_ms());
    if (!box.ok()) return done(Reply::thrown(box.error().message));
    schedule_sandbox_prune();
    if ((*box)->needs_setup()) {
      // Once set up, the same plan comes back here and finds the sandbox ready.
      auto pending = std::make_shared<AwaitingSetup>(AwaitingSetup{std::move(plan), std::move(ctx), std::move(done),
                                                                   shell, std::move(snapshot)});
      begin_preparing();
      return set_up_sandbox(*box, [this, pending](Result<void> ready) {
        AwaitingSetup& p = *pending;
        if (!end_preparing()) return p.done(Reply::thrown(kStoppingText));
        if (p.ctx.cancel && p.ctx.cancel->cancelled()) return p.done(Reply::thrown("Tool execution was aborted"));
        if (!ready.ok()) return p.done(Reply::thrown(ready.error().message));
        spawn_plan(std::move(p.plan), std::move(p.ctx), std::move(p.done), p.shell, std::move(p.snapshot));
      });
    }
    join = (*box)->join();
  }
  if (snapshot) {
    shell_command = shellenv::wrap_with_snapshot(shell_command, snapshot->path,
                                                 shellenv::restore_script(plan.env, snapshot->baseline));
  }
  if (std::optional<std::string> problem = nul_byte_problem(plan, shell.first)) {
    return done(Reply::thrown(*problem));
  }
  if (shell_command.size() > kMaxArgumentBytes) {
    return done(Reply::thrown("spawn " + shell.first + ": the command as run (with the shell prologue and quoting) is " +
                                   std::to_string(shell_command.size()) + " bytes, over Linux's limit of " +
                                   std::to_string(kMaxArgumentBytes) +
                                   " bytes for one argument (MAX_ARG_STRLEN). Shorten it or run a script file."));
  }
  std::vector<std::string> warnings = std::move(plan.warnings);
  RunRequest request = run_request(config_, plan, ctx, shell, shell_command);
  request.spawn.sandbox = std::move(join);
  Result<std::shared_ptr<Run>> run = start_with_fallback(*this, std::move(request), plan, warnings);
  if (!run.ok()) return done(Reply::thrown(run.error().message));
  if (plan.on_started) plan.on_started(run.value());
  done(StartedRun{std::move(run).value(), plan.yield_ms, std::move(warnings)});
}

void ExecService::warm_up_shell_environment() {
  if (config_.exec.host == ExecHost::kNode || config_.exec.host == ExecHost::kSandbox) return;
  // The snapshot a command will ask for: captured with the PATH before pathPrepend. These are
  // the start-up answers, made from the startup files as they were when the operator started
  // the server (the only ones strict calls are served).
  shell_env_->login_path(shellenv::StartupFileUse::kTrustedOnly, [this](const std::optional<std::string>& login_path) {
    auto shell = server_shell(config_);
    shell_env_->snapshot(shell.first, shell.second, gateway_command_path(config_, login_path, PathPrependPart::kLeftOut),
                         shellenv::StartupFileUse::kTrustedOnly, [](auto) {});
  });
}

void ExecService::gateway_path(std::function<void(std::string)> done) {
  auto answer = [this, done = std::move(done)](const std::optional<std::string>& login_path) {
    done(gateway_command_path(config_, login_path));
  };
  shell_env_->login_path(shellenv::StartupFileUse::kTrustedOnly, std::move(answer));
}

// §7.1 step 7 with an inline approval route: ask through MCP elicitation, then run the command
// as approved (bound to what was shown), or return the denial (§1.5 (f)).
void ExecService::ask_then_launch(ExecPlan plan, CallContext ctx, ExecStartDone done) {
  std::shared_ptr<GatewayApproval> approval = plan.approval;
  auto state = std::make_shared<ApprovalWait>(io_);
  state->plan = std::move(plan);
  state->ctx = ctx;
  state->done = std::move(done);
  auto finish = [this, state, approval](std::optional<policy::ApprovalDecision> decision,
                                        policy::NoAnswer why = policy::NoAnswer::kTimedOut) {
    if (state->finished) return;
    state->finished = true;
    state->expiry.cancel();
    if (state->ctx.cancel && state->ctx.cancel->cancelled()) return;
    ApprovalOutcome outcome = decision ? approval->decide(*decision, config_) : approval->no_answer(config_, why);
    if (!outcome.approved) return state->done(denied_reply(*approval, outcome.reason));
    state->plan.command = std::move(outcome.command);
    state->plan.rendered = outcome.rendered;
    launch(std::move(state->plan), std::move(state->ctx), std::move(state->done));
  };
  // A `cancel` faster than any human could read the prompt came from the client itself (a
  // headless Claude Code answers so): nobody was asked. The approval waits for an operator
  // instead, as for a client that cannot be asked, and this connection stops eliciting.
  auto nobody_asked = [this, state, finish] {
    if (state->finished) return;
    if (state->ctx.stop_eliciting) state->ctx.stop_eliciting();
    if (!state->ctx.pending_approvals) return finish(std::nullopt, policy::NoAnswer::kCancelled);
    state->finished = true;
    state->expiry.cancel();
    if (state->ctx.cancel && state->ctx.cancel->cancelled()) return;
    state->ctx.elicit = nullptr;
    state->plan.preflight = false;  // as on the pending path without elicitation
    register_pending(std::move(state->plan), std::move(state->ctx), std::move(state->done));
  };
  auto instant_cancel = std::chrono::milliseconds(config_.elicitation_instant_cancel_ms);
  auto asked_at = std::chrono::steady_clock::now();
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
  ctx.elicit(elicitation_form(*approval),
             [finish, nobody_asked, instant_cancel, asked_at, approval, state](Result<json::Object> answer) {
               // The client went away: nobody is waiting for a result, so nothing may run.
               if (!answer.ok() && answer.error().code == ErrorCode::kCancelled) {
                 state->finished = true;
                 state->expiry.cancel();
                 return;
               }
               // A dismissed prompt is no answer, but it did not time out (approval-cancelled).
               if (answer.ok() && elicitation_cancelled(answer.value())) {
                 if (std::chrono::steady_clock::now() - asked_at < instant_cancel) return nobody_asked();
                 return finish(std::nullopt, policy::NoAnswer::kCancelled);
               }
               finish(answer.ok() ? elicitation_decision(answer.value(), *approval) : std::nullopt);
             });
}
}  // namespace clawexec::exec
