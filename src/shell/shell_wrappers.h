#pragma once
// Shell wrappers: argv that runs a shell on an inline command string (bash -c '...',
// sh -lc, busybox sh -c, cmd /c, pwsh -Command ...), possibly behind dispatch wrappers
// (timeout 5 bash -c ...), and the payload they run; also the option rules of each shell
// family that finding the payload relies on.

#include <optional>
#include <string>
#include <string_view>

#include "shell/dispatch_wrappers.h"
#include "shell/split_args.h"

namespace clawexec::shell {

/// True for the shells the reference knows: ash bash csh dash elvish fish ksh mksh nu osh sh
/// tcsh xonsh yash zsh, cmd, powershell and pwsh (by normalised executable name).
bool is_shell_wrapper_executable(std::string_view token);

/// busybox/toybox running a shell applet ("busybox sh -c ..."): the applet's argv; any other
/// applet is blocked.
DispatchUnwrap unwrap_shell_multiplexer(const Argv& argv);

struct ShellWrapper {
  Argv shell_argv;      // the shell's own argv, dispatch wrappers removed
  std::string payload;  // the inline command, trimmed
};

/// The shell invocation and inline command behind argv, looking through up to four dispatch
/// wrappers and busybox/toybox. nullopt when argv does not run a shell on an inline command
/// (csh, tcsh and osh never count: their startup files run first).
std::optional<ShellWrapper> find_shell_wrapper(const Argv& argv);

/// The flag that introduces a shell's inline command as the reference's explainer reports it:
/// for POSIX shells the first -c, --command or short cluster containing c; /c or /k for cmd;
/// PowerShell's -c/-Command/-EncodedCommand/-File spellings. nullopt when there is none.
std::optional<std::string> shell_command_flag(const Argv& argv);

/// Whether the reference's explainer would parse this wrapper's payload as bash: the shell is
/// one of ash bash dash fish ksh mksh sh yash zsh and its command flag is -c, --command or a
/// short option cluster containing c.
bool is_parseable_shell_wrapper(const Argv& argv, const ShellWrapper& wrapper);

// ---- Option rules of the shell families (also used by the policy's shell-wrapper scans). ----

/// A short POSIX option cluster containing c ("-c", "-xc", "-lc", "-cecho hi").
struct CombinedCommandFlag {
  std::optional<std::string> attached;  // a command glued after c that is not all letters
  size_t value_count = 0;               // -o/-O values the cluster consumes before the command
};
std::optional<CombinedCommandFlag> parse_combined_c(std::string_view token);

/// Tokens one POSIX shell option spans, itself included: 1 + one value per -o/-O letter of a
/// short cluster ("-eo pipefail" -> 2); 2 for --init-file, --rcfile, -o, -O, +o, +O; else 1.
size_t posix_option_advance(std::string_view token);

/// nu's inline command flags (-c, -lc, -e, --command, --commands, --cmdline, --execute), also
/// as "--flag=value"; case-insensitive.
bool is_nushell_inline_flag(std::string_view arg);

/// nu's inline command ("--commands=x" or a flag and its value); nullopt when a startup config
/// option (--config, --env-config, --plugin-config, --plugins) comes before it.
std::optional<std::string> nushell_inline_command(const Argv& argv);

/// cmd.exe's inline command: everything after the first /c, /k, -c or -k, joined by spaces.
std::optional<std::string> cmd_inline_command(const Argv& argv);

/// PowerShell switches, given lower-cased: -Command/-CommandWithArgs (they take the rest of
/// argv), the inline flags (those plus -File and -EncodedCommand), the options that take a
/// value, and whether a token is an option at all ("-x" or "/word").
bool is_powershell_command_flag(std::string_view lower);
bool is_powershell_inline_flag(std::string_view lower);
bool is_powershell_value_option(std::string_view lower);
bool is_powershell_option_token(std::string_view token);

}  // namespace clawexec::shell
