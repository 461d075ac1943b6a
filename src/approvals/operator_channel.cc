// The operator channel's election and member side.
//
// Problem: any number of clawexec processes share one approvals socket, and the process that
// listens on it (the hub) may exit at any time. Approach: the right to listen is an exclusive
// flock on `<socket>.lock`, taken without blocking and kept for the hub's whole life (the
// kernel drops it when the process dies), so removing a stale socket file can never delete a
// live hub's socket. Everyone else connects, says hello as a member, pushes its pending
// approvals and then serves the resolutions the hub forwards. When the hub connection drops,
// the member elects again; attempts back off from Options::retry_initial_ms to retry_max_ms.

#include "approvals/operator_channel.h"

#include <unistd.h>


#include <cstdio>

#include "approvals/operator_channel_internal.h"
#include "approvals/peer_check.h"
#include "json/json.h"
#include "sys/file_system.h"
#include "term/display_escape.h"

namespace clawexec::approvals {

namespace bj = boost::json;
using boost::asio::local::stream_protocol;

OperatorChannel::Impl::Impl(boost::asio::io_context& io_context, std::string path, std::string secret,
                            Provider local, Options opts)
    : io(io_context),
      socket_path(std::move(path)),
      lock_path(socket_path + ".lock"),
      token(std::move(secret)),
      provider(std::move(local)),
      options(opts),
      pid(static_cast<int32_t>(::getpid())),
      uid(static_cast<uint32_t>(::getuid())),
      timer(io_context),
      retry_delay_ms(opts.retry_initial_ms) {
  if (!options.refuse_peer) options.refuse_peer = &operator_peer_refusal;
  if (!options.refuse_self) {
    options.refuse_self = []() -> std::optional<std::string> {
      std::optional<std::string> supervisor = supervision_of_this_process();
      if (!supervisor) return std::nullopt;
      return "operator channel: not joining: " + *supervisor + "; approvals must come from a human";
    };
  }
  if (!options.log) {
    options.log = [](const std::string& line) {
      std::fprintf(stderr, "clawexec: %s\n", term::escape_for_display(line, term::DisplayStyle::kLines).c_str());
    };
  }
}

void OperatorChannel::Impl::log_refusal(const std::string& line) {
  if (line == last_logged) return;
  last_logged = line;
  options.log(line);
}

bj::object OperatorChannel::Impl::with_pid(bj::object approval, int32_t owner_pid) const {
  if (!approval.contains("pid")) approval["pid"] = owner_pid;
  return approval;
}

void OperatorChannel::Impl::schedule_retry() {
  if (state == State::kStopped) return;
  state = State::kElecting;
  timer.expires_after(std::chrono::milliseconds(retry_delay_ms));
  retry_delay_ms = std::min(options.retry_max_ms, retry_delay_ms * 2);
  timer.async_wait([weak = weak_from_this()](const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (!ec && self) self->attempt();
  });
}

void OperatorChannel::Impl::attempt() {
  if (state == State::kStopped || state == State::kHub || state == State::kMember) return;
  state = State::kElecting;
  auto socket = std::make_shared<stream_protocol::socket>(io);
  socket->async_connect(stream_protocol::endpoint(socket_path), [weak = weak_from_this(), socket](
                                                                    const boost::system::error_code& ec) {
    auto self = weak.lock();
    if (!self || self->state != State::kElecting) return;
    if (!ec) {
      set_close_on_exec(socket->native_handle());
      self->connected_to_hub(std::make_shared<JsonConnection>(std::move(*socket)));
      return;
    }
    const bool nobody_listens = ec == boost::asio::error::connection_refused ||
                                ec == boost::system::errc::no_such_file_or_directory;
    if (nobody_listens && self->try_become_hub()) return;
    if (!nobody_listens) self->last_error = "connect " + self->socket_path + ": " + ec.message();
    self->schedule_retry();
  });
}

// Says hello as a member; the hub's hello reply makes this process a member.
void OperatorChannel::Impl::connected_to_hub(std::shared_ptr<JsonConnection> conn) {
  auto peer = peer_identity(conn->socket());
  if (!peer.ok() || peer->uid != uid) {
    last_error = peer.ok() ? "operator socket " + socket_path + " is owned by another user" : peer.error().message;
    conn->close();
    schedule_retry();
    return;
  }
  // A hub started by an agent's command must not receive our approvals nor send us decisions.
  if (std::optional<std::string> refusal = options.refuse_peer(conn->socket().native_handle())) {
    last_error = *refusal + " (the approvals hub on " + socket_path + ")";
    log_refusal(last_error);
    conn->close();
    schedule_retry();
    return;
  }
  hub_conn = conn;
  std::weak_ptr<JsonConnection> weak_conn = conn;
  conn->start(
      [weak = weak_from_this()](const bj::object& message) {
        if (auto self = weak.lock()) self->member_message(message);
      },
      [weak = weak_from_this(), weak_conn] {
        auto self = weak.lock();
        if (self && self->hub_conn == weak_conn.lock()) self->hub_lost();
      });
  conn->send({{"type", "hello"}, {"token", token}, {"role", "member"}, {"pid", pid}});
  // A hub that never answers the hello is treated as gone.
  timer.expires_after(std::chrono::milliseconds(std::max(2000, options.retry_max_ms * 2)));
  timer.async_wait([weak = weak_from_this(), weak_conn](const boost::system::error_code& ec) {
    auto self = weak.lock();
    auto c = weak_conn.lock();
    if (ec || !self || !c || self->state != State::kElecting || self->hub_conn != c) return;
    self->last_error = "the approvals hub did not answer the hello";
    c->close();
  });
}

void OperatorChannel::Impl::member_message(const bj::object& message) {
  const bj::value* type = json::find(message, "type");
  const std::string kind = type && type->is_string() ? std::string(type->as_string()) : "";
  if (kind == "hello" && state == State::kElecting) {
    const bj::value* ok = json::find(message, "ok");
    if (!ok || !ok->is_bool() || !ok->as_bool()) return;
    timer.cancel();
    state = State::kMember;
    retry_delay_ms = options.retry_initial_ms;
    last_error.clear();
    push_all_pending();
    return;
  }
  if (kind == "error") {
    const bj::value* error = json::find(message, "error");
    last_error = "approvals hub: " + (error && error->is_string() ? std::string(error->as_string()) : "error");
    return;
  }
  if (kind != "resolve" || state != State::kMember) return;
  const bj::value* id = json::find(message, "id");
  const bj::value* decision = json::find(message, "decision");
  const bj::value* by = json::find(message, "resolvedBy");
  const bj::value* forward = json::find(message, "forwardId");
  if (!id || !id->is_string() || !decision || !decision->is_string() || !forward) return;
  std::weak_ptr<JsonConnection> weak_conn = hub_conn;
  auto done = [weak_conn, forward_id = *forward](Result<void> result) {
    auto conn = weak_conn.lock();
    if (!conn) return;
    bj::object reply{{"type", "resolve.result"}, {"forwardId", forward_id}, {"ok", result.ok()}};
    if (!result.ok()) reply["error"] = result.error().message;
    conn->send(reply);
  };
  if (!provider.resolve) {
    done(Error::internal("this process cannot resolve approvals"));
    return;
  }
  provider.resolve(std::string(id->as_string()), std::string(decision->as_string()),
                   by && by->is_string() ? std::string(by->as_string()) : std::string("operator"), done);
}

void OperatorChannel::Impl::push_all_pending() {
  if (!hub_conn || !provider.list) return;
  for (bj::object& approval : provider.list()) {
    hub_conn->send({{"type", "pending.add"}, {"approval", with_pid(std::move(approval), pid)}});
  }
}

void OperatorChannel::Impl::hub_lost() {
  hub_conn.reset();
  if (state == State::kStopped) return;
  timer.cancel();
  const bool was_member = state == State::kMember;
  state = State::kElecting;
  if (was_member) {
    retry_delay_ms = options.retry_initial_ms;
    attempt();
  } else {
    schedule_retry();
  }
}

// Takes the election lock and listens. False when another process holds the lock (it is
// starting up or serving) or the socket cannot be set up; the caller retries later.
bool OperatorChannel::Impl::try_become_hub() {
  Result<std::optional<sys::UniqueFd>> locked = sys::try_lock_file(lock_path);
  if (!locked.ok()) {
    last_error = locked.error().message;
    return false;
  }
  if (!locked.value()) return false;  // someone else is (becoming) the hub
  sys::UniqueFd lock = std::move(*locked.value());
  auto existing = sys::lstat_path(socket_path);
  if (existing.ok() && *existing) {
    if ((*existing)->type != sys::FileType::kOther) {
      last_error = "refusing to replace " + socket_path + ": it is not a socket";
      return false;
    }
    ignore_error(sys::remove_file(socket_path));
  }
  boost::system::error_code ec;
  stream_protocol::acceptor listener(io);
  listener.open(stream_protocol(), ec);
  if (!ec) set_close_on_exec(listener.native_handle());
  if (!ec) listener.bind(stream_protocol::endpoint(socket_path), ec);
  if (!ec) {
    auto mode = sys::change_mode(socket_path, 0600);
    if (!mode.ok()) ec = boost::system::error_code(mode.error().sys_errno, boost::system::generic_category());
  }
  if (!ec) listener.listen(boost::asio::socket_base::max_listen_connections, ec);
  if (ec) {
    last_error = "listen on " + socket_path + ": " + ec.message();
    return false;
  }
  auto info = sys::lstat_path(socket_path);
  if (info.ok() && *info) {
    socket_dev = (*info)->dev;
    socket_ino = (*info)->ino;
  }
  acceptor.emplace(std::move(listener));
  lock_fd = std::move(lock);
  state = State::kHub;
  retry_delay_ms = options.retry_initial_ms;
  last_error.clear();
  accept_next();
  return true;
}

void OperatorChannel::Impl::shutdown() {
  if (state == State::kStopped) return;
  const bool was_hub = state == State::kHub;
  state = State::kStopped;
  timer.cancel();
  if (hub_conn) {
    auto conn = std::move(hub_conn);
    conn->close();
  }
  if (was_hub) release_hub();
}

// ---- public surface ----

OperatorChannel::OperatorChannel(boost::asio::io_context& io, std::string socket_path, std::string token,
                                 Provider provider)
    : OperatorChannel(io, std::move(socket_path), std::move(token), std::move(provider), Options{}) {}

OperatorChannel::OperatorChannel(boost::asio::io_context& io, std::string socket_path, std::string token,
                                 Provider provider, Options options)
    : impl_(std::make_shared<Impl>(io, std::move(socket_path), std::move(token), std::move(provider), options)) {}

OperatorChannel::~OperatorChannel() { stop(); }

void OperatorChannel::start() {
  if (impl_->state != Impl::State::kIdle) return;
  if (std::optional<std::string> refusal = impl_->options.refuse_self()) {
    impl_->state = Impl::State::kStopped;
    impl_->last_error = *refusal;
    impl_->log_refusal(*refusal);
    return;
  }
  impl_->attempt();
}

void OperatorChannel::stop() { impl_->shutdown(); }

bool OperatorChannel::is_hub() const { return impl_->state == Impl::State::kHub; }
bool OperatorChannel::is_member() const { return impl_->state == Impl::State::kMember; }
std::string OperatorChannel::last_error() const { return impl_->last_error; }

size_t OperatorChannel::foreign_subscribers() const {
  size_t n = 0;
  for (const auto& [id, peer] : impl_->peers) {
    if (peer.role == Impl::Role::kOperator && peer.subscribed && peer.pid != impl_->pid) ++n;
  }
  return n;
}

void OperatorChannel::publish_requested(const bj::object& approval) {
  Impl& c = *impl_;
  bj::object full = c.with_pid(approval, c.pid);
  if (c.state == Impl::State::kHub) {
    c.broadcast({{"type", "event"}, {"event", "requested"}, {"approval", std::move(full)}});
  } else if (c.state == Impl::State::kMember && c.hub_conn) {
    c.hub_conn->send({{"type", "pending.add"}, {"approval", std::move(full)}});
  }
  // Not connected: the next successful election pushes Provider::list, which includes it.
}

void OperatorChannel::publish_resolved(const std::string& id, const std::string& decision,
                                       const std::string& resolved_by) {
  Impl& c = *impl_;
  bj::value decision_value = decision.empty() ? bj::value(nullptr) : bj::value(decision);
  if (c.state == Impl::State::kHub) {
    c.broadcast({{"type", "event"},
                 {"event", "resolved"},
                 {"id", id},
                 {"decision", decision_value},
                 {"resolvedBy", resolved_by},
                 {"pid", c.pid}});
  } else if (c.state == Impl::State::kMember && c.hub_conn) {
    c.hub_conn->send(
        {{"type", "pending.remove"}, {"id", id}, {"decision", decision_value}, {"resolvedBy", resolved_by}});
  }
}

void OperatorChannel::publish_event(const std::string& event, const bj::object& fields) {
  Impl& c = *impl_;
  bj::object message{{"type", "event"}, {"event", event}};
  for (const auto& field : fields) {
    if (field.key() != "type" && field.key() != "event") message[field.key()] = field.value();
  }
  if (!message.contains("pid")) message["pid"] = c.pid;
  if (c.state == Impl::State::kHub) {
    c.broadcast(message);
  } else if (c.state == Impl::State::kMember && c.hub_conn) {
    c.hub_conn->send(message);
  }
}

}  // namespace clawexec::approvals
