#pragma once
// The registry of approval requests waiting for a human (reference approvals spec §7.2).
//
// Pure bookkeeping: no clock, no I/O, no locking. Every operation that depends on time takes
// `now_ms` (epoch milliseconds); the owner of the registry serialises access and runs
// expire()/purge() from its own timer. A record is pending until it is resolved or expires;
// after that it is kept for kResolvedGraceMs so a late waiter can still learn the outcome,
// then purge() drops it.

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "policy/modes.h"

namespace clawexec::approvals {

/// Resolved and expired records stay findable this long (EXEC_APPROVAL_RESOLVED_ENTRY_GRACE_MS).
inline constexpr int64_t kResolvedGraceMs = 15'000;
/// Default lifetime of a request (DEFAULT_EXEC_APPROVAL_TIMEOUT_MS, 30 minutes).
inline constexpr int64_t kDefaultApprovalTimeoutMs = 1'800'000;
/// At most this many requests of one agent (the request's agentId; requests naming none count
/// together) wait at once. An agent, or a prompt injection steering it, could otherwise bury
/// a real request among hundreds of decoys in every operator's queue.
inline constexpr size_t kMaxPendingPerAgent = 20;
/// The short code shown to users is this many leading characters of the id.
inline constexpr size_t kApprovalSlugLength = 8;

enum class ApprovalStatus { kPending, kResolved, kExpired };
std::string_view to_string(ApprovalStatus status);

/// One approval request and, once settled, its outcome.
struct PendingApproval {
  std::string id;    // UUID v4, lowercase
  std::string slug;  // first kApprovalSlugLength characters of id
  boost::json::object request;  // the stored request of §7.2
  std::vector<policy::ApprovalDecision> allowed_decisions;  // canonical order, always has deny
  int64_t created_at_ms = 0;
  int64_t expires_at_ms = 0;
  std::string owner;  // opaque tag of whoever registered it (e.g. the serving process)
  ApprovalStatus status = ApprovalStatus::kPending;
  std::optional<policy::ApprovalDecision> decision;  // set when status is kResolved
  std::optional<int64_t> settled_at_ms;              // resolution or expiry time
};

/// What add() needs; slug, status and decision are derived.
struct NewApproval {
  std::string id;
  boost::json::object request;
  std::vector<policy::ApprovalDecision> allowed_decisions;  // normalised by add()
  int64_t created_at_ms = 0;
  int64_t expires_at_ms = 0;
  std::string owner;
};

/// "abcdef12-..." -> "abcdef12" (the whole id when shorter).
std::string approval_slug(std::string_view id);

/// Which records a lookup may return.
enum class LookupScope { kPendingOnly, kIncludeSettled };

class PendingApprovals {
 public:
  /// Registers a request. Errors (kInvalidArgument): "approval ids starting with plugin: are
  /// reserved"; "approval id already pending" (also while a settled record is still kept);
  /// a malformed id (empty, over 128 characters, "." / "..", or characters outside
  /// [A-Za-z0-9._:-]). kRejected when the request's agent already has
  /// kMaxPendingPerAgent requests waiting (live at created_at_ms). Allowed decisions are
  /// de-duplicated into canonical order and deny is always added.
  Result<PendingApproval> add(NewApproval approval);

  /// Pending, unexpired records, oldest first (ties by id).
  std::vector<PendingApproval> list(int64_t now_ms) const;

  /// Exact id (as given, then trimmed), else a unique case-insensitive prefix of a candidate id
  /// (the slug is such a prefix). An exact hit on a record outside `scope` is not found; a
  /// pending record past its expiry counts as not pending.
  /// Errors: kNotFound "unknown or expired approval id";
  /// kInvalidArgument "ambiguous approval id prefix; use the full id".
  Result<PendingApproval> find(std::string_view id_or_prefix, int64_t now_ms,
                               LookupScope scope = LookupScope::kPendingOnly) const;

  /// Settles a pending record with `decision`, keeping it for the grace period. Errors: those of
  /// find(); kRejected "allow-always is unavailable for this command" when the decision is not
  /// among the record's allowed decisions (the record stays pending).
  Result<PendingApproval> resolve(std::string_view id_or_prefix, policy::ApprovalDecision decision, int64_t now_ms);

  /// Marks every pending record with expires_at_ms <= now as expired (decision: none) and
  /// returns them, oldest first. They stay findable with kIncludeSettled for the grace period.
  std::vector<PendingApproval> expire(int64_t now_ms);

  /// Drops settled records whose grace period has ended (settled_at + kResolvedGraceMs <= now).
  void purge(int64_t now_ms);

  /// Forgets a record by exact id; false when there was none.
  bool remove(std::string_view id);

  /// Every record held (pending and settled), for diagnostics and tests.
  size_t size() const { return records_.size(); }
  /// Requests of `agent_id` ("" = those naming no agent) live at `now_ms`.
  size_t waiting_for(const std::string& agent_id, int64_t now_ms) const;

 private:
  std::vector<PendingApproval> records_;  // insertion order
};

}  // namespace clawexec::approvals
