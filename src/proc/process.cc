// Process: adopts the shim's descriptors into the io_context and turns them into events.
//
// Reads use the reactor style (wait for readability, then read non-blockingly into one shared
// buffer) so that a thousand idle sessions hold no read buffers. The exit event is delivered
// only when the shim has reported the exit status (it does so after every descendant is gone)
// AND the output has reached end-of-file, so no output is ever lost; a short grace timer covers
// a descendant that leaked the output descriptor outside the tree.

#include "proc/process.h"

#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <span>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <cerrno>

#include "shim/protocol.h"
#include "sys/sys.h"

namespace clawexec::proc {
namespace asio = boost::asio;

namespace {

constexpr size_t kReadChunk = 256 * 1024;
// Reads per readiness event before yielding to other sessions.
constexpr int kReadsPerWakeup = 16;

// Allocated on first use by the thread that reads output (the io thread), not as a static TLS
// block: glibc zeroes static TLS in every thread it starts, so an array here cost each thread of
// the process (thread pools included) 256 KiB of resident memory.
std::span<char> read_buffer() {
  thread_local std::unique_ptr<char[]> buffer;
  if (!buffer) buffer = std::make_unique_for_overwrite<char[]>(kReadChunk);
  return {buffer.get(), kReadChunk};
}

}  // namespace

Process::Process(asio::io_context& io, SpawnedShim shim, bool pty, Events events)
    : io_(io),
      shim_pid_(shim.shim_pid),
      control_(io, shim.control.release()),
      output_(io, shim.output.release()),
      input_(io),
      pidfd_(io),
      pty_(pty),
      events_(std::move(events)) {
  if (shim.input) input_.assign(shim.input.release());
  if (shim.pidfd) pidfd_.assign(shim.pidfd.release());
}

Process::~Process() = default;

Result<std::shared_ptr<Process>> Process::start(asio::io_context& io, const SpawnSpec& spec, Spawner& spawner,
                                                Events events) {
  SpawnedShim shim = TRY(spawner.spawn(spec));
  std::string program = spec.program;
  // The started event needs the program name for a readable exec-failure message.
  auto started = std::move(events.started);
  events.started = [started = std::move(started), program](Result<pid_t> r) {
    if (!r.ok() && r.error().sys_errno != 0) {
      started(Error::from_errno("spawn " + program, r.error().sys_errno));
      return;
    }
    started(std::move(r));
  };
  std::shared_ptr<Process> process(
      new Process(io, std::move(shim), spec.terminal == Terminal::kPty, std::move(events)));
  process->watch_control();
  process->watch_output();
  if (process->pidfd_.is_open()) process->watch_shim_exit();
  return process;
}

void Process::watch(asio::posix::stream_descriptor& descriptor, void (Process::*handler)()) {
  descriptor.async_wait(asio::posix::descriptor_base::wait_read,
                        [self = shared_from_this(), handler](const boost::system::error_code& ec) {
                          if (!ec) ((*self).*handler)();
                        });
}

void Process::on_control_readable() {
  while (control_.is_open()) {
    shim::Message m;
    ssize_t n = ::recv(control_.native_handle(), &m, sizeof m, MSG_DONTWAIT);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      watch_control();
      return;
    }
    if (n != static_cast<ssize_t>(sizeof m)) {  // EOF or error: the shim is gone
      control_closed_ = true;
      boost::system::error_code ignored;
      control_.close(ignored);
      if (!started_) {
        started_ = true;
        exited_ = true;
        events_.started(Error::internal("spawn: clawexec-shim exited before starting the command"));
        return;
      }
      maybe_finish();
      return;
    }
    switch (m.kind) {
      case shim::MessageKind::kStarted:
        started_ = true;
        pid_ = m.value;
        input_open_ = input_.is_open();
        events_.started(pid_);
        break;
      case shim::MessageKind::kExecFailed:
        started_ = true;
        exited_ = true;
        events_.started(Error{ErrorCode::kIo, m.value, "spawn"});
        break;
      case shim::MessageKind::kExitedCode:
        reported_status_ = ExitStatus{.code = m.value};
        maybe_finish();
        break;
      case shim::MessageKind::kExitedSignal:
        reported_status_ = ExitStatus{.signal = m.value};
        maybe_finish();
        break;
      default:
        break;
    }
  }
}

