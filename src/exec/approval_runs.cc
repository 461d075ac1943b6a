// Approvals that wait for an operator (reference spec §7.1 step 7, §7.3, §7.5, §7.6).
//
// Problem: a client that cannot be asked inline must get an answer at once, and the command
// must still run - later, in the background - when an operator approves it from the operator
// channel (or the ask fallback decides at expiry), with the outcome told to the client.
//
// Approach: the exec call returns the approval-pending result immediately and the approval is
// kept in the registry with its plan. A decision (operator, or expiry -> askFallback) runs the
// plan in the background as a normal session of the caller (so `process` reaches it) and sends
// "Exec running" after approvalRunningNoticeMs, then "Exec finished (gateway id=...)", or
// "Exec denied (gateway id=..., reason)" - as MCP notifications. Every text a human may read
// (the pending text an agent relays, the notices) shows the command and cwd escaped for
// display; the structured details keep them exact.

#include <unistd.h>

#include <algorithm>

#include <boost/asio/steady_timer.hpp>

#include "base/time.h"
#include "exec/exec_plan.h"
#include "exec/gateway_approval.h"
#include "exec/run.h"
#include "exec/service.h"
#include "exec/policy_gate.h"
#include "policy/approval_text.h"
#include "base/strings.h"
#include "exec/exec_planning.h"
#include "exec/sandbox_call.h"
#include "policy/exec_directive.h"
#include "session/format.h"
#include "term/display_escape.h"

namespace clawexec::exec {

struct ExecService::PendingRun {
  explicit PendingRun(boost::asio::io_context& io) : expiry(io) {}
  std::shared_ptr<GatewayApproval> approval;
  ExecPlan plan;
  CallContext ctx;
  boost::asio::steady_timer expiry;
};

Reply denied_reply(const GatewayApproval& approval, const std::string& reason) {
  policy::ApprovalToolResult r =
      policy::exec_denied_result(approval.id(), reason, term::escape_for_display(approval.command()), approval.cwd());
  return Reply{std::move(r.text), std::move(r.details), true};
}

namespace {

json::Array decision_names(const std::vector<policy::ApprovalDecision>& decisions) {
  json::Array out;
  for (policy::ApprovalDecision d : decisions) out.emplace_back(policy::to_string(d));
  return out;
}

std::string shown(std::string_view text) { return term::escape_for_display(text); }

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const std::string& l : lines) out += (out.empty() ? "" : "\n") + l;
  return out;
}

}  // namespace

// An approval as the operator channel shows it: the stored request plus id, slug, decisions,
// times and the owning process.
json::Object pending_approval_json(const approvals::PendingApproval& p) {
  json::Object o{{"id", p.id},
                 {"slug", p.slug},
                 {"allowedDecisions", decision_names(p.allowed_decisions)},
                 {"createdAtMs", p.created_at_ms},
                 {"expiresAtMs", p.expires_at_ms},
                 {"pid", static_cast<int64_t>(::getpid())}};
  for (const auto& kv : p.request) o[kv.key()] = kv.value();
  return o;
}

// The pending result: the text from what the human is shown, the details exact.
Reply approval_pending_reply(const policy::ApprovalPendingInputs& exact) {
  policy::ApprovalPendingInputs display = exact;
  display.command = shown(exact.command);
  if (exact.cwd) display.cwd = shown(*exact.cwd);
  for (std::string& w : display.warnings) w = term::escape_for_display(w, term::DisplayStyle::kLines);
  return Reply{policy::approval_pending_text(display), policy::approval_pending_details(exact), false};
}

void ExecService::register_pending(ExecPlan plan, CallContext ctx, ExecStartDone done) {
  std::shared_ptr<GatewayApproval> approval = plan.approval;
  int64_t now = epoch_ms();
  json::Object request{{"command", approval->command()},
                       {"cwd", approval->cwd()},
                       {"host", "gateway"},
                       {"agentId", approval->agent_id()},
                       {"warningText", joined(approval->warnings())}};
  json::Array reasons;
  for (const std::string& r : approval->reasons()) reasons.emplace_back(r);
  request["reasons"] = std::move(reasons);
  std::vector<std::string> env_keys = env::sorted_names(plan.env_overrides);  // never their values
  for (auto& kv : approval->request_fields(env_keys, config_.exec.command_highlighting)) request[kv.key()] = kv.value();
  approvals::NewApproval entry{approval->id(), request, approval->allowed_decisions(), now,
                               now + config_.approval_timeout_ms, std::to_string(::getpid())};
  Result<approvals::PendingApproval> added = pending_.add(std::move(entry));
  if (!added.ok()) return done(Reply::thrown("exec approval request failed: " + added.error().message));

  auto run = std::make_shared<PendingRun>(io_);
  run->approval = approval;
  run->plan = std::move(plan);
  run->plan.approval.reset();
  run->plan.yield_ms = 0;  // once approved it runs in the background
  run->ctx = ctx;
  run->ctx.cancel.reset();  // the call that asked has returned; the run is not tied to it
  pending_runs_[approval->id()] = run;
  std::string id = approval->id();
  run->expiry.expires_after(std::chrono::milliseconds(config_.approval_timeout_ms));
  run->expiry.async_wait([this, id](const boost::system::error_code& ec) {
    if (!ec) settle_pending(id, std::nullopt);
  });

  policy::ApprovalPendingInputs in;
  in.warnings = approval->warnings();
  in.approval_id = approval->id();
  in.approval_slug = approval->slug();
  in.expires_at_ms = added->expires_at_ms;
  in.allowed_decisions = approval->allowed_decisions();
  in.command = approval->command();
  in.cwd = approval->cwd();
  in.continuation = ctx.continuation_available ? policy::ProcessContinuation::kAvailable
                                               : policy::ProcessContinuation::kUnavailable;
  if (approval_events_.requested) approval_events_.requested(pending_approval_json(*added));
  done(approval_pending_reply(in));
}

