#pragma once
// Shared plumbing of the operator commands (the operations themselves live in src/operator/):
// printing (JSON on stdout, errors on stderr) and the "humans only" refusal as the CLI shows it.

#include <boost/json/value.hpp>
#include <optional>
#include <string_view>

namespace clawexec::cli {

/// Prints JSON.stringify(value, null, 2) and a newline on stdout.
void print_json(const boost::json::value& value);

/// Prints "clawexec <command>: <message>" on stderr (escaped for display); returns 1.
int fail(std::string_view command, std::string_view message);

/// Commands that answer approvals or change policy are for humans only: when this process runs
/// under a clawexec command (an agent's command), prints why (operator_ops::human_only_refusal)
/// and returns 1; nullopt when the command may run (docs/approvals.md, "Who may decide").
std::optional<int> refuse_under_clawexec(std::string_view command);

}  // namespace clawexec::cli
