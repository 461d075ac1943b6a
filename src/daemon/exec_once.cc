// One-shot exec. It fills an exec::ExecRequest and runs it through the same exec tool as the MCP
// server (tools/exec_tool.h), without a `process` tool:
// the command always runs in the foreground (the reference's "continuation unavailable"
// mode). SIGINT/SIGTERM cancel it like an MCP cancellation would. The exit status is the
// run's (exec::ExecOutcome), not read back from the result's JSON.

#include "daemon/exec_once.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <cstdio>

#include "daemon/setup.h"
#include "exec/service.h"
#include "tools/exec_tool.h"
#include "session/format.h"

namespace clawexec::daemon {
namespace asio = boost::asio;
namespace {

int signal_number(std::string_view name) {
  for (int s = 1; s < 65; ++s) {
    if (session::signal_name(s) == name) return s;
  }
  return 0;
}

// The shell's convention: the exit code, 124 for a timeout, 128+N for a signal.
int exit_code_of(const exec::ExecOutcome& outcome) {
  if (outcome.exit_code && (outcome.completed || *outcome.exit_code != 0)) return *outcome.exit_code;
  if (outcome.timed_out) return 124;
  if (!outcome.exit_signal.empty()) {
    if (int n = signal_number(outcome.exit_signal)) return 128 + n;
  }
  return outcome.completed ? 0 : 1;
}

}  // namespace

int run_exec_once(const ExecOnceOptions& options) {
  prepare_process();
  std::optional<Setup> setup = load_setup_reporting(options.agent_id, "exec");
  if (!setup) return 1;
  asio::io_context io;
  exec::ExecService service(io, std::move(setup->service));
  exec::ExecRequest request;
  request.command = options.command;
  request.workdir = options.workdir;
  request.timeout_seconds = options.timeout_seconds;
  request.pty = options.pty;

  auto cancel = std::make_shared<exec::CancelSignal>();
  asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) cancel->cancel();
  });
  // No `process` tool at the command line: the command always runs in the foreground.
  auto client = std::make_shared<exec::ClientSession>();
  client->scope_key = "cli";
  client->message_provider = "cli";
  client->continuation_available = false;
  std::optional<tools::ExecCallResult> result;
  tools::run_exec(service, client, std::move(request), exec::CallOptions{cancel, {}, {}}, [&](tools::ExecCallResult r) {
    result = std::move(r);
    signals.cancel();
    service.shutdown(std::chrono::milliseconds(0), [&] { io.stop(); });
  });
  io.run();
  if (!result) return 1;
  const tools::ToolResult& shown = result->result;
  if (!shown.details) {
    if (options.json) {
      json::Object err{{"status", "error"}, {"error", shown.text}};
      std::printf("%s\n", json::stringify(err, 2).c_str());
    } else {
      std::fprintf(stderr, "clawexec exec: %s\n", shown.text.c_str());
    }
    return cancel->cancelled() ? 130 : 1;
  }
  if (options.json) {
    std::printf("%s\n", json::stringify(*shown.details, 2).c_str());
  } else {
    std::printf("%s\n", shown.text.c_str());
  }
  std::fflush(stdout);
  // A run that ended gives its exit status; anything else that has details (an unusable
  // working directory, a denial, a pending approval that cannot wait here) is a failure.
  return result->outcome ? exit_code_of(*result->outcome) : 1;
}

}  // namespace clawexec::daemon