void Process::on_output_readable() {
  std::span<char> buffer = read_buffer();
  for (int i = 0; i < kReadsPerWakeup && output_.is_open() && !output_paused_; ++i) {
    ssize_t n = ::read(output_.native_handle(), buffer.data(), buffer.size());
    if (n > 0) {
      if (events_.output) events_.output(std::string_view(buffer.data(), static_cast<size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) break;
    // 0 = EOF on a pipe; EIO = every PTY slave descriptor closed.
    output_eof_ = true;
    boost::system::error_code ignored;
    output_.close(ignored);
    maybe_finish();
    return;
  }
  if (output_.is_open()) {
    if (output_eof_) return;
    if (output_paused_) {
      output_watch_deferred_ = true;
      return;
    }
    // Yield to other handlers before reading more, so one noisy command cannot starve others.
    asio::post(io_, [self = shared_from_this()] {
      if (self->output_.is_open()) self->watch_output();
    });
  }
}

void Process::watch_shim_exit() {
  pidfd_.async_wait(asio::posix::descriptor_base::wait_read,
                    [self = shared_from_this()](const boost::system::error_code& ec) {
                      if (ec) return;
                      ignore_error(sys::try_reap(self->shim_pid_));
                      boost::system::error_code ignored;
                      self->pidfd_.close(ignored);
                      // A shim that died without closing the loop (crash) still ends the run.
                      if (self->control_.is_open()) self->on_control_readable();
                    });
}

void Process::maybe_finish() {
  if (exited_ || !started_) return;
  bool status_known = reported_status_.has_value() || control_closed_;
  if (!status_known) return;
  if (output_eof_) {
    finish(reported_status_.value_or(ExitStatus{}));
    return;
  }
  // Every process of the tree is gone, so EOF is imminent; a descriptor smuggled outside the
  // tree must not hold the result hostage.
  auto timer = std::make_shared<asio::steady_timer>(io_, std::chrono::seconds(2));
  timer->async_wait([self = shared_from_this(), timer](const boost::system::error_code& ec) {
    if (ec || self->exited_) return;
    self->finish(self->reported_status_.value_or(ExitStatus{}));
  });
}

void Process::finish(ExitStatus status) {
  if (exited_) return;
  exited_ = true;
  // Drain whatever is still buffered before reporting the exit.
  if (output_.is_open()) {
    std::span<char> buffer = read_buffer();
    ssize_t n;
    while ((n = ::read(output_.native_handle(), buffer.data(), buffer.size())) > 0) {
      if (events_.output) events_.output(std::string_view(buffer.data(), static_cast<size_t>(n)));
    }
  }
  boost::system::error_code ignored;
  output_.close(ignored);
  input_.close(ignored);
  input_open_ = false;
  for (PendingWrite& w : writes_) {
    if (w.done) w.done(Error::invalid("stdin is closed: the command has exited"));
  }
  writes_.clear();
  if (events_.exited) events_.exited(status);
}

void Process::signal_tree(int signo) {
  if (exited_ || !control_.is_open()) return;
  shim::Message m{shim::MessageKind::kSignalTree, signo};
  (void)::send(control_.native_handle(), &m, sizeof m, MSG_DONTWAIT | MSG_NOSIGNAL);
}

void Process::pause_output(bool paused) {
  output_paused_ = paused;
  if (paused || !output_watch_deferred_ || !output_.is_open()) return;
  output_watch_deferred_ = false;
  watch_output();
}

void Process::abandon(ExitStatus status) {
  if (exited_) return;
  finish(status);
}

void Process::write_input(std::string data, std::function<void(Result<void>)> done) {
  if (!input_open_ || !input_.is_open()) {
    if (done) done(Error::invalid("stdin is not writable"));
    return;
  }
  writes_.push_back({std::move(data), std::move(done)});
  pump_writes();
}

void Process::pump_writes() {
  if (writing_) return;
  if (writes_.empty()) {
    if (close_input_after_writes_ && !pty_) {
      boost::system::error_code ignored;
      input_.close(ignored);
    }
    return;
  }
  writing_ = true;
  asio::async_write(input_, asio::buffer(writes_.front().data),
                    [self = shared_from_this()](const boost::system::error_code& ec, size_t) {
                      self->writing_ = false;
                      if (self->writes_.empty()) return;  // finish() already failed them
                      PendingWrite w = std::move(self->writes_.front());
                      self->writes_.pop_front();
                      if (w.done) {
                        if (ec) {
                          w.done(Error{ErrorCode::kIo, ec.value(), "write stdin: " + ec.message()});
                        } else {
                          w.done(Result<void>());
                        }
                      }
                      self->pump_writes();
                    });
}

void Process::answer_terminal(std::string data) {
  if (!pty_ || exited_ || !input_.is_open()) return;
  writes_.push_back({std::move(data), nullptr});
  pump_writes();
}

void Process::close_input() {
  if (!input_open_) return;
  if (pty_) {
    // A terminal has no "close" for its input: the line discipline turns ^D into EOF.
    writes_.push_back({std::string(1, '\x04'), nullptr});
    input_open_ = false;
    pump_writes();
    return;
  }
  input_open_ = false;
  close_input_after_writes_ = true;
  pump_writes();
}

}  // namespace clawexec::proc
