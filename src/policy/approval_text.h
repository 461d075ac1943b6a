#pragma once
// The texts an approval produces (exec reference §1.5 (d), (f); approvals reference §7.3,
// §7.6): the approval-pending tool result, the denied result, the followup notices of an
// approved background run, and the user-facing denial summaries. Pure string building.

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/modes.h"

namespace clawexec::policy {

/// A tool result: the text content and the structured details.
struct ApprovalToolResult {
  std::string text;
  boost::json::object details;
};

/// The command inside a fenced block: the fence is max(3, longest backtick run + 1) backticks,
/// the language follows the opening fence ("```sh\n<text>\n```").
std::string fenced_code_block(std::string_view text, std::string_view language);

/// Whether an approved command may continue as a background process (the pending text then
/// says what background mode requires).
enum class ProcessContinuation { kAvailable, kUnavailable };

struct ApprovalPendingInputs {
  std::vector<std::string> warnings;  // each one line (or more); may be empty
  std::string approval_id;
  std::string approval_slug;  // first 8 characters of the id
  int64_t expires_at_ms = 0;
  std::vector<ApprovalDecision> allowed_decisions;
  ExecHost host = ExecHost::kGateway;  // gateway or node
  std::string command;
  std::optional<std::string> cwd;  // nullopt renders "(node default)" and is omitted from details
  std::optional<std::string> node_id;
  ProcessContinuation continuation = ProcessContinuation::kAvailable;
};

/// §7.3 text (lines joined with "\n", no trailing newline).
std::string approval_pending_text(const ApprovalPendingInputs& inputs);

/// {status:"approval-pending", approvalId, approvalSlug, expiresAtMs, allowedDecisions, host,
/// command, cwd?, nodeId?, warningText}; warningText is the warnings joined with "\n" plus
/// "\n\n", or "" without warnings.
boost::json::object approval_pending_details(const ApprovalPendingInputs& inputs);

ApprovalToolResult approval_pending_result(const ApprovalPendingInputs& inputs);

/// "Exec denied (gateway id=<id>, <reason>): <command>", or "Exec denied (<reason>): <command>"
/// when there is no (or an empty) approval id.
std::string exec_denied_text(const std::optional<std::string>& approval_id, std::string_view reason,
                             std::string_view command);

/// The denied tool result of §1.5 (f): the text above and details {status:"failed",
/// exitCode:null, durationMs:0, aggregated:<text>, timedOut:<reason contains "timeout">, cwd?}.
ApprovalToolResult exec_denied_result(const std::optional<std::string>& approval_id, std::string_view reason,
                                      std::string_view command, const std::optional<std::string>& cwd);

/// How many UTF-16 units of output the finished notice keeps (the tail).
inline constexpr size_t kFinishedOutputTailUnits = 400;

/// The last `tail_units` UTF-16 units of `output`, then every run of white space (JavaScript
/// \s) replaced by one space, then trimmed.
std::string compact_output_tail(std::string_view output, size_t tail_units = kFinishedOutputTailUnits);

/// "timeout" when timed out, else "code <N>" ("code ?" without an exit code).
std::string exec_exit_label(bool timed_out, std::optional<int> exit_code);

enum class RunTimedOut { kNo, kYes };

/// "Exec finished (gateway id=<id>, session=<sid>, <exitLabel>)" plus "\n<compact output>"
/// when the compacted tail of `combined_output` is non-empty.
std::string exec_finished_text(std::string_view approval_id, std::string_view session_id, RunTimedOut timed_out,
                               std::optional<int> exit_code, std::string_view combined_output);

/// The node forms (host=node runs that waited for an approval):
/// "Exec denied (node=<nodeId> id=<approvalId>, <reason>): <command>" and
/// "Exec finished (node=<nodeId> id=<approvalId>, <exitLabel>)" plus "\n<compact output>".
std::string node_exec_denied_text(std::string_view node_id, std::string_view approval_id, std::string_view reason,
                                  std::string_view command);
std::string node_exec_finished_text(std::string_view node_id, std::string_view approval_id, RunTimedOut timed_out,
                                    std::optional<int> exit_code, std::string_view combined_output);

/// "Exec running (gateway id=<id>, session=<sid>, ><N>s): <command>".
std::string exec_running_text(std::string_view approval_id, std::string_view session_id, int64_t seconds,
                              std::string_view command);

/// The <N> of the running notice for approvalRunningNoticeMs: max(1, round(ms / 1000)).
int64_t approval_running_notice_seconds(int64_t notice_ms);

/// §7.6 user-facing summary of a denial's metadata (the text inside "Exec denied (...)"),
/// matched case-insensitively by substring: approval-timeout, approval-cancelled (the prompt
/// was dismissed: an elicitation answered `cancel`), user-denied, allowlist-miss,
/// approval-request-failed, else "Command did not run.".
std::string_view denial_summary(std::string_view metadata);

}  // namespace clawexec::policy
