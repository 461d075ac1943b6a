#pragma once
// Argv helpers shared by the script-target extraction (script_target.cc) and the ambiguity
// check (script_ambiguity.cc). Not part of the shell module's interface.

#include <string>
#include <string_view>
#include <vector>

#include "base/strings.h"
#include "shell/script_inspection.h"
#include "shell/split_args.h"

namespace clawexec::shell::preflight {

/// lower_trimmed(token) (base/strings.h) ends with `extension` (".py", ".js"): how the
/// reference compares executable names and file extensions.
bool has_extension(std::string_view token, std::string_view extension);

/// `python`, `python3` or `python3.<digits>`, on a lower_trimmed name.
bool is_python_name(std::string_view name);
/// A python name or `node`, on a lower_trimmed name.
bool is_interpreter_name(std::string_view name);

/// Drops a leading `env [options] [NAME=value...]` (and any NAME=value words before it); argv
/// unchanged when it does not run env.
Argv strip_env_prefix(const Argv& argv);

/// Drops a leading shell keyword (if then do elif else while until time, any case).
Argv drop_leading_keyword(const Argv& argv);

/// Index of the first word at or after `from` that is not NAME=value.
size_t skip_assignments(const Argv& argv, size_t from = 0);

/// The scripts the command in `argv` runs (see extract_script_targets), without env stripping.
std::vector<ScriptTarget> targets_from_argv(const Argv& argv);

/// One list/pipeline segment: split, leading keyword and env prefix dropped, then targets.
std::vector<ScriptTarget> targets_from_segment(std::string_view segment);

}  // namespace clawexec::shell::preflight
