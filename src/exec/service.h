#pragma once
// ExecService: the exec pipeline and what every client shares (the session registry, the
// resolved configuration, the server environment and shell, pending approvals). A call enters
// with a typed ExecRequest and the client it comes from, and ends at a started run or a reply
// (exec/exec_start.h), delivered on the io_context thread exactly once. What a tool makes of a
// run (the yield race, result texts) lives above, in src/tools/.

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "approvals/cache.h"
#include "approvals/pending.h"
#include "approvals/paths.h"
#include "config/elevated_settings.h"
#include "config/exec_settings.h"
#include "config/sandbox_settings.h"
#include "config/tool_policy.h"
#include "env/env_list.h"
#include "exec/cancel_signal.h"
#include "exec/client_session.h"
#include "exec/auto_review.h"
#include "exec/exec_request.h"
#include "exec/exec_start.h"
#include "exec/node_invoker.h"
#include "exec/run.h"
#include "proc/spawner.h"
#include "sandbox/sandbox_host.h"
#include "json/json.h"
#include "session/registry.h"
#include "shellenv/shell_environment.h"

namespace clawexec::exec {

/// One call as the pipeline stages read it (internal to the exec module): built by
/// ExecService::exec from the client session and the call's options.
struct CallContext {
  std::string scope_key;                 // sessions are visible only within their scope
  std::string session_key;               // ClientSession::session_key (sandbox mode and scope)
  std::shared_ptr<CancelSignal> cancel;  // may be null
  bool continuation_available = true;    // ClientSession::continuation_available
  Elicit elicit;                         // ClientSession::elicit
  /// Clears the client's elicit (an instant automatic `cancel`, see
  /// ServiceConfig::elicitation_instant_cancel_ms): the client stops being asked.
  std::function<void()> stop_eliciting;
  bool pending_approvals = false;        // ClientSession::pending_approvals
  std::string channel_sender_id;         // CallOptions
  std::string channel_chat_id;
  std::string provider;                  // CallOptions::channel_provider, else the client's
  std::optional<std::string> elevated_level;  // ClientSession::elevated_level
};

/// What one call carries beside its request and client.
struct CallOptions {
  std::shared_ptr<CancelSignal> cancel;  // may be null
  /// Who the call acts for in a chat channel (MCP `_meta["openclaw/channelContext"]`): set as
  /// OPENCLAW_CHANNEL_CONTEXT for the command (reference §3.4). Empty: unknown.
  std::string channel_sender_id;
  std::string channel_chat_id;
  /// The chat channel it came from (tools.elevated.allowFrom.<provider>); "" = the client's.
  std::string channel_provider;
};


/// What this machine can build, found by probing it (bubblewrap, namespaces, Landlock,
/// seccomp) and the seccomp program every sandboxed command gets.
struct SandboxFacts {
  std::string bwrap_path;
  std::string pasta_path;       // user-mode networking for docker.network "bridge" ("" = none)
  std::string unavailable;      // why no sandbox can be built here ("" = one can), with the fix
  std::string seccomp_program;  // struct sock_filter[] bytes
};

/// The sandbox host: this agent's sandbox settings, fixed at startup, and the machine's facts,
/// probed once on first use so that a server (or a one-shot command) that never sandboxes a
/// call never starts bubblewrap. Safe to share between threads.
class SandboxRuntime {
 public:
  SandboxRuntime(config::SandboxSettings sandbox_settings, std::string workspace_root, std::function<SandboxFacts()> probe)
      : settings(std::move(sandbox_settings)), root(std::move(workspace_root)), probe_(std::move(probe)) {}
  const config::SandboxSettings settings;
  const std::string root;  // workspaceRoot, absolute
  /// Runs the probe the first time (concurrent callers wait for it), then returns its facts.
  const SandboxFacts& facts() const {
    std::call_once(once_, [this] { facts_ = probe_(); });
    return facts_;
  }

