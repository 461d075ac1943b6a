// Mirroring the other processes' approvals from the operator channel: see channel_mirror.h.

#include "daemon/channel_mirror.h"

#include <boost/asio/post.hpp>
#include <chrono>

#include "approvals/operator_client.h"

namespace clawexec::daemon {
namespace asio = boost::asio;
namespace {

std::string str(const json::Object& o, std::string_view key) {
  const json::Value* v = json::find(o, key);
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

int64_t pid_of(const json::Object& o) {
  const json::Value* v = json::find(o, "pid");
  if (v && v->is_int64()) return v->get_int64();
  if (v && v->is_uint64()) return static_cast<int64_t>(v->get_uint64());
  return 0;
}

}  // namespace

ChannelMirror::ChannelMirror(asio::io_context& io, std::string socket_path, std::string token, pid_t self, Events events)
    : io_(io), socket_path_(std::move(socket_path)), token_(std::move(token)), self_(self), events_(std::move(events)) {}

ChannelMirror::~ChannelMirror() { stop(); }

void ChannelMirror::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void ChannelMirror::stop() {
  *alive_ = false;
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

std::vector<json::Object> ChannelMirror::pending() const {
  std::vector<json::Object> out;
  for (const auto& [id, a] : approvals_) out.push_back(a);
  return out;
}

void ChannelMirror::run() {
  int backoff_ms = 50;
  std::weak_ptr<bool> alive = alive_;
  while (!stopping_) {
    Result<std::unique_ptr<approvals::OperatorClient>> client = approvals::OperatorClient::connect(socket_path_, token_, 2000);
    std::vector<json::Object> listed;
    bool ok = client.ok();
    if (ok) {
      Result<std::vector<json::Object>> list = (*client)->list();
      ok = list.ok() && (*client)->subscribe().ok();
      if (ok) listed = std::move(*list);
    }
    if (!ok) {
      asio::post(io_, [this, alive] {
        if (!alive.expired()) on_snapshot({});
      });
      carry_out_resolutions(false);
      for (int waited = 0; waited < backoff_ms && !stopping_; waited += 25) std::this_thread::sleep_for(std::chrono::milliseconds(25));
      backoff_ms = std::min(backoff_ms * 2, 1000);
      continue;
    }
    backoff_ms = 50;
    asio::post(io_, [this, alive, listed = std::move(listed)]() mutable {
      if (!alive.expired()) on_snapshot(std::move(listed));
    });
    while (!stopping_) {
      carry_out_resolutions(true);
      Result<std::optional<json::Object>> message = (*client)->next_message(100);
      if (!message.ok()) break;  // the hub went away: elect-and-reconnect
      if (!*message) continue;
      asio::post(io_, [this, alive, event = std::move(**message)] {
        if (!alive.expired()) on_event(event);
      });
    }
  }
}

void ChannelMirror::on_snapshot(std::vector<json::Object> listed) {
  std::map<std::string, json::Object> next;
  for (json::Object& a : listed) {
    if (pid_of(a) == self_ || str(a, "id").empty()) continue;
    std::string id = str(a, "id");
    next[id] = std::move(a);
  }
  for (const auto& [id, a] : approvals_) {
    if (!next.count(id) && events_.resolved) events_.resolved(id, "", "channel-gone");
  }
  for (const auto& [id, a] : next) {
    if (!approvals_.count(id) && events_.requested) events_.requested(a);
  }
  approvals_ = std::move(next);
}

void ChannelMirror::on_event(const json::Object& event) {
  if (str(event, "type") != "event") return;
  std::string name = str(event, "event");
  if (name == "requested") {
    const json::Value* a = json::find(event, "approval");
    if (!a || !a->is_object() || pid_of(a->get_object()) == self_) return;
    std::string id = str(a->get_object(), "id");
    if (id.empty() || approvals_.count(id)) return;
    approvals_[id] = a->get_object();
    if (events_.requested) events_.requested(a->get_object());
  } else if (name == "resolved") {
    std::string id = str(event, "id");
    auto it = approvals_.find(id);
    if (it == approvals_.end()) return;
    approvals_.erase(it);
    if (events_.resolved) events_.resolved(id, str(event, "decision"), str(event, "resolvedBy"));
  }
}

void ChannelMirror::resolve(const std::string& id, const std::string& decision, const std::string& resolved_by,
                            std::function<void(Result<void>)> done) {
  (void)resolved_by;  // the channel records its operator connection as the resolver
  std::lock_guard<std::mutex> lock(queue_mutex_);
  queue_.push_back({id, decision, std::move(done)});
}

void ChannelMirror::carry_out_resolutions(bool channel_up) {
  std::vector<Resolution> batch;
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    batch.swap(queue_);
  }
  std::weak_ptr<bool> alive = alive_;
  for (Resolution& r : batch) {
    Result<void> outcome;
    if (!channel_up) {
      outcome = Error{ErrorCode::kNotFound, 0, "the operator channel is not reachable; approval " + r.id + " cannot be resolved now"};
    } else {
      Result<std::unique_ptr<approvals::OperatorClient>> client = approvals::OperatorClient::connect(socket_path_, token_, 2000);
      if (!client.ok()) {
        outcome = client.error();
      } else {
        Result<json::Object> reply = (*client)->resolve(r.id, r.decision);
        if (!reply.ok()) {
          outcome = reply.error();
        } else if (const json::Value* ok = json::find(*reply, "ok"); !ok || !ok->is_bool() || !ok->get_bool()) {
          outcome = Error::invalid(str(*reply, "error").empty() ? "the operator channel refused the resolution" : str(*reply, "error"));
        }
      }
    }
    asio::post(io_, [alive, done = std::move(r.done), outcome = std::move(outcome)]() mutable {
      if (!alive.expired()) done(std::move(outcome));
    });
  }
}

}  // namespace clawexec::daemon
