#pragma once
// OperatorChannel's state, shared by the election/member half (operator_channel.cc) and the
// hub half (operator_channel_hub.cc). Not part of the public API.

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/json/object.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "approvals/operator_channel.h"
#include "approvals/operator_channel_wire.h"
#include "sys/fd.h"

namespace clawexec::approvals {

struct OperatorChannel::Impl : std::enable_shared_from_this<OperatorChannel::Impl> {
  enum class State { kIdle, kElecting, kMember, kHub, kStopped };
  enum class Role { kUnknown, kOperator, kMember };

  // One accepted connection on the hub.
  struct Peer {
    std::shared_ptr<JsonConnection> conn;
    Role role = Role::kUnknown;
    int32_t pid = 0;
    bool subscribed = false;
    std::vector<boost::json::object> pending;  // a member's approvals, in arrival order
  };

  // Where one approval lives, for resolution.
  struct Owner {
    uint64_t peer = 0;  // 0: this process (the hub's own provider)
    boost::json::object approval;
  };

  Impl(boost::asio::io_context& io_context, std::string path, std::string secret, Provider local,
       Options opts);

  // ---- election and member side (operator_channel.cc) ----
  void attempt();
  void schedule_retry();
  void connected_to_hub(std::shared_ptr<JsonConnection> conn);
  void member_message(const boost::json::object& message);
  void hub_lost();
  bool try_become_hub();
  void push_all_pending();
  void shutdown();

  // ---- hub side (operator_channel_hub.cc) ----
  void accept_next();
  void accepted(boost::asio::local::stream_protocol::socket socket);
  void hub_message(uint64_t peer_id, const boost::json::object& message);
  void peer_message(Peer& peer, uint64_t peer_id, const boost::json::object& message);
  void peer_closed(uint64_t peer_id);
  std::vector<Owner> all_pending();
  void resolve(const std::string& input_id, const std::string& decision, const std::string& resolved_by,
               std::function<void(Result<std::string>)> done);
  void handle_command(const std::shared_ptr<JsonConnection>& conn, const boost::json::object& request);
  void broadcast(const boost::json::object& event);
  void release_hub();

  boost::json::object with_pid(boost::json::object approval, int32_t owner_pid) const;
  // Logs a refusal; a line equal to the previous one is not repeated (election retries).
  void log_refusal(const std::string& line);

  boost::asio::io_context& io;
  std::string socket_path;
  std::string lock_path;
  std::string token;
  Provider provider;
  Options options;
  int32_t pid = 0;
  uint32_t uid = 0;

  State state = State::kIdle;
  std::string last_error;
  std::string last_logged;
  boost::asio::steady_timer timer;
  int retry_delay_ms = 0;

  // Member side.
  std::shared_ptr<JsonConnection> hub_conn;

  // Hub side.
  std::optional<boost::asio::local::stream_protocol::acceptor> acceptor;
  sys::UniqueFd lock_fd;
  uint64_t socket_dev = 0;
  uint64_t socket_ino = 0;
  std::map<uint64_t, Peer> peers;
  uint64_t next_peer_id = 1;
  struct Forward {
    uint64_t peer = 0;
    std::function<void(Result<std::string>)> done;
    std::string id;
  };
  std::map<uint64_t, Forward> forwards;
  uint64_t next_forward_id = 1;
};

}  // namespace clawexec::approvals