std::vector<json::Object> ExecService::pending_approvals_json() const {
  std::vector<json::Object> out;
  for (const approvals::PendingApproval& p : pending_.list(epoch_ms())) out.push_back(pending_approval_json(p));
  return out;
}

void ExecService::resolve_approval(const std::string& id, const std::string& decision, const std::string& resolved_by,
                                   std::function<void(Result<void>)> done) {
  std::optional<policy::ApprovalDecision> d = policy::approval_decision_from_string(decision);
  if (!d) return done(Error::invalid("invalid decision"));
  Result<approvals::PendingApproval> resolved = pending_.resolve(id, *d, epoch_ms());
  if (!resolved.ok()) return done(resolved.error());
  if (approval_events_.resolved) approval_events_.resolved(resolved->id, decision, resolved_by);
  if (!settle_node_approval(resolved->id, d)) settle_pending(resolved->id, d);
  done(Result<void>{});
}

size_t ExecService::end_scope(const std::string& scope_key) {
  size_t ended = 0;
  for (const auto& s : registry_.live()) {
    if (s->scope_key == scope_key && s->control) {
      s->control->cancel();
      ++ended;
    }
  }
  std::vector<std::string> withdrawn;
  for (const auto& [id, run] : pending_runs_) {
    if (run->ctx.scope_key == scope_key) withdrawn.push_back(id);
  }
  for (const std::string& id : withdrawn) {
    std::shared_ptr<PendingRun> run = pending_runs_[id];
    pending_runs_.erase(id);
    run->expiry.cancel();
    pending_.remove(id);
    if (approval_events_.resolved) approval_events_.resolved(id, "", "session-ended");
    ++ended;
  }
  // Node runs waiting for an approval: withdrawn the same way (nothing runs on the node).
  std::vector<std::string> node_withdrawn;
  for (const auto& [id, wait] : node_waits_) {
    if (node_wait_scope(*wait) == scope_key) node_withdrawn.push_back(id);
  }
  for (const std::string& id : node_withdrawn) {
    withdraw_node_approval(id);
    pending_.remove(id);
    if (approval_events_.resolved) approval_events_.resolved(id, "", "session-ended");
    ++ended;
  }
  return ended;
}

void ExecService::settle_pending(const std::string& id, std::optional<policy::ApprovalDecision> decision) {
  auto it = pending_runs_.find(id);
  if (it == pending_runs_.end()) return;
  std::shared_ptr<PendingRun> run = it->second;
  pending_runs_.erase(it);
  run->expiry.cancel();
  if (!decision) {
    pending_.expire(epoch_ms());
    if (approval_events_.resolved) approval_events_.resolved(id, "", "timeout");
  }
  pending_.purge(epoch_ms());
  std::shared_ptr<GatewayApproval> approval = run->approval;
  ApprovalOutcome outcome = decision ? approval->decide(*decision, config_) : approval->no_answer(config_);
  std::string scope = run->ctx.scope_key;
  if (!outcome.approved) {
    notify(scope, "", policy::exec_denied_text(approval->id(), outcome.reason, shown(approval->command())));
    return;
  }
  run->plan.command = std::move(outcome.command);
  run->plan.rendered = outcome.rendered;
  int64_t notice_ms = config_.exec.approval_running_notice_ms;
  run->plan.on_started = [this, approval, scope, notice_ms](const std::shared_ptr<Run>& started) {
    std::shared_ptr<session::Session> session = started->session();
    session->approval_id = approval->id();
    std::string sid = session->id;
    started->on_exited([this, approval, scope, session](const ExecOutcome& ended) {
      if (!config_.exec.notify_on_exit) return;
      std::optional<int> code = ended.exit_code;
      notify(scope, session->id,
                policy::exec_finished_text(approval->id(), session->id,
                                           ended.timed_out ? policy::RunTimedOut::kYes : policy::RunTimedOut::kNo,
                                           code, session->output.tail()));
    });
    if (notice_ms <= 0) return;
    auto timer = std::make_shared<boost::asio::steady_timer>(io_, std::chrono::milliseconds(notice_ms));
    std::weak_ptr<Run> weak = started;
    timer->async_wait([this, timer, weak, approval, scope, sid, notice_ms](const boost::system::error_code& ec) {
      std::shared_ptr<Run> live = weak.lock();
      if (ec || !live || live->session()->exited) return;
      notify(scope, sid,
                policy::exec_running_text(approval->id(), sid, policy::approval_running_notice_seconds(notice_ms),
                                          shown(approval->command())));
    });
  };
  // Nobody waits for this run: it is in the background from its start (its follow-ups above
  // announce it), and a refusal at spawn time is announced like a denial.
  launch(std::move(run->plan), std::move(run->ctx), [this, scope](ExecStart start) {
    if (auto* reply = std::get_if<Reply>(&start)) return notify(scope, "", reply->text);
    std::shared_ptr<Run> started = std::get<StartedRun>(start).run;
    std::weak_ptr<Run> weak = started;
    started->on_started([this, weak](Result<pid_t> pid) {
      std::shared_ptr<Run> live = weak.lock();
      if (pid.ok() && live && !live->exited()) registry_.mark_backgrounded(*live->session());
    });
  });
}

