// probe_sandbox_support: the bwrap preflight (full, then narrowed to tell a user-namespace
// failure from a network-namespace one), the Landlock and seccomp queries, a PATH search for
// the helpers, and the cgroup layout read from statfs and /proc/self/cgroup. Nothing here
// reads errno: every call is judged by its return value alone.

#include "sandbox/probe.h"

#include <linux/magic.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "base/strings.h"
#include "shim/landlock_abi.h"
#include "sys/run_capture.h"
#include "sys/sys.h"

namespace clawexec::sandbox {
namespace {

constexpr int kPreflightTimeoutMs = 3000;
constexpr const char* kHelperPath = "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// The first executable `name` in an absolute directory of $PATH, else `fallback` if it is one.
std::string find_program(const std::string& name, const std::string& fallback) {
  const char* path = std::getenv("PATH");
  for (std::string_view dir : split(path != nullptr ? path : "", ':')) {
    if (dir.empty() || dir.front() != '/') continue;  // never a relative (cwd) entry
    std::string candidate = std::string(dir) + "/" + name;
    if (sys::is_executable_file(candidate)) return candidate;
  }
  return !fallback.empty() && sys::is_executable_file(fallback) ? fallback : std::string();
}

struct Run {
  bool ok = false;
  int exit_code = -1;
  std::string output;
};

Run run_bwrap(const std::string& bwrap, const std::vector<std::string>& argv) {
  Result<sys::CapturedRun> r = sys::run_and_capture(bwrap, argv, {kHelperPath}, kPreflightTimeoutMs);
  Run out;
  if (!r.ok()) {
    out.output = r.error().message;
    return out;
  }
  out.exit_code = r->exit_code.value_or(-1);
  out.ok = r->exit_code == 0;
  out.output = r->output;
  if (r->timed_out) out.output += "(killed after " + std::to_string(kPreflightTimeoutMs) + " ms)\n";
  return out;
}

std::vector<std::string> narrowed_argv(const std::string& bwrap, const char* unshare) {
  return {bwrap,  unshare, "--die-with-parent", "--ro-bind", "/",       "/",
          "--proc", "/proc", "--dev",           "/dev",      "/bin/true"};
}

void probe_namespaces(SandboxProbe& p) {
  const UsernsSysctls sysctls = read_userns_sysctls();
  Run full = run_bwrap(p.bwrap_path, preflight_argv(p.bwrap_path));
  if (full.ok) {
    p.user_namespaces = p.network_namespace = true;
    return;
  }
  Run user_only = run_bwrap(p.bwrap_path, narrowed_argv(p.bwrap_path, "--unshare-user"));
  if (user_only.ok) {
    p.user_namespaces = true;
    p.network_namespace_error = "network namespace: " + explain_preflight_failure(full.exit_code, full.output, sysctls);
    return;
  }
  p.user_namespace_error = explain_preflight_failure(user_only.exit_code, user_only.output, sysctls);
  // A privileged (root or setuid) bwrap can still isolate the network without a user namespace.
  Run net_only = run_bwrap(p.bwrap_path, narrowed_argv(p.bwrap_path, "--unshare-net"));
  p.network_namespace = net_only.ok;
  if (!net_only.ok) {
    p.network_namespace_error = "network namespace: " + explain_preflight_failure(net_only.exit_code, net_only.output, sysctls);
  }
}

int probe_landlock() {
  long abi = ::syscall(shim::kLandlockCreateRuleset, nullptr, 0, shim::kLandlockCreateRulesetVersion);
  return abi > 0 ? static_cast<int>(abi) : 0;
}

bool probe_seccomp() {
  if (::prctl(PR_GET_SECCOMP, 0, 0, 0, 0) < 0) return false;  // no CONFIG_SECCOMP
  for (uint32_t action : {uint32_t{SECCOMP_RET_ERRNO}, uint32_t{SECCOMP_RET_KILL_PROCESS}}) {
    if (::syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) != 0) return false;
  }
  return true;
}

std::optional<long> fs_type(const std::string& path) {
  struct statfs st {};
  if (::statfs(path.c_str(), &st) != 0) return std::nullopt;
  return static_cast<long>(st.f_type);
}

std::optional<long> read_number(const std::string& path) {
  Result<std::optional<std::string>> text = sys::read_file_if_exists(path, "read " + path);
  if (!text.ok() || !text->has_value()) return std::nullopt;
  std::string_view digits = trim_ascii(**text);
  if (digits.empty()) return std::nullopt;
  char* end = nullptr;
  std::string s(digits);
  long v = std::strtol(s.c_str(), &end, 10);
  if (end == s.c_str() || *end != '\0') return std::nullopt;
  return v;
}

std::string unified_summary() {
  std::string own = "/";
  Result<std::optional<std::string>> self = sys::read_file_if_exists("/proc/self/cgroup", "read /proc/self/cgroup");
  if (self.ok() && self->has_value()) {
    for (std::string_view line : split(**self, '\n')) {
      if (line.substr(0, 3) == "0::") own = std::string(line.substr(3));
    }
  }
  std::string dir = "/sys/fs/cgroup" + (own == "/" ? std::string() : own);
  std::string controllers;
  Result<std::optional<std::string>> c = sys::read_file_if_exists(dir + "/cgroup.controllers", "read controllers");
  if (c.ok() && c->has_value()) controllers = std::string(trim_ascii(**c));
  std::string out = "cgroup v2 at " + dir;
  out += sys::is_writable(dir) ? ", writable (delegated)" : ", not writable (needs delegation, e.g. a systemd unit with Delegate=yes)";
  out += controllers.empty() ? "; no controllers" : "; controllers: " + controllers;
  return out;
}

std::string cgroup_summary() {
  std::optional<long> root = fs_type("/sys/fs/cgroup");
  if (!root) return "none: /sys/fs/cgroup is not mounted";
  if (*root == CGROUP2_SUPER_MAGIC) return unified_summary();
  std::vector<std::string> writable;
  for (const char* controller : {"pids", "memory", "cpu"}) {
    std::string dir = std::string("/sys/fs/cgroup/") + controller;
    if (fs_type(dir) == CGROUP_SUPER_MAGIC && sys::is_writable(dir)) writable.push_back(controller);
  }
  const bool hybrid = fs_type("/sys/fs/cgroup/unified") == CGROUP2_SUPER_MAGIC;
  std::string out = hybrid ? "hybrid v1 + v2 (/sys/fs/cgroup/unified)" : "cgroup v1";
  out += writable.empty() ? ", no v1 controller writable" : ", v1 " + join(writable, ",") + " writable";
  return out;
}

bool contains(std::string_view haystack, std::string_view needle) {
  return haystack.find(needle) != std::string_view::npos;
}

}  // namespace

