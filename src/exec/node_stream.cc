// NodeStreamChild (node_stream.h): offsets, the resume grace, and requests to the node.

#include "exec/node_stream.h"

#include <signal.h>

#include <boost/asio/post.hpp>

namespace clawexec::exec {
namespace {

constexpr int64_t kRequestTimeoutMs = 15000;

std::string error_text(const NodeInvokeError& e) { return e.message.empty() ? e.code : e.message; }

}  // namespace

NodeStreamChild::NodeStreamChild(boost::asio::io_context& io, NodeInvoker& invoker, std::string node_id, std::string stream_id,
                                 int64_t resume_grace_ms)
    : io_(io), invoker_(invoker), node_id_(std::move(node_id)), stream_id_(std::move(stream_id)), resume_grace_ms_(resume_grace_ms),
      grace_(io) {}

// Not unwatched here: the invoker may already be gone (a gateway shutting down destroys its
// hub before its sessions). A watch left behind finds no child and refuses the node's output,
// and the node then stops the command, which is what should happen to it.
NodeStreamChild::~NodeStreamChild() = default;

void NodeStreamChild::watch() {
  watching_ = true;
  std::weak_ptr<NodeStreamChild> weak = weak_from_this();
  invoker_.watch_stream(node_id_, stream_id_, [weak](const NodeStreamEvent& e) {
    auto self = weak.lock();
    return self && self->on_event(e);
  });
}

void NodeStreamChild::attach(proc::ChildEvents events, pid_t pid, bool writable_input) {
  events_ = std::move(events);
  input_open_ = writable_input;
  std::weak_ptr<NodeStreamChild> weak = weak_from_this();
  // Delivered from the loop, as a local process's start is: the run is fully set up by then.
  boost::asio::post(io_, [weak, pid] {
    auto self = weak.lock();
    if (!self || !self->events_) return;
    if (self->events_->started) self->events_->started(pid);
    if (!self->early_output_.empty()) {
      std::string held = std::move(self->early_output_);
      self->early_output_.clear();
      if (self->events_->output) self->events_->output(held);
    }
    if (std::optional<proc::ExitStatus> end = std::exchange(self->early_exit_, std::nullopt)) self->finish(*end);
  });
}

void NodeStreamChild::detach() {
  if (watching_) invoker_.unwatch_stream(stream_id_);
  watching_ = false;
  finished_ = true;
  grace_.cancel();
  invoker_.invoke(node_id_, "clawexec.exec.kill", json::Object{{"streamId", stream_id_}, {"signal", SIGKILL}}, kRequestTimeoutMs,
                  [](NodeInvokeResult) {});
}

bool NodeStreamChild::on_event(const NodeStreamEvent& e) {
  using Kind = NodeStreamEvent::Kind;
  switch (e.kind) {
    case Kind::kLinkUp:
      grace_.cancel();
      return true;
    case Kind::kLinkDown: {
      if (finished_) return true;
      grace_.expires_after(std::chrono::milliseconds(resume_grace_ms_));
      std::weak_ptr<NodeStreamChild> weak = weak_from_this();
      grace_.async_wait([weak](const boost::system::error_code& ec) {
        auto self = weak.lock();
        if (ec || !self || self->finished_) return;
        self->deliver_output("\n[node " + self->node_id_ + " disconnected and did not come back within " +
                             std::to_string(self->resume_grace_ms_ / 1000) + " s; how the command ended is unknown]\n");
        self->finish(proc::ExitStatus{});
      });
      return true;
    }
    case Kind::kGone:
      if (finished_) return true;
      deliver_output("\n[node " + node_id_ + " came back without this session (its node host restarted); the command ended with it]\n");
      finish(proc::ExitStatus{});
      return true;
    case Kind::kOutput: {
      if (finished_) return false;
      int64_t end = e.offset + static_cast<int64_t>(e.data.size());
      if (end <= received_) return true;  // sent again after a reconnect: already here
      if (e.offset > received_) {
        // Output this side never saw (cannot happen with our node, which resends from the last
        // confirmed offset): said, not hidden.
        deliver_output("\n[" + std::to_string(e.offset - received_) + " bytes of output from node " + node_id_ + " were lost]\n");
        received_ = e.offset;
      }
      std::string_view fresh = std::string_view(e.data).substr(static_cast<size_t>(received_ - e.offset));
      received_ = end;
      deliver_output(fresh);
      return true;
    }
    case Kind::kExit: {
      if (finished_) return false;
      proc::ExitStatus status;
      if (std::optional<int64_t> code = json::integer_member(e.payload, "exitCode")) status.code = static_cast<int>(*code);
      if (std::optional<int64_t> sig = json::integer_member(e.payload, "signal")) status.signal = static_cast<int>(*sig);
      if (e.offset > received_) {
        deliver_output("\n[" + std::to_string(e.offset - received_) + " bytes of output from node " + node_id_ + " were lost]\n");
      }
      finish(status);
      return true;
    }
  }
  return false;
}

void NodeStreamChild::deliver_output(std::string_view text) {
  if (text.empty()) return;
  if (!events_) {
    early_output_.append(text);
    return;
  }
  if (events_->output) events_->output(text);
}

void NodeStreamChild::finish(proc::ExitStatus status) {
  if (finished_) return;
  if (!events_) {  // not attached yet: ends as soon as it is
    early_exit_ = status;
    return;
  }
  finished_ = true;
  grace_.cancel();
  if (watching_) invoker_.unwatch_stream(stream_id_);
  watching_ = false;
  input_open_ = false;
  std::function<void(proc::ExitStatus)> exited = events_->exited;
  if (exited) exited(status);
}

void NodeStreamChild::signal_tree(int signo) {
  if (finished_) return;
  invoker_.invoke(node_id_, "clawexec.exec.kill", json::Object{{"streamId", stream_id_}, {"signal", signo}}, kRequestTimeoutMs,
                  [](NodeInvokeResult) {});
}

void NodeStreamChild::write_input(std::string data, std::function<void(Result<void>)> done) {
  if (!input_writable()) {
    if (done) done(Error::invalid("stdin is not writable"));
    return;
  }
  invoker_.invoke(node_id_, "clawexec.exec.input", json::Object{{"streamId", stream_id_}, {"data", std::move(data)}}, kRequestTimeoutMs,
                  [done = std::move(done), node = node_id_](NodeInvokeResult r) {
                    if (!done) return;
                    if (auto* e = std::get_if<NodeInvokeError>(&r)) return done(Error::invalid("node " + node + ": " + error_text(*e)));
                    done(Result<void>());
                  });
}

void NodeStreamChild::close_input() {
  if (!input_writable()) return;
  input_open_ = false;
  invoker_.invoke(node_id_, "clawexec.exec.input", json::Object{{"streamId", stream_id_}, {"eof", true}}, kRequestTimeoutMs,
                  [](NodeInvokeResult) {});
}

void NodeStreamChild::abandon(proc::ExitStatus status) {
  if (finished_) return;
  // The node did not confirm the end after the whole kill sequence: stop following it.
  invoker_.invoke(node_id_, "clawexec.exec.kill", json::Object{{"streamId", stream_id_}, {"signal", SIGKILL}}, kRequestTimeoutMs,
                  [](NodeInvokeResult) {});
  finish(status);
}

}  // namespace clawexec::exec