std::optional<std::string> ExecService::elevated_directive(ClientSession& client, const std::string& text) {
  policy::ElevatedDirective d = policy::extract_elevated_directive(text);
  if (!d.has_directive) return std::nullopt;
  std::shared_ptr<const ServiceConfig> config = config_for(client);
  const std::string session_key = effective_session_key(*config, client.session_key);
  const bool sandboxed = session_sandboxed(*config, client.session_key);
  config::ElevatedPermission gates =
      config::elevated_permission(config->elevated, {.provider = client.message_provider, .sender_id = ""});
  if (!gates.enabled || !gates.allowed) {
    // The reference's formatElevatedUnavailableMessage.
    std::vector<std::string> failing;
    for (const auto& [gate, key] : gates.failures) failing.push_back(gate + " (" + key + ")");
    std::string line = failing.empty() ? "Failing gates: enabled (tools.elevated.enabled / "
                                         "agents.entries.*.tools.elevated.enabled), allowFrom "
                                         "(tools.elevated.allowFrom.<provider>)."
                                       : "Failing gates: " + join(failing, ", ");
    return elevated_unavailable_text(sandboxed, line, {}, {"See: clawexec sandbox explain --session " + session_key});
  }
  if (d.raw_level.empty()) {
    return "Current elevated level: " + client.elevated_level.value_or(config->elevated.level()) +
           ".\nOptions: on, off, ask, full.";
  }
  if (!d.level) return "Unrecognized elevated level \"" + d.raw_level + "\". Valid levels: off, on, ask, full.";
  client.elevated_level = *d.level;
  return policy::elevated_directive_ack(*d.level, sandboxed);
}

std::optional<std::string> ExecService::exec_directive(ClientSession& client, const std::string& text) {
  if (std::optional<std::string> elevated = elevated_directive(client, text)) return elevated;
  policy::ExecDirective d = policy::extract_exec_directive(text);
  if (!d.has_directive) return std::nullopt;
  ExecDefaults& defaults = client.defaults;
  // What the client's next run would get, without consuming its next-run tightenings.
  ExecDefaults persistent = defaults;
  persistent.next_security.reset();
  persistent.next_ask.reset();
  ClientSession probe = client;
  probe.defaults = persistent;
  std::shared_ptr<const ServiceConfig> current_config = config_for(probe);
  policy::ExecDefaultsView view;
  view.host = current_config->exec.host;
  view.effective_host = view.host == ExecHost::kAuto ? ExecHost::kGateway : view.host;
  view.node = current_config->exec.node;
  Result<policy::ExecCallPolicy> current = effective_call_policy(*current_config, view.effective_host);
  view.security = current.ok() ? current->security : config::ExecSecurity::kDeny;
  view.ask = current.ok() ? current->ask : config::ExecAsk::kOff;
  std::optional<std::string> reply = policy::exec_directive_reply(d, view, policy::ExecPersistence::kAllowed);
  bool valid = !d.invalid_host && !d.invalid_security && !d.invalid_ask && !d.invalid_node;
  if (valid && d.has_options) {
    if (d.host) defaults.host = *d.host;
    if (d.node) defaults.node = *d.node;
    if (d.security) defaults.next_security = *d.security;
    if (d.ask) defaults.next_ask = *d.ask;
  }
  return reply.value_or("OK.");
}

}  // namespace clawexec::exec
