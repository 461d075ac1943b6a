// The stdio MCP server's composition. Three threads: the io_context thread owns all state;
// a reader thread turns stdin into bounded lines (so a 100 MB line cannot exhaust memory) and
// posts them to the loop; a writer thread drains the outgoing queue to stdout so a client that
// reads slowly never blocks the loop. Back-pressure keeps that queue bounded: while more than
// kOutputBudgetBytes of answers wait to be written, or kMaxLinesInFlight lines wait for the
// loop, the reader stops reading stdin, so a client that does not read its answers sees its own
// writes block instead of the server growing; nothing accepted is dropped, and answers keep
// their order. Shutdown (stdin EOF, SIGTERM/SIGINT/SIGHUP, or a broken
// stdout) stops every command with the kill sequence, bounded in time; commands also die if
// this process is killed outright, because each one's reaper loses its control socket. On stdin
// EOF, foreground calls already received get a short grace to finish and be answered first.

#include "daemon/stdio_server.h"

#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <algorithm>
#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>

#include "approvals/operator_channel.h"
#include "approvals/store.h"
#include "base/utf.h"
#include "daemon/setup.h"
#include "policy/modes.h"
#include "mcp/server.h"
#include "rpc/line_splitter.h"
#include "sys/sys.h"

namespace clawexec::daemon {
namespace asio = boost::asio;
namespace {

constexpr size_t kMaxLineBytes = 16 * 1024 * 1024;
// Answers queued for stdout beyond which no further request is read (docs/operations.md).
constexpr size_t kOutputBudgetBytes = 8 * 1024 * 1024;
// Requests read but not yet handled by the loop beyond which no further request is read.
constexpr size_t kMaxLinesInFlight = 8;
// Small answers are written together, up to this much per write(2).
constexpr size_t kWriteChunkBytes = 64 * 1024;

// Flow control between the threads: bytes of answers not yet written, and lines posted to
// the loop but not yet handled. The reader waits for room before it posts the next line.
class FlowControl {
 public:
  void output_queued(size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    queued_bytes_ += bytes;
  }
  void output_written(size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queued_bytes_ -= std::min(bytes, queued_bytes_);
    }
    cv_.notify_all();
  }
  void line_posted() {
    std::lock_guard<std::mutex> lock(mutex_);
    ++lines_in_flight_;
  }
  void line_handled() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      --lines_in_flight_;
    }
    cv_.notify_all();
  }
  /// Blocks (the reader thread) while the client has too much unread or unhandled.
  void wait_for_room() {
    std::unique_lock<std::mutex> lock(mutex_);
    cv_.wait(lock, [this] {
      return closed_ || (queued_bytes_ <= kOutputBudgetBytes && lines_in_flight_ < kMaxLinesInFlight);
    });
  }
  /// Shutdown: the reader never waits again.
  void close() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    cv_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  size_t queued_bytes_ = 0;
  size_t lines_in_flight_ = 0;
  bool closed_ = false;
};
constexpr std::chrono::seconds kShutdownDeadline{12};
// After stdin EOF, foreground calls already received get this long to finish and be answered.
constexpr std::chrono::milliseconds kEofForegroundGrace{2000};

// Serialises outgoing lines onto stdout from its own thread.
class StdoutWriter {
 public:
  StdoutWriter(std::shared_ptr<FlowControl> flow, std::function<void()> on_broken)
      : flow_(std::move(flow)), on_broken_(std::move(on_broken)) {
    thread_ = std::thread([this] { loop(); });
  }
  ~StdoutWriter() { stop(); }

