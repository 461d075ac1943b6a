#pragma once
// The node host's side of the gateway protocol: one WebSocket to the gateway, kept up for as
// long as the host runs. It answers the connect challenge with the signed node connect
// (connect_frame.h), keeps the device token the gateway issues, and serves the five system.*
// commands of node.invoke.request events with node.invoke.result requests.
//
// Beyond OpenClaw's node host: after PAIRING_REQUIRED it keeps retrying with backoff and goes
// live as soon as an operator approves, without a restart; after any disconnect (gateway
// restart, network loss, a silent gateway that stops ticking) it reconnects; and what it owes
// the gateway (exec.finished / exec.denied events and invoke results) waits in an outbox keyed
// by invoke id, so a result that finished while the link was down is delivered after the
// reconnect. Frames of one invoke are sent in order, the event before its result.
//
// Beyond OpenClaw, with our own gateway (the `clawexec.exec-stream` cap): streamed sessions
// (node_streams.cc). `clawexec.exec.start` starts a command like system.run but answers as
// soon as it runs; its output follows as `clawexec.exec.output` node events with byte offsets,
// its end as `clawexec.exec.exit`; `clawexec.exec.input` and `clawexec.exec.kill` act on it.
// Output the gateway has not confirmed is kept and sent again after a reconnect, and a command
// whose output the gateway cannot take (link down, slow reader) is paused, never cut.
//
// Everything runs on the io_context thread; file work (approvals, plans, the token file) runs
// on a worker thread and comes back.

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "json/json.h"
#include "net/ws_client.h"
#include "node/connect_frame.h"
#include "node/identity.h"
#include "exec/run.h"
#include "node/pipeline_runner.h"
#include "operator/operator_env.h"

namespace clawexec::node {

struct NodeClientOptions {
  std::string host = "127.0.0.1";
  uint16_t port = 18789;
  net::TlsMode tls = net::TlsMode::kOff;
  std::string display_name;
  std::string version;
  std::optional<std::string> env_token;     // $OPENCLAW_GATEWAY_TOKEN
  std::optional<std::string> flag_token;    // --token
  std::optional<std::string> config_token;  // gateway.auth.token
  std::string node_dir;                     // <state>/node
  std::string path_env;                     // PATH for system.which and plans
  std::string process_cwd;
  operator_ops::OperatorEnv files;          // the node's approvals document
  std::chrono::milliseconds reconnect_initial{1000};
  std::chrono::milliseconds reconnect_max{30000};
  std::chrono::milliseconds connect_timeout{10000};
  std::chrono::milliseconds stats_interval{60000};  // node.host.stats
  /// Streamed sessions whose gateway stays away this long are stopped (nobody can read them).
  std::chrono::milliseconds detached_limit{600000};
  std::function<void(const std::string& line)> log;
  /// Called when the host cannot go on (the gateway refused its credential for good).
  std::function<void(const std::string& why)> fatal;
};

/// The exec scope of the run an invoke started (what node.invoke.cancel stops).
inline std::string run_scope(const std::string& invoke_id) { return "node:" + invoke_id; }

class NodeClient : public std::enable_shared_from_this<NodeClient> {
 public:
  NodeClient(boost::asio::io_context& io, NodeClientOptions options, NodeIdentity identity, PipelineRunner& runner);
  ~NodeClient();
  NodeClient(const NodeClient&) = delete;
  NodeClient& operator=(const NodeClient&) = delete;

  void start();
  /// Closes the connection (1000) and stops reconnecting; `done` runs once it is closed.
  void stop(std::function<void()> done);
  bool live() const { return live_; }

 private:
  struct Outgoing {
    std::string invoke_id;
    std::string method;
    json::Object params;
    std::optional<std::string> sent_id;  // request id once written on the current connection
  };

  void connect();
  void schedule_reconnect();
  void on_message(const std::string& text);
  void on_closed(uint16_t code, const std::string& reason);
  void on_challenge(const json::Object& payload);
  void on_connect_response(const json::Object& frame);
  void on_response(const std::string& id, const json::Object& frame);
  void schedule_tick_watch();
  void schedule_stats();
  std::string next_request_id();
  void send_request(const std::string& method, json::Object params, std::string id);

