#pragma once
// Executable resolution (reference §3.8): finding the file argv[0] names (cwd for path tokens,
// PATH for bare names), the execution and policy targets of a command after wrappers, and the
// candidate/trust paths the allowlist and audits use. Pure: the file system is asked through
// FsView, the home directory and PATH are passed in.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/types.h"

namespace clawexec::policy {

/// Where and how to resolve executables.
struct ResolveContext {
  std::string cwd;                      // absolute working directory of the command
  std::optional<std::string> path_env;  // PATH to search (nullopt behaves like "": cwd only)
  std::string home;                     // effective home for "~" (empty: no expansion)
  const FsView* fs = nullptr;           // required
};

enum class RequireSeparator { kNo, kYes };

/// resolveExecutablePathCandidate: "~" expanded; a token with "/" or "\" resolved against cwd
/// (normalised); a bare name returned as is, or nullopt with RequireSeparator::kYes.
std::optional<std::string> resolve_executable_path_candidate(std::string_view raw,
                                                             const ResolveContext& ctx,
                                                             RequireSeparator require);

/// resolveExecutablePath: the executable regular file `raw` names, searching PATH (empty
/// entries mean cwd, relative entries are taken from cwd) for bare names; first hit wins.
std::optional<std::string> resolve_executable_path(std::string_view raw, const ResolveContext& ctx);

/// One executable: raw token (trimmed, as given), resolved path, its realpath, and the name.
ExecutableResolution resolve_executable(std::string_view raw, const ResolveContext& ctx);

/// resolveCommandResolution(FromArgv): how a command's program was found.
struct CommandResolution {
  ExecutableResolution execution;  // what runs
  ExecutableResolution policy;     // what the allowlist judges (the multiplexer, if any)
  Argv effective_argv;             // argv after transparent wrappers
  std::vector<std::string> wrapper_chain;
  bool policy_blocked = false;
  std::optional<std::string> blocked_wrapper;
};

/// resolveCommandResolutionFromArgv: the exec-wrapper trust plan of argv, then both targets
/// resolved. nullopt when the unwrapped argv[0] is empty.
std::optional<CommandResolution> resolve_command_resolution_from_argv(const Argv& argv,
                                                                      const ResolveContext& ctx);

/// resolveCommandResolution: only the first word of a command string (a leading quoted word is
/// taken up to its closing quote); no wrapper analysis. nullopt for a blank command.
std::optional<CommandResolution> resolve_command_resolution(std::string_view command,
                                                            const ResolveContext& ctx);

/// "Candidate path": resolved_path, else the raw token resolved against cwd when it contains a
/// path separator, else nullopt.
std::optional<std::string> resolve_executable_candidate_path(const ExecutableResolution& r,
                                                             const ResolveContext& ctx);
/// "Trust path": resolved_real_path, else the realpath of the candidate path, else the
/// candidate path.
std::optional<std::string> resolve_executable_trust_path(const ExecutableResolution& r,
                                                         const ResolveContext& ctx);

inline std::optional<std::string> resolve_execution_target_candidate_path(
    const CommandResolution& r, const ResolveContext& ctx) {
  return resolve_executable_candidate_path(r.execution, ctx);
}
inline std::optional<std::string> resolve_execution_target_trust_path(const CommandResolution& r,
                                                                      const ResolveContext& ctx) {
  return resolve_executable_trust_path(r.execution, ctx);
}
inline std::optional<std::string> resolve_policy_target_candidate_path(
    const CommandResolution& r, const ResolveContext& ctx) {
  return resolve_executable_candidate_path(r.policy, ctx);
}
inline std::optional<std::string> resolve_policy_target_trust_path(const CommandResolution& r,
                                                                   const ResolveContext& ctx) {
  return resolve_executable_trust_path(r.policy, ctx);
}

/// The planned (enforced) argv of a segment: effective_argv (or `argv` when that is empty)
/// with argv[0] replaced by the execution realpath, else its resolved path. nullopt when the
/// resolution is policy-blocked or there is nothing to run.
std::optional<Argv> planned_argv(const CommandResolution* resolution, const Argv& argv);

/// isSafeExecutableValue: a configured executable value that cannot smuggle shell syntax: not
/// blank, no NUL, CR, LF, ; & | ` $ < > or quotes; a path-like value (starts with . or ~,
/// contains / or \, or a drive "C:\") is accepted, otherwise a bare name of [A-Za-z0-9._+-]
/// not starting with "-".
bool is_safe_executable_value(std::string_view value);

}  // namespace clawexec::policy
