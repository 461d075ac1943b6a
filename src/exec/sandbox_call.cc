// Sandboxed exec calls (see sandbox_call.h).

#include "exec/sandbox_call.h"

#include <sys/resource.h>

#include <cstdlib>

#include "base/strings.h"
#include "env/host_exec_env.h"
#include "exec/service.h"
#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::exec {
namespace {

constexpr const char* kDefaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

bool portable_name(std::string_view name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  for (char c : name) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    if (!ok) return false;
  }
  return true;
}

Result<void> check_env_entry(std::string_view key, std::string_view value) {
  if (!portable_name(key)) {
    return Error::rejected("Invalid container environment variable name \"" + std::string(key) +
                           "\"; use letters, digits, and underscores without a leading digit.");
  }
  if (value.find('\0') != std::string_view::npos) {
    return Error::rejected("Container environment variable " + std::string(key) + " must not contain NUL bytes.");
  }
  if (value.find_first_of("\r\n") != std::string_view::npos) {
    return Error::rejected("Container environment variable " + std::string(key) +
                           " must have a single-line value because Docker and Podman --env-file entries are "
                           "line-delimited.");
  }
  return {};
}

std::string agent_workspace(const ServiceConfig& config) {
  if (!config.default_cwd.empty()) return config.default_cwd;
  Result<std::string> cwd = sys::current_directory();
  return cwd.ok() ? cwd.value() : std::string();
}

// Joins container paths; `relative` has no leading slash.
std::string join(const std::string& dir, std::string_view relative) {
  if (relative.empty()) return dir;
  return dir == "/" ? "/" + std::string(relative) : dir + "/" + std::string(relative);
}

// docker.ulimits as rlimits of every command (pidsLimit, memory and cpus go to the sandbox's
// cgroup, see sandbox/cgroup.h).
std::string sandbox_limits(const config::SandboxSettings& s) {
  static const std::pair<const char*, int> kNames[] = {
      {"cpu", RLIMIT_CPU},         {"fsize", RLIMIT_FSIZE},     {"data", RLIMIT_DATA},     {"stack", RLIMIT_STACK},
      {"core", RLIMIT_CORE},       {"nproc", RLIMIT_NPROC},     {"nofile", RLIMIT_NOFILE}, {"memlock", RLIMIT_MEMLOCK},
      {"as", RLIMIT_AS},           {"locks", RLIMIT_LOCKS},     {"sigpending", RLIMIT_SIGPENDING},
      {"msgqueue", RLIMIT_MSGQUEUE}, {"nice", RLIMIT_NICE},     {"rtprio", RLIMIT_RTPRIO}};
  std::string out;
  auto add = [&out](int resource, int64_t soft, int64_t hard) {
    if (!out.empty()) out += ",";
    out += std::to_string(resource) + "=" + std::to_string(soft) + ":" + std::to_string(hard);
  };
  for (const config::SandboxUlimit& u : s.ulimits) {
    for (const auto& [name, resource] : kNames) {
      if (u.name == name) add(resource, u.soft, u.hard);
    }
  }
  return out;
}

}  // namespace

std::string effective_session_key(const ServiceConfig& config, const std::string& session_key) {
  return session_key.empty() ? "agent:" + config.agent_id + ":main" : session_key;
}

bool session_sandboxed(const ServiceConfig& config, const std::string& session_key) {
  return config.sandbox &&
         config::sandbox_active(config.sandbox->settings, effective_session_key(config, session_key), config.agent_id);
}

SandboxChoice sandbox_choice(const ServiceConfig& config, const std::string& session_key) {
  SandboxChoice choice;
  if (!config.sandbox) return choice;
  const config::SandboxSettings& s = config.sandbox->settings;
  choice.active = config::sandbox_active(s, session_key, config.agent_id);
  if (!choice.active) return choice;
  choice.unavailable = config.sandbox->facts().unavailable;
  choice.scope = config::sandbox_scope_key(s, session_key, config.agent_id);
  return choice;
}

std::optional<std::string> sandbox_workdir(const ServiceConfig& config, const std::string& workspace_source,
                                           const std::optional<std::string>& requested) {
  const std::string& root = config.sandbox->settings.workdir;
  std::string path = root;
  if (requested && !requested->empty()) {
    std::string_view trimmed = trim_ascii(*requested);
    if (trimmed.empty() || trimmed.find('\0') != std::string_view::npos) return std::nullopt;
    path = trimmed[0] == '/' ? std::string(trimmed) : join(root, trimmed);
  }
  // No `..` segment, anywhere (reference §1.6).
  for (size_t start = 0; start <= path.size();) {
    size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    if (path.compare(start, end - start, "..") == 0) return std::nullopt;
    start = end + 1;
  }
  while (path.size() > 1 && path.back() == '/') path.pop_back();
  if (path != root && path.rfind(root + "/", 0) != 0) return std::nullopt;
  // The directory must exist in the scope's workspace and stay inside it after symlinks.
  std::string host = workspace_source + path.substr(root.size());
  Result<std::string> real = sys::real_path(host);
  Result<std::string> real_root = sys::real_path(workspace_source);
  if (!real.ok() || !real_root.ok() || !sys::is_directory(real.value())) return std::nullopt;
  if (real.value() != real_root.value() && real.value().rfind(real_root.value() + "/", 0) != 0) return std::nullopt;
  return path;
}

