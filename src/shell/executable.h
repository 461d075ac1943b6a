#pragma once
// Naming the program an argv runs, the way the reference compares executables: by lower-cased
// base name, with Windows executable suffixes removed (so "/usr/bin/ENV", "env.exe" and
// "C:\tools\env.cmd" all name env).

#include <string>
#include <string_view>

namespace clawexec::shell {

/// Lower-cases like JavaScript's toLowerCase wherever the result can equal an ASCII name:
/// ASCII letters, and the Kelvin sign (U+212A), whose lower case is "k". Other text is kept.
std::string lower_for_match(std::string_view text);

/// The reference's normalizeExecutableToken: the shorter of the POSIX and Windows base names
/// (trailing separators ignored, a drive prefix "C:" dropped), trimmed, lower-cased, and one
/// ".exe", ".cmd", ".bat" or ".com" suffix removed.
std::string normalize_executable_token(std::string_view token);

/// The reference's normalizeCommandBaseName (used for openclaw and sqlite3): the text after
/// the last / or \ (empty if the token ends with one), trimmed, lower-cased, and one ".cmd" or
/// ".exe" suffix removed.
std::string command_base_name(std::string_view token);

/// NAME=value with NAME = [A-Za-z_][A-Za-z0-9_]* and a value without line terminators
/// (\n, \r, U+2028, U+2029), as the reference's isEnvAssignmentToken accepts.
bool is_env_assignment_token(std::string_view token);

/// JavaScript's trim() followed by lower_for_match (normalizeLowercaseStringOrEmpty).
std::string trim_lower(std::string_view text);

}  // namespace clawexec::shell
