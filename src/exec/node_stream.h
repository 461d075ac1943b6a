#pragma once
// A command running on a node host as a streamed session (the kNodeStreamCap extension), seen
// by the gateway's exec pipeline as the child of an ordinary exec::Run: the run's session in
// this server's registry receives the node's output as it arrives, so the yield window,
// backgrounding, completion notices and every `process` action (poll, log, write, send-keys,
// kill) work for node sessions exactly as for local ones. Requests go to the node as invokes
// (`clawexec.exec.input`, `clawexec.exec.kill`); events come back through the invoker's
// stream watch (node_invoker.h).
//
// Resuming: the node numbers its output by byte offset and, after a reconnect, sends again
// what this side had not confirmed; what was already received is skipped. A node whose link
// stays down longer than the resume grace ends the run here with that said in its output
// (the node stops the command on its side once it learns nobody follows it).

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <memory>
#include <optional>
#include <string>

#include "exec/node_invoker.h"
#include "proc/child.h"

namespace clawexec::exec {

class NodeStreamChild : public proc::Child, public std::enable_shared_from_this<NodeStreamChild> {
 public:
  NodeStreamChild(boost::asio::io_context& io, NodeInvoker& invoker, std::string node_id, std::string stream_id,
                  int64_t resume_grace_ms);
  ~NodeStreamChild() override;

  /// Starts routing the node's events here (output before attach() is held).
  void watch();
  /// The run's events: what arrived so far is delivered now, the start (pid) just after.
  /// `writable_input`: the command has an input to write to (a terminal; piped commands'
  /// stdin is closed, as on the gateway host).
  void attach(proc::ChildEvents events, pid_t pid, bool writable_input);
  /// The node's start failed or was abandoned before attach: stop routing, stop the command.
  void detach();

  void signal_tree(int signo) override;
  void write_input(std::string data, std::function<void(Result<void>)> done) override;
  void close_input() override;
  void answer_terminal(std::string) override {}  // the node's own run answers its terminal
  bool input_writable() const override { return !finished_ && input_open_; }
  void pause_output(bool) override {}  // the node paces itself by our confirmations
  void abandon(proc::ExitStatus status) override;

  const std::string& stream_id() const { return stream_id_; }

 private:
  bool on_event(const NodeStreamEvent& e);
  void deliver_output(std::string_view text);
  void finish(proc::ExitStatus status);

  boost::asio::io_context& io_;
  NodeInvoker& invoker_;
  std::string node_id_;
  std::string stream_id_;
  int64_t resume_grace_ms_;
  boost::asio::steady_timer grace_;
  std::optional<proc::ChildEvents> events_;
  std::string early_output_;
  std::optional<proc::ExitStatus> early_exit_;
  int64_t received_ = 0;
  bool input_open_ = true;
  bool finished_ = false;
  bool watching_ = false;
};

}  // namespace clawexec::exec
