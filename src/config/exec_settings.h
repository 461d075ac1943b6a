#pragma once
// The exec tool's configuration: `tools.exec.*` from the OpenClaw config file, overlaid by
// `agents.entries.<id>.tools.exec.*` for the serving agent, plus the numeric environment
// overrides of spec §1.3. Everything is resolved to typed values with the reference defaults.
//
// Precedence (checked against the reference bundle, `resolveExecToolConfig` and
// `createExecTool`):
// * Per-agent values replace global ones key by key. Exceptions: mode/security/ask are
//   layered as a policy (an agent `mode` replaces all three; an agent `security`/`ask` drops
//   the inherited mode and replaces only what it sets); `safeBinProfiles` merge by binary
//   name (agent entries win); `applyPatch` and the list keys are replaced as a whole.
// * backgroundMs: config value if set, else OPENCLAW_BASH_YIELD_MS (legacy PI_BASH_YIELD_MS),
//   else 10000; the result is clamped to [10, 120000]. The config wins over the environment.
// * cleanupMs: config value if set, else OPENCLAW_BASH_JOB_TTL_MS (legacy PI_BASH_JOB_TTL_MS),
//   else 1800000; clamped to [60000, 10800000]. The config wins over the environment.
// * The output caps and the input-wait threshold exist only as environment variables.
// * An environment value that is not a strict integer counts as unset (-> the default); a
//   legacy name is read only when the primary name is unset or empty.
//
// Validation follows the reference's config schema: an invalid value is an error naming its
// key path ("tools.exec.timeoutSeconds: expected a number, got \"abc\""); an unknown key under
// an exec section is ignored with a warning naming its path. Other sections of the file are
// not read (and not validated), except the containers on the way to the exec sections.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "config/env_lookup.h"

namespace clawexec::config {

enum class ExecHost { kAuto, kSandbox, kGateway, kNode };
enum class ExecMode { kDeny, kAllowlist, kAsk, kAuto, kFull };
enum class ExecSecurity { kDeny, kAllowlist, kFull };
enum class ExecAsk { kOff, kOnMiss, kAlways };

/// The config spelling ("auto", "on-miss", ...).
std::string_view to_string(ExecHost value);
std::string_view to_string(ExecMode value);
std::string_view to_string(ExecSecurity value);
std::string_view to_string(ExecAsk value);

/// The protected path classes an operator may open to apply_patch
/// (tools.exec.applyPatch.allowProtectedPaths: "shell-startup", "git", "ssh"). The state dir,
/// the config file and clawexec's executables are never writable and have no class.
enum class PatchPathClass { kShellStartup, kGit, kSsh };
std::string_view to_string(PatchPathClass value);

/// tools.exec.applyPatch (an agent's object replaces the global one as a whole).
struct ApplyPatchSettings {
  bool enabled = true;
  bool workspace_only = true;
  std::optional<std::vector<std::string>> allow_models;
  std::vector<PatchPathClass> allow_protected_paths;
};

struct ExecSettings {
  ExecHost host = ExecHost::kAuto;
  /// Layered policy. When a layer sets `mode`, security/ask hold that mode's pair
  /// (deny->deny/off, allowlist->allowlist/off, ask and auto->allowlist/on-miss, full->full/off).
  std::optional<ExecMode> mode;
  std::optional<ExecSecurity> security;
  std::optional<ExecAsk> ask;
  std::optional<std::string> node;

  int64_t default_timeout_seconds = 1800;  // tools.exec.timeoutSeconds when > 0
  int64_t background_ms = 10000;           // default yield window, [10, 120000]
  int64_t cleanup_ms = 1800000;            // finished-session TTL, [60000, 10800000]
  /// tools.exec.maxLiveSessions (ours): running sessions one client may have at a time.
  int64_t max_live_sessions = 1024;
  bool notify_on_exit = true;
  std::optional<bool> notify_on_exit_empty_success;  // unset: decided per run (spec §1.11)
  int64_t approval_running_notice_ms = 10000;        // 0 = off
  /// Trimmed, blanks dropped, duplicates removed keeping the first occurrence.
  std::vector<std::string> path_prepend;

  // Approval machinery (spec §4.5), validated but otherwise as written.
  std::optional<std::vector<std::string>> safe_bins;
  std::optional<std::vector<std::string>> safe_bin_trusted_dirs;
  /// Global and agent profiles merged; names trimmed and ASCII-lowercased, agent wins.
  std::optional<boost::json::object> safe_bin_profiles;
  std::optional<bool> strict_inline_eval;
  bool command_highlighting = false;
  std::optional<boost::json::object> reviewer;
  std::optional<int64_t> grant_expiry_days;
  ApplyPatchSettings apply_patch;

  // Environment-only limits (UTF-16 code units / milliseconds).
  int64_t max_output_chars = 200000;         // [1000, 200000]
  int64_t pending_max_output_chars = 30000;  // [1000, 200000] and <= max_output_chars
  int64_t input_wait_idle_ms = 15000;        // [1000, 600000]
};

struct ConfigSources {
  /// The config file's text; nullopt when there is no file (defaults apply).
  std::optional<std::string> file_text;
  /// Where file_text came from; prefixes every error and warning ("<origin>: ...") if set.
  std::string origin;
  /// Whose agents.entries.<id>.tools.exec overlays the global section ("" = global only).
  /// Matched like the reference: both sides normalised (trimmed, lowercased, runs of other
  /// characters than [a-z0-9_-] become '-', outer dashes dropped, at most 64 characters).
  std::string agent_id = "main";
  /// Environment for the numeric overrides; may be empty (no overrides).
  EnvLookup env;
};

struct LoadedConfig {
  ExecSettings exec;
  std::vector<std::string> warnings;
  /// The whole parsed file (an empty object without a file), for sections read elsewhere.
  boost::json::value document;
};

/// Parses, validates and resolves. Errors: JSON5 syntax, a non-object where the exec
/// sections are reached through, or invalid exec values (all of them, one per line).
Result<LoadedConfig> load_config(const ConfigSources& sources);

/// Reads the config file. A missing file (or a missing directory on the way) is nullopt,
/// not an error; any other failure is an error naming the path.
Result<std::optional<std::string>> read_config_file(const std::string& path);

/// The reference's normalizeAgentId (see ConfigSources::agent_id); "" becomes "main".
std::string normalize_agent_id(std::string_view id);

}  // namespace clawexec::config
