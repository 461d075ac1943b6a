// The exec approvals of the operator protocol: `exec.approval.list/get/resolve` over the exec
// services' approvals (every MCP session of the gateway) and the ones asked for over the
// WebSocket itself; `exec.approval.request` (with `twoPhase`) and `exec.approval.waitDecision`;
// the `exec.approval.requested/resolved` events.
//
// An exec.approval.request follows OpenClaw's delivery rule: it goes to the connected clients
// that show approvals (Control UI, apps, cap `approvals`/`exec-approvals`, with operator.admin
// or operator.approvals) other than the requester; with none and `requireDeliveryRoute` not
// false it expires at once without a decision (terminalReason "no-route"). Otherwise the
// request's answer is the decision (`twoPhase`: an "accepted" answer first, then the decision
// under the same request id); unanswered it expires after timeoutMs (default 30 min). A settled
// request stays 15 s for waitDecision.
//
// What a human is shown is escaped (term::escape_for_display): command, cwd and warning texts
// in these records can carry terminal escapes, and OpenClaw's clients print them as they are.

#include <unistd.h>

#include <algorithm>

#include "approvals/random.h"
#include "base/strings.h"
#include "base/time.h"
#include "gateway/operator_internal.h"
#include "shell/word.h"
#include "term/display_escape.h"

