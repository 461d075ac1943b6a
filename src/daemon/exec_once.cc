// One-shot exec. It uses the same ExecService as the MCP server, without a `process` tool:
// the command always runs in the foreground (the reference's "continuation unavailable"
// mode). SIGINT/SIGTERM cancel it like an MCP cancellation would.

#include "daemon/exec_once.h"

#include <boost/asio/io_context.hpp>
#include <boost/asio/signal_set.hpp>
#include <cstdio>

#include "daemon/setup.h"
#include "exec/service.h"
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

int exit_code_of(const exec::ToolResult& result) {
  if (!result.details) return 1;
  const json::Object& d = *result.details;
  const json::Value* code = json::find(d, "exitCode");
  const json::Value* status = json::find(d, "status");
  bool completed = status && status->is_string() && status->get_string() == "completed";
  if (code && code->is_int64() && (completed || code->get_int64() != 0)) return static_cast<int>(code->get_int64());
  const json::Value* timed_out = json::find(d, "timedOut");
  if (timed_out && timed_out->is_bool() && timed_out->get_bool()) return 124;
  const json::Value* sig = json::find(d, "exitSignal");
  if (sig && sig->is_string()) {
    if (int n = signal_number(sig->get_string())) return 128 + n;
  }
  return completed ? 0 : 1;
}

}  // namespace

int run_exec_once(const ExecOnceOptions& options) {
  prepare_process();
  std::optional<Setup> setup = load_setup_reporting(options.agent_id, "exec");
  if (!setup) return 1;
  asio::io_context io;
  exec::ExecService service(io, std::move(setup->service));
  json::Object args;
  args["command"] = options.command;
  if (options.workdir) args["workdir"] = *options.workdir;
  if (options.timeout_seconds) args["timeoutSeconds"] = *options.timeout_seconds;
  if (options.pty) args["pty"] = true;

  auto cancel = std::make_shared<exec::CancelSignal>();
  asio::signal_set signals(io, SIGINT, SIGTERM, SIGHUP);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) cancel->cancel();
  });
  std::optional<exec::ToolResult> result;
  exec::CallContext ctx{"cli", cancel, false};
  service.exec(args, ctx, [&](exec::ToolResult r) {
    result = std::move(r);
    signals.cancel();
    service.shutdown(std::chrono::milliseconds(0), [&] { io.stop(); });
  });
  io.run();
  if (!result) return 1;
  if (!result->details) {
    if (options.json) {
      json::Object err{{"status", "error"}, {"error", result->text}};
      std::printf("%s\n", json::stringify(err, 2).c_str());
    } else {
      std::fprintf(stderr, "clawexec exec: %s\n", result->text.c_str());
    }
    return cancel->cancelled() ? 130 : 1;
  }
  if (options.json) {
    std::printf("%s\n", json::stringify(*result->details, 2).c_str());
  } else {
    std::printf("%s\n", result->text.c_str());
  }
  std::fflush(stdout);
  return exit_code_of(*result);
}

}  // namespace clawexec::daemon
