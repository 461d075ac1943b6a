#pragma once
// The commands an argv may really run once carriers and shell wrappers are seen through:
// "FOO=1 sudo -u x env -i bash -c 'cmd a'" yields the candidates
//   [env -i bash -c 'cmd a'], [bash -c 'cmd a'], [cmd a]
// (the carrier's own argv is replaced by what it carries, as the reference does).

#include <string>
#include <vector>

#include "shell/split_args.h"

namespace clawexec::shell {

/// Candidate argvs, outermost first: argv without leading NAME=value words (or, when it starts
/// with a carrier - env, command, builtin, sudo, doas, exec - the argv that carrier runs),
/// then (recursively) the candidates of the carried argv, then (recursively) the words of a
/// shell wrapper's payload (split with split_shell_args; a payload that does not
/// split is kept as a one-word argv). Duplicates and empty argvs are left out.
std::vector<Argv> command_payload_argv_candidates(const Argv& argv);

/// The same candidates, each joined with single spaces, duplicates removed.
std::vector<std::string> command_payload_candidates(const Argv& argv);

}  // namespace clawexec::shell