std::vector<std::string> preflight_argv(const std::string& bwrap_path) {
  return {bwrap_path, "--unshare-all", "--unshare-user", "--die-with-parent", "--ro-bind", "/", "/",
          "--proc",   "/proc",         "--dev",          "/dev",              "/bin/true"};
}

UsernsSysctls read_userns_sysctls() {
  UsernsSysctls s;
  s.apparmor_restrict_unprivileged_userns = read_number("/proc/sys/kernel/apparmor_restrict_unprivileged_userns");
  s.unprivileged_userns_clone = read_number("/proc/sys/kernel/unprivileged_userns_clone");
  s.max_user_namespaces = read_number("/proc/sys/user/max_user_namespaces");
  return s;
}

std::string explain_preflight_failure(int exit_code, std::string_view stderr_text, const UsernsSysctls& sysctls) {
  std::string said(trim_ascii(stderr_text));
  std::string out = "bwrap preflight failed (" +
                    (exit_code >= 0 ? "exit " + std::to_string(exit_code) : std::string("no exit status")) + ")";
  if (!said.empty()) out += ": " + truncate_middle(said, 600);
  std::vector<std::string> hints;
  const bool apparmor = sysctls.apparmor_restrict_unprivileged_userns.value_or(0) != 0;
  if (apparmor || contains(said, "RTM_NEWADDR") || contains(said, "RTM_NEWLINK")) {
    hints.push_back(
        "AppArmor restricts unprivileged user namespaces (Ubuntu 23.10+/24.04): the namespace is created without "
        "capabilities, so bwrap cannot configure loopback or mount /proc. Fix: `sudo sysctl -w "
        "kernel.apparmor_restrict_unprivileged_userns=0` (persist it in /etc/sysctl.d/), or load an AppArmor "
        "profile that grants bwrap `userns` (the apparmor package ships bwrap-userns-restrict)");
  }
  if (sysctls.unprivileged_userns_clone == 0 || contains(said, "No permissions to create")) {
    hints.push_back(
        "unprivileged user namespaces are switched off: `sudo sysctl -w kernel.unprivileged_userns_clone=1`");
  }
  if (sysctls.max_user_namespaces == 0 || contains(said, "No space left on device")) {
    hints.push_back("user.max_user_namespaces is 0 or used up: `sudo sysctl -w user.max_user_namespaces=15000`");
  }
  if (contains(said, "Can't mount proc")) {
    hints.push_back(
        "/proc cannot be mounted here (a container with a masked /proc, or nested user namespaces): run the "
        "container with an unmasked /proc (e.g. docker --security-opt systempaths=unconfined) or run clawexec "
        "on the host");
  }
  if (contains(said, "setgroups") || contains(said, "uid map") || contains(said, "uid_map") ||
      contains(said, "gid map") || contains(said, "gid_map")) {
    hints.push_back(
        "the uid/gid maps could not be written: the service user must be a normal mappable id (unmapped ids "
        "appear as kernel.overflowuid, usually 65534), and a nested user namespace needs /proc/self/setgroups "
        "writable");
  }
  if (contains(said, "Creating new namespace failed") && contains(said, "Operation not permitted") && hints.empty()) {
    hints.push_back(
        "creating the namespace was refused: inside a container the default seccomp profile blocks "
        "clone(CLONE_NEWUSER) (docker --security-opt seccomp=unconfined, or a profile that allows it); "
        "otherwise a security module (AppArmor/SELinux) denied it, see the audit log");
  }
  if (exit_code < 0 && contains(said, "spawn ")) hints.push_back("bwrap could not be started: reinstall bubblewrap");
  if (hints.empty()) {
    hints.push_back(
        "check kernel.unprivileged_userns_clone, user.max_user_namespaces and the AppArmor/SELinux audit log; "
        "without user namespaces only Landlock and seccomp can confine commands");
  }
  for (const std::string& h : hints) out += "\n  hint: " + h;
  return out;
}