 private:
  std::function<SandboxFacts()> probe_;
  mutable std::once_flag once_;
  mutable SandboxFacts facts_;
};

struct ServiceConfig {
  config::ExecSettings exec;
  /// Set when agents.*.sandbox.mode is not "off".
  std::shared_ptr<const SandboxRuntime> sandbox;
  /// Which of exec, process and apply_patch clients are offered (tools.profile/allow/deny).
  config::ToolPolicy tools;
  config::ElevatedSettings elevated;
  std::string shim_path;
  /// Configured default working directory; empty = the server's current directory at call time.
  std::string default_cwd;
  /// The server's environment, as inherited.
  env::EnvList inherited_env;
  /// inherited_env through env::filter_inherited_env, made once by the service (set: reused).
  std::shared_ptr<const env::EnvList> filtered_inherited_env;
  /// The shell commands run under (shell_for(inherited_env)), resolved once by the service.
  std::shared_ptr<const std::pair<std::string, std::vector<std::string>>> server_shell;
  /// The active OpenClaw state directory and the home directory (absolute), for the guard that
  /// keeps sqlite3 away from live state databases.
  std::string state_dir;
  std::string home_dir;
  /// The config file in use ($OPENCLAW_CONFIG_PATH or <state>/openclaw.json), which
  /// apply_patch must not write.
  std::string config_path;
  std::string ptmx = "/dev/ptmx";
  KillTiming kill_timing;
  /// Whose policy applies (agents.entries.<id>, approvals agents.<id>) and where the approvals
  /// document lives.
  std::string agent_id = "main";
  approvals::ApprovalsPaths approvals_paths;
  /// Resolutions of that document, reused while the file is unchanged (shared by copies of
  /// this config; unset: read the file on every call).
  std::shared_ptr<approvals::ApprovalsCache> approvals_cache;
  /// How long an approval waits for an answer (DEFAULT_EXEC_APPROVAL_TIMEOUT_MS, 30 min;
  /// CLAWEXEC_APPROVAL_TIMEOUT_MS overrides it).
  int64_t approval_timeout_ms = 1800000;
  /// A streamed node session whose node stays disconnected this long ends here (node_stream.h).
  int64_t node_resume_grace_ms = 60000;
  /// An elicitation answered `cancel` sooner than this was answered by the client itself (a
  /// headless Claude Code does so within milliseconds), not by a human: the approval takes the
  /// pending-approval path instead (CLAWEXEC_ELICITATION_INSTANT_CANCEL_MS; 0 turns it off).
  int64_t elicitation_instant_cancel_ms = 500;
  /// Test seam (CLAWEXEC_TEST_ANALYSIS_DELAY_MS): the analysis stage of every call first sleeps
  /// this long on its analysis thread, so tests can show it never holds up the io thread.
  int64_t analysis_delay_ms = 0;
  /// The calling client's tightenings (ExecDefaults security/ask), set on the per-call copy of
  /// the configuration: they can only tighten what the configuration says.
  std::optional<config::ExecSecurity> session_security;
  std::optional<config::ExecAsk> session_ask;
  /// mode "auto": which model reviews this agent's commands, and the call that asks it
  /// (auto_review.h). Both set by the daemon when it reads the configuration.
  ReviewerConfig reviewer;
  ModelCompleter model_completer;
};

struct ExecPlan;

/// The PATH of gateway commands: the server's filtered environment with the login shell's
/// entries and (unless left out) tools.exec.pathPrepend, a leading "~" expanded, put in front.
enum class PathPrependPart { kIncluded, kLeftOut };
std::string gateway_command_path(const ServiceConfig& config, const std::optional<std::string>& login_path,
                                 PathPrependPart prepend = PathPrependPart::kIncluded);

/// A shell and its arguments before the command text.
using ShellInvocation = std::pair<std::string, std::vector<std::string>>;

/// The shell of `config`'s commands: ServiceConfig::server_shell, else resolved now.
ShellInvocation server_shell(const ServiceConfig& config);

class ExecService {
 public:
  ExecService(boost::asio::io_context& io, ServiceConfig config);
  ~ExecService();
  ExecService(const ExecService&) = delete;
  ExecService& operator=(const ExecService&) = delete;