  void push(std::string line) {
    line.push_back('\n');
    flow_->output_queued(line.size());
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.push_back(std::move(line));
    }
    cv_.notify_one();
  }

  /// Writes what is queued, then ends the thread.
  void stop() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (stopping_) return;
      stopping_ = true;
    }
    cv_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

 private:
  void loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      cv_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
      if (queue_.empty() && stopping_) return;
      std::deque<std::string> batch = std::move(queue_);
      queue_.clear();
      lock.unlock();
      // Small lines are joined (one write for a burst of short answers); a large one is written
      // as it is, so the batch is never copied whole.
      std::string chunk;
      auto flush = [this](std::string_view data) {
        if (!broken_ && !sys::write_all(STDOUT_FILENO, data).ok()) {
          broken_ = true;
          on_broken_();
        }
        flow_->output_written(data.size());
      };
      for (std::string& line : batch) {
        if (!chunk.empty() && chunk.size() + line.size() > kWriteChunkBytes) {
          flush(chunk);
          chunk.clear();
        }
        if (line.size() >= kWriteChunkBytes) {
          flush(line);
        } else {
          chunk += line;
        }
        std::string().swap(line);  // written: release it now
      }
      if (!chunk.empty()) flush(chunk);
      lock.lock();
    }
  }

  std::shared_ptr<FlowControl> flow_;
  std::function<void()> on_broken_;
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::string> queue_;
  bool stopping_ = false;
  bool broken_ = false;
  std::thread thread_;
};

// Where the reader thread delivers events; detached from the loop at shutdown so the thread
// (which may stay blocked in read() until the process exits) never touches a dead loop.
struct ReaderSink {
  std::mutex mutex;
  std::shared_ptr<FlowControl> flow;
  asio::io_context* io = nullptr;
  std::function<void(std::string)> on_line;
  std::function<void(size_t)> on_oversized;
  std::function<void()> on_eof;

  void post(std::function<void()> fn) {
    std::lock_guard<std::mutex> lock(mutex);
    if (io) asio::post(*io, std::move(fn));
  }
  void detach() {
    std::lock_guard<std::mutex> lock(mutex);
    io = nullptr;
  }
};

// Reads stdin on its own thread (stdin may be a pipe, a file or a terminal) and posts events.
void start_reader(std::shared_ptr<ReaderSink> sink) {
  std::thread([sink] {
    rpc::LineSplitter splitter(
        kMaxLineBytes,
        [&](std::string line) {
          sink->flow->wait_for_room();
          sink->flow->line_posted();
          sink->post([sink, l = std::move(line)]() mutable {
            sink->on_line(std::move(l));
            sink->flow->line_handled();
          });
        },
        [&](size_t n) { sink->post([sink, n] { sink->on_oversized(n); }); });
    std::string buffer(256 * 1024, '\0');
    while (true) {
      ssize_t n = ::read(STDIN_FILENO, buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      splitter.feed(std::string_view(buffer.data(), static_cast<size_t>(n)));
    }
    splitter.finish();
    sink->post([sink] { sink->on_eof(); });
  }).detach();
}

}  // namespace

// The operator channel (<state>/exec-approvals.sock): lists and resolves this server's pending
// approvals, with every other clawexec server on the machine. Without it (the approvals
// document cannot hold a token, say) approvals that need a human fall back to askFallback.
namespace {

// serve --host/--node/--security/--ask: the client's defaults, validated like /exec values.
Result<void> apply_session_defaults(const ServeOptions& o, exec::ServiceConfig& config) {
  if (o.host) {
    std::optional<config::ExecHost> host = policy::normalize_exec_target(*o.host);
    if (!host) return Error::invalid("--host " + *o.host + ": expected auto, sandbox, gateway or node");
    config.exec.host = *host;
  }
  if (o.node) {
    if (js_trim(*o.node).empty()) return Error::invalid("--node requires a value");
    config.exec.node = std::string(js_trim(*o.node));
  }
  if (o.security) {
    std::optional<config::ExecSecurity> security = policy::normalize_exec_security(*o.security);
    if (!security) return Error::invalid("--security " + *o.security + ": expected deny, allowlist or full");
    config.session_security = *security;
  }
  if (o.ask) {
    std::optional<config::ExecAsk> ask = policy::normalize_exec_ask(*o.ask);
    if (!ask) return Error::invalid("--ask " + *o.ask + ": expected off, on-miss or always");
    config.session_ask = *ask;
  }
  return {};
}

std::unique_ptr<approvals::OperatorChannel> start_operator_channel(asio::io_context& io, exec::ExecService& service) {
  const exec::ServiceConfig& config = service.config();
  approvals::ApprovalsStore store(config.approvals_paths);
  Result<approvals::ResolvedApprovals> resolved =
      store.resolve(config.agent_id, policy::ApprovalsOverrides{}, approvals::SocketRequirement::kRequired);
  if (!resolved.ok() || resolved->token.empty()) {
    std::fprintf(stderr, "clawexec serve: warning: no operator channel (%s); approvals fall back to askFallback\n",
                 resolved.ok() ? "no socket token" : resolved.error().message.c_str());
    return nullptr;
  }
  approvals::OperatorChannel::Provider provider;
  provider.list = [&service] { return service.pending_approvals_json(); };
  provider.command = [&service](const std::string& text) { return service.exec_directive(text); };
  provider.resolve = [&service](std::string id, std::string decision, std::string resolved_by,
                                std::function<void(Result<void>)> done) {
    service.resolve_approval(id, decision, resolved_by, std::move(done));
  };
  auto channel = std::make_unique<approvals::OperatorChannel>(io, resolved->socket_path, resolved->token, provider);
  approvals::OperatorChannel* raw = channel.get();
  service.set_approval_events({[raw](const json::Object& a) { raw->publish_requested(a); },
                               [raw](const std::string& id, const std::string& decision, const std::string& by) {
                                 raw->publish_resolved(id, decision, by);
                               }});
  channel->start();
  return channel;
}

}  // namespace

