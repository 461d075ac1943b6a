#pragma once
// Operator scopes as OpenClaw's gateway grants them: the closed set a connect may ask for, and
// when a set of granted scopes satisfies a requested one (operator.admin covers every operator
// scope; operator.write covers read and talk). Used for method authorization, for what a device
// may be approved with and for what an approver must hold to approve it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::gateway {

/// Whether `scope` is one of OpenClaw's operator scopes.
bool is_operator_scope(std::string_view scope);

/// Whether `granted` satisfies `requested` for the role ("operator" scopes follow the implication
/// rules; any other role needs the exact `<role>.` scope).
bool scope_satisfied(std::string_view role, std::string_view requested, const std::vector<std::string>& granted);

/// The first of `requested` that `granted` does not satisfy, or nullopt when all are.
std::optional<std::string> missing_scope(std::string_view role, const std::vector<std::string>& requested,
                                         const std::vector<std::string>& granted);

}  // namespace clawexec::gateway