  /// Runs the pipeline for `request` on behalf of `client` (which must stay alive while its
  /// sessions may notify; the service holds it weakly). `done` gets the started run or the reply.
  void exec(ExecRequest request, std::shared_ptr<ClientSession> client, CallOptions options, ExecStartDone done);

  /// Stops every live command (the kill sequence) and calls `done` once all have exited.
  /// Background sessions are stopped at once; foreground calls (whose caller is still waiting
  /// for the result) get `foreground_grace` to finish on their own first.
  void shutdown(std::chrono::milliseconds foreground_grace, std::function<void()> done);

  /// A client went away for good (its MCP session ended): every live command started in
  /// `scope_key` is stopped with the kill sequence, and its pending approvals are withdrawn
  /// (reported resolved without a decision, by "session-ended"), so nothing it started
  /// outlives it. Returns how many commands and approvals were ended.
  size_t end_scope(const std::string& scope_key);

  session::Registry& registry() { return registry_; }
  const ServiceConfig& config() const { return config_; }
  /// New tools.exec settings (a config reload): calls from now on use them; calls already
  /// running keep the snapshot they started with.
  void set_exec_settings(config::ExecSettings exec);
  boost::asio::io_context& io() { return io_; }

  /// Runs `work` on the service's background thread (file writes that must not block the
  /// io thread, such as approvals bookkeeping). Work still queued finishes before destruction.
  void post_background(std::function<void()> work);

  /// Internal (exec_tool.cc): runs a decided plan (after its script preflight, if it still
  /// needs one).
  void launch(ExecPlan plan, CallContext ctx, ExecStartDone done);
  void ask_then_launch(ExecPlan plan, CallContext ctx, ExecStartDone done);
  void register_pending(ExecPlan plan, CallContext ctx, ExecStartDone done);
  /// Internal (auto_review.cc): mode "auto" asks the reviewer before any human (§7.1 step 6),
  /// then runs the plan once (allow+low) or hands it to the human path with the reviewer's
  /// warning (everything else).
  void review_then_launch(ExecPlan plan, CallContext ctx, ExecStartDone done);
  /// Internal: a plan that needs a human goes to elicitation, the pending approvals, or (no
  /// route) is refused.
  void ask_human(ExecPlan plan, CallContext ctx, ExecStartDone done);
  /// Internal (auto_review.cc): asks this agent's reviewer about `input` - the pre-screen, the
  /// default reviewer or the model, once - records the decision in the audit log and calls
  /// `answered` on the io thread.
  void review(policy::ReviewInput input, std::shared_ptr<CancelSignal> cancel,
              std::function<void(const policy::ReviewAnswer&)> answered);
  /// New reviewer settings (a config reload), like set_exec_settings.
  void set_reviewer(ReviewerConfig reviewer);

  /// Pending approvals (approval_runs.cc): what the operator channel lists and resolves.
  std::vector<json::Object> pending_approvals_json() const;
  void resolve_approval(const std::string& id, const std::string& decision, const std::string& resolved_by,
                        std::function<void(Result<void>)> done);
  /// Told about new and settled approvals (the operator channel publishes them).
  struct ApprovalEvents {
    std::function<void(const json::Object& approval)> requested;
    std::function<void(const std::string& id, const std::string& decision, const std::string& resolved_by)> resolved;
  };
  void set_approval_events(ApprovalEvents events) { approval_events_ = std::move(events); }
  /// Whether anyone can be shown an approval now (the gateway's no-route rule): when set and
  /// false at the start of a call, that call's approvals have no pending route and take
  /// askFallback at once, as a client that cannot be asked and has no operator channel.
  void set_approval_route(std::function<bool()> available) { approval_route_ = std::move(available); }

