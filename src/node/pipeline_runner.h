#pragma once
// How the node host runs a system.run: through the same exec pipeline as every other host
// (exec::ExecService), on this machine, under the node's own configuration and approvals
// document. The node asks for the gateway host of its own pipeline (the command runs here),
// with no approver (a command its policy would ask about is denied, as OpenClaw's node host
// denies "approval required") unless the gateway approved the run, and no continuation
// (always foreground).

#include <boost/asio/io_context.hpp>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "env/env_list.h"
#include "exec/service.h"
#include "node/run_plan.h"

namespace clawexec::node {

struct RunSpec {
  std::string command;  // shell text for the pipeline (the wrapper's payload, or the argv quoted)
  std::string cwd;      // "" = the node's current directory
  env::EnvList env;
  std::optional<double> timeout_seconds;  // none = the configured default
  std::string agent_id;
  std::string scope_key;
  /// The gateway approved exactly this run (allow-once, its plan checked by the node): an
  /// approval the node's own policy asks for is answered with that decision, once.
  bool approved = false;
  bool pty = false;  // a terminal (streamed runs only)
};

/// The pipeline refused the command before it started.
struct RunDenied {
  std::string reason;   // exec.denied reason: "security=deny" | "approval-required"
  std::string message;  // "SYSTEM_RUN_DENIED: ..."
  std::string detail;   // the pipeline's own text, for the log
};

using RunOutcome = std::variant<RunResult, RunDenied>;
using RunDone = std::function<void(RunOutcome)>;
/// A started run (its session is in the node's registry), or the refusal.
using StartOutcome = std::variant<std::shared_ptr<exec::Run>, RunDenied>;
using StartDone = std::function<void(StartOutcome)>;

class PipelineRunner {
 public:
  PipelineRunner(boost::asio::io_context& io, exec::ServiceConfig config);
  /// Runs one command to its end; `done` runs once on the io thread.
  void run(RunSpec spec, RunDone done);
  /// Starts one command and hands over the run as soon as it is spawned (streamed sessions).
  void start(RunSpec spec, StartDone done);
  /// Starts the kill sequence of the live command started with `scope_key`; false if none.
  bool cancel(const std::string& scope_key);
  /// Stops every command (the kill sequence) and calls `done` once all have exited.
  void shutdown(std::function<void()> done);

 private:
  exec::ExecService service_;
  std::map<std::string, std::weak_ptr<exec::Run>> live_;  // by scope key
};

/// `argv` as POSIX shell text that runs exactly that argv: every word single-quoted.
std::string quote_argv(const std::vector<std::string>& argv);

}  // namespace clawexec::node