int run_stdio_server(const ServeOptions& options) {
  prepare_process();
  std::optional<Setup> setup = load_setup_reporting(options.agent_id, "serve");
  if (!setup) return 1;

  if (Result<void> applied = apply_session_defaults(options, setup->service); !applied.ok()) {
    std::fprintf(stderr, "clawexec serve: %s\n", applied.error().message.c_str());
    return 2;
  }
  asio::io_context io;
  exec::ExecService service(io, std::move(setup->service));
  bool shutting_down = false;
  asio::steady_timer deadline(io);
  // `grace`: how long foreground calls may still finish and be answered (the client closed its
  // input but may still read our output); background sessions are stopped at once.
  std::function<void(std::chrono::milliseconds)> shutdown = [&](std::chrono::milliseconds grace) {
    if (shutting_down) return;
    shutting_down = true;
    deadline.expires_after(kShutdownDeadline + grace);
    deadline.async_wait([&](const boost::system::error_code& ec) {
      if (!ec) io.stop();
    });
    service.shutdown(grace, [&] { io.stop(); });
  };
  auto flow = std::make_shared<FlowControl>();
  StdoutWriter writer(flow, [&] { asio::post(io, [&] { shutdown(std::chrono::milliseconds(0)); }); });
  mcp::ServerOptions server_options;
  server_options.version = options.version;
  server_options.scope_key = "mcp-stdio:" + std::to_string(::getpid());
  std::unique_ptr<approvals::OperatorChannel> channel = start_operator_channel(io, service);
  server_options.pending_approvals = channel != nullptr;
  server_options.model_id = options.model;
  server_options.structured_content = setup->mcp.structured_content;
  mcp::Server server(service, [&](std::string line) { writer.push(std::move(line)); }, server_options);
  service.set_notifier([&](const std::string&, const std::string& session_id, const std::string& text) {
    server.send_exec_event(session_id, text);
  });

  asio::signal_set signals(io, SIGTERM, SIGINT, SIGHUP);
  signals.async_wait([&](const boost::system::error_code& ec, int) {
    if (!ec) shutdown(std::chrono::milliseconds(0));
  });
  auto sink = std::make_shared<ReaderSink>();
  sink->flow = flow;
  sink->io = &io;
  sink->on_line = [&](std::string line) { server.handle_line(line); };
  sink->on_oversized = [&](size_t n) { server.handle_oversized(n); };
  sink->on_eof = [&] { shutdown(kEofForegroundGrace); };
  start_reader(sink);
  // The login PATH and the shell snapshot are made while the client is still initialising.
  service.warm_up_shell_environment();
  io.run();
  if (channel) channel->stop();
  flow->close();
  sink->detach();
  service.set_notifier(nullptr);
  writer.stop();
  return 0;
}

}  // namespace clawexec::daemon