  /// An operator's `/exec` directive (exec spec §5) for `client`: host and node persist for the
  /// client, security and ask apply to its next run only; a bare `/exec` reports the defaults.
  /// An `/elevated <level>` directive (§4.3) is answered first: it sets the client's session
  /// level when the elevated gates pass for the client, and says which gate fails otherwise.
  /// Returns the reply, or nullopt when the text holds no directive.
  std::optional<std::string> exec_directive(ClientSession& client, const std::string& text);
  std::optional<std::string> elevated_directive(ClientSession& client, const std::string& text);

  /// Where exec host=node calls go (the gateway's node registry); unset: such calls are refused
  /// with the reason. Must outlive the service's calls.
  void set_node_invoker(NodeInvoker* invoker) { node_invoker_ = invoker; }
  /// Internal (node_run.cc): an exec host=node plan, prepared and run on the chosen node.
  void run_on_node(ExecPlan plan, CallContext ctx, ExecStartDone done);

  /// Internal: the exec tool's spawn step (used by exec_tool.cc).
  Result<std::shared_ptr<Run>> start_run(RunRequest request);
  /// start_run for a command another machine runs (`launch` supplies the child).
  Result<std::shared_ptr<Run>> start_run(RunRequest request, const Run::Launcher& launch);
  /// The live-session limit of start_run: an error naming it when `scope_key` is at it.
  Result<void> check_live_sessions(const std::string& scope_key) const;

  /// The login PATH and shell snapshots of gateway commands.
  shellenv::ShellEnvironment& shell_environment() { return *shell_env_; }
  /// Starts the login-shell probe and the default shell's snapshot in the background, so the
  /// first command does not wait for them (serve calls this at startup).
  void warm_up_shell_environment();
  /// The PATH a gateway command gets (login-shell PATH and pathPrepend merged), for reports
  /// such as `policy explain`; `done` runs on the io thread.
  void gateway_path(std::function<void(std::string)> done);

 private:
  void on_run_exited(const std::shared_ptr<Run>& run);
  /// During shutdown, calls the waiters once no run is live any more.
  void finish_shutdown_if_idle();
  void maybe_notify(const session::Session& session);
  /// Sends `text` to the client whose scope is `scope_key`, if it is still there.
  void notify(const std::string& scope_key, const std::string& session_id, const std::string& text);
  /// The configuration one call of `client` runs with: the shared snapshot, or a copy with the
  /// client's defaults applied (its next-run tightenings are consumed).
  std::shared_ptr<const ServiceConfig> config_for(ClientSession& client);
  void schedule_sweep();
  /// Tears down sandboxes idle or older than prune.idleHours / prune.maxAgeDays, on a timer
  /// that runs while this server has sandboxes.
  void schedule_sandbox_prune();

