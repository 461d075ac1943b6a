// When an exec call must be approved by a human, which durable grants excuse it, and which
// decisions the approval prompt may offer (§4.5, §4.6). Durable exact-command grants are
// keyed by a short sha256 prefix of the trimmed command text so the plaintext never lands in
// the approvals file; "allow-always" is the only optional decision and disappears whenever
// ask is "always" or the command cannot be persisted.

#include <array>

#include "base/utf.h"
#include "hash/sha256.h"
#include "policy/modes.h"

namespace clawexec::policy {
namespace {

constexpr std::array<ApprovalDecision, 1> kOptionalDecisions = {ApprovalDecision::kAllowAlways};

bool is_optional(ApprovalDecision decision) {
  for (auto d : kOptionalDecisions) {
    if (d == decision) return true;
  }
  return false;
}

bool is_allow_always(const std::optional<std::string>& source) { return source && *source == "allow-always"; }

}  // namespace

bool requires_exec_approval(const ApprovalRequirementInputs& in) {
  if (in.ask == ExecAsk::kAlways) return true;
  if (in.durable_approval_satisfied) return false;
  return in.ask == ExecAsk::kOnMiss && in.security == ExecSecurity::kAllowlist &&
         (!in.analysis_ok || !in.allowlist_satisfied);
}

std::string durable_command_pattern(std::string_view command_text) {
  return "=command:" + hash::sha256_hex(command_text).substr(0, 16);
}

std::string node_command_pattern(std::string_view command_text) {
  return "=node-command:" + hash::sha256_hex(command_text).substr(0, 16);
}

bool has_durable_exec_approval(bool analysis_ok, const std::vector<const AllowlistEntry*>& segment_entries,
                               const std::vector<AllowlistEntry>& allowlist,
                               std::optional<std::string_view> command_text) {
  const std::string_view trimmed = command_text ? js_trim(*command_text) : std::string_view();
  if (!trimmed.empty()) {
    const std::string pattern = durable_command_pattern(trimmed);
    for (const auto& entry : allowlist) {
      if (is_allow_always(entry.source) && entry.pattern == pattern) return true;
    }
  }
  if (!analysis_ok || segment_entries.empty()) return false;
  for (const auto* entry : segment_entries) {
    if (entry == nullptr || !is_allow_always(entry->source)) return false;
  }
  return true;
}

std::string_view to_string(ApprovalDecision decision) {
  switch (decision) {
    case ApprovalDecision::kAllowOnce:
      return "allow-once";
    case ApprovalDecision::kAllowAlways:
      return "allow-always";
    case ApprovalDecision::kDeny:
      return "deny";
  }
  return "deny";
}

std::optional<ApprovalDecision> approval_decision_from_string(std::string_view text) {
  if (text == "allow-once") return ApprovalDecision::kAllowOnce;
  if (text == "allow-always") return ApprovalDecision::kAllowAlways;
  if (text == "deny") return ApprovalDecision::kDeny;
  return std::nullopt;
}

std::vector<ApprovalDecision> resolve_exec_approval_allowed_decisions(std::optional<ExecAsk> ask,
                                                                      AllowAlwaysPersistence persistence) {
  if (ask == ExecAsk::kAlways || persistence == AllowAlwaysPersistence::kOneShot) {
    return {ApprovalDecision::kAllowOnce, ApprovalDecision::kDeny};
  }
  return {ApprovalDecision::kAllowOnce, ApprovalDecision::kAllowAlways, ApprovalDecision::kDeny};
}

std::vector<ApprovalDecision> resolve_exec_approval_unavailable_decisions(std::optional<ExecAsk> ask,
                                                                          AllowAlwaysPersistence persistence) {
  const auto allowed = resolve_exec_approval_allowed_decisions(ask, persistence);
  std::vector<ApprovalDecision> out;
  for (auto optional_decision : kOptionalDecisions) {
    bool offered = false;
    for (auto d : allowed) offered = offered || d == optional_decision;
    if (!offered) out.push_back(optional_decision);
  }
  return out;
}

std::vector<ApprovalDecision> normalize_exec_approval_unavailable_decisions(const boost::json::value& raw) {
  std::vector<ApprovalDecision> out;
  if (!raw.is_array()) return out;
  for (auto optional_decision : kOptionalDecisions) {
    for (const auto& item : raw.get_array()) {
      if (!item.is_string()) continue;
      const auto decision = approval_decision_from_string(std::string_view(item.get_string()));
      if (decision == optional_decision) {
        out.push_back(optional_decision);
        break;
      }
    }
  }
  return out;
}

std::vector<ApprovalDecision> resolve_exec_approval_request_allowed_decisions(
    std::optional<ExecAsk> ask, const std::vector<ApprovalDecision>& unavailable) {
  std::vector<ApprovalDecision> out;
  for (auto decision : resolve_exec_approval_allowed_decisions(ask)) {
    bool dropped = false;
    if (is_optional(decision)) {
      for (auto u : unavailable) dropped = dropped || u == decision;
    }
    if (!dropped) out.push_back(decision);
  }
  return out;
}

}  // namespace clawexec::policy
