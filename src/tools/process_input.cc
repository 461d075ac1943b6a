// The `process` actions that act on a running session (reference §2.4): write, send-keys,
// submit and paste share their preconditions (backgrounded, stdin writable); kill and remove
// start the manual-cancel kill sequence; clear and remove forget finished sessions.

#include "base/strings.h"
#include "base/utf.h"
#include "tools/process_action.h"
#include "tools/tool_args.h"
#include "term/key_encoding.h"

namespace clawexec::tools {

std::shared_ptr<session::Session> ProcessAction::writable_session() {
  if (!running_ || running_->exited) {
    respond(fail("No active session found for " + id_));
    return nullptr;
  }
  if (!running_->backgrounded) {
    respond(fail("Session " + id_ + " is not backgrounded."));
    return nullptr;
  }
  if (!running_->control || !running_->control->stdin_writable()) {
    respond(fail("Session " + id_ + " stdin is not writable."));
    return nullptr;
  }
  return running_;
}

void ProcessAction::write_then(std::shared_ptr<session::Session> s, std::string data,
                               std::function<ToolResult()> result) {
  auto self = shared_from_this();
  s->control->write_stdin(std::move(data), [self, result = std::move(result)](Result<void> written) {
    if (!written.ok()) return self->respond(fail("Session " + self->id_ + " stdin is not writable."));
    self->respond(result());
  });
}

void ProcessAction::write() {
  std::shared_ptr<session::Session> s = writable_session();
  if (!s) return;
  std::string data = string_arg(args_, "data").value_or("");
  bool eof = json::find(args_, "eof") && json::find(args_, "eof")->is_bool() && json::find(args_, "eof")->get_bool();
  size_t bytes = data.size();
  std::string id = id_;
  write_then(s, std::move(data), [s, bytes, eof, id] {
    if (eof && s->control) s->control->close_stdin();
    return ok("Wrote " + std::to_string(bytes) + " bytes to session " + id + (eof ? " (stdin closed)" : "") + ".",
              running_result_details(*s));
  });
}

void ProcessAction::send_keys() {
  std::shared_ptr<session::Session> s = writable_session();
  if (!s) return;
  term::KeyRequest input;
  input.literal = string_arg(args_, "literal").value_or("");
  input.hex = strings_arg(args_, "hex");
  input.keys = strings_arg(args_, "keys");
  if (s->cursor_key_mode == term::CursorKeyMode::kUnknown && term::has_cursor_mode_sensitive_keys(input.keys)) {
    return respond(fail("Session " + id_ +
                        " cursor key mode is not known yet. Poll or log until startup output appears, then retry "
                        "send-keys."));
  }
  term::EncodedKeys encoded = term::encode_key_sequence(input, s->cursor_key_mode);
  if (encoded.data.empty()) return respond(fail("No key data provided."));
  std::string text = "Sent " + std::to_string(encoded.data.size()) + " bytes to session " + id_ + ".";
  if (!encoded.warnings.empty()) text += "\nWarnings:\n- " + join(encoded.warnings, "\n- ");
  write_then(s, std::move(encoded.data), [s, text] { return ok(text, running_result_details(*s)); });
}

void ProcessAction::submit() {
  std::shared_ptr<session::Session> s = writable_session();
  if (!s) return;
  std::string text = "Submitted session " + id_ + " (sent CR).";
  write_then(s, "\r", [s, text] { return ok(text, running_result_details(*s)); });
}

void ProcessAction::paste() {
  std::shared_ptr<session::Session> s = writable_session();
  if (!s) return;
  std::string pasted = string_arg(args_, "text").value_or("");
  const json::Value* bracketed = json::find(args_, "bracketed");
  bool bracket = !(bracketed && bracketed->is_bool() && !bracketed->get_bool());
  std::string payload =
      term::encode_paste(pasted, bracket ? term::PasteBracketing::kBracketed : term::PasteBracketing::kRaw);
  if (payload.empty()) return respond(fail("No paste text provided."));
  std::string text = "Pasted " + std::to_string(utf16_length(pasted)) + " chars to session " + id_ + ".";
  write_then(s, std::move(payload), [s, text] { return ok(text, running_result_details(*s)); });
}

void ProcessAction::kill() {
  if (!running_ || running_->exited) return respond(fail("No active session found for " + id_));
  if (!running_->backgrounded) return respond(fail("Session " + id_ + " is not backgrounded."));
  if (!running_->control || !running_->control->cancel()) {
    return respond(fail("Unable to terminate session " + id_ +
                        ": no active supervisor cancellation handle. Use process poll to check whether it is "
                        "already exiting."));
  }
  running_->poll_backoff.reset();
  json::Object d;
  d["status"] = "completed";
  put_name(d, *running_);
  respond(ok("Termination requested for session " + id_ + ".", std::move(d)));
}

void ProcessAction::clear() {
  if (!finished_) return respond(fail("No finished session found for " + id_));
  service_.registry().remove(id_);
  json::Object d;
  d["status"] = "completed";
  respond(ok("Cleared session " + id_ + ".", std::move(d)));
}

void ProcessAction::remove() {
  json::Object d;
  d["status"] = "completed";
  if (running_ && !running_->exited) {
    if (!running_->backgrounded) return respond(fail("Session " + id_ + " is not backgrounded."));
    if (!running_->control || !running_->control->cancel()) {
      return respond(fail("Unable to remove session " + id_ +
                          ": no active supervisor cancellation handle. Use process poll to check whether it is "
                          "already exiting."));
    }
    running_->backgrounded = false;
    service_.registry().remove(id_);
    put_name(d, *running_);
    return respond(ok("Removed session " + id_ + " (termination requested).", std::move(d)));
  }
  if (finished_) {
    service_.registry().remove(id_);
    return respond(ok("Removed session " + id_ + ".", std::move(d)));
  }
  respond(fail("No session found for " + id_));
}

}  // namespace clawexec::tools