  boost::asio::io_context& io_;
  ServiceConfig config_;
  proc::Spawner spawner_;
  session::Registry registry_;
  /// Per-scope sandboxes (io thread); torn down with the service.
  sandbox::SandboxRegistry sandboxes_;
  std::map<std::string, std::weak_ptr<ClientSession>> clients_;  // by scope key
  boost::asio::steady_timer sweep_timer_;
  boost::asio::steady_timer sandbox_prune_timer_;
  bool sandbox_prune_scheduled_ = false;
  boost::asio::steady_timer shutdown_timer_;
  std::vector<std::function<void()>> shutdown_waiters_;
  bool shutting_down_ = false;
  boost::asio::thread_pool background_{1};
  struct PendingRun;
  std::map<std::string, std::shared_ptr<PendingRun>> pending_runs_;  // by approval id
  approvals::PendingApprovals pending_;
  ApprovalEvents approval_events_;
  void settle_pending(const std::string& id, std::optional<policy::ApprovalDecision> decision);
  /// The second half of exec once the login PATH is known.
  void exec_with_login_path(std::shared_ptr<const ServiceConfig> config, ExecPlan plan, CallContext ctx, ExecStartDone done,
                            const std::optional<std::string>& login_path);
  /// launch once the preflight is done: bookkeeping, the shell snapshot, spawn.
  void launch_checked(ExecPlan plan, CallContext ctx, ExecStartDone done);
  /// Runs `work` on an analysis thread, then `then` on the io thread. Command analysis (guards,
  /// policy gate, script preflight) costs up to seconds for a command at the size limit, and
  /// must not stall every other call. Counts as preparing: shutdown waits for it, and when the
  /// server began stopping its commands meanwhile, `stopped` runs instead of `then`. `work`
  /// gets only copies (a config snapshot, the call's arguments), never the service's state.
  void off_io_thread(std::function<void()> work, std::function<void()> then, std::function<void()> stopped);
  /// The configuration as an immutable snapshot the analysis threads may read; remade when
  /// config_ changed.
  std::shared_ptr<const ServiceConfig> shared_config();
  std::shared_ptr<const ServiceConfig> config_snapshot_;
  std::function<bool()> approval_route_;
  NodeInvoker* node_invoker_ = nullptr;
  /// exec host=node runs waiting for an operator's approval (node_run.cc), by approval id.
  struct NodeCall;
  struct NodeApprovalWait;
  std::map<std::string, std::shared_ptr<NodeApprovalWait>> node_waits_;
  /// The decided policy of a prepared node run: refuse, run, or ask first.
  void node_decide(std::shared_ptr<NodeCall> call);
  /// run_on_node once the nodes are listed: selection, then system.run.prepare.
  void start_node_call(std::vector<NodeSummary> nodes, std::shared_ptr<const ServiceConfig> config, ExecPlan exec_plan,
                       CallContext ctx, ExecStartDone done);
  /// system.run of the call's plan, as approved by `approval` ({id, decision}) when given.
  /// Returns the invoke's cancel token ("" when it cannot be cancelled).
  /// The node serves streamed sessions: the run is a session of ours fed by the node.
  void node_stream_start(std::shared_ptr<NodeCall> call);
  std::string node_system_run(std::shared_ptr<NodeCall> call, std::optional<std::pair<std::string, policy::ApprovalDecision>> approval,
                              std::function<void(NodeInvokeResult)> then);
  /// The node run needs a human: a pending approval (operator channel, gateway WebSocket), the
  /// call answered at once with the pending text, the run and its follow-up notice once decided.
  void ask_node_approval(std::shared_ptr<NodeCall> call);
  static policy::ReviewInput node_review_input(const NodeCall& call);
  /// Settles a node approval; false when `id` is not one.
  bool settle_node_approval(const std::string& id, std::optional<policy::ApprovalDecision> decision);
  /// Forgets a waiting node run without running it (its client session ended).
  void withdraw_node_approval(const std::string& id);
  static const std::string& node_wait_scope(const NodeApprovalWait& wait);
  /// Runs docker.setupCommand in the new sandbox of `scope` (once; calls arriving meanwhile
  /// wait for the same run), then `then` with nothing or why it failed. A failed setup tears
  /// the sandbox down, so the next call starts over.
  void set_up_sandbox(const std::shared_ptr<sandbox::Sandbox>& box, std::function<void(Result<void>)> then);
  std::map<uint64_t, std::vector<std::function<void(Result<void>)>>> sandbox_setups_;  // by Sandbox::id()
  /// Spawns a plan whose command is final (shell snapshot decided).
  void spawn_plan(ExecPlan plan, CallContext ctx, ExecStartDone done, const ShellInvocation& shell,
                  std::shared_ptr<const shellenv::ShellEnvironment::Snapshot> snapshot);
  /// Calls waiting for the login PATH or a snapshot before they spawn: shutdown waits for
  /// them like for live runs (a call received before EOF is still answered).
  int preparing_ = 0;
  bool stopping_foreground_ = false;  // shutdown is stopping foreground commands too
  void begin_preparing();
  /// False when the call must not spawn any more (the server is stopping its commands).
  bool end_preparing();
  std::unique_ptr<shellenv::ShellEnvironment> shell_env_;  // after spawner_: destroyed first
  boost::asio::thread_pool analysis_{2};  // joined first in the destructor
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace clawexec::exec