  // Invokes.
  void on_invoke(const json::Object& payload);
  void answer(const std::string& invoke_id, json::Object params_json_payload);
  void answer_error(const std::string& invoke_id, const std::string& code, const std::string& message);
  void emit_event(const std::string& invoke_id, const std::string& event, json::Object payload);
  void enqueue(Outgoing out);
  void pump_outbox();
  void system_which(const std::string& invoke_id, const json::Object& params);
  void system_run(const std::string& invoke_id, json::Object params);
  template <class Work, class Then>
  void off_thread(Work work, Then then);

  // Streamed sessions (node_streams.cc).
  struct Stream {
    std::string id;  // the gateway's streamId
    std::shared_ptr<exec::Run> run;
    int64_t acked = 0;     // output bytes the gateway confirmed
    int64_t sent = 0;      // output bytes written on this connection (>= acked)
    // Output from offset `acked` on is unacked.substr(head): confirmed bytes are dropped from
    // the front lazily (once they are half the buffer), so a confirmation costs O(1) amortized
    // instead of moving up to kHighWater bytes.
    std::string unacked;
    size_t head = 0;
    size_t pending() const { return unacked.size() - head; }
    std::optional<json::Object> exit;  // the end, once the command exited
    bool exit_sent = false;
    bool paused = false;   // the command's output is not read until the gateway catches up
  };
  void stream_start(const std::string& invoke_id, json::Object params);
  void stream_input(const std::string& invoke_id, const json::Object& params);
  void stream_kill(const std::string& invoke_id, const json::Object& params);
  void stream_output(const std::shared_ptr<Stream>& stream, std::string_view text);
  void pump_stream(const std::shared_ptr<Stream>& stream);
  void pump_streams();
  /// The gateway's answer to a stream frame; false when `id` was not one.
  bool on_stream_response(const std::string& id, const json::Object& frame);
  void streams_link_down();
  void drop_stream(const std::string& stream_id, const std::string& why);

  boost::asio::io_context& io_;
  NodeClientOptions options_;
  NodeIdentity identity_;
  PipelineRunner& runner_;
  std::string endpoint_;
  std::optional<std::string> device_token_;
  NodeAuth auth_;
  std::shared_ptr<net::WsClient> ws_;
  std::string connect_id_;
  bool live_ = false;
  bool gateway_streams_ = false;  // the gateway's hello-ok offered the streaming extension
  bool stopping_ = false;
  std::function<void()> stopped_;
  std::chrono::milliseconds backoff_;
  boost::asio::steady_timer reconnect_timer_;
  boost::asio::steady_timer tick_timer_;
  boost::asio::steady_timer stats_timer_;
  int64_t tick_interval_ms_ = 30000;
  int64_t last_frame_ms_ = 0;
  uint64_t request_seq_ = 0;
  std::string pairing_request_id_;
  std::string last_close_;  // code and reason of the last close, for the log
  // The outbox: written in order as soon as live; an entry leaves when the gateway answers it,
  // and what is unanswered at a disconnect is written again after the reconnect.
  static constexpr size_t kMaxOutbox = 1024;
  std::deque<Outgoing> outbox_;
  std::set<std::string> active_invokes_;  // invoke ids being worked on or waiting in the outbox
  std::set<std::string> used_approvals_;  // runIds of approved runs already started
  std::map<std::string, std::shared_ptr<Stream>> streams_;  // by the gateway's streamId
  struct StreamFrame {
    std::string stream_id;
    int64_t end = -1;  // offset after the chunk; -1 = the exit frame
  };
  std::map<std::string, StreamFrame> stream_frames_;  // request id -> frame, on this connection
  boost::asio::steady_timer detached_timer_;
  bool detached_armed_ = false;  // since the link went down; failed reconnects do not re-arm it
  boost::asio::thread_pool worker_{1};
};

// Runs `work` on the worker thread and `then(client, result)` back on the io thread, unless
// the client is gone by then.
template <class Work, class Then>
void NodeClient::off_thread(Work work, Then then) {
  std::weak_ptr<NodeClient> weak = weak_from_this();
  boost::asio::post(worker_, [weak, work = std::move(work), then = std::move(then), &io = io_]() mutable {
    auto result = work();
    boost::asio::post(io, [weak, then = std::move(then), result = std::move(result)]() mutable {
      if (auto self = weak.lock()) then(*self, std::move(result));
    });
  });
}

}  // namespace clawexec::node
