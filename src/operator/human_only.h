#pragma once
// Operations that answer approvals or change policy are for humans only (docs/approvals.md,
// "Who may decide"): a caller that runs under a clawexec command is an agent's command and is
// refused. These functions answer with the refusal sentence; the caller decides how to show
// it (the CLI prints it and exits 1; a server refuses the request). The operations themselves
// do not check: the caller knows who asks (this process, or a peer it has examined).

#include <optional>
#include <string>

namespace clawexec::operator_ops {

/// The refusal when `supervision` says why the caller counts as an agent's command (phrased as
/// approvals::supervision_of_this_process() phrases it); nullopt when it is nullopt.
std::optional<std::string> human_only_refusal(const std::optional<std::string>& supervision);

/// human_only_refusal for this process (approvals::supervision_of_this_process()).
std::optional<std::string> human_only_refusal_of_this_process();

}  // namespace clawexec::operator_ops
