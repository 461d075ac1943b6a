#pragma once
// Code-carrying command lines beyond the reference's inline-eval forms (§6), for
// strictInlineEval: an interpreter handed its program some other way than a file the operator
// can read (python3 -m timeit CODE, perl -M'x;CODE', node --import data:..., a program read
// from stdin or /dev/fd/N, an interactive prompt the agent can type into later), and tools
// whose options or configuration run commands (git -c alias.x='!cmd', git config core.pager,
// tar --to-command, ssh -o ProxyCommand=..., vim -c, ...). Each hit is an InlineEvalHit, so
// strict mode treats it exactly like python3 -c.

#include <optional>
#include <string_view>

#include "policy/inline_eval.h"
#include "policy/types.h"

namespace clawexec::policy {

/// The direct check (no carriers): a hit for argv[0]'s own options and operands, or nullopt.
/// `flag` is the option ("-m timeit", "--upload-pack", "config core.pager"), the stdin-like
/// program path ("/dev/stdin"), "<stdin>" (no program: it is read from stdin) or
/// "<interactive>" (an interactive program).
std::optional<InlineEvalHit> detect_code_carrying_argv(const Argv& argv);

/// True for a program path that is not a file the operator can read beforehand: "-",
/// /dev/... (except /dev/null) and /proc/..., also reached through "..", "." or repeated "/".
bool is_stdin_like_program_path(std::string_view path);

/// True for git configuration keys known not to run commands or load other configuration
/// (user.name, color.*, ...). Every other key counts as code-carrying.
bool is_inert_git_config_key(std::string_view key);

}  // namespace clawexec::policy
