#pragma once
// One JSON-RPC 2.0 peer (an MCP client today): classifies what it sends us, answers malformed
// messages, hands its requests and notifications to the protocol above, and matches the
// responses to the requests we sent it (through rpc::Correlator), so no protocol class keeps
// its own table of outgoing ids.
//
// Messages are answered on the channel they arrived on: over stdio that is stdout for all of
// them, but streamable HTTP answers each POST on that POST's own response stream, and a request
// we send while serving a client's request (elicitation during a tool call) goes out on that
// request's stream. So every incoming message comes with its Channel, and every outgoing request
// names the channel to send it on.

#include <functional>
#include <string>
#include <string_view>

#include "rpc/correlator.h"
#include "rpc/jsonrpc.h"

namespace clawexec::rpc {

/// Where lines to the peer go: stdout, one HTTP response stream, a WebSocket.
using Channel = std::function<void(std::string line)>;

class Peer {
 public:
  struct Handlers {
    /// A request to answer; `reply` is the channel it came on.
    std::function<void(const json::Value& id, const std::string& method, const json::Value& params,
                       const Channel& reply)>
        request;
    std::function<void(const std::string& method, const json::Value& params)> notification;
  };

  /// `peer_name` appears in errors ("the client answered elicitation/create with an error: ...");
  /// `id_prefix` starts the ids of our requests.
  Peer(std::string peer_name, std::string id_prefix, Handlers handlers);

  /// One incoming message, read from the stream `reply` answers on. Blank lines are ignored.
  void receive(std::string_view line, const Channel& reply);
  /// Sends `method` to the peer on `channel`; `done` gets the result, or an Error naming the
  /// method and what the peer said (kRejected), or kCancelled when the peer went away first.
  void request(const Channel& channel, std::string_view method, json::Object params, Correlator::Done done);
  /// The connection is gone: every request still waiting fails (kCancelled, `reason`).
  void close(const std::string& reason);
  size_t waiting() const { return requests_.waiting(); }

 private:
  std::string peer_name_;
  Handlers handlers_;
  Correlator requests_;
};

}  // namespace clawexec::rpc
