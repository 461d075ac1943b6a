#pragma once
// The bubblewrap command line of one sandbox: which host paths it sees, read-only or
// writable, and which namespaces it gets. Pure: the file-system answers it needs (is this a
// symlink, where does it point, does it exist) come in through HostPaths, so tests can pin the
// exact argv.

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace clawexec::sandbox {

/// One extra mount (`binds`), already validated.
struct BindMount {
  std::string host;
  std::string container;
  bool read_only = false;
};

/// Everything that shapes a sandbox's file system and namespaces (resolved configuration).
struct SandboxLayout {
  std::string workdir = "/workspace";   // where the workspace appears inside
  std::string workspace_source;         // host directory bound at `workdir`
  bool workspace_read_only = false;
  std::string agent_source;             // workspaceAccess "ro": the agent workspace, read-only at /agent
  std::vector<std::string> tmpfs = {"/tmp", "/var/tmp", "/run"};
  std::vector<BindMount> binds;
  std::string hosts_file;               // host path of a generated /etc/hosts ("" = the host's)
  std::string resolv_file;              // host path of a generated /etc/resolv.conf ("" = the host's)
  bool protect_git = true;              // .git/hooks, .git/config and rc files stay read-only
  std::string hostname = "clawexec-sandbox";
  std::optional<std::pair<unsigned, unsigned>> ids;  // uid/gid inside; default: the server's
};

/// File-system answers the builder needs.
struct HostPaths {
  std::function<std::optional<std::string>(const std::string&)> symlink_target;  // nullopt: not a symlink
  std::function<bool(const std::string&)> exists;
};

/// Files in a writable workspace that a host user's tools later execute or source: kept
/// read-only inside when `protect_git` is on (relative to the workspace root).
const std::vector<std::string>& protected_workspace_paths();

/// Host files under /etc that no sandbox sees (masked with an empty file or directory).
const std::vector<std::string>& masked_etc_paths();

/// The paths inside the sandbox that stay writable (for Landlock): the tmpfs mounts, the
/// workspace unless read-only, writable binds, and /dev (its null, tty and pts nodes).
std::vector<std::string> writable_paths(const SandboxLayout& layout);

/// `bwrap` arguments (without the program name) that create the sandbox and run `holder`
/// inside it; bwrap writes its namespace facts to `info_fd`.
std::vector<std::string> bwrap_arguments(const SandboxLayout& layout, const HostPaths& paths, int info_fd,
                                         const std::vector<std::string>& holder);

}  // namespace clawexec::sandbox