SandboxProbe probe_sandbox_support() {
  const auto start = std::chrono::steady_clock::now();
  SandboxProbe p;
  p.bwrap_path = find_program("bwrap", "/usr/bin/bwrap");
  if (p.bwrap_path.empty()) {
    p.user_namespace_error = "bwrap not found on PATH or at /usr/bin/bwrap: install bubblewrap";
  } else {
    probe_namespaces(p);
  }
  p.landlock_abi = probe_landlock();
  p.seccomp = probe_seccomp();
  p.pasta_path = find_program("pasta", "");
  p.slirp4netns_path = find_program("slirp4netns", "");
  p.cgroup_summary = cgroup_summary();
  p.probe_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return p;
}

std::vector<std::string> describe_probe(const SandboxProbe& p) {
  std::vector<std::string> lines;
  lines.push_back("bwrap: " + (p.bwrap_path.empty() ? std::string("not found (install bubblewrap)") : p.bwrap_path));
  lines.push_back(p.user_namespaces ? "user namespaces: yes" : "user namespaces: no: " + p.user_namespace_error);
  lines.push_back(p.network_namespace ? "network namespace: yes (loopback up)"
                                      : "network namespace: no" +
                                            (p.network_namespace_error.empty() ? std::string()
                                                                               : ": " + p.network_namespace_error));
  lines.push_back(p.landlock_abi > 0 ? "landlock: ABI " + std::to_string(p.landlock_abi)
                                     : "landlock: not available (kernel without CONFIG_SECURITY_LANDLOCK, or landlock "
                                       "missing from the lsm= boot parameter)");
  lines.push_back(p.seccomp ? "seccomp: yes (filters with ERRNO and KILL_PROCESS)" : "seccomp: no (kernel without CONFIG_SECCOMP_FILTER)");
  std::vector<std::string> helpers;
  if (!p.pasta_path.empty()) helpers.push_back("pasta " + p.pasta_path);
  if (!p.slirp4netns_path.empty()) helpers.push_back("slirp4netns " + p.slirp4netns_path);
  lines.push_back("user-mode networking: " +
                  (helpers.empty() ? std::string("none (install passt or slirp4netns for a bridged sandbox network)")
                                   : join(helpers, ", ")));
  lines.push_back("cgroups: " + p.cgroup_summary);
  char ms[32];
  std::snprintf(ms, sizeof ms, "%.1f", p.probe_ms);
  lines.push_back(std::string("sandbox probe took ") + ms + " ms");
  return lines;
}

std::string unavailable_reason(const SandboxProbe& probe) {
  if (probe.bwrap_path.empty()) {
    return "bubblewrap (bwrap) is not installed; install the bubblewrap package (apt-get install bubblewrap).";
  }
  if (!probe.user_namespaces) return probe.user_namespace_error;
  if (probe.landlock_abi < 1) {
    return "Landlock is not available in this kernel (needs CONFIG_SECURITY_LANDLOCK=y and landlock in the lsm= "
           "boot parameter); clawexec does not build a sandbox without it.";
  }
  if (!probe.seccomp) return "seccomp filters are not available in this kernel (CONFIG_SECCOMP_FILTER).";
  return "";
}

}  // namespace clawexec::sandbox
