// Printing for the operator commands: JSON exactly as the reference's JSON.stringify(v, null, 2)
// prints it, and errors escaped for display (a message may carry the agent's text).

#include "cli/policy_cmd_common.h"

#include <iostream>

#include "json/json.h"
#include "operator/human_only.h"
#include "term/display_escape.h"

namespace clawexec::cli {

void print_json(const boost::json::value& value) { std::cout << json::stringify(value, 2) << "\n" << std::flush; }

int fail(std::string_view command, std::string_view message) {
  std::cerr << "clawexec " << command << ": " << term::escape_for_display(message, term::DisplayStyle::kLines) << "\n"
            << std::flush;
  return 1;
}

std::optional<int> refuse_under_clawexec(std::string_view command) {
  std::optional<std::string> refusal = operator_ops::human_only_refusal_of_this_process();
  if (!refusal) return std::nullopt;
  return fail(command, *refusal);
}

}  // namespace clawexec::cli
