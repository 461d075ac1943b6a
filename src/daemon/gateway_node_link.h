#pragma once
// How a `clawexec serve` process reaches node hosts: through the gateway running on this
// machine (found through the state dir's gateway.json, which the gateway writes while it runs).
// The link is an operator connection to the gateway's WebSocket from loopback, with the
// gateway's own secret (OPENCLAW_GATEWAY_TOKEN / gateway.auth.token|password / the generated
// token file), opened on the first exec host=node call and again after it drops. Node lists
// are `node.list`, runs are `node.invoke`; the gateway's answers are mapped back to the
// pipeline's NodeInvokeError codes, so the texts an agent reads are the same as on the
// gateway. An approved run is honoured by the gateway only when it granted that approval
// itself (it is the hub of this process's approvals), so this process cannot approve runs on
// its own.

#include <boost/asio/io_context.hpp>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "config/gateway_settings.h"
#include "exec/node_invoker.h"
#include "json/json.h"

namespace clawexec::net {
class WsClient;
}

namespace clawexec::daemon {

class GatewayNodeLink : public exec::NodeInvoker {
 public:
  GatewayNodeLink(boost::asio::io_context& io, std::string state_dir, config::GatewaySettings settings, std::string version);
  ~GatewayNodeLink() override;

  void list_nodes(std::function<void(Result<std::vector<exec::NodeSummary>>)> done) override;
  /// Not cancellable ("" token): an operator has no method to cancel a node.invoke.
  std::string invoke(const std::string& node_id, const std::string& command, json::Object params, int64_t timeout_ms,
                     std::function<void(exec::NodeInvokeResult)> done) override;
  /// Closes the connection (shutdown); calls waiting on it fail.
  void close();

 private:
  /// A `res` frame ({ok, payload} or {ok:false, error{code, message, details}}); a dropped
  /// connection answers {ok:false, error{code:"GATEWAY_DISCONNECTED"}}.
  using Answer = std::function<void(const json::Object& res)>;
  void ensure(std::function<void(Result<void>)> then);
  void request(const std::string& method, json::Object params, Answer answer);
  void on_message(const std::string& text);
  void on_closed(uint16_t code, const std::string& reason);
  void fail_all(const std::string& why);

  boost::asio::io_context& io_;
  std::string state_dir_;
  config::GatewaySettings settings_;
  std::string version_;
  std::shared_ptr<net::WsClient> ws_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  bool ready_ = false;
  std::string secret_;
  std::vector<std::function<void(Result<void>)>> connecting_;
  std::map<std::string, Answer> waiting_;  // by request id
  uint64_t next_id_ = 0;
};

}  // namespace clawexec::daemon
