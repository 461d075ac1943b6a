#pragma once
// Shared by `approvals pending|resolve|say` (policy_cmd_approvals_pending.cc) and `approvals
// watch` (policy_cmd_approvals_watch.cc): reading approval fields for display, and the
// connection to the approvals hub.

#include <boost/json/object.hpp>
#include <memory>
#include <string>
#include <string_view>

#include "approvals/operator_client.h"
#include "base/result.h"

namespace clawexec::cli {

/// A field as text ("" when absent or null; numbers and other values serialised), exact.
std::string field_text(const boost::json::object& o, std::string_view key);

/// The same, escaped for a human (term::escape_for_display): what the operator is shown.
std::string shown(const boost::json::object& o, std::string_view key);

/// "allow-once|allow-always|deny" from allowedDecisions (all three when absent).
std::string decisions_of(const boost::json::object& approval);

/// Connects to the hub named by the approvals document. kNotFound: the complete sentence
/// "No clawexec server is serving approvals (socket <path> not found)."
Result<std::unique_ptr<approvals::OperatorClient>> connect_to_hub();

/// Prints the no-hub sentence alone, anything else as "clawexec <command>: ..."; returns 1.
int report(std::string_view command, const Error& error);

/// `approvals watch [--json]`.
int run_watch(bool as_json);

}  // namespace clawexec::cli
