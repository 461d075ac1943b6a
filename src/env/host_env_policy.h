#pragma once
// The host environment security policy: which variable names a host (gateway or node) command
// may inherit from the server's environment and which it may be given per call (spec §3.2).
//
// Every predicate takes a name as the caller has it: surrounding white space is ignored, an
// empty name is never dangerous, and the comparison is case-insensitive (names are matched in
// their upper-case form, see match_form).

#include <optional>
#include <string>
#include <string_view>

namespace clawexec::env {

/// The upper-case form a name is compared in. Like JavaScript's toUpperCase for every result
/// that can equal an (ASCII) policy name: ASCII letters, plus the few non-ASCII letters whose
/// upper case is ASCII ("ſ" -> "S", "ı" -> "I", "ß" -> "SS", the "ﬀ".."ﬆ" ligatures). Other
/// non-ASCII text is kept as is; it can never match a policy name either way.
std::string match_form(std::string_view name);

/// `^[A-Za-z_][A-Za-z0-9_]*$`.
bool is_portable_env_key(std::string_view key);

/// The trimmed key when it is acceptable as a host override key: portable. (The reference also
/// accepts a Windows form with parentheses, `ProgramFiles(x86)`; this POSIX server does not.)
std::optional<std::string_view> normalize_override_key(std::string_view raw_key);

/// A key as an error message shows it: as is when it is non-empty printable ASCII without
/// spaces, else double-quoted with `"`, `\` and every other byte escaped (`"A\x00B"`, `""`).
std::string visible_key(std::string_view key);

/// Blocked in both directions: the "blocked everywhere" names and the prefixes DYLD_, LD_,
/// BASH_FUNC_ (reference: isDangerousHostEnvVarName).
bool is_dangerous_host_env_key(std::string_view raw_key);

/// Blocked only as a per-call override: the "override-only" names, the prefixes GIT_CONFIG_,
/// NPM_CONFIG_, CARGO_REGISTRIES_, TF_VAR_ (reference: isDangerousHostEnvOverrideVarName) and
/// GIT_TRACE, DOTNET_, COMPLUS_, CORECLR_ (ours), and CARGO_TARGET_<X>_LINKER / _RUNNER.
bool is_dangerous_override_only_key(std::string_view raw_key);

/// What callers filtering untrusted overrides want: either of the two rules above.
/// (PATH is not included; host exec blocks it separately.)
bool is_dangerous_override_key(std::string_view raw_key);

/// Removed from the inherited environment: "blocked everywhere" names, override-only names
/// that are not on the allowed-inherited list, and the DYLD_/LD_/BASH_FUNC_ prefixes.
bool is_dangerous_inherited_key(std::string_view raw_key);

/// True for the variables a node host applies when the command is a shell wrapper: TERM, LANG,
/// LC_ALL, LC_CTYPE, LC_MESSAGES, COLORTERM, NO_COLOR, FORCE_COLOR, OPENCLAW_SUBAGENT_EXEC and
/// any LC_* name. The key must be portable.
bool is_shell_wrapper_allowed_key(std::string_view raw_key);

}  // namespace clawexec::env
