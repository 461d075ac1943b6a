#pragma once
// Splitting a command string into argv without a full shell parse, the way the reference's
// splitShellArgs does it. Used where the reference uses it: lines of a command that does not
// parse, shell-wrapper (-c) payloads, env -S strings and sqlite3 dot-commands.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::shell {

using Argv = std::vector<std::string>;

/// Splits on (JavaScript) white space, honouring '...', "..." (where backslash escapes only
/// \ " $ ` and newlines) and backslash escapes outside quotes. A '#' that starts a word ends
/// the input. Empty words ('' or "") are dropped. Operators are ordinary characters.
/// nullopt when a quote is unterminated or the input ends in a lone backslash.
std::optional<Argv> split_shell_args(std::string_view raw);

}  // namespace clawexec::shell