namespace clawexec::gateway {
namespace {

constexpr int64_t kDefaultApprovalTimeoutMs = 1800000;
constexpr int64_t kSettledGraceMs = 15000;
// An approved node run is sent within this long of the decision; a used grant is kept until
// then, so a replay is refused by name.
constexpr int64_t kNodeGrantTtlMs = 10 * 60 * 1000;

constexpr std::string_view kRequestKeys[] = {
    "id", "command", "commandArgv", "systemRunPlan", "env", "cwd", "nodeId", "host", "security", "ask", "warningText",
    "scope", "unavailableDecisions", "commandSpans", "agentId", "resolvedPath", "sessionKey", "sessionId", "runId",
    "toolCallId", "turnSourceChannel", "turnSourceTo", "turnSourceAccountId", "turnSourceThreadId",
    "approvalReviewerDeviceIds", "requireDeliveryRoute", "suppressDelivery", "deliverToApprovalClientsOnly", "timeoutMs",
    "twoPhase"};

std::string shown(std::string_view text) { return term::escape_for_display(text); }
std::string shown_lines(std::string_view text) { return term::escape_for_display(text, term::DisplayStyle::kLines); }

// One of the exec services' approvals as the protocol carries it.
json::Object service_record(const json::Object& a) {
  json::Object request;
  if (const json::Value* v = json::find(a, "allowedDecisions")) request["allowedDecisions"] = *v;
  for (std::string_view key : {"host", "agentId", "security", "ask", "sessionKey", "resolvedPath"}) {
    if (const json::Value* v = json::find(a, key); v && v->is_string()) request[key] = shown(v->get_string());
  }
  // The names of the environment the agent set for the command (never the values): what it runs
  // with is part of what is approved (GNUPGHOME, TMPDIR, ... pass the denylist).
  if (const json::Value* keys = json::find(a, "envKeys"); keys && keys->is_array()) {
    json::Array names;
    for (const json::Value& k : keys->get_array()) {
      if (k.is_string()) names.emplace_back(shown(k.get_string()));
    }
    request["envKeys"] = std::move(names);
  }
  const std::string command = str(a, "command");
  const std::string shown_command = shown(command);
  // Highlighting spans index the command as it was analysed: passed on only when the text
  // shown is that text (escaping moved nothing).
  if (const json::Value* spans = json::find(a, "commandSpans"); spans && spans->is_array() && shown_command == command) {
    request["commandSpans"] = *spans;
  }
  request["command"] = shown_command;
  if (const json::Value* cwd = json::find(a, "cwd"); cwd && cwd->is_string()) request["cwd"] = shown(cwd->get_string());
  if (const json::Value* w = json::find(a, "warningText"); w && w->is_string()) request["warningText"] = shown_lines(w->get_string());
  const json::Value* node = json::find(a, "nodeId");
  request["nodeId"] = node && node->is_string() ? *node : json::Value(nullptr);
  json::Object out{{"approvalKind", "exec"}, {"id", str(a, "id")}, {"request", std::move(request)}};
  if (auto v = int_member(a, "createdAtMs")) out["createdAtMs"] = *v;
  if (auto v = int_member(a, "expiresAtMs")) out["expiresAtMs"] = *v;
  return out;
}

bool string_or_null(const json::Value* v) { return !v || v->is_string() || v->is_null(); }

}  // namespace

bool OperatorHub::has_approval_client() const {
  return std::any_of(connections_.begin(), connections_.end(),
                     [](const auto& kv) { return kv.second->authenticated && kv.second->delivers_approvals(); });
}

bool OperatorHub::visible(const Connection& c, const ExternalApproval& a) const {
  if (!c.approval_client()) return false;
  if (c.admin()) return true;
  return a.requester == c.id || (!a.requester_device.empty() && a.requester_device == c.device_id);
}

std::vector<json::Object> OperatorHub::external_pending() const {
  std::vector<json::Object> out;
  for (const auto& [id, a] : external_) {
    if (a->settled) continue;
    json::Object o{{"id", a->id}, {"slug", a->id.substr(0, 8)}, {"createdAtMs", a->created_at_ms}, {"expiresAtMs", a->expires_at_ms},
                   {"allowedDecisions", frames::to_array(a->allowed)}, {"source", "gateway-websocket"}};
    for (std::string_view key : {"command", "cwd", "host", "agentId", "nodeId", "warningText"}) {
      if (const json::Value* v = json::find(a->request, key); v && !v->is_null()) o[key] = *v;
    }
    out.push_back(std::move(o));
  }
  return out;
}

bool OperatorHub::resolve_external(const std::string& id, const std::string& decision, const std::string& resolved_by,
                                   std::function<void(Result<void>)> done) {
  auto it = external_.find(id);
  if (it == external_.end() || it->second->settled) return false;
  const auto& allowed = it->second->allowed;
  if (std::find(allowed.begin(), allowed.end(), decision) == allowed.end()) {
    done(Error::invalid("decision " + decision + " is not allowed for this approval"));
    return true;
  }
  settle_external(it->second, decision, "user", resolved_by);
  done(Result<void>{});
  return true;
}

void OperatorHub::settle_external(const std::shared_ptr<ExternalApproval>& a, std::optional<std::string> decision,
                                  const std::string& terminal_reason, const std::string& resolved_by) {
  if (a->settled) return;
  a->settled = true;
  a->decision = std::move(decision);
  a->terminal_reason = terminal_reason;
  if (a->timer) a->timer->cancel();
  json::Object event{{"id", a->id}, {"resolvedBy", resolved_by}, {"ts", epoch_ms()}, {"request", a->request}};
  if (a->decision) {
    event["decision"] = *a->decision;
  } else {
    event["decision"] = nullptr;
  }
  if (terminal_reason != "no-route") {
    std::string frame = frames::event("exec.approval.resolved", event, static_cast<int64_t>(++event_seq_));
    for (auto& [cid, c] : connections_) {
      if (c->authenticated && visible(*c, *a)) c->send(frame);
    }
  }
  if (a->decision) grant_node_run(a->id, a->request, *a->decision);
  auto callbacks = std::move(a->on_settled);
  a->on_settled.clear();
  for (auto& cb : callbacks) cb(*a);
  // Kept a little while for waitDecision, then forgotten.
  a->timer = std::make_unique<boost::asio::steady_timer>(io_, std::chrono::milliseconds(kSettledGraceMs));
  std::weak_ptr<bool> alive = alive_;
  std::string id = a->id;
  a->timer->async_wait([this, alive, id](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    external_.erase(id);
  });
}

void OperatorHub::request_approval(const std::shared_ptr<Connection>& c, const std::string& id, const json::Object& p) {
  auto invalid = [&](const std::string& message, std::optional<json::Object> details = std::nullopt) {
    c->send(res_error(id, "INVALID_REQUEST", message, std::move(details)));
  };
  for (const auto& kv : p) {
    if (std::find(std::begin(kRequestKeys), std::end(kRequestKeys), std::string_view(kv.key())) == std::end(kRequestKeys)) {
      return invalid("invalid exec.approval.request params: unexpected property '" + std::string(kv.key()) + "'");
    }
  }
  for (std::string_view key : {"cwd", "nodeId", "host", "security", "ask", "warningText", "agentId", "resolvedPath", "sessionKey",
                               "sessionId", "runId", "toolCallId"}) {
    if (!string_or_null(json::find(p, key))) return invalid("invalid exec.approval.request params: " + std::string(key) + " must be a string or null");
  }
  if (const json::Value* v = json::find(p, "id"); v && (!v->is_string() || v->get_string().empty())) {
    return invalid("invalid exec.approval.request params: id must be a non-empty string");
  }
  if (const json::Value* v = json::find(p, "command"); v && (!v->is_string() || v->get_string().empty())) {
    return invalid("invalid exec.approval.request params: command must be a non-empty string");
  }
  std::optional<int64_t> timeout = int_member(p, "timeoutMs");
  if (json::find(p, "timeoutMs") && (!timeout || *timeout < 1)) return invalid("invalid exec.approval.request params: timeoutMs must be an integer >= 1");
  for (std::string_view key : {"twoPhase", "requireDeliveryRoute", "suppressDelivery", "deliverToApprovalClientsOnly"}) {
    if (const json::Value* v = json::find(p, key); v && !v->is_bool()) return invalid("invalid exec.approval.request params: " + std::string(key) + " must be a boolean");
  }
  std::string list_error;
  std::optional<std::vector<std::string>> argv = frames::string_list(p, "commandArgv", &list_error);
  if (!list_error.empty()) return invalid("invalid exec.approval.request params: " + list_error);
  std::optional<std::vector<std::string>> unavailable = frames::string_list(p, "unavailableDecisions", &list_error);
  if (!list_error.empty() || (unavailable && (unavailable->size() != 1 || unavailable->front() != "allow-always"))) {
    return invalid("invalid exec.approval.request params: unavailableDecisions must be [\"allow-always\"]");
  }
  const json::Object* plan = obj(p, "systemRunPlan");
  if (json::find(p, "systemRunPlan") && !plan) return invalid("invalid exec.approval.request params: systemRunPlan must be an object");
  std::vector<std::string> plan_argv;
  if (plan) plan_argv = frames::string_list(*plan, "argv", &list_error).value_or(std::vector<std::string>{});

  const std::string host = std::string(trim_ascii(str(p, "host")));
  const std::string node_id = std::string(trim_ascii(str(p, "nodeId")));
  const bool two_phase = json::find(p, "twoPhase") && json::find(p, "twoPhase")->get_bool();
  if (host == "node" && node_id.empty()) return invalid("nodeId is required for host=node");
  if (host == "node" && !plan) return invalid("systemRunPlan is required for host=node");
  std::string command = str(p, "command");
  // For a node the human sees what will run: the plan's own command text, never a caller's label.
  if ((command.empty() || host == "node") && plan && !str(*plan, "commandText").empty()) command = str(*plan, "commandText");
  std::vector<std::string> effective_argv = argv.value_or(plan_argv);
  if (command.empty() && !effective_argv.empty()) {
    for (const std::string& a : effective_argv) command += (command.empty() ? "" : " ") + shell::quote_if_needed(a);
  }
  if (trim_ascii(command).empty()) return invalid("command is required");
  std::string explicit_id = str(p, "id");
  if (explicit_id.rfind("plugin:", 0) == 0) return invalid("approval ids starting with plugin: are reserved");
  if (host == "node" && effective_argv.empty()) return invalid("commandArgv is required for host=node");
  if (host == "node") {
    // What the approver is shown is what a grant runs: the plan's cwd, on a node this gateway knows.
    std::string given_cwd = str(p, "cwd");
    if (!given_cwd.empty() && given_cwd != str(*plan, "cwd")) return invalid("cwd does not match systemRunPlan.cwd");
    if (!options_.nodes || (!options_.nodes->approved(node_id) && !node_conns_.count(node_id))) return invalid("unknown nodeId");
    // A grant runs the plan's argv, so the text shown must be that argv's own rendering, not a
    // commandText the requester wrote beside it.
    if (plan_argv.empty()) return invalid("systemRunPlan.argv is required for host=node");
    std::string formatted = shell::format_exec_command(plan_argv);
    if (std::string text = str(*plan, "commandText"); !text.empty() && text != formatted) {
      return invalid("systemRunPlan.commandText does not match systemRunPlan.argv");
    }
    if (argv && *argv != plan_argv) return invalid("commandArgv does not match systemRunPlan.argv");
    command = formatted;
  }
  if (!explicit_id.empty()) {
    bool taken = external_.count(explicit_id) > 0;
    if (!taken && source_.list) {
      for (const json::Object& a : source_.list()) taken = taken || str(a, "id") == explicit_id;
    }
    if (taken) return invalid("approval id already pending");
  }

  auto a = std::make_shared<ExternalApproval>();
  a->id = explicit_id.empty() ? approvals::random_uuid() : explicit_id;
  a->created_at_ms = epoch_ms();
  a->expires_at_ms = a->created_at_ms + timeout.value_or(kDefaultApprovalTimeoutMs);
  a->requester = c->id;
  a->requester_device = c->device_id;
  std::string ask = str(p, "ask");
  a->allowed = ask == "always" ? std::vector<std::string>{"allow-once", "deny"}
               : unavailable   ? std::vector<std::string>{"allow-once", "deny"}
                               : std::vector<std::string>{"allow-once", "allow-always", "deny"};
  json::Object& r = a->request;
  r["command"] = shown(command);
  if (host != "node" && !effective_argv.empty()) {
    json::Array shown_argv;
    for (const std::string& s : effective_argv) shown_argv.emplace_back(shown(s));
    r["commandArgv"] = std::move(shown_argv);
  }
  r["systemRunPlan"] = plan ? json::Value(*plan) : json::Value(nullptr);
  std::string cwd = str(p, "cwd");
  if (cwd.empty() && plan) cwd = str(*plan, "cwd");
  r["cwd"] = cwd.empty() ? json::Value(nullptr) : json::Value(shown(cwd));
  r["nodeId"] = host == "node" ? json::Value(shown(node_id)) : json::Value(nullptr);
  r["host"] = host.empty() ? json::Value(nullptr) : json::Value(shown(host));
  for (std::string_view key : {"security", "ask", "agentId", "sessionKey", "sessionId", "runId", "toolCallId", "resolvedPath"}) {
    std::string v = str(p, key);
    r[key] = v.empty() ? json::Value(nullptr) : json::Value(shown(v));  // the requester chose them
  }
  std::string warning = str(p, "warningText");
  r["warningText"] = warning.empty() ? json::Value(nullptr) : json::Value(shown_lines(warning));
  if (const json::Value* env = json::find(p, "env"); env && env->is_object() && !env->get_object().empty()) {
    json::Array keys;  // the names only: values never leave
    for (const auto& kv : env->get_object()) keys.emplace_back(shown(kv.key()));
    r["envKeys"] = std::move(keys);
  }
  r["allowedDecisions"] = frames::to_array(a->allowed);
  external_[a->id] = a;

  // The request's own answer, once it is settled.
  std::weak_ptr<Connection> weak = c;
  a->on_settled.push_back([weak, id](const ExternalApproval& done) {
    auto live = weak.lock();
    if (!live) return;
    json::Object out{{"id", done.id}, {"createdAtMs", done.created_at_ms}, {"expiresAtMs", done.expires_at_ms}};
    if (done.decision) {
      out["decision"] = *done.decision;
    } else {
      out["decision"] = nullptr;
    }
    live->send(res_ok(id, std::move(out)));
  });

  const bool suppress = json::find(p, "suppressDelivery") && json::find(p, "suppressDelivery")->get_bool();
  bool route = false;
  if (!suppress) {
    json::Object event{{"approvalKind", "exec"}, {"id", a->id}, {"request", a->request}, {"createdAtMs", a->created_at_ms},
                       {"expiresAtMs", a->expires_at_ms}};
    std::string frame = frames::event("exec.approval.requested", event, static_cast<int64_t>(++event_seq_));
    for (auto& [cid, other] : connections_) {
      if (cid == c->id || !other->authenticated || !visible(*other, *a)) continue;
      other->send(frame);
      route = route || other->delivers_approvals();
    }
  }
  const bool require_route = !json::find(p, "requireDeliveryRoute") || json::find(p, "requireDeliveryRoute")->get_bool();
  if (!route && require_route) return settle_external(a, std::nullopt, "no-route", "no-approval-route");
  if (two_phase) {
    c->send(res_ok(id, json::Object{{"status", "accepted"},
                                    {"id", a->id},
                                    {"deliveryRoute", route ? "approval-client" : "none"},
                                    {"createdAtMs", a->created_at_ms},
                                    {"expiresAtMs", a->expires_at_ms}}));
  }
  a->timer = std::make_unique<boost::asio::steady_timer>(io_, std::chrono::milliseconds(a->expires_at_ms - a->created_at_ms));
  std::weak_ptr<bool> alive = alive_;
  std::weak_ptr<ExternalApproval> weak_a = a;
  a->timer->async_wait([this, alive, weak_a](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    if (auto live = weak_a.lock()) settle_external(live, std::nullopt, "timeout", "timeout");
  });
}

void OperatorHub::approval_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                                  const json::Object& params) {
  if (method == "exec.approval.request") return request_approval(c, id, params);
  // The services' approvals come from MCP sessions, not from operator connections: every
  // approver sees them (the reference shows a record no connection requested to
  // operator.approvals). WebSocket requests follow visible().
  std::vector<json::Object> pending = source_.list ? source_.list() : std::vector<json::Object>{};
  if (method == "exec.approval.list") {
    json::Array out;
    for (const json::Object& a : pending) out.emplace_back(service_record(a));
    for (const auto& [eid, a] : external_) {
      if (a->settled || !visible(*c, *a)) continue;
      out.emplace_back(json::Object{{"id", a->id}, {"request", a->request}, {"createdAtMs", a->created_at_ms},
                                    {"expiresAtMs", a->expires_at_ms}, {"approvalKind", "exec"}});
    }
    return c->send(res_ok(id, std::move(out)));
  }
  std::string approval_id(trim_ascii(str(params, "id")));
  if (method == "exec.approval.waitDecision" && approval_id.empty()) return c->send(res_error(id, "INVALID_REQUEST", "id is required"));
  auto ext = external_.find(approval_id);
  const bool is_external = ext != external_.end() && visible(*c, *ext->second);
  auto found = std::find_if(pending.begin(), pending.end(), [&](const json::Object& a) { return str(a, "id") == approval_id; });

  if (method == "exec.approval.waitDecision") {
    std::weak_ptr<Connection> weak = c;
    if (is_external) {
      auto answer = [weak, id](const ExternalApproval& a) {
        auto live = weak.lock();
        if (!live) return;
        json::Object out{{"id", a.id}, {"createdAtMs", a.created_at_ms}, {"expiresAtMs", a.expires_at_ms}, {"terminalReason", a.terminal_reason}};
        if (a.decision) {
          out["decision"] = *a.decision;
        } else {
          out["decision"] = nullptr;
        }
        live->send(res_ok(id, std::move(out)));
      };
      if (ext->second->settled) return answer(*ext->second);
      ext->second->on_settled.push_back(answer);
      return;
    }
    if (found == pending.end()) return c->send(res_error(id, "INVALID_REQUEST", "approval expired or not found"));
    int64_t created = int_member(*found, "createdAtMs").value_or(0), expires = int_member(*found, "expiresAtMs").value_or(0);
    service_waiters_[approval_id].push_back([weak, id, approval_id, created, expires](const std::optional<std::string>& decision) {
      auto live = weak.lock();
      if (!live) return;
      json::Object out{{"id", approval_id}, {"createdAtMs", created}, {"expiresAtMs", expires},
                       {"terminalReason", decision ? "user" : "timeout"}};
      if (decision) {
        out["decision"] = *decision;
      } else {
        out["decision"] = nullptr;
      }
      live->send(res_ok(id, std::move(out)));
    });
    return;
  }

  if (!is_external && found == pending.end()) {
    return c->send(res_error(id, "INVALID_REQUEST", "unknown or expired approval id", json::Object{{"reason", "APPROVAL_NOT_FOUND"}}));
  }
  if (method == "exec.approval.get") {
    if (is_external) {
      const ExternalApproval& a = *ext->second;
      return c->send(res_ok(id, json::Object{{"id", a.id},
                                             {"commandText", a.request.at("command")},
                                             {"allowedDecisions", frames::to_array(a.allowed)},
                                             {"host", a.request.at("host")},
                                             {"nodeId", a.request.at("nodeId")},
                                             {"agentId", a.request.at("agentId")},
                                             {"expiresAtMs", a.expires_at_ms}}));
    }
    json::Object out{{"id", approval_id}, {"commandText", shown(str(*found, "command"))}, {"host", shown(str(*found, "host"))},
                     {"nodeId", nullptr}, {"agentId", shown(str(*found, "agentId"))}};
    if (const json::Value* n = json::find(*found, "nodeId"); n && n->is_string()) out["nodeId"] = *n;
    if (const json::Value* d = json::find(*found, "allowedDecisions")) out["allowedDecisions"] = *d;
    if (auto v = int_member(*found, "expiresAtMs")) out["expiresAtMs"] = *v;
    return c->send(res_ok(id, std::move(out)));
  }
  // exec.approval.resolve
  std::string decision = str(params, "decision");
  if (decision != "allow-once" && decision != "allow-always" && decision != "deny") {
    return c->send(res_error(id, "INVALID_REQUEST", "invalid decision"));
  }
  std::weak_ptr<Connection> weak = c;
  auto answered = [weak, id](Result<void> r) {
    auto live = weak.lock();
    if (!live) return;
    if (!r.ok()) return live->send(res_error(id, "INVALID_REQUEST", r.error().message));
    live->send(res_ok(id, json::Object{{"ok", true}}));
  };
  if (is_external) {
    if (ext->second->settled) return c->send(res_error(id, "INVALID_REQUEST", "unknown or expired approval id", json::Object{{"reason", "APPROVAL_NOT_FOUND"}}));
    resolve_external(approval_id, decision, "gateway", answered);
    return;
  }
  // A node run of another process is granted before that process hears the decision, so its
  // approved node.invoke never arrives ahead of the grant; a resolve that fails takes it back.
  if (auto node_request = service_node_requests_.find(approval_id); node_request != service_node_requests_.end()) {
    grant_node_run(approval_id, node_request->second, decision);
    std::weak_ptr<bool> alive = alive_;
    source_.resolve(approval_id, decision, "gateway", [this, alive, approval_id, answered](Result<void> r) {
      if (!r.ok() && !alive.expired()) node_grants_.erase(approval_id);
      answered(std::move(r));
    });
    return;
  }
  source_.resolve(approval_id, decision, "gateway", answered);
}

