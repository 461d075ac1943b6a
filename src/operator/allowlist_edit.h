#pragma once
// An agent's allowlist edited by an operator: add a pattern (with an optional argPattern),
// following the add/upgrade rules of spec §1.7, or remove the entries with exactly this
// pattern and argPattern. Writes go through the store with compare-and-swap on the snapshot
// read first; servers recording allowlist use meanwhile is no conflict.

#include <boost/json/object.hpp>
#include <cstddef>
#include <optional>
#include <string>

#include "base/result.h"
#include "operator/operator_env.h"

namespace clawexec::operator_ops {

enum class AllowlistAction { kAdd, kRemove };

struct AllowlistEdit {
  AllowlistAction action = AllowlistAction::kAdd;
  std::string agent = "main";              // an agent id, or "*" for every agent
  std::string pattern;                     // executable path or name glob
  std::optional<std::string> arg_pattern;  // empty counts as none
};

struct AllowlistEditResult {
  AllowlistAction action = AllowlistAction::kAdd;
  bool changed = false;  // add: added or upgraded; remove: something was removed
  std::string agent;     // trimmed
  std::string pattern;   // trimmed
  std::optional<std::string> arg_pattern;
  size_t removed = 0;            // remove only
  std::string message;           // "Added agents.main.allowlist: ls", "Pattern not found: ...", ...
  boost::json::object snapshot;  // redacted, after the edit
};

/// {action: added|unchanged|removed|not-found, changed, agent, pattern, argPattern,
/// message, removed (remove only), path, exists, hash, file}.
boost::json::object to_json(const AllowlistEditResult& result);

/// The edit with agent and pattern trimmed (JavaScript white space) and an empty argPattern
/// dropped. Errors (kInvalidArgument): a blank agent id or pattern, an argPattern (add only)
/// the matcher would not accept ("invalid argPattern <re>: <why>").
Result<AllowlistEdit> validate_allowlist_edit(AllowlistEdit edit);

/// Applies the edit (validated first). A pattern already present, or one not found, is not an
/// error: `changed` is false and the message says so. Errors: the approvals file unreadable or
/// corrupt (never overwritten; the message names its path), a conflict (kRejected,
/// kApprovalsChangedMessage).
Result<AllowlistEditResult> edit_allowlist(const OperatorEnv& env, AllowlistEdit edit);

}  // namespace clawexec::operator_ops
