#pragma once
// CancelSignal: the cancellation of one call (MCP notifications/cancelled, SIGINT of the CLI).
// Whoever waits registers a handler; cancelling runs every handler once. Single-threaded: used
// on the io thread only.

#include <functional>
#include <vector>

namespace clawexec::exec {

class CancelSignal {
 public:
  void cancel() {
    if (cancelled_) return;
    cancelled_ = true;
    std::vector<std::function<void()>> handlers = std::move(handlers_);
    for (auto& h : handlers) h();
  }
  bool cancelled() const { return cancelled_; }
  void on_cancel(std::function<void()> handler) {
    if (cancelled_) {
      handler();
      return;
    }
    handlers_.push_back(std::move(handler));
  }

 private:
  bool cancelled_ = false;
  std::vector<std::function<void()>> handlers_;
};

}  // namespace clawexec::exec
