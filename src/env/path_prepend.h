#pragma once
// PATH arithmetic for host commands (spec §3.5): finding the PATH key, putting entries in front
// of a PATH without duplicates, taking them out again, and the shell prologue that re-applies
// `tools.exec.pathPrepend` inside the command so that startup files cannot reorder it.
//
// Pure: everything works on the EnvList and strings passed in.

#include <string>
#include <string_view>
#include <vector>

#include "env/env_list.h"

namespace clawexec::env {

/// The variable OpenClaw passes the configured prepend entries through to the shell.
inline constexpr std::string_view kPrependPathKey = "OPENCLAW_PREPEND_PATH";

/// "PATH" when present; otherwise the first name equal to PATH ignoring case (Windows' "Path");
/// otherwise "PATH".
std::string find_path_key(const EnvList& env);

/// `prepend` followed by the entries of `existing` (split on ':'), each trimmed, empties
/// dropped, later duplicates dropped. `existing` unchanged when `prepend` is empty.
std::string merge_path_prepend(std::string_view existing, const std::vector<std::string>& prepend);

/// The entries of `existing` (trimmed, empties dropped) that are not in `prepend`.
std::string remove_path_prepend(std::string_view existing, const std::vector<std::string>& prepend);

enum class PathRequirement { kAny, kExisting };

/// Merges `prepend` in front of the env's PATH (under its own key). With kExisting, an env
/// without a PATH value is left alone.
void apply_path_prepend(EnvList& env, const std::vector<std::string>& prepend,
                        PathRequirement requirement = PathRequirement::kAny);

/// The entries of a colon-separated PATH value: trimmed, empties dropped, duplicates removed.
std::vector<std::string> path_entries(std::string_view path);

/// The POSIX wrapping of §3.5: removes the prepend entries from the env's PATH, passes them in
/// OPENCLAW_PREPEND_PATH, and returns
/// `export PATH="${OPENCLAW_PREPEND_PATH}${PATH:+:$PATH}"; unset OPENCLAW_PREPEND_PATH; <command>`.
/// Returns `command` unchanged (and leaves env alone) when `prepend` is empty.
std::string wrap_command_with_path_prepend(const std::string& command, EnvList& env,
                                           const std::vector<std::string>& prepend);

/// A leading "~" or "~/" of each entry replaced by `home` (the shells that do not expand a tilde
/// in PATH then still find the directory). Entries are otherwise kept as given.
std::vector<std::string> expand_home_in_entries(const std::vector<std::string>& entries, std::string_view home);

}  // namespace clawexec::env
