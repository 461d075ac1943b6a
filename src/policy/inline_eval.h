#pragma once
// Inline-eval detection (reference §6): argv that hands an interpreter its program on the
// command line (python -c, node -e, perl -e, awk '{...}', find -exec, xargs cmd, ...), found
// directly or behind carriers, dispatch wrappers and "$0 "$@"" shell trampolines.

#include <optional>
#include <string>
#include <string_view>

#include "policy/types.h"

namespace clawexec::policy {

/// One detection. `flag` is the flag that carries the program ("-c", "--eval", "-exec"), or
/// "<program>" / "<command>" for positional forms (awk/sed programs, xargs commands).
struct InlineEvalHit {
  std::string executable;             // argv[0] of the argv that matched (trimmed)
  std::string normalized_executable;  // normalize_executable_token(executable)
  std::string flag;
  Argv argv;  // the argv that matched (the carried one when found through a carrier)
};

/// detectInterpreterInlineEvalArgv: the flag-based interpreters of §6.1 (names matched with
/// an optional version suffix, e.g. python3.13), then the positional forms of §6.2.
std::optional<InlineEvalHit> detect_interpreter_inline_eval_argv(const Argv& argv);

/// "<name> inline command", "<name> inline program" or "<name> <flag>", with the strict
/// detector's placeholders spelled out ("python3 program from stdin", "vim interactive session").
std::string describe_interpreter_inline_eval(const InlineEvalHit& hit);

/// detectInlineEvalArgv: the direct check, then a positional shell trampoline
/// (sh -c '$0 "$@"' ...), then dispatch wrappers and carriers (sudo, doas, env incl. -S/-P,
/// command, builtin, exec), recursively, with leading NAME=value words stripped and a guard
/// against revisiting an argv.
std::optional<InlineEvalHit> detect_inline_eval_argv(const Argv& argv);

/// The strictInlineEval detector: detect_inline_eval_argv's forms plus the code-carrying
/// forms of code_carrying.h (a program read from stdin, an interactive prompt, python -m,
/// node --import, perl -M'x;code', git -c alias.x='!cmd', ...), found directly or through the
/// same carriers, wrappers and trampolines, and through package-manager exec layers.
std::optional<InlineEvalHit> detect_strict_inline_eval_argv(const Argv& argv);

/// detectCarrierInlineEvalArgv: only the dispatch-wrapper / carrier step (and what it leads
/// to), with a fresh loop guard. The explainer falls back to it after detect_inline_eval_argv.
std::optional<InlineEvalHit> detect_carrier_inline_eval_argv(const Argv& argv);

/// True when an allowlist pattern names one of the interpreters above (including find,
/// xargs, make, the awk and sed families), by normalised name or by its base name with
/// wildcards and trailing '.'/'-' removed: "python3.*", "**/node", "xargs.exe".
bool is_interpreter_like_allowlist_pattern(std::string_view pattern);

namespace detail {

/// The interpreter name variants compared against the tables: the name, plus the name
/// without a trailing version suffix (-?\d+(\.\d+)*) when that leaves two or more units.
/// Returns the number of variants written (1 or 2).
int interpreter_name_variants(std::string_view name, std::string_view out[2]);

/// Whether `name` (already normalised) is one of the inline-eval interpreter names.
bool is_inline_eval_interpreter_name(std::string_view name);

}  // namespace detail

}  // namespace clawexec::policy
