#pragma once
// Shared by `approvals pending|resolve|say` (policy_cmd_approvals_pending.cc) and `approvals
// watch` (policy_cmd_approvals_watch.cc): reading approval fields for display, and how a
// failure to reach the approvals hub is reported.

#include <boost/json/object.hpp>
#include <string>
#include <string_view>

#include "base/result.h"

namespace clawexec::cli {

/// A field as text ("" when absent or null; numbers and other values serialised), exact.
std::string field_text(const boost::json::object& o, std::string_view key);

/// The same, escaped for a human (term::escape_for_display): what the operator is shown.
std::string shown(const boost::json::object& o, std::string_view key);

/// "allow-once|allow-always|deny" from allowedDecisions (all three when absent).
std::string decisions_of(const boost::json::object& approval);

/// Prints the no-hub sentence alone, anything else as "clawexec <command>: ..."; returns 1.
int report(std::string_view command, const Error& error);

/// `approvals watch [--json]`.
int run_watch(bool as_json);

}  // namespace clawexec::cli
