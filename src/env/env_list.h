#pragma once
// EnvList: an environment as an ordered list of (name, value) pairs.
//
// The reference builds environments as JavaScript objects, so the order a child sees its
// variables in is insertion order, and re-assigning a name updates the value where it already
// stands. EnvList keeps exactly that behaviour with a plain vector (environments are small; a
// linear scan beats hashing at these sizes). Names are compared exactly (case-sensitive), as
// JavaScript property names are.
//
// Deliberately NOT emulated JavaScript-object quirks (harmless for environments, and reported
// to the lead): integer-like names ("123") are not moved to the front, and a name "__proto__"
// is kept instead of silently vanishing.

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace clawexec::env {

using EnvList = std::vector<std::pair<std::string, std::string>>;

/// The value stored under `name`, or nullptr.
const std::string* find_var(const EnvList& env, std::string_view name);

/// Assigns `value` to `name`: updated in place when present, appended otherwise.
void set_var(EnvList& env, std::string_view name, std::string value);

/// Removes `name`; returns whether it was present.
bool erase_var(EnvList& env, std::string_view name);

/// The names, sorted: what approval requests and the reviewer are told of an environment (never
/// its values).
std::vector<std::string> sorted_names(const EnvList& env);

/// "NAME=value" strings in list order, ready for an envp array.
std::vector<std::string> to_assignments(const EnvList& env);

}  // namespace clawexec::env
