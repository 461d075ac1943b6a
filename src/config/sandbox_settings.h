#pragma once
// OpenClaw's sandbox configuration (`agents.defaults.sandbox.*`, overridden per agent by
// `agents.entries.<id>.sandbox.*`), validated into what the bubblewrap sandbox host can do.
// Keys that only mean something to a container engine are accepted with one warning each; an
// invalid value is an error naming its key.

#include <boost/json/object.hpp>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/result.h"

namespace clawexec::config {

enum class SandboxMode { kOff, kNonMain, kAll };
enum class SandboxScope { kAgent, kSession, kShared };
enum class WorkspaceAccess { kNone, kRo, kRw };
enum class SandboxNetwork { kNone, kBridge };

struct SandboxBind {
  std::string host;
  std::string container;
  bool read_only = false;
  std::string key;  // where it was set, for messages: "agents.defaults.sandbox.docker.binds[0]"
};

struct SandboxUlimit {
  std::string name;
  int64_t soft = 0;
  int64_t hard = 0;
};

struct SandboxSettings {
  SandboxMode mode = SandboxMode::kOff;
  SandboxScope scope = SandboxScope::kAgent;
  WorkspaceAccess workspace_access = WorkspaceAccess::kNone;
  std::string workspace_root;  // "" = <state>/sandboxes
  int64_t prune_idle_ms = 24 * 3600'000;       // prune.idleHours (24); 0 = never
  int64_t prune_max_age_ms = 7 * 86400'000LL;  // prune.maxAgeDays (7); 0 = never
  std::string workdir = "/workspace";
  std::vector<std::string> tmpfs = {"/tmp", "/var/tmp", "/run"};
  SandboxNetwork network = SandboxNetwork::kNone;
  std::optional<std::string> user;  // "uid[:gid]"
  std::vector<std::pair<std::string, std::string>> env;
  std::optional<std::string> setup_command;
  std::optional<int64_t> pids_limit;
  std::optional<int64_t> memory_bytes;
  std::optional<int64_t> memory_swap_bytes;
  std::optional<double> cpus;
  std::vector<SandboxUlimit> ulimits;
  std::vector<std::string> dns;
  std::vector<std::string> extra_hosts;  // "host:ip"
  std::vector<SandboxBind> binds;
  /// docker.protectWorkspaceMetadata (ours): .git/hooks, .git/config and shell rc files of a
  /// writable workspace stay read-only inside.
  bool protect_git = true;
  /// docker.dangerouslyAllowReservedContainerTargets: binds onto /workspace, /agent or the
  /// workdir are allowed.
  bool allow_reserved_targets = false;
  std::vector<std::string> warnings;  // one per ignored engine-only key, naming it
};

/// Reads the sandbox settings that apply to `agent_id`. Binds are merged (defaults, then the
/// agent's) and validated with `canonicalize` (the existing-prefix canonical path of a host
/// path, so a symlink into a blocked place is caught) and `home_dir`.
Result<SandboxSettings> read_sandbox_settings(const boost::json::object& document, std::string_view agent_id,
                                              const std::string& home_dir,
                                              const std::function<std::string(const std::string&)>& canonicalize);

/// The error for a host directory no sandbox may see (a blocked path, inside one, or
/// containing one: /, the home directory), checked as given and as `canonical_host`; nullopt
/// when it may be mounted. `key` names the setting in the message.
std::optional<std::string> host_path_problem(const std::string& host, const std::string& key, const std::string& home_dir,
                                             const std::string& canonical_host);

/// The errors for the binds of `settings` OpenClaw refuses (a blocked host source, or a reserved
/// target unless allow_reserved_targets), each naming its key; `canonicalize` gives the
/// existing-prefix canonical path of a host path as it resolves now. Read at startup, and again
/// before each sandboxed call (a path may have changed since).
std::vector<std::string> bind_problems(const SandboxSettings& settings, const std::string& home_dir,
                                       const std::function<std::string(const std::string&)>& canonicalize);

/// "2g", "512m", "100k", or plain bytes, as Docker reads --memory; nullopt when invalid.
std::optional<int64_t> parse_memory_size(std::string_view text);

/// The agent's main session key is `agent:<id>:main` (ids compared normalised).
bool is_main_session(std::string_view session_key, std::string_view agent_id);

/// Whether `mode` sandboxes the session: off never, all always, non-main unless main.
bool sandbox_active(const SandboxSettings& settings, std::string_view session_key, std::string_view agent_id);

/// Which sandbox a sandboxed session joins: "agent:<id>" (scope agent), the session key
/// (session) or "shared".
std::string sandbox_scope_key(const SandboxSettings& settings, std::string_view session_key, std::string_view agent_id);

/// workspaceRoot, or <state_dir>/sandboxes.
std::string sandbox_root(const SandboxSettings& settings, const std::string& state_dir);

}  // namespace clawexec::config
