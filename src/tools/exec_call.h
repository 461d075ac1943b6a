#pragma once
// One exec tool call with a started run: races the command's exit against the yield timer and
// the caller's cancellation, and delivers exactly one result: the foreground result (with the
// run's outcome), or "running" once the command was moved to the background.

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/exec_start.h"
#include "exec/run.h"
#include "exec/service.h"
#include "tools/tool_result.h"

namespace clawexec::tools {

/// An exec call's end: the tool result, and the outcome when the command ran to its end in the
/// foreground (the CLI takes its exit status from it).
struct ExecCallResult {
  ToolResult result;
  std::optional<exec::ExecOutcome> outcome;
};
using ExecCallDone = std::function<void(ExecCallResult)>;

class ExecCall : public std::enable_shared_from_this<ExecCall> {
 public:
  ExecCall(exec::ExecService& service, exec::StartedRun started, std::shared_ptr<exec::CancelSignal> cancel,
           ExecCallDone done);

  void begin();

 private:
  void started(Result<pid_t> pid);
  void background();
  /// "Node: <id>\n" for a run on a node host, as OpenClaw starts a node run's result.
  std::string node_line() const { return node_id_.empty() ? std::string() : "Node: " + node_id_ + "\n"; }
  void exited(const exec::ExecOutcome& outcome);
  void cancelled();
  void respond(ToolResult result, std::optional<exec::ExecOutcome> outcome = std::nullopt);

  exec::ExecService& service_;
  std::shared_ptr<exec::Run> run_;
  int64_t yield_ms_;
  std::vector<std::string> warnings_;
  std::string node_id_;
  std::shared_ptr<exec::CancelSignal> cancel_;
  ExecCallDone done_;
  boost::asio::steady_timer yield_timer_;
  bool responded_ = false;
};

}  // namespace clawexec::tools
