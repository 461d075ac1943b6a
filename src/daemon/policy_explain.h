#pragma once
// `clawexec policy explain`: what the policy engine would decide for a command on the gateway
// host, and why, without running it.

#include <optional>
#include <string>

namespace clawexec::daemon {

struct PolicyExplainOptions {
  std::string command;
  std::string agent_id = "main";
  std::optional<std::string> cwd;  // default: the current directory
  bool json = false;
};

/// Prints the analysis (JSON with --json, else a readable summary). Returns 0 when the report
/// was produced (whatever the decision), 1 when it could not be (bad config, bad --cwd).
int run_policy_explain(const PolicyExplainOptions& options);

}  // namespace clawexec::daemon