void OperatorHub::approval_requested(const json::Object& approval) {
  // Grants are for other processes' node runs only: this gateway's own exec services send
  // their approved runs to the node directly, so a grant for them would be a second run.
  std::optional<int64_t> owner = int_member(approval, "pid");
  bool other_process = owner && *owner != static_cast<int64_t>(::getpid());
  if (other_process && str(approval, "host") == "node" && obj(approval, "systemRunPlan")) {
    service_node_requests_[str(approval, "id")] = approval;
  }
  broadcast("exec.approval.requested", service_record(approval), "operator.approvals");
}

void OperatorHub::approval_resolved(const std::string& id, const std::string& decision, const std::string& resolved_by) {
  json::Object payload{{"id", id}, {"resolvedBy", resolved_by}, {"ts", epoch_ms()}};
  if (decision.empty()) {
    payload["decision"] = nullptr;
  } else {
    payload["decision"] = decision;
  }
  broadcast("exec.approval.resolved", payload, "operator.approvals");
  if (auto node_request = service_node_requests_.find(id); node_request != service_node_requests_.end()) {
    if (!decision.empty()) grant_node_run(id, node_request->second, decision);
    service_node_requests_.erase(node_request);
  }
  // Denied, expired or withdrawn: whatever was granted ahead of the decision is void.
  if (decision != "allow-once" && decision != "allow-always") node_grants_.erase(id);
  auto waiters = service_waiters_.find(id);
  if (waiters == service_waiters_.end()) return;
  auto callbacks = std::move(waiters->second);
  service_waiters_.erase(waiters);
  std::optional<std::string> d;
  if (!decision.empty()) d = decision;
  for (auto& cb : callbacks) cb(d);
}

