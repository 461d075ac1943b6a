#pragma once
// The approvals document (spec §1) as an operator sees and replaces it. Every write goes
// through approvals::ApprovalsStore (locked, atomic, 0600, compare-and-swap against the hash
// read first, retried while only the servers' bookkeeping moved), so an operation never loses
// a concurrent change and never overwrites a corrupt file. What is returned never carries the
// socket token (the file keeps it).

#include <boost/json/object.hpp>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "approvals/store.h"
#include "base/result.h"
#include "operator/operator_env.h"

namespace clawexec::operator_ops {

/// The largest document `set_approvals` accepts, in bytes.
inline constexpr size_t kMaxApprovalsDocumentBytes = 1048576;

/// The message of every compare-and-swap conflict (code kRejected): the document changed in a
/// way that is not bookkeeping since the operation (or its caller) read it.
inline constexpr std::string_view kApprovalsChangedMessage = "Exec approvals changed; reload and retry.";

/// The snapshot with socket.token removed: {path, exists, hash, file}.
boost::json::object redacted_snapshot(const approvals::ApprovalsSnapshot& snapshot);

/// `approvals get`: the redacted snapshot plus the effective-policy report
/// (ReportStyle::kApprovalsGet) as "effectivePolicy", and "agent" / "agentPolicy" (the scope of
/// `agent`). When the config cannot be read, "effectivePolicy" is {scopes: [], note: "Config
/// unavailable: ..."} and there is no agentPolicy. Errors: the approvals file cannot be read or
/// is invalid (the message names its path), a blank agent id.
Result<boost::json::object> get_approvals(const OperatorEnv& env, std::string_view agent);

struct SetApprovalsResult {
  bool changed = false;          // false: the document was already exactly this
  boost::json::object snapshot;  // redacted, after the write
};

/// {path, exists, hash, file, changed}.
boost::json::object to_json(const SetApprovalsResult& result);

/// `approvals set`: replaces the document with `text` (JSON5; a missing "version" means 1),
/// strictly validated (§1.3) before anything is written; the socket path and token are kept
/// from the current file (or the default path and a fresh token). With `base_hash`, the file
/// must still have that hash (the caller's compare-and-swap); in any case the file must not
/// change by more than bookkeeping while the operation runs. Errors (kInvalidArgument unless
/// said): input over kMaxApprovalsDocumentBytes, unparsable ("Failed to parse approvals JSON:
/// ..."), invalid ("invalid approvals document: <where>: <what>"), the current file unreadable
/// or corrupt (it is never overwritten), a conflict (kRejected, kApprovalsChangedMessage).
Result<SetApprovalsResult> set_approvals(const OperatorEnv& env, std::string_view text,
                                         const std::optional<std::string>& base_hash = std::nullopt);

}  // namespace clawexec::operator_ops
