#pragma once
// How the exec pipeline reaches node hosts without knowing the gateway protocol: the gateway
// (or, for a `serve` process, its link to the local gateway) implements this, the pipeline
// lists nodes for exec host=node and invokes `system.run.prepare` / `system.run` on them.
// Callbacks run on the io_context thread of the service that called.

#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "base/result.h"
#include "exec/node_selection.h"
#include "json/json.h"

namespace clawexec::exec {

/// A failed invoke: the node's error (code and message as it sent them), or the gateway's own
/// (`UNAVAILABLE` when the node disconnected, `TIMEOUT` at the deadline).
struct NodeInvokeError {
  std::string code;
  std::string message;
};

using NodeInvokeResult = std::variant<json::Value, NodeInvokeError>;

/// What a node said about a run beside its result (`node.event` exec.finished / exec.denied).
struct NodeRunEvent {
  std::string node_id;
  std::string event;  // exec.finished | exec.denied | exec.started
  json::Object payload;
};

/// The cap of a node host (ours) that serves streamed sessions: `clawexec.exec.start` starts a
/// command and answers once it runs, `clawexec.exec.output` / `clawexec.exec.exit` node events
/// carry its output (with byte offsets) and its end, `clawexec.exec.input` / `.kill` act on it.
inline constexpr const char* kNodeStreamCap = "clawexec.exec-stream";

/// What reaches a streamed session from its node.
struct NodeStreamEvent {
  enum class Kind {
    kOutput,    // `data` starts at byte `offset` of the session's output
    kExit,      // the end: `payload` has exitCode or signal (and timedOut), `offset` the total
    kLinkDown,  // the node's connection closed; the command may still run there
    kLinkUp,    // the node is back; its unconfirmed output follows
    kGone,      // the node is back without the session (it restarted): the command ended
  };
  Kind kind = Kind::kOutput;
  int64_t offset = 0;
  std::string data;
  json::Object payload;
};

/// Handles one event; false = the session is unknown or gone (the node then stops it).
using NodeStreamHandler = std::function<bool(const NodeStreamEvent&)>;

class NodeInvoker {
 public:
  virtual ~NodeInvoker() = default;
  /// Paired nodes, connected or not, as node.list describes them; an error when the gateway
  /// cannot be asked (names it and why).
  virtual void list_nodes(std::function<void(Result<std::vector<NodeSummary>>)> done) = 0;
  /// Sends `command` with `params` to the node; `done` runs once with its payload or an error,
  /// at the latest after `timeout_ms`. Returns a token for cancel(), or "" when this invoke
  /// cannot be cancelled.
  virtual std::string invoke(const std::string& node_id, const std::string& command, json::Object params, int64_t timeout_ms,
                             std::function<void(NodeInvokeResult)> done) = 0;
  /// Stops an invoke early: the node is told to stop it (`node.invoke.cancel`, its command's
  /// process tree is killed) and `done` gets CANCELLED. Unknown or finished tokens: nothing.
  virtual void cancel(const std::string& token) { (void)token; }
  /// Whether streamed sessions can be followed through this invoker (a node must also declare
  /// kNodeStreamCap).
  virtual bool streams_supported() const { return false; }
  /// Routes `stream_id`'s events from `node_id` to `handler` until unwatch_stream.
  virtual void watch_stream(const std::string& node_id, const std::string& stream_id, NodeStreamHandler handler) {
    (void)node_id;
    (void)stream_id;
    (void)handler;
  }
  virtual void unwatch_stream(const std::string& stream_id) { (void)stream_id; }
};

}  // namespace clawexec::exec