void OperatorHub::grant_node_run(const std::string& id, const json::Object& request, const std::string& decision) {
  const int64_t now = epoch_ms();
  for (auto it = node_grants_.begin(); it != node_grants_.end();) {
    it = it->second.expires_at_ms < now ? node_grants_.erase(it) : std::next(it);
  }
  if (decision != "allow-once" && decision != "allow-always") return;
  if (node_grants_.count(id)) return;  // granted once: never renewed (a used grant stays used)
  if (const json::Value* allowed = json::find(request, "allowedDecisions"); allowed && allowed->is_array()) {
    bool offered = false;
    for (const json::Value& d : allowed->get_array()) offered = offered || (d.is_string() && d.get_string() == decision);
    if (!offered) return;
  }
  const json::Value* host = json::find(request, "host");
  const json::Object* plan = obj(request, "systemRunPlan");
  std::string node_id = str(request, "nodeId");
  if (!host || !host->is_string() || host->get_string() != "node" || !plan || node_id.empty()) return;
  std::vector<std::string> env_keys = json::strings_member(request, "envKeys");
  std::sort(env_keys.begin(), env_keys.end());
  node_grants_[id] = NodeRunGrant{node_id, *plan, std::move(env_keys), decision, now + kNodeGrantTtlMs, false};
}

const OperatorHub::NodeRunGrant* OperatorHub::use_node_grant(const std::string& run_id, const std::string& node_id,
                                                             const json::Value* argv, const std::vector<std::string>& env_keys) {
  auto it = node_grants_.find(run_id);
  if (it == node_grants_.end()) return nullptr;
  NodeRunGrant& g = it->second;
  const json::Value* planned = json::find(g.plan, "argv");
  if (g.used || g.expires_at_ms < epoch_ms() || g.node_id != node_id || !argv || !planned || *argv != *planned) return nullptr;
  if (env_keys != g.env_keys) return nullptr;
  g.used = true;
  return &g;
}

}  // namespace clawexec::gateway
