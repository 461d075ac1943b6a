// The "decisions come from humans" refusal as an answer, not a print.

#include "operator/human_only.h"

#include "approvals/peer_check.h"

namespace clawexec::operator_ops {

std::optional<std::string> human_only_refusal(const std::optional<std::string>& supervision) {
  if (!supervision) return std::nullopt;
  return "refusing to run: " + *supervision +
         "; approvals and policy changes must come from a human. Show this command to the user so they can run it "
         "in their own terminal.";
}

std::optional<std::string> human_only_refusal_of_this_process() {
  return human_only_refusal(approvals::supervision_of_this_process());
}

}  // namespace clawexec::operator_ops
