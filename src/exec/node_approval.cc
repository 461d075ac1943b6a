// The approval of an exec host=node run (node_run.cc has the rest of the call): in mode
// "auto" the reviewer first, on the node's prepared plan (§7.1 step 6; only one simple command
// that is not an interpreter or a shell), then a pending approval for a human (the operator
// channel, the gateway's WebSocket, `approvals pending`) answered at once with the pending text;
// once decided, system.run goes to the node with approved=true, approvalDecision and runId =
// the approval id, exactly the plan that was shown, and the outcome comes back as an
// "Exec finished (node=...)" or "Exec denied (node=...)" notice. Nobody to ask: the node's
// askFallback at once, never after the reviewer deferred.

#include <unistd.h>

#include <algorithm>

#include "approvals/random.h"
#include "base/time.h"
#include "exec/gateway_approval.h"
#include "exec/gateway_context.h"
#include "exec/node_call.h"
#include "policy/approval_text.h"
#include "policy/auto_review.h"
#include "policy/safe_bins.h"
#include "shell/explain.h"
#include "term/display_escape.h"

namespace clawexec::exec {

using config::ExecAsk;
using config::ExecSecurity;

// One simple command (no pipeline, list, substitution or compound), not an interpreter or a shell.
static bool node_command_reviewable(const std::string& command) {
  shell::Explanation e = shell::explain_command(command, shell::ShellDialect::kDash);
  if (e.outcome != shell::ExplainOutcome::kOk || e.commands.size() != 1 || e.commands[0].argv.empty()) return false;
  if (command.find_first_of(";&|<>`$(){}\n") != std::string::npos) return false;
  const std::string& name = e.commands[0].argv[0];
  return !policy::is_interpreter_like_safe_bin(name.substr(name.rfind('/') + 1));
}

// The reviewer's view of a node run: the node's plan (its argv is what an allow-once runs), the
// environment names the call sets, and why a human would be needed.
policy::ReviewInput ExecService::node_review_input(const NodeCall& call) {
  policy::ReviewInput in;
  in.command = call.command_text();
  if (const json::Value* argv = json::find(call.prepared, "argv"); argv && argv->is_array()) {
    std::vector<std::string> words;
    for (const json::Value& w : argv->get_array()) words.push_back(w.is_string() ? std::string(w.get_string()) : std::string());
    in.argv = std::move(words);
  }
  if (std::string dir = call.cwd(); !dir.empty()) in.cwd = dir;
  in.env_keys = env::sorted_names(call.plan.env_overrides);
  in.host = "node";
  in.reason = call.security == ExecSecurity::kAllowlist ? "allowlist-miss" : "approval-required";
  in.analysis.parsed = in.argv.has_value();
  in.agent_id = call.agent_id;
  in.session_key = call.session_key;
  return in;
}

void ExecService::ask_node_approval(std::shared_ptr<NodeCall> call) {
  // mode "auto": the reviewer first (§7.1 step 6), on the node's plan - exactly the argv an
  // allow-once runs there - when the command is one simple command that is not an interpreter
  // or a shell (the gateway host's binding rule, read from the text since the node resolves
  // it); else, and once it deferred, a human only.
  if (call->policy.auto_review && call->ask != ExecAsk::kAlways && !call->reviewed) {
    call->reviewed = true;
    if (!node_command_reviewable(call->plan.command)) {
      call->human_required = true;
      return ask_node_approval(call);
    }
    return review(node_review_input(*call), call->ctx.cancel, [this, call](const policy::ReviewAnswer& answer) {
      if (call->ctx.cancel && call->ctx.cancel->cancelled()) return call->answer(Reply::thrown("Tool execution was aborted"));
      if (policy::review_allows_run(answer)) {
        call->plan.warnings.push_back(policy::review_allowed_warning(answer));
        std::string token = node_system_run(call, std::make_pair(approvals::random_uuid(), policy::ApprovalDecision::kAllowOnce),
                                            [call](NodeInvokeResult ran) { call->answer(call->run_reply(ran)); });
        // The caller gave up (MCP cancel): the node stops the command.
        if (call->ctx.cancel && !token.empty()) {
          NodeInvoker* invoker = node_invoker_;
          call->ctx.cancel->on_cancel([invoker, token] { invoker->cancel(token); });
        }
        return;
      }
      call->plan.warnings.push_back(policy::review_deferred_warning(answer));
      call->human_required = true;
      ask_node_approval(call);
    });
  }
  if (!call->ctx.pending_approvals) {
    // No route: the ask fallback at once (never after the reviewer deferred).
    if (call->ask_fallback == ExecSecurity::kFull && !call->human_required) {
      (void)node_system_run(call, std::make_pair(approvals::random_uuid(), policy::ApprovalDecision::kAllowOnce),
                            [call](NodeInvokeResult ran) { call->answer(call->run_reply(ran)); });
      return;
    }
    std::string denial = headless_denial(call->security, call->ask, call->ask_fallback, "the exec approvals of node " + call->node.node_id);
    // After the reviewer deferred, say what it answered before why nobody else can.
    if (call->human_required && !call->plan.warnings.empty()) denial = call->plan.warnings.back() + "\n" + denial;
    return call->answer(Reply::thrown(denial));
  }
  std::vector<policy::ApprovalDecision> decisions{policy::ApprovalDecision::kAllowOnce};
  if (call->allow_always) decisions.push_back(policy::ApprovalDecision::kAllowAlways);
  decisions.push_back(policy::ApprovalDecision::kDeny);
  std::string id = approvals::random_uuid();
  int64_t now = epoch_ms();
  std::string warning_text;
  for (const std::string& w : call->plan.warnings) warning_text += (warning_text.empty() ? "" : "\n") + w;
  json::Object request{{"command", call->command_text()},
                       {"cwd", call->cwd()},
                       {"host", "node"},
                       {"nodeId", call->node.node_id},
                       {"agentId", call->agent_id},
                       {"security", config::to_string(call->security)},
                       {"ask", config::to_string(call->ask)},
                       {"warningText", warning_text},
                       {"systemRunPlan", call->prepared}};
  std::vector<std::string> env_keys = env::sorted_names(call->plan.env_overrides);  // never their values
  if (!env_keys.empty()) request["envKeys"] = json::string_array(env_keys);
  approvals::NewApproval entry{id, request, decisions, now, now + config_.approval_timeout_ms, std::to_string(::getpid())};
  Result<approvals::PendingApproval> added = pending_.add(std::move(entry));
  if (!added.ok()) return call->answer(Reply::thrown("exec approval request failed: " + added.error().message));

  auto wait = std::make_shared<NodeApprovalWait>(io_);
  wait->id = id;
  wait->call = call;
  call->ctx.cancel.reset();  // the call that asked returns now; the run is not tied to it
  node_waits_[id] = wait;
  wait->expiry.expires_after(std::chrono::milliseconds(config_.approval_timeout_ms));
  wait->expiry.async_wait([this, id](const boost::system::error_code& ec) {
    if (!ec) settle_node_approval(id, std::nullopt);
  });

  policy::ApprovalPendingInputs in;
  in.warnings = call->plan.warnings;
  in.approval_id = id;
  in.approval_slug = added->slug;
  in.expires_at_ms = added->expires_at_ms;
  in.allowed_decisions = decisions;
  in.host = ExecHost::kNode;
  in.command = call->command_text();
  if (std::string cwd = call->cwd(); !cwd.empty()) in.cwd = cwd;
  in.node_id = call->node.node_id;
  in.continuation = policy::ProcessContinuation::kUnavailable;  // node runs have no process session
  if (approval_events_.requested) approval_events_.requested(pending_approval_json(*added));
  call->answer(approval_pending_reply(in));
}

bool ExecService::settle_node_approval(const std::string& id, std::optional<policy::ApprovalDecision> decision) {
  auto it = node_waits_.find(id);
  if (it == node_waits_.end()) return false;
  std::shared_ptr<NodeApprovalWait> wait = it->second;
  node_waits_.erase(it);
  wait->expiry.cancel();
  std::shared_ptr<NodeCall> call = wait->call;
  std::string scope = call->ctx.scope_key;
  std::string node_id = call->node.node_id;
  std::string shown_command = term::escape_for_display(call->command_text());
  if (!decision) {
    pending_.expire(epoch_ms());
    if (approval_events_.resolved) approval_events_.resolved(id, "", "timeout");
  }
  pending_.purge(epoch_ms());
  std::optional<policy::ApprovalDecision> run_as = decision;
  if (!decision && call->ask_fallback == ExecSecurity::kFull && !call->human_required) run_as = policy::ApprovalDecision::kAllowOnce;
  if (!run_as || *run_as == policy::ApprovalDecision::kDeny) {
    std::string reason = decision ? "user-denied" : "approval-timeout";
    notify(scope, "", policy::node_exec_denied_text(node_id, id, reason, shown_command));
    return true;
  }
  node_system_run(call, std::make_pair(id, *run_as), [this, scope, node_id, id, shown_command](NodeInvokeResult ran) {
    if (auto* e = std::get_if<NodeInvokeError>(&ran)) {
      return notify(scope, "", policy::node_exec_denied_text(node_id, id, "invoke-failed: " + node_detail::invoke_error_text(node_id, "system.run", *e),
                                                             shown_command));
    }
    const json::Value& r = std::get<json::Value>(ran);
    if (!r.is_object() || !config_.exec.notify_on_exit) return;
    const json::Object& o = r.get_object();
    std::string combined;
    for (const char* key : {"stdout", "stderr", "error"}) {
      std::string part = json::string_member(o, key);
      if (!part.empty()) combined += (combined.empty() ? "" : "\n") + part;
    }
    const json::Value* t = json::find(o, "timedOut");
    bool timed_out = t && t->is_bool() && t->get_bool();
    std::optional<int64_t> code = json::integer_member(o, "exitCode");
    notify(scope, "",
           policy::node_exec_finished_text(node_id, id, timed_out ? policy::RunTimedOut::kYes : policy::RunTimedOut::kNo,
                                           code ? std::optional<int>(static_cast<int>(*code)) : std::nullopt,
                                           term::escape_for_display(combined, term::DisplayStyle::kLines)));
  });
  return true;
}

}  // namespace clawexec::exec
