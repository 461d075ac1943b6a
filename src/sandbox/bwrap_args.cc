// The bubblewrap argv of a sandbox (see bwrap_args.h).
//
// The root is bubblewrap's empty tmpfs, not the host's `/`: only the system directories are
// bound in, read-only, so the host's /home, /root, /var, /srv and /mnt simply do not exist
// inside (nothing to mask, nothing forgotten). /etc is bound with its secrets masked. Mount
// order matters: system, then /proc, /dev and the tmpfs mounts, then the workspace, then the
// protected workspace files re-bound read-only (after the writable workspace, so they win),
// then the configured binds, then the generated /etc files.

#include "sandbox/bwrap_args.h"

namespace clawexec::sandbox {
namespace {

const std::vector<std::string>& system_directories() {
  static const std::vector<std::string> dirs = {"/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/opt"};
  return dirs;
}

void add(std::vector<std::string>& argv, std::initializer_list<std::string> words) {
  argv.insert(argv.end(), words);
}

std::string join(const std::string& dir, const std::string& relative) {
  if (dir.empty() || dir.back() == '/') return dir + relative;
  return dir + "/" + relative;
}

}  // namespace

const std::vector<std::string>& protected_workspace_paths() {
  static const std::vector<std::string> paths = {".git/hooks", ".git/config", ".gitconfig", ".gitmodules",
                                                 ".bashrc",    ".bash_profile", ".profile", ".zshrc",
                                                 ".zprofile",  ".envrc"};
  return paths;
}

const std::vector<std::string>& masked_etc_paths() {
  static const std::vector<std::string> paths = {"/etc/shadow",  "/etc/shadow-",   "/etc/gshadow",   "/etc/gshadow-",
                                                 "/etc/sudoers", "/etc/sudoers.d", "/etc/ssl/private",
                                                 "/etc/ssh",     "/etc/machine-id", "/etc/openclaw", "/etc/clawexec"};
  return paths;
}

std::vector<std::string> writable_paths(const SandboxLayout& layout) {
  std::vector<std::string> out = layout.tmpfs;
  if (!layout.workspace_read_only) out.push_back(layout.workdir);
  for (const BindMount& b : layout.binds) {
    if (!b.read_only) out.push_back(b.container);
  }
  out.push_back("/dev");
  return out;
}

std::vector<std::string> bwrap_arguments(const SandboxLayout& layout, const HostPaths& paths, int info_fd,
                                         const std::vector<std::string>& holder) {
  std::vector<std::string> argv;
  add(argv, {"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net",
             "--unshare-cgroup-try", "--die-with-parent", "--new-session", "--hostname", layout.hostname});
  if (layout.ids) {
    add(argv, {"--uid", std::to_string(layout.ids->first), "--gid", std::to_string(layout.ids->second)});
  }
  for (const std::string& dir : system_directories()) {
    if (!paths.exists(dir)) continue;
    if (auto target = paths.symlink_target(dir)) {
      add(argv, {"--symlink", *target, dir});
    } else {
      add(argv, {"--ro-bind", dir, dir});
    }
  }
  add(argv, {"--ro-bind", "/etc", "/etc"});
  for (const std::string& secret : masked_etc_paths()) {
    if (!paths.exists(secret)) continue;
    // A directory becomes an empty read-only tmpfs, a file an empty file.
    if (secret == "/etc/ssh" || secret == "/etc/ssl/private" || secret == "/etc/sudoers.d" ||
        secret == "/etc/openclaw" || secret == "/etc/clawexec") {
      add(argv, {"--perms", "0555", "--tmpfs", secret, "--remount-ro", secret});
    } else {
      add(argv, {"--ro-bind", "/dev/null", secret});
    }
  }
  add(argv, {"--proc", "/proc", "--dev", "/dev"});
  for (const std::string& t : layout.tmpfs) add(argv, {"--tmpfs", t});
  add(argv, {layout.workspace_read_only ? "--ro-bind" : "--bind", layout.workspace_source, layout.workdir});
  if (!layout.workspace_read_only && layout.protect_git) {
    for (const std::string& relative : protected_workspace_paths()) {
      std::string host = join(layout.workspace_source, relative);
      if (!paths.exists(host)) continue;
      // A symlink (to anywhere) is replaced by an empty file: re-binding its target would
      // expose whatever it points to.
      if (paths.symlink_target(host)) {
        add(argv, {"--ro-bind", "/dev/null", join(layout.workdir, relative)});
      } else {
        add(argv, {"--ro-bind", host, join(layout.workdir, relative)});
      }
    }
  }
  if (!layout.agent_source.empty()) add(argv, {"--ro-bind", layout.agent_source, "/agent"});
  for (const BindMount& b : layout.binds) add(argv, {b.read_only ? "--ro-bind" : "--bind", b.host, b.container});
  if (!layout.hosts_file.empty()) add(argv, {"--ro-bind", layout.hosts_file, "/etc/hosts"});
  if (!layout.resolv_file.empty()) add(argv, {"--ro-bind", layout.resolv_file, "/etc/resolv.conf"});
  add(argv, {"--chdir", layout.workdir, "--info-fd", std::to_string(info_fd), "--"});
  argv.insert(argv.end(), holder.begin(), holder.end());
  return argv;
}

}  // namespace clawexec::sandbox
