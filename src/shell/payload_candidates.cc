// Payload candidates: every argv a command line may hand to exec after carriers and shell
// wrappers are looked through.
//
// Problem: a check on "what runs" has to see through `env`, `sudo`, `command -p`, `exec -a`,
// assignments and `sh -c` payloads, recursively, without looping forever on argv that
// reproduce themselves.
//
// Approach: a depth-first expansion with a set of argvs already expanded; each step strips
// leading assignments, resolves one carrier and one shell-wrapper payload and recurses into
// both. The order (outer argv, then carried, then payload) is the reference's, which matters
// only when several checks could match.

#include "shell/payload_candidates.h"

#include <set>
#include <utility>

#include "shell/carriers.h"
#include "shell/executable.h"
#include "shell/shell_wrappers.h"

namespace clawexec::shell {
namespace {

std::string argv_key(const Argv& argv) {
  std::string key;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (i > 0) key += '\0';
    key += argv[i];
  }
  return key;
}

void append_unique(std::vector<Argv>& out, std::set<std::string>& keys, Argv argv) {
  if (argv.empty()) return;
  if (keys.insert(argv_key(argv)).second) out.push_back(std::move(argv));
}

std::vector<Argv> expand(const Argv& argv, std::set<std::string>& seen) {
  if (!seen.insert(argv_key(argv)).second) {
    return argv.empty() ? std::vector<Argv>{} : std::vector<Argv>{argv};
  }
  size_t skip = 0;
  while (skip < argv.size() && is_env_assignment_token(argv[skip])) ++skip;
  Argv stripped(argv.begin() + static_cast<std::ptrdiff_t>(skip), argv.end());
  std::optional<Argv> carried = resolve_carrier_argv(stripped, ExecCarrier::kInclude);
  const Argv& executable = carried ? *carried : stripped;
  std::vector<Argv> carried_candidates;
  if (carried) carried_candidates = expand(*carried, seen);
  std::vector<Argv> wrapper_candidates;
  if (std::optional<ShellWrapper> wrapper = find_shell_wrapper(executable)) {
    std::optional<Argv> inner = split_shell_args(wrapper->payload);
    if (inner) {
      wrapper_candidates = expand(*inner, seen);
    } else {
      wrapper_candidates.push_back(Argv{wrapper->payload});
    }
  }
  std::vector<Argv> out;
  std::set<std::string> keys;
  append_unique(out, keys, executable);
  for (Argv& a : carried_candidates) append_unique(out, keys, std::move(a));
  for (Argv& a : wrapper_candidates) append_unique(out, keys, std::move(a));
  return out;
}

}  // namespace

std::vector<Argv> command_payload_argv_candidates(const Argv& argv) {
  std::set<std::string> seen;
  return expand(argv, seen);
}

std::vector<std::string> command_payload_candidates(const Argv& argv) {
  std::vector<std::string> out;
  std::set<std::string> unique;
  for (const Argv& candidate : command_payload_argv_candidates(argv)) {
    std::string joined;
    for (size_t i = 0; i < candidate.size(); ++i) joined += (i > 0 ? " " : "") + candidate[i];
    if (unique.insert(joined).second) out.push_back(std::move(joined));
  }
  return out;
}

}  // namespace clawexec::shell
