// Pending approval registry.
//
// The registry is small (a handful of requests at a time), so records live in one vector in
// insertion order and every lookup is a linear scan: exact id first (the id as given, then
// trimmed), then a case-insensitive prefix over the records the lookup may see. Expiry is
// evaluated against the caller's clock: a pending record past its deadline is treated as
// expired by every query even before expire() has run, so a late timer can never let an
// operator approve a request that has already timed out.

#include "approvals/pending.h"

#include <algorithm>

#include "base/strings.h"
#include "base/utf.h"
#include "term/display_escape.h"

namespace clawexec::approvals {
namespace {

using policy::ApprovalDecision;

constexpr std::string_view kReservedPrefix = "plugin:";
constexpr size_t kMaxIdLength = 128;

bool is_id_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == ':' || c == '-';
}

Result<void> check_id(std::string_view id) {
  bool bad = id.empty() || id.size() > kMaxIdLength || id == "." || id == ".." ||
             !std::all_of(id.begin(), id.end(), is_id_char);
  if (bad) {
    return Error::invalid(
        "approval id must be 1-128 characters using only letters, numbers, '.', '_', ':', or '-', and cannot be "
        "'.' or '..'");
  }
  return {};
}

std::vector<ApprovalDecision> normalize_decisions(const std::vector<ApprovalDecision>& raw) {
  std::vector<ApprovalDecision> out;
  for (ApprovalDecision d : {ApprovalDecision::kAllowOnce, ApprovalDecision::kAllowAlways, ApprovalDecision::kDeny}) {
    bool wanted = d == ApprovalDecision::kDeny || std::find(raw.begin(), raw.end(), d) != raw.end();
    if (wanted) out.push_back(d);
  }
  return out;
}

std::string agent_of(const boost::json::object& request) {
  const boost::json::value* v = request.if_contains("agentId");
  return v && v->is_string() ? std::string(v->get_string()) : std::string();
}

bool is_live(const PendingApproval& r, int64_t now_ms) {
  return r.status == ApprovalStatus::kPending && r.expires_at_ms > now_ms;
}

/// The record as a query at `now_ms` sees it: an overdue pending record reads as expired.
PendingApproval as_seen(const PendingApproval& r, int64_t now_ms) {
  PendingApproval copy = r;
  if (copy.status == ApprovalStatus::kPending && copy.expires_at_ms <= now_ms) {
    copy.status = ApprovalStatus::kExpired;
    copy.settled_at_ms = copy.expires_at_ms;
  }
  return copy;
}

bool visible(const PendingApproval& r, int64_t now_ms, LookupScope scope) {
  return scope == LookupScope::kIncludeSettled || is_live(r, now_ms);
}

Error not_found() { return Error{ErrorCode::kNotFound, 0, "unknown or expired approval id"}; }

}  // namespace

std::string_view to_string(ApprovalStatus status) {
  switch (status) {
    case ApprovalStatus::kPending:
      return "pending";
    case ApprovalStatus::kResolved:
      return "resolved";
    case ApprovalStatus::kExpired:
      return "expired";
  }
  return "pending";
}

std::string approval_slug(std::string_view id) { return std::string(id.substr(0, kApprovalSlugLength)); }

Result<PendingApproval> PendingApprovals::add(NewApproval approval) {
  if (approval.id.rfind(kReservedPrefix, 0) == 0) {
    return Error::invalid("approval ids starting with plugin: are reserved");
  }
  for (const PendingApproval& r : records_) {
    if (r.id == approval.id) return Error::invalid("approval id already pending");
  }
  TRY(check_id(approval.id));
  const std::string agent = agent_of(approval.request);
  size_t waiting = waiting_for(agent, approval.created_at_ms);
  if (waiting >= kMaxPendingPerAgent) {
    return Error{ErrorCode::kRejected, 0,
                 "too many exec approvals waiting for " + (agent.empty() ? std::string("this agent") : "agent " + term::escape_for_display(agent)) +
                     " (" + std::to_string(waiting) + "): wait for an operator to decide them, or for them to expire, before asking again"};
  }
  PendingApproval record;
  record.id = std::move(approval.id);
  record.slug = approval_slug(record.id);
  record.request = std::move(approval.request);
  record.allowed_decisions = normalize_decisions(approval.allowed_decisions);
  record.created_at_ms = approval.created_at_ms;
  record.expires_at_ms = approval.expires_at_ms;
  record.owner = std::move(approval.owner);
  records_.push_back(record);
  return record;
}

