#pragma once
// Internal to the tools module: one `process` tool call (see process_tool.cc for the
// inspection actions and process_input.cc for the ones that act on a session), and the result
// helpers both files share.

#include <memory>
#include <string>

#include "exec/service.h"
#include "tools/tool_result.h"
#include "session/session.h"

namespace clawexec::tools {

/// What `process` reports about a running session's input side.
struct RunningState {
  bool stdin_writable = false;
  bool waiting_for_input = false;
  int64_t idle_ms = 0;
  int64_t last_output_at = 0;
};

/// A failed process result: details {status:"failed", error:<text>}.
ToolResult fail(std::string text);
ToolResult ok(std::string text, json::Object details);
/// details.name = the derived session name (omitted when there is none).
void put_name(json::Object& d, const session::Session& s);
/// {status:"running", sessionId, name} of the input actions.
json::Object running_result_details(const session::Session& s);

class ProcessAction : public std::enable_shared_from_this<ProcessAction> {
 public:
  /// `scope_key` nullopt: every client's sessions (the operator's view).
  ProcessAction(exec::ExecService& service, json::Object args, std::optional<std::string> scope_key,
                std::shared_ptr<exec::CancelSignal> cancel, ToolDone done)
      : service_(service),
        args_(std::move(args)),
        scope_key_(std::move(scope_key)),
        cancel_(std::move(cancel)),
        done_(std::move(done)) {}

  void run();

 private:
  bool in_scope(const std::shared_ptr<session::Session>& s) const { return s && (!scope_key_ || s->scope_key == *scope_key_); }
  RunningState describe(const session::Session& s) const;
  std::string input_wait_hint(const RunningState& r) const {
    return r.waiting_for_input ? session::input_wait_hint(r.idle_ms) : "";
  }
  void list();
  void poll();
  void finish_poll();
  ToolResult finished_poll(session::Session& s);
  void log();
  // write, send-keys, submit and paste share their preconditions.
  std::shared_ptr<session::Session> writable_session();
  void write();
  void send_keys();
  void submit();
  void paste();
  void write_then(std::shared_ptr<session::Session> s, std::string data, std::function<ToolResult()> result);
  void kill();
  void clear();
  void remove();
  void respond(ToolResult r) {
    if (!done_) return;
    cancel_.reset();
    ToolDone done = std::move(done_);
    done_ = nullptr;
    done(std::move(r));
  }

  exec::ExecService& service_;
  json::Object args_;
  std::optional<std::string> scope_key_;
  std::shared_ptr<exec::CancelSignal> cancel_;  // may be null
  ToolDone done_;
  std::string id_;
  std::shared_ptr<session::Session> running_;
  std::shared_ptr<session::Session> finished_;
};

}  // namespace clawexec::tools
