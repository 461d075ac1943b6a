#pragma once
// Command-level risks of one explained step (reference spec §3.2 "Per-step command risks"):
// inline eval, shell wrappers (direct or behind a carrier), command carriers, eval, source and
// alias. Spans are filled in by the explainer.

#include <vector>

#include "policy/risk.h"
#include "policy/types.h"

namespace clawexec::policy {

std::vector<Risk> risks_for_argv(const Argv& argv);

}  // namespace clawexec::policy