size_t PendingApprovals::waiting_for(const std::string& agent_id, int64_t now_ms) const {
  return static_cast<size_t>(std::count_if(records_.begin(), records_.end(), [&](const PendingApproval& r) {
    return is_live(r, now_ms) && agent_of(r.request) == agent_id;
  }));
}

std::vector<PendingApproval> PendingApprovals::list(int64_t now_ms) const {
  std::vector<PendingApproval> out;
  for (const PendingApproval& r : records_) {
    if (is_live(r, now_ms)) out.push_back(r);
  }
  std::stable_sort(out.begin(), out.end(), [](const PendingApproval& a, const PendingApproval& b) {
    if (a.created_at_ms != b.created_at_ms) return a.created_at_ms < b.created_at_ms;
    return a.id < b.id;
  });
  return out;
}

Result<PendingApproval> PendingApprovals::find(std::string_view id_or_prefix, int64_t now_ms, LookupScope scope) const {
  // Exact matches: the input as given, then trimmed. An exact hit outside the scope is final.
  std::string_view trimmed = js_trim(id_or_prefix);
  for (std::string_view candidate : {id_or_prefix, trimmed}) {
    for (const PendingApproval& r : records_) {
      if (r.id != candidate) continue;
      if (!visible(r, now_ms, scope)) return not_found();
      return as_seen(r, now_ms);
    }
  }
  if (trimmed.empty()) return not_found();
  std::string prefix = ascii_lower(trimmed);
  const PendingApproval* match = nullptr;
  for (const PendingApproval& r : records_) {
    if (!visible(r, now_ms, scope)) continue;
    if (ascii_lower(r.id).rfind(prefix, 0) != 0) continue;
    if (match) return Error::invalid("ambiguous approval id prefix; use the full id");
    match = &r;
  }
  if (!match) return not_found();
  return as_seen(*match, now_ms);
}

Result<PendingApproval> PendingApprovals::resolve(std::string_view id_or_prefix, ApprovalDecision decision,
                                                  int64_t now_ms) {
  PendingApproval found = TRY(find(id_or_prefix, now_ms, LookupScope::kPendingOnly));
  const auto& allowed = found.allowed_decisions;
  if (std::find(allowed.begin(), allowed.end(), decision) == allowed.end()) {
    return Error::rejected("allow-always is unavailable for this command");
  }
  for (PendingApproval& r : records_) {
    if (r.id != found.id) continue;
    r.status = ApprovalStatus::kResolved;
    r.decision = decision;
    r.settled_at_ms = now_ms;
    return r;
  }
  return not_found();  // unreachable: find() returned a record of ours
}

std::vector<PendingApproval> PendingApprovals::expire(int64_t now_ms) {
  std::vector<PendingApproval> expired;
  for (PendingApproval& r : records_) {
    if (r.status != ApprovalStatus::kPending || r.expires_at_ms > now_ms) continue;
    r.status = ApprovalStatus::kExpired;
    r.settled_at_ms = r.expires_at_ms;
    expired.push_back(r);
  }
  std::stable_sort(expired.begin(), expired.end(), [](const PendingApproval& a, const PendingApproval& b) {
    return a.created_at_ms < b.created_at_ms;
  });
  return expired;
}

void PendingApprovals::purge(int64_t now_ms) {
  std::erase_if(records_, [now_ms](const PendingApproval& r) {
    return r.status != ApprovalStatus::kPending && r.settled_at_ms && *r.settled_at_ms + kResolvedGraceMs <= now_ms;
  });
}

bool PendingApprovals::remove(std::string_view id) {
  return std::erase_if(records_, [id](const PendingApproval& r) { return r.id == id; }) > 0;
}

}  // namespace clawexec::approvals
