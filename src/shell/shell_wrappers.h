#pragma once
// Shell wrappers: argv that runs a shell on an inline command string (bash -c '...',
// sh -lc, busybox sh -c, cmd /c, pwsh -Command ...), possibly behind dispatch wrappers
// (timeout 5 bash -c ...), and the payload they run.

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

}  // namespace clawexec::shell
