// `clawexec.sessions.*`: the exec sessions of every client of the gateway, for operators. OpenClaw's
// protocol has no methods for exec sessions, so these are ours, namespaced, and listed in
// hello-ok: list (every agent's sessions with their client scope), log (a slice, paged by
// line offset/limit as the process tool's log), follow/unfollow (events
// `clawexec.session.output` with the new output and `clawexec.session.exited` at the end; log
// and output carry the stripped colours as `styles` for the UI), and
// write / sendKeys / submit / paste / kill, which are the process tool's actions run in the
// operator's view (tools::run_operator_process_action).
//
// Scopes: reading needs operator.read, kill operator.write, and typing into a session
// operator.admin — input to a running shell is a command that no policy analysed.

#include <algorithm>

#include "base/time.h"
#include "base/utf.h"
#include "gateway/operator_internal.h"
#include "tools/exec_tool.h"
#include "tools/output_styles.h"

namespace clawexec::gateway {
namespace {

// At most this much new output goes into one clawexec.session.output event; a follower that
// falls further behind gets the newest part and the count of what it missed (log has it all).
constexpr size_t kFollowChunkUnits = 256 * 1024;

struct Located {
  std::string agent;
  exec::ExecService* service = nullptr;
  std::shared_ptr<session::Session> session;
};

std::shared_ptr<session::Session> find_session(exec::ExecService& service, const std::string& id) {
  Result<std::string> resolved = service.registry().resolve_id(id, std::nullopt);
  if (!resolved.ok()) return nullptr;
  if (auto s = service.registry().running(*resolved)) return s;
  return service.registry().finished(*resolved);
}

json::Object exit_payload(const std::string& agent, const session::Session& s) {
  json::Object out{{"agentId", agent}, {"sessionId", s.id}};
  if (s.exit) {
    out["status"] = s.exit->status == session::TerminalStatus::kCompleted ? "completed" : "failed";
    if (s.exit->exit_code) {
      out["exitCode"] = *s.exit->exit_code;
    } else {
      out["exitCode"] = nullptr;
    }
    if (!s.exit->exit_signal.empty()) out["exitSignal"] = s.exit->exit_signal;
    out["timedOut"] = s.exit->timed_out();
  }
  if (s.ended_at) out["endedAt"] = *s.ended_at;
  return out;
}

}  // namespace

void OperatorHub::session_method(const std::shared_ptr<Connection>& c, const std::string& id, const std::string& method,
                                 const json::Object& params) {
  auto services = options_.services ? options_.services() : std::vector<std::pair<std::string, exec::ExecService*>>{};
  const json::Value* agent_value = json::find(params, "agentId");
  if (agent_value && (!agent_value->is_string() || agent_value->get_string().empty())) {
    return c->send(res_error(id, "INVALID_REQUEST", "invalid " + method + " params: agentId must be a non-empty string"));
  }
  std::string agent = agent_value ? std::string(agent_value->get_string()) : std::string();
  if (!agent.empty()) {
    services.erase(std::remove_if(services.begin(), services.end(), [&](const auto& p) { return p.first != agent; }), services.end());
    if (services.empty() && method != "clawexec.sessions.list") {
      return c->send(res_error(id, "INVALID_REQUEST", "unknown agent: " + agent + " (no session of it has run on this gateway)"));
    }
  }

  if (method == "clawexec.sessions.list") {
    json::Array all;
    for (auto& [name, service] : services) {
      tools::run_operator_process_action(*service, json::Object{{"action", "list"}}, [&all, name = name](tools::ToolResult r) {
        if (!r.details) return;
        const json::Value* sessions = json::find(*r.details, "sessions");
        if (!sessions || !sessions->is_array()) return;
        for (const json::Value& v : sessions->get_array()) {
          json::Object e = v.get_object();
          e["agentId"] = name;
          all.emplace_back(std::move(e));
        }
      });
    }
    return c->send(res_ok(id, json::Object{{"sessions", std::move(all)}}));
  }

  std::string session_id = str(params, "sessionId");
  if (session_id.empty()) return c->send(res_error(id, "INVALID_REQUEST", "invalid " + method + " params: sessionId (string) required"));
  std::vector<Located> found;
  for (auto& [name, service] : services) {
    if (auto s = find_session(*service, session_id)) found.push_back({name, service, s});
  }
  if (found.empty()) return c->send(res_error(id, "INVALID_REQUEST", "No session found for " + session_id));
  if (found.size() > 1) {
    return c->send(res_error(id, "INVALID_REQUEST", "session id " + session_id + " names sessions of several agents; give agentId"));
  }
  Located at = found.front();

  if (method == "clawexec.sessions.follow") {
    auto existing = std::find_if(c->follows.begin(), c->follows.end(),
                                 [&](const Connection::Follow& f) { return f.agent == at.agent && f.session_id == at.session->id; });
    uint64_t total = at.session->output.total_output_chars();
    // What is already there comes from log; the events carry what comes next.
    if (existing == c->follows.end()) c->follows.push_back({at.agent, at.session->id, total});
    c->send(res_ok(id, json::Object{{"agentId", at.agent}, {"sessionId", at.session->id}, {"totalChars", total},
                                    {"running", !at.session->exited}}));
    if (at.session->exited) {
      c->follows.erase(std::remove_if(c->follows.begin(), c->follows.end(),
                                      [&](const Connection::Follow& f) { return f.agent == at.agent && f.session_id == at.session->id; }),
                       c->follows.end());
      return c->send(frames::event("clawexec.session.exited", exit_payload(at.agent, *at.session)));
    }
    return schedule_follow();
  }
  if (method == "clawexec.sessions.unfollow") {
    size_t before = c->follows.size();
    c->follows.erase(std::remove_if(c->follows.begin(), c->follows.end(),
                                    [&](const Connection::Follow& f) { return f.agent == at.agent && f.session_id == at.session->id; }),
                     c->follows.end());
    return c->send(res_ok(id, json::Object{{"sessionId", at.session->id}, {"followed", before != c->follows.size()}}));
  }

  static const std::map<std::string, std::string> kActions = {{"clawexec.sessions.log", "log"},
                                                               {"clawexec.sessions.write", "write"},
                                                               {"clawexec.sessions.sendKeys", "send-keys"},
                                                               {"clawexec.sessions.submit", "submit"},
                                                               {"clawexec.sessions.paste", "paste"},
                                                               {"clawexec.sessions.kill", "kill"}};
  json::Object args = params;
  args.erase("agentId");
  args["action"] = kActions.at(method);
  args["sessionId"] = at.session->id;
  std::weak_ptr<Connection> weak = c;
  std::string agent_id = at.agent;
  std::weak_ptr<session::Session> session = at.session;
  const bool is_log = method == "clawexec.sessions.log";
  tools::run_operator_process_action(*at.service, args, [weak, id, agent_id, session, is_log](tools::ToolResult r) {
    auto live = weak.lock();
    if (!live) return;
    if (r.is_error) return live->send(res_error(id, "INVALID_REQUEST", r.text));
    json::Object out = r.details ? *r.details : json::Object();
    out["agentId"] = agent_id;
    // totalChars counts what the session still holds; follow events count from the start of
    // the stream. A page joins the two with this (the log is read on this turn of the io thread).
    if (auto s = session.lock(); s && is_log) out["streamChars"] = s->output.total_output_chars();
    out["text"] = r.text;
    live->send(res_ok(id, std::move(out)));
  });
}

void OperatorHub::schedule_follow() {
  if (follow_scheduled_) return;
  follow_scheduled_ = true;
  follow_timer_.expires_after(std::chrono::milliseconds(options_.follow_interval_ms));
  std::weak_ptr<bool> alive = alive_;
  follow_timer_.async_wait([this, alive](const boost::system::error_code& ec) {
    if (ec || alive.expired()) return;
    follow_scheduled_ = false;
    check_followed();
  });
}

void OperatorHub::check_followed() {
  auto services = options_.services ? options_.services() : std::vector<std::pair<std::string, exec::ExecService*>>{};
  bool any = false;
  for (auto& [cid, c] : connections_) {
    for (auto it = c->follows.begin(); it != c->follows.end();) {
      auto service = std::find_if(services.begin(), services.end(), [&](const auto& p) { return p.first == it->agent; });
      std::shared_ptr<session::Session> s;
      if (service != services.end()) {
        s = service->second->registry().running(it->session_id);
        if (!s) s = service->second->registry().finished(it->session_id);
      }
      if (!s) {
        c->send(frames::event("clawexec.session.exited", json::Object{{"agentId", it->agent}, {"sessionId", it->session_id}, {"status", "gone"}}));
        it = c->follows.erase(it);
        continue;
      }
      uint64_t total = s->output.total_output_chars();
      if (total > it->sent_chars) {
        uint64_t fresh = total - it->sent_chars;
        size_t available = std::min<uint64_t>({fresh, s->output.aggregated_chars(), kFollowChunkUnits});
        std::string text(utf16_suffix(s->output.aggregated(), available));
        json::Object out{{"agentId", it->agent}, {"sessionId", s->id}, {"fromChars", total - available}, {"toChars", total}};
        if (available < fresh) out["dropped"] = fresh - available;
        // The colours in this text, as offsets into it (the UI's renderer carries them on).
        json::Array styles = tools::styles_json(s->output.style_marks().between(total - utf16_length(text), total));
        if (!styles.empty()) out["styles"] = std::move(styles);
        out["text"] = std::move(text);
        c->send(frames::event("clawexec.session.output", out));
        it->sent_chars = total;
      }
      if (s->exited && s->exit) {
        c->send(frames::event("clawexec.session.exited", exit_payload(it->agent, *s)));
        it = c->follows.erase(it);
        continue;
      }
      any = true;
      ++it;
    }
  }
  if (any) schedule_follow();
}

}  // namespace clawexec::gateway
