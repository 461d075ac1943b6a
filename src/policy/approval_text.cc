// Approval texts.
//
// These strings are read by people and by agents, and the reference's own followup parser keys
// on their exact shape ("Exec denied (gateway id=...):", "Exec finished (gateway id=...)\n"),
// so each is assembled verbatim from its parts here, in one place. White space handling
// follows JavaScript: trimming and \s use the Unicode white space set of base/utf.h, and the
// output tail is measured in UTF-16 units.

#include "policy/approval_text.h"

#include <algorithm>

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::policy {
namespace {

bool offers_allow_always(const std::vector<ApprovalDecision>& decisions) {
  return std::find(decisions.begin(), decisions.end(), ApprovalDecision::kAllowAlways) != decisions.end();
}

std::string joined_decisions(const std::vector<ApprovalDecision>& decisions, std::string_view separator) {
  std::vector<std::string> names;
  for (ApprovalDecision d : decisions) names.emplace_back(to_string(d));
  return join(names, separator);
}

std::string joined_warnings(const std::vector<std::string>& warnings) { return join(warnings, "\n"); }

size_t longest_backtick_run(std::string_view text) {
  size_t longest = 0;
  size_t run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return longest;
}

}  // namespace

std::string fenced_code_block(std::string_view text, std::string_view language) {
  std::string fence(std::max<size_t>(3, longest_backtick_run(text) + 1), '`');
  std::string out = fence;
  out += language;
  out += '\n';
  out += text;
  out += '\n';
  out += fence;
  return out;
}

std::string approval_pending_text(const ApprovalPendingInputs& in) {
  std::vector<std::string> lines;
  if (!in.warnings.empty()) {
    std::string warning_text(js_trim(joined_warnings(in.warnings)));
    if (!warning_text.empty()) {
      lines.push_back(std::move(warning_text));
      lines.emplace_back();
    }
  }
  bool allow_always = offers_allow_always(in.allowed_decisions);
  lines.push_back("Approval required (id " + in.approval_slug + ", full " + in.approval_id + ").");
  lines.push_back("Host: " + std::string(config::to_string(in.host)));
  if (in.node_id && !in.node_id->empty()) lines.push_back("Node: " + *in.node_id);
  lines.push_back("CWD: " + in.cwd.value_or("(node default)"));
  lines.emplace_back("Command:");
  lines.push_back(fenced_code_block(in.command, "sh"));
  lines.emplace_back("Mode: foreground (interactive approvals available).");
  if (in.continuation == ProcessContinuation::kAvailable) {
    lines.emplace_back(allow_always
                           ? "Background mode requires pre-approved policy (allow-always or ask=off)."
                           : "Background mode requires an effective policy that allows pre-approval (for example "
                             "ask=off).");
  }
  lines.push_back("Reply with: /approve " + in.approval_slug + " " + joined_decisions(in.allowed_decisions, "|"));
  if (!allow_always) lines.emplace_back("Allow Always is unavailable for this command.");
  lines.emplace_back("If the short code is ambiguous, use the full id in /approve.");
  return join(lines, "\n");
}

boost::json::object approval_pending_details(const ApprovalPendingInputs& in) {
  boost::json::array decisions;
  for (ApprovalDecision d : in.allowed_decisions) decisions.emplace_back(to_string(d));
  boost::json::object details;
  details["status"] = "approval-pending";
  details["approvalId"] = in.approval_id;
  details["approvalSlug"] = in.approval_slug;
  details["expiresAtMs"] = in.expires_at_ms;
  details["allowedDecisions"] = std::move(decisions);
  details["host"] = config::to_string(in.host);
  details["command"] = in.command;
  if (in.cwd) details["cwd"] = *in.cwd;
  if (in.node_id) details["nodeId"] = *in.node_id;
  details["warningText"] = in.warnings.empty() ? std::string() : joined_warnings(in.warnings) + "\n\n";
  return details;
}

ApprovalToolResult approval_pending_result(const ApprovalPendingInputs& inputs) {
  return {approval_pending_text(inputs), approval_pending_details(inputs)};
}

std::string exec_denied_text(const std::optional<std::string>& approval_id, std::string_view reason,
                             std::string_view command) {
  std::string meta = approval_id && !approval_id->empty() ? "gateway id=" + *approval_id + ", " : std::string();
  meta += reason;
  return "Exec denied (" + meta + "): " + std::string(command);
}

ApprovalToolResult exec_denied_result(const std::optional<std::string>& approval_id, std::string_view reason,
                                      std::string_view command, const std::optional<std::string>& cwd) {
  ApprovalToolResult result;
  result.text = exec_denied_text(approval_id, reason, command);
  result.details["status"] = "failed";
  result.details["exitCode"] = nullptr;
  result.details["durationMs"] = 0;
  result.details["aggregated"] = result.text;
  result.details["timedOut"] = reason.find("timeout") != std::string_view::npos;
  if (cwd) result.details["cwd"] = *cwd;
  return result;
}

std::string compact_output_tail(std::string_view output, size_t tail_units) {
  std::string_view tail = utf16_suffix(output, tail_units);
  std::string collapsed;
  collapsed.reserve(tail.size());
  bool in_space = false;
  while (!tail.empty()) {
    char32_t cp = 0;
    size_t len = decode_utf8(tail, cp);
    if (len == 0) len = 1;  // defensive: never loop forever on bad input
    if (is_js_whitespace(cp)) {
      if (!in_space) collapsed += ' ';
      in_space = true;
    } else {
      collapsed.append(tail.substr(0, len));
      in_space = false;
    }
    tail.remove_prefix(std::min(len, tail.size()));
  }
  return std::string(js_trim(collapsed));
}

std::string exec_exit_label(bool timed_out, std::optional<int> exit_code) {
  if (timed_out) return "timeout";
  return "code " + (exit_code ? std::to_string(*exit_code) : std::string("?"));
}

std::string exec_finished_text(std::string_view approval_id, std::string_view session_id, RunTimedOut timed_out,
                               std::optional<int> exit_code, std::string_view combined_output) {
  std::string text = "Exec finished (gateway id=" + std::string(approval_id) + ", session=" + std::string(session_id) +
                     ", " + exec_exit_label(timed_out == RunTimedOut::kYes, exit_code) + ")";
  std::string output = compact_output_tail(combined_output);
  if (!output.empty()) text += "\n" + output;
  return text;
}

std::string node_exec_denied_text(std::string_view node_id, std::string_view approval_id, std::string_view reason,
                                  std::string_view command) {
  return "Exec denied (node=" + std::string(node_id) + " id=" + std::string(approval_id) + ", " + std::string(reason) +
         "): " + std::string(command);
}

std::string node_exec_finished_text(std::string_view node_id, std::string_view approval_id, RunTimedOut timed_out,
                                    std::optional<int> exit_code, std::string_view combined_output) {
  std::string text = "Exec finished (node=" + std::string(node_id) + " id=" + std::string(approval_id) + ", " +
                     exec_exit_label(timed_out == RunTimedOut::kYes, exit_code) + ")";
  std::string output = compact_output_tail(combined_output);
  if (!output.empty()) text += "\n" + output;
  return text;
}

std::string exec_running_text(std::string_view approval_id, std::string_view session_id, int64_t seconds,
                              std::string_view command) {
  return "Exec running (gateway id=" + std::string(approval_id) + ", session=" + std::string(session_id) + ", >" +
         std::to_string(seconds) + "s): " + std::string(command);
}

int64_t approval_running_notice_seconds(int64_t notice_ms) {
  // Math.round: halves round towards +infinity.
  int64_t rounded = notice_ms >= 0 ? (notice_ms + 500) / 1000 : -((-notice_ms + 499) / 1000);
  return std::max<int64_t>(1, rounded);
}

std::string_view denial_summary(std::string_view metadata) {
  std::string lower = lower_trimmed(metadata);
  auto has = [&lower](std::string_view needle) { return lower.find(needle) != std::string::npos; };
  if (has("approval-timeout")) return "Command did not run: approval timed out.";
  if (has("approval-cancelled")) return "Command did not run: the approval prompt was dismissed without an answer.";
  if (has("user-denied")) return "Command did not run: approval was denied.";
  if (has("allowlist-miss")) return "Command did not run: approval is required.";
  if (has("approval-request-failed")) return "Command did not run: approval request failed.";
  return "Command did not run.";
}

}  // namespace clawexec::policy
