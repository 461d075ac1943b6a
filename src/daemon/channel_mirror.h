#pragma once
// The gateway's view of the approvals of the machine's other clawexec processes: every
// `clawexec serve` (one per stdio MCP client) keeps its pending approvals on the operator
// channel (approvals/operator_channel.h); the mirror connects to that channel as an operator,
// lists and subscribes, and hands the approvals that are not the gateway's own (another pid)
// to the gateway, which shows them on its operator WebSocket and resolves them through the
// channel. It follows the channel's hub as it moves between processes (reconnecting with a
// short backoff); when the channel is gone the mirrored approvals are dropped.
//
// The channel client is blocking, so the mirror runs on its own thread; everything it reports
// is posted to the gateway's io_context, and all its methods are called there.

#include <sys/types.h>

#include <atomic>
#include <boost/asio/io_context.hpp>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/result.h"
#include "json/json.h"

namespace clawexec::daemon {

class ChannelMirror {
 public:
  struct Events {
    std::function<void(const json::Object& approval)> requested;
    std::function<void(const std::string& id, const std::string& decision, const std::string& resolved_by)> resolved;
  };
  ChannelMirror(boost::asio::io_context& io, std::string socket_path, std::string token, pid_t self, Events events);
  ~ChannelMirror();
  ChannelMirror(const ChannelMirror&) = delete;
  ChannelMirror& operator=(const ChannelMirror&) = delete;

  void start();
  /// Stops the thread and any resolution in flight (their callbacks are not called).
  void stop();

  /// The other processes' pending approvals (channel shape, with their pid).
  std::vector<json::Object> pending() const;
  bool has(const std::string& id) const { return approvals_.count(id) > 0; }
  /// Resolves one of them through the channel; `done` runs on the io_context.
  void resolve(const std::string& id, const std::string& decision, const std::string& resolved_by,
               std::function<void(Result<void>)> done);

 private:
  void run();
  // Resolutions asked for on the io thread, carried out by the mirror's thread.
  struct Resolution {
    std::string id;
    std::string decision;
    std::function<void(Result<void>)> done;
  };
  void carry_out_resolutions(bool channel_up);
  void on_snapshot(std::vector<json::Object> approvals);
  void on_event(const json::Object& event);

  boost::asio::io_context& io_;
  std::string socket_path_;
  std::string token_;
  pid_t self_;
  Events events_;
  std::map<std::string, json::Object> approvals_;  // io thread only
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  std::mutex queue_mutex_;
  std::vector<Resolution> queue_;
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace clawexec::daemon
