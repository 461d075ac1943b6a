#pragma once
// Building the environment of a host (gateway or node) command from the server's own
// environment and the caller's requested overrides (spec §3.1 step 6, §3.2, §3.3).
//
// Pure: the inherited environment and the overrides are passed in; nothing here reads the
// process environment. Overrides are given as an EnvList of string values (the caller drops
// non-string JSON values first, as the reference ignores them).

#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "env/env_list.h"

namespace clawexec::env {

/// Marker set on every host-exec environment: the child was launched by OpenClaw.
inline constexpr std::string_view kCliMarkerKey = "OPENCLAW_CLI";
inline constexpr std::string_view kCliMarkerValue = "1";

/// Whether a PATH override is refused. Host exec always refuses it (the default).
enum class PathOverrides { kBlock, kAllow };

struct HostEnvOptions {
  PathOverrides path_overrides = PathOverrides::kBlock;
  /// Names withheld for this run (the reference's "inherited env omitted" scope, used to keep
  /// model-provider credentials away from agent commands): removed from the inherited
  /// environment and rejected as overrides. Matched trimmed and case-insensitively.
  std::vector<std::string> withheld_keys;
};

/// The verdict on a set of overrides.
struct OverrideReview {
  /// Accepted overrides in request order; keys trimmed with their case kept. A PAGER/GIT_PAGER
  /// of "" or "cat" is accepted as "" (the "no pager" request).
  EnvList accepted;
  /// Rejected by policy: upper-cased, sorted, de-duplicated.
  std::vector<std::string> blocked_keys;
  /// Not a valid key: trimmed (or as given, if nothing is left), sorted, de-duplicated.
  std::vector<std::string> invalid_keys;

  bool has_rejections() const { return !blocked_keys.empty() || !invalid_keys.empty(); }
};

/// Validates overrides (reference: sanitizeHostEnvOverridesWithDiagnostics).
OverrideReview review_overrides(const EnvList& overrides, const HostEnvOptions& options = {});

/// The inherited environment with dangerous names removed (keys trimmed, empty keys dropped),
/// inherited GIT_ALLOW_PROTOCOL reduced to its git/http/https/ssh entries, and a permissive
/// GIT_PROTOCOL_FROM_USER (true/yes/on or a non-zero integer) replaced by "0".
EnvList filter_inherited_env(const EnvList& inherited, const HostEnvOptions& options = {});

/// Everything host exec needs without failing: the filtered inherited environment, the
/// accepted overrides assigned over it, the CLI marker, and the rejected keys
/// (reference: sanitizeHostExecEnvWithDiagnostics).
struct SanitizedHostEnv {
  EnvList env;
  std::vector<std::string> blocked_keys;
  std::vector<std::string> invalid_keys;
};
SanitizedHostEnv sanitize_host_exec_env(const EnvList& inherited, const EnvList& overrides,
                                        const HostEnvOptions& options = {});

/// "blocked override keys: A, B; invalid non-portable override keys: x-y" (either part
/// omitted when empty). The node host wraps this in its SYSTEM_RUN_DENIED message.
std::string override_rejection_details(const std::vector<std::string>& blocked_keys,
                                       const std::vector<std::string>& invalid_keys);

/// The exact "Security Violation: ..." text host exec fails with (at least one key rejected).
std::string security_violation_message(const std::vector<std::string>& blocked_keys,
                                       const std::vector<std::string>& invalid_keys);

/// The environment for a host command, or Error{kRejected, security_violation_message} when
/// any override is rejected.
Result<EnvList> build_host_exec_env(const EnvList& inherited, const EnvList& overrides,
                                    const HostEnvOptions& options = {});
/// build_host_exec_env over an environment filter_inherited_env already filtered (a server
/// filters its own environment once, not on every call). The same result for the same inputs.
Result<EnvList> build_host_exec_env_over_filtered(const EnvList& filtered, const EnvList& overrides,
                                                  const HostEnvOptions& options = {});

/// The overrides a node host applies when the command is a shell wrapper (reference:
/// sanitizeSystemRunEnvOverrides with shellWrapper=true): portable keys only (trimmed), of
/// which the shell-wrapper allowed names (is_shell_wrapper_allowed_key) keep their value and a
/// "no pager" PAGER/GIT_PAGER becomes ""; everything else is dropped silently. An empty result
/// means "no overrides". For non-wrapper commands the reference applies the overrides
/// unfiltered, so callers only use this for shell wrappers. withheld_keys only affects the
/// no-pager rule, as in the reference.
EnvList filter_shell_wrapper_overrides(const EnvList& overrides, const HostEnvOptions& options = {});

}  // namespace clawexec::env
