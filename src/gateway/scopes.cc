// Operator scope rules: see scopes.h.

#include "gateway/scopes.h"

#include <algorithm>

namespace clawexec::gateway {
namespace {

constexpr std::string_view kOperatorScopes[] = {"operator.read",      "operator.write",     "operator.admin",
                                                "operator.approvals", "operator.questions", "operator.pairing",
                                                "operator.talk",      "operator.talk.secrets"};

bool has(const std::vector<std::string>& set, std::string_view s) { return std::find(set.begin(), set.end(), s) != set.end(); }

}  // namespace

bool is_operator_scope(std::string_view scope) {
  return std::find(std::begin(kOperatorScopes), std::end(kOperatorScopes), scope) != std::end(kOperatorScopes);
}

bool scope_satisfied(std::string_view role, std::string_view requested, const std::vector<std::string>& granted) {
  if (role != "operator") {
    std::string prefix = std::string(role) + ".";
    return requested.rfind(prefix, 0) == 0 && has(granted, requested);
  }
  if (requested.rfind("operator.", 0) != 0) return false;
  if (has(granted, requested) || has(granted, "operator.admin")) return true;
  return (requested == "operator.read" || requested == "operator.talk") && has(granted, "operator.write");
}

std::optional<std::string> missing_scope(std::string_view role, const std::vector<std::string>& requested,
                                         const std::vector<std::string>& granted) {
  for (const std::string& s : requested) {
    if (!s.empty() && !scope_satisfied(role, s, granted)) return s;
  }
  return std::nullopt;
}

}  // namespace clawexec::gateway
