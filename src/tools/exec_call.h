#pragma once
// One exec call in flight (internal to the exec module): waits for the command to start, then
// races its exit against the yield timer and the caller's cancellation, and delivers exactly one
// result — the foreground result, or "running" once the command was moved to the background.

#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <string>
#include <vector>

#include "exec/run.h"
#include "exec/service.h"

namespace clawexec::exec {

class ExecCall : public std::enable_shared_from_this<ExecCall> {
 public:
  /// `yield_ms`: 0 = background at once, -1 = never (stay in the foreground).
  ExecCall(ExecService& service, std::shared_ptr<Run> run, int64_t yield_ms, std::vector<std::string> warnings,
           CallContext ctx, ToolDone done);

  void begin();

 private:
  void started(Result<pid_t> pid);
  void background();
  void exited(const ExecOutcome& outcome);
  void cancelled();
  void respond(ToolResult result);

  ExecService& service_;
  std::shared_ptr<Run> run_;
  int64_t yield_ms_;
  std::vector<std::string> warnings_;
  CallContext ctx_;
  ToolDone done_;
  boost::asio::steady_timer yield_timer_;
  bool responded_ = false;
};

}  // namespace clawexec::exec
