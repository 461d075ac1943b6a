#pragma once
// The shapes of system.run.prepare and system.run on the node (reference §A7, §4.6): how a
// request's argv and rawCommand become the command text, the plan `system.run.prepare`
// returns, the re-check that a `system.run` carrying a plan runs exactly that plan, the env
// override rules, and the result and exec.finished payloads with their output caps.
//
// The gateway is not trusted: a plan it sends back must match the argv, cwd, agent and
// session of the run, and a plan that pinned an executable by hash must still find that file.

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "env/env_list.h"
#include "json/json.h"

namespace clawexec::node {

inline constexpr size_t kOutputCap = 200000;      // per stream (OUTPUT_CAP)
inline constexpr size_t kEventOutputTail = 20000;  // exec.finished output (OUTPUT_EVENT_TAIL)

/// An error answered as node.invoke.result {ok:false, error{code, message}}.
struct InvokeError {
  std::string code;
  std::string message;
};

/// The member `key` when it is a non-empty string.
std::optional<std::string> nonempty_string(const json::Object& object, std::string_view key);

/// The first executable regular file `name` names in `path_env` (a name with a '/' is not
/// looked up), as PATH lookup finds it (not resolved further).
std::optional<std::string> find_in_path(const std::string& name, const std::string& path_env);

struct CommandRequest {
  std::vector<std::string> argv;
  std::string command_text;                  // shell::format_exec_command(argv)
  std::optional<std::string> shell_payload;  // the inline script of a shell wrapper
  std::optional<std::string> preview;        // the payload, trimmed, when it differs from the text
};

/// params.command (required array of strings) checked against params.rawCommand, which must
/// be the command text or the wrapper's payload when given.
std::variant<CommandRequest, InvokeError> resolve_command(const json::Object& params);

/// The node's own policy for one agent, as the plan's policySnapshot shows it.
struct PolicyView {
  std::string security = "full";
  std::string ask = "off";
  std::string ask_fallback = "deny";
  bool auto_allow_skills = false;
  json::Array allowlist_rules;  // [{pattern, argPattern?, source?}]
};
json::Object policy_snapshot_json(const PolicyView& policy);

/// What a plan depends on beside the request: the process cwd (used when none is given), the
/// PATH executables are resolved in, and the node's policy.
struct PrepareContext {
  std::string process_cwd;
  std::string path_env;
  PolicyView policy;
};

/// The system.run.prepare payload {plan, execPolicy, allowAlwaysCoverage}, or its refusal.
std::variant<json::Object, InvokeError> prepare_plan(const json::Object& params, const PrepareContext& context);

/// The env overrides a run gets: a blocked or non-portable key refuses the run; for a shell
/// wrapper only the shell-wrapper allowlist (TERM, LANG, LC_*, ...) is kept.
std::variant<env::EnvList, InvokeError> check_env_overrides(const json::Object& params, bool shell_wrapper);

/// When params.systemRunPlan is present: it must be a valid plan whose argv, commandText,
/// cwd, agentId and sessionKey are those of the run, and whose mutableFileOperand (if any)
/// still hashes the same. A run marked approved (approved, approvalDecision, approvalSource)
/// must carry its plan.
std::optional<InvokeError> check_plan_binding(const json::Object& params, const CommandRequest& command);

struct RunResult {
  std::optional<int> exit_code;
  bool timed_out = false;
  std::string stdout_text;
  std::string stderr_text;
  std::optional<std::string> error;
  bool success() const { return exit_code && *exit_code == 0 && !timed_out; }
};

/// Applies the 200 000-byte caps (head kept; "\n... (truncated)" appended to stderr when it
/// is non-empty, else to stdout).
void cap_outputs(RunResult& result);

/// {exitCode?, timedOut, success, stdout, stderr, error}
json::Object run_result_json(const RunResult& result);

/// The exec.finished payload: output = stdout, stderr, error (non-empty ones) joined by "\n",
/// trimmed, its last 20 000 characters behind "... (truncated) " when longer.
json::Object exec_finished_payload(const std::string& session_key, const std::string& run_id,
                                   const std::string& command_text, const RunResult& result, bool suppress_notify);

/// The text of a working directory that does not exist (reference wording).
std::string missing_cwd_error(const std::string& cwd);

}  // namespace clawexec::node