Result<env::EnvList> sandbox_env(const ServiceConfig& config, const env::EnvList& requested) {
  env::EnvList env;
  const std::string* server_path = env::find_var(config.inherited_env, "PATH");
  env::set_var(env, "PATH", server_path && !server_path->empty() ? *server_path : std::string(kDefaultPath));
  env::set_var(env, "HOME", config.sandbox->settings.workdir);
  for (const auto& [key, value] : config.sandbox->settings.env) {
    TRY(check_env_entry(key, value));
    env::set_var(env, key, value);
  }
  for (const auto& [key, value] : requested) {
    TRY(check_env_entry(key, value));
    env::set_var(env, key, value);
  }
  return env;
}

std::string sandbox_shell_command(const std::string& command, env::EnvList& env) {
  const std::string* path = env::find_var(env, "PATH");
  if (!path) return command;
  std::string value = *path;
  env::erase_var(env, "PATH");
  env::set_var(env, "OPENCLAW_PREPEND_PATH", std::move(value));
  return "export PATH=\"${OPENCLAW_PREPEND_PATH}:$PATH\"; unset OPENCLAW_PREPEND_PATH; " + command;
}

Result<void> check_binds_now(const ServiceConfig& config) {
  std::vector<std::string> problems = config::bind_problems(
      config.sandbox->settings, config.home_dir, [](const std::string& p) { return sys::canonicalize_existing_prefix(p); });
  if (problems.empty()) return {};
  return Error::rejected(problems.front() + " (checked again before use: the path changed since the server started)");
}

Result<void> check_agent_workspace(const ServiceConfig& config) {
  if (config.sandbox->settings.workspace_access == config::WorkspaceAccess::kNone) return {};
  std::string source = agent_workspace(config);
  std::string key = std::string("agents.defaults.sandbox.workspaceAccess \"") +
                    (config.sandbox->settings.workspace_access == config::WorkspaceAccess::kRw ? "rw" : "ro") + "\"";
  if (source.empty()) return Error::rejected(key + ": the agent workspace (the server's working directory) is unknown");
  if (auto problem = config::host_path_problem(source, key, config.home_dir, sys::canonicalize_existing_prefix(source))) {
    return Error::rejected(*problem + ". Start the server in a project directory or set tools.exec.cwd.");
  }
  if (config.sandbox->settings.workspace_access == config::WorkspaceAccess::kRw) {
    // The sandboxes' own directories (other scopes' workspaces, their records) must not be
    // writable from inside one.
    std::string root = sys::canonicalize_existing_prefix(config.sandbox->root);
    std::string workspace = sys::canonicalize_existing_prefix(source);
    if (root == workspace || root.rfind(workspace + "/", 0) == 0) {
      return Error::rejected(key + ": the sandboxes' workspaceRoot " + config.sandbox->root +
                             " lies inside the writable agent workspace " + source +
                             "; move agents.defaults.sandbox.workspaceRoot out of it");
    }
  }
  return {};
}

sandbox::SandboxSpec sandbox_spec(const ServiceConfig& config, const std::string& scope) {
  const SandboxRuntime& runtime = *config.sandbox;
  const config::SandboxSettings& s = runtime.settings;
  sandbox::SandboxSpec spec;
  spec.scope = scope;
  spec.bwrap_path = runtime.facts().bwrap_path;
  spec.state_dir = runtime.root + "/" + sandbox::scope_directory_name(scope);
  spec.seccomp_program = runtime.facts().seccomp_program;
  spec.bridge_network = s.network == config::SandboxNetwork::kBridge;
  spec.pasta_path = runtime.facts().pasta_path;
  spec.dns = s.dns;
  spec.extra_hosts = s.extra_hosts;
  spec.setup_command = s.setup_command.value_or("");
  spec.limits = sandbox_limits(s);
  spec.cgroup_limits = {.pids = s.pids_limit, .memory_bytes = s.memory_bytes, .memory_swap_bytes = s.memory_swap_bytes,
                        .cpus = s.cpus};
  sandbox::SandboxLayout& layout = spec.layout;
  layout.workdir = s.workdir;
  layout.tmpfs = s.tmpfs;
  layout.protect_git = s.protect_git;
  if (s.workspace_access == config::WorkspaceAccess::kRw) layout.workspace_source = agent_workspace(config);
  if (s.workspace_access == config::WorkspaceAccess::kRo) layout.agent_source = agent_workspace(config);
  for (const config::SandboxBind& b : s.binds) layout.binds.push_back({b.host, b.container, b.read_only});
  if (s.user) {
    // Validated at startup as "uid[:gid]" (numbers: there are no user names without an image).
    const char* text = s.user->c_str();
    char* end = nullptr;
    unsigned long uid = std::strtoul(text, &end, 10);
    unsigned long gid = *end == ':' ? std::strtoul(end + 1, nullptr, 10) : uid;
    layout.ids = std::make_pair(static_cast<unsigned>(uid), static_cast<unsigned>(gid));
  }
  return spec;
}

}  // namespace clawexec::exec
