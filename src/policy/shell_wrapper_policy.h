#pragma once
// Wrappers as the policy sees them (reference §3.7): dispatch wrappers (nice, timeout, env, ...)
// and their transparent/blocked classification, busybox/toybox shell multiplexers, shell
// wrappers (sh -c, cmd /c, pwsh -Command) with their inline commands, and whether that inline
// command may be bound to an approval. Linux semantics: arch, xcrun and script never unwrap.
//
// Shell wrapper names follow the runnable reference (2026.9): ash bash csh dash elvish fish ksh
// mksh nu osh sh tcsh xonsh yash zsh, cmd, powershell, pwsh (csh/osh/tcsh never yield a payload).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/types.h"

namespace clawexec::policy {

// ---- names -------------------------------------------------------------------------------

/// normalizeExecutableToken: shorter POSIX/Windows basename, lower-cased, one .exe/.cmd/.bat/
/// .com suffix removed.
std::string normalize_executable_token(std::string_view token);
bool is_dispatch_wrapper_executable(std::string_view token);
bool is_shell_wrapper_executable(std::string_view token);
/// A POSIX-family shell name (ash bash ... zsh, including nu and the csh family).
bool is_posix_shell_executable(std::string_view token);

// ---- one level of unwrapping ---------------------------------------------------------------

enum class UnwrapKind { kNotWrapper, kBlocked, kUnwrapped };

struct WrapperUnwrap {
  UnwrapKind kind = UnwrapKind::kNotWrapper;
  std::string wrapper;  // normalized wrapper name (empty for kNotWrapper)
  Argv argv;            // the wrapped command (kUnwrapped only)
};

/// unwrapKnownDispatchWrapperInvocation (Linux).
WrapperUnwrap unwrap_known_dispatch_wrapper(const Argv& argv);
/// unwrapTransparentShellArgvCarrierInvocation: `builtin`, `command` and `exec` (exact
/// tokens) and the argv they run; `command -p` and carriers that run nothing are blocked.
WrapperUnwrap unwrap_shell_argv_carrier(const Argv& argv);
/// unwrapKnownShellMultiplexerInvocation: busybox/toybox [--] <shell applet> ...; any other or
/// missing applet is blocked.
WrapperUnwrap unwrap_known_shell_multiplexer(const Argv& argv);
/// unwrapEnvInvocation: the argv env runs (env -S payloads re-split); nullopt when env's
/// options are unknown or nothing is carried.
std::optional<Argv> unwrap_env_invocation(const Argv& argv);
/// `env` with assignments or options (not plain `env cmd`, `env -- cmd`, `env - cmd`).
bool env_invocation_uses_modifiers(const Argv& argv);

// ---- trust plans ---------------------------------------------------------------------------

constexpr int kMaxDispatchWrapperDepth = 4;

struct DispatchWrapperTrustPlan {
  Argv argv;                          // argv after the transparent wrappers
  std::vector<std::string> wrappers;  // unwrapped wrapper names, outermost first
  bool policy_blocked = false;
  std::optional<std::string> blocked_wrapper;
};

/// resolveDispatchWrapperTrustPlan: unwraps transparent dispatch wrappers; a blocked wrapper,
/// a semantic use (env with modifiers, time -o, script) or more than `max_depth` wrappers
/// stops with policy_blocked and argv as it was at that point.
DispatchWrapperTrustPlan resolve_dispatch_wrapper_trust_plan(const Argv& argv,
                                                             int max_depth = kMaxDispatchWrapperDepth);

struct ExecWrapperTrustPlan {
  Argv argv;         // the command that runs after all wrappers
  Argv policy_argv;  // what the allowlist sees: argv, frozen at a shell multiplexer
  std::vector<std::string> wrapper_chain;
  bool policy_blocked = false;
  std::optional<std::string> blocked_wrapper;
  bool shell_wrapper_executable = false;
  std::optional<std::string> shell_inline_command;  // bindable inline command
};

/// resolveExecWrapperTrustPlan (2026.9 semantics): dispatch wrappers, the transparent shell
/// carriers command/builtin/exec (`command -p` is blocked) and busybox/toybox unwrapped
/// alternately, up to `max_depth` wrappers in total.
ExecWrapperTrustPlan resolve_exec_wrapper_trust_plan(const Argv& argv,
                                                     int max_depth = kMaxDispatchWrapperDepth);

// ---- inline commands -----------------------------------------------------------------------

struct InlineCommandMatch {
  std::optional<std::string> command;        // trimmed payload, nullopt when empty/absent
  std::optional<size_t> value_token_index;   // where the payload token is
};

enum class CombinedFlags { kExactOnly, kAllowCombinedC };

/// resolveInlineCommandMatch with POSIX_INLINE_COMMAND_FLAGS (-lc -c --command --commands
/// --cmdline). With kAllowCombinedC, short clusters containing c count (-cx, -xc, "-cecho hi"),
/// -o/-O/+O/+o/--rcfile/--init-file skip their value and a non-option stops the scan.
InlineCommandMatch resolve_posix_inline_command_match(const Argv& argv, CombinedFlags combined);
/// resolvePowerShellInlineCommandMatch: -Command/-CommandWithArgs prefixes take the rest of
/// argv joined by spaces; -File and -EncodedCommand prefixes take the next token.
InlineCommandMatch resolve_powershell_inline_command_match(const Argv& argv);

bool has_posix_login_startup_before_inline_command(const Argv& argv);
bool has_posix_interactive_startup_before_inline_command(const Argv& argv);
/// The shell behind dispatch wrappers/multiplexers is a POSIX shell started as login or
/// interactive shell before its inline command flag.
bool has_posix_shell_startup_before_inline_command(const Argv& argv);

/// The payload `sh -c '$0 "$@"'`-style: [exec [--]] $0 followed only by positional
/// parameters ($1-$9, $@, braced or double-quoted; $* is refused, as the spec says).
bool is_direct_shell_positional_carrier_command(std::string_view command);

// ---- shell wrapper invocations ---------------------------------------------------------------

/// isShellWrapperInvocation: behind up to four dispatch wrappers / multiplexers, argv runs a
/// shell (with or without an inline command).
bool is_shell_wrapper_invocation(const Argv& argv);
/// extractShellWrapperInlineCommand: the raw payload (login shells included), or nullopt.
std::optional<std::string> extract_shell_wrapper_inline_command(const Argv& argv);
/// resolveShellWrapperTransportArgv: the shell's own argv when it has an inline command.
std::optional<Argv> resolve_shell_wrapper_transport_argv(const Argv& argv);

struct ShellWrapperCommand {
  bool is_wrapper = false;
  std::optional<std::string> command;  // bindable display command; nullopt when not bindable
};

/// extractShellWrapperCommand: login/interactive startup, fish -C / attached -c and nu login or
/// interactive modes make the payload not bindable (is_wrapper true, command nullopt). The
/// legacy `sh -lc <payload>` is bindable when `raw_command` equals the payload or the
/// canonical argv rendering. With a raw command that is not the canonical rendering, the raw
/// command is the display command.
ShellWrapperCommand extract_shell_wrapper_command(const Argv& argv,
                                                  std::optional<std::string_view> raw_command = std::nullopt);
std::optional<std::string> extract_bindable_shell_wrapper_inline_command(
    const Argv& argv, std::optional<std::string_view> raw_command = std::nullopt);

/// hasEnvManipulationBeforeShellWrapper: an `env` with modifiers sits in the dispatch chain in
/// front of a shell wrapper that has an inline command.
bool has_env_manipulation_before_shell_wrapper(const Argv& argv);
/// extractEnvAssignmentKeysFromDispatchWrappers: NAME of every NAME=value given to env in the
/// dispatch chain, sorted and unique.
std::vector<std::string> extract_env_assignment_keys_from_dispatch_wrappers(
    const Argv& argv, int max_depth = kMaxDispatchWrapperDepth);

}  // namespace clawexec::policy
