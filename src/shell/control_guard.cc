// The control-command guards: deciding whether exec must refuse a command line.
//
// Problem: the guards must find a forbidden command wherever the line would run it, reach
// the reference's verdict (including where its analysis gives up), and do so without running
// anything.
//
// Approach: explain the line (explain.h), as bash and, where their grammars differ, also as
// dash reads it. When that works, every listed command, top level
// first, is expanded into payload candidates (payload_candidates.h) and each candidate is
// tested by the matchers, /approve before channel login, candidate by candidate; then the
// operator-CLI rule and the sqlite3 rule run over all candidate argvs. When the reference could not explain the line,
// it checks each non-empty trimmed line split with split_shell_args instead (a line that does
// not split is itself the candidate); we check those candidates first and then, to stay
// fail-closed, also the commands our parser did find (for syntax that bash runs but
// tree-sitter-bash rejects, that is all of them). Exceeding the explanation work limit is a
// refusal of its own, checked before anything else.

#include "shell/control_guard.h"

#include <utility>
#include <vector>

#include "base/utf.h"
#include "shell/control_matchers.h"
#include "shell/explain.h"
#include "shell/payload_candidates.h"

namespace clawexec::shell {
namespace {

constexpr std::string_view kApproveMessage =
    "exec cannot run /approve commands. Show the /approve command to the user as chat text, or "
    "route it through the approval command handler instead of shell execution.";
constexpr std::string_view kChannelLoginMessage =
    "exec cannot run interactive OpenClaw channel login commands. Run `openclaw channels login` "
    "in a terminal on the gateway host, or use the channel-specific login agent tool when "
    "available (for WhatsApp: `whatsapp_login`).";
constexpr std::string_view kOperatorCliMessage =
    "exec cannot run operator commands that answer approvals or change exec policy (clawexec "
    "approvals, clawexec exec-policy, clawexec config set, clawexec doctor --fix). Show the command "
    "to the user so they can run it in their own terminal; approvals and policy changes must come "
    "from a human.";
constexpr std::string_view kWorkLimitMessage =
    "exec cannot run a shell command that exceeds the command explanation work limit. Simplify "
    "the command so its complete syntax can be inspected before execution.";
constexpr std::string_view kStateDbMessage =
    "external sqlite3 cannot open databases under the active OpenClaw state directory. Use "
    "OpenClaw commands for live state, or inspect a private backup copy outside "
    "`OPENCLAW_STATE_DIR`.";

using Candidates = CommandGuards::Candidates;

void add_candidates(const Argv& argv, Candidates& out) {
  for (std::string& c : command_payload_candidates(argv)) out.control.push_back(std::move(c));
  for (Argv& a : command_payload_argv_candidates(argv)) out.argvs.push_back(std::move(a));
}

// The reference's fallback for lines it cannot explain: "\n" or "\r\n" separated lines,
// trimmed, empty ones dropped.
void add_line_candidates(std::string_view command, Candidates& out) {
  size_t start = 0;
  while (start <= command.size()) {
    size_t newline = command.find('\n', start);
    size_t end = newline == std::string_view::npos ? command.size() : newline;
    std::string_view line = command.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    line = js_trim(line);
    if (!line.empty()) {
      if (std::optional<Argv> argv = split_shell_args(line)) {
        add_candidates(*argv, out);
      } else {
        out.control.emplace_back(line);
        out.argvs.push_back(Argv{std::string(line)});
      }
    }
    if (newline == std::string_view::npos) break;
    start = newline + 1;
  }
}

}  // namespace

namespace {

Candidates analyse(std::string_view command) {
  std::string_view raw = js_trim(command);
  // The line may run under bash or dash: every command either of them would run is checked.
  std::vector<ShellDialect> dialects = {ShellDialect::kBash};
  if (dialects_may_differ(raw)) dialects.push_back(ShellDialect::kDash);
  Candidates candidates;
  bool line_candidates = false;
  for (ShellDialect dialect : dialects) {
    Explanation explanation = explain_command(raw, dialect);
    if (explanation.outcome == ExplainOutcome::kWorkLimitExceeded) {
      candidates.incomplete = true;
      return candidates;
    }
    if (explanation.outcome == ExplainOutcome::kUnparseable && !line_candidates) {
      add_line_candidates(raw, candidates);
      line_candidates = true;
    }
    for (const ExplainedCommand& step : explanation.commands) add_candidates(step.argv, candidates);
  }
  return candidates;
}

UnsafeShellCommand verdict(const Candidates& candidates, const StateDbContext* state_db) {
  if (candidates.incomplete) return UnsafeShellCommand::kIncompleteAnalysis;
  for (const std::string& candidate : candidates.control) {
    if (is_approve_command(candidate)) return UnsafeShellCommand::kApprove;
    if (is_channel_login_command(candidate)) return UnsafeShellCommand::kChannelLogin;
  }
  if (state_db && !state_db->workdir.empty()) {
    for (const Argv& argv : candidates.argvs) {
      if (opens_state_database(argv, *state_db)) return UnsafeShellCommand::kLiveStateSqlite;
    }
  }
  for (const Argv& argv : candidates.argvs) {
    if (is_operator_cli_command(argv)) return UnsafeShellCommand::kOperatorCli;
  }
  return UnsafeShellCommand::kNone;
}

Result<void> control_result(UnsafeShellCommand kind) {
  switch (kind) {
    case UnsafeShellCommand::kIncompleteAnalysis:
      return Error::rejected(std::string(kWorkLimitMessage));
    case UnsafeShellCommand::kApprove:
      return Error::rejected(std::string(kApproveMessage));
    case UnsafeShellCommand::kChannelLogin:
      return Error::rejected(std::string(kChannelLoginMessage));
    case UnsafeShellCommand::kOperatorCli:
      return Error::rejected(std::string(kOperatorCliMessage));
    default:
      return {};
  }
}

Result<void> state_db_result(UnsafeShellCommand kind) {
  switch (kind) {
    case UnsafeShellCommand::kIncompleteAnalysis:
      return Error::rejected(std::string(kWorkLimitMessage));
    case UnsafeShellCommand::kLiveStateSqlite:
      return Error::rejected(std::string(kStateDbMessage));
    default:
      return {};
  }
}

}  // namespace

UnsafeShellCommand detect_unsafe_shell_command(std::string_view command, const StateDbContext* state_db) {
  return verdict(analyse(command), state_db);
}

Result<void> check_control_commands(std::string_view command) { return control_result(detect_unsafe_shell_command(command)); }

Result<void> check_state_db_access(std::string_view command, const StateDbContext& context) {
  return state_db_result(detect_unsafe_shell_command(command, &context));
}

CommandGuards::CommandGuards(std::string_view command) : candidates_(analyse(command)) {}

Result<void> CommandGuards::check_control_commands() const { return control_result(verdict(candidates_, nullptr)); }

Result<void> CommandGuards::check_state_db_access(const StateDbContext& context) const {
  return state_db_result(verdict(candidates_, &context));
}

}  // namespace clawexec::shell
