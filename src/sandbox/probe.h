#pragma once
// What this kernel and machine offer for sandboxing, found out once at startup by trying it:
// the only reliable test of user namespaces is to create one, because AppArmor (Ubuntu 24.04),
// Debian's sysctl, a zeroed user.max_user_namespaces or a container's seccomp profile can each
// refuse it while every file looks fine. So the probe runs a bwrap preflight (a few ms), asks
// the kernel for its Landlock ABI and seccomp support, looks for the user-mode networking
// helpers and summarises the cgroup layout. A failure is explained (what is missing, how to
// fix it) by a pure function, so that `doctor` and the sandbox error say the same thing.
// Cheap: well under 20 ms when everything works (one bwrap run); up to three runs otherwise.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::sandbox {

struct SandboxProbe {
  std::string bwrap_path;            // "" when not found (search PATH, then /usr/bin/bwrap)
  bool user_namespaces = false;      // bwrap --unshare-user ... actually ran /bin/true
  std::string user_namespace_error;  // why not: the preflight's stderr and a fix hint
  bool network_namespace = false;    // --unshare-net worked (bwrap brought loopback up)
  std::string network_namespace_error;  // why not, when user namespaces work but this does not
  int landlock_abi = 0;              // landlock_create_ruleset(NULL, 0, VERSION); 0: unsupported
  bool seccomp = false;              // seccomp filters with ERRNO and KILL_PROCESS actions
  std::string pasta_path, slirp4netns_path;  // user-mode networking helpers found, else ""
  std::string cgroup_summary;        // "cgroup v2 at ..., writable (...)", "hybrid v1/v2 (...)", ...
  double probe_ms = 0;               // how long probing took
};

/// Probes this machine (spawns bwrap; see the file comment).
SandboxProbe probe_sandbox_support();

/// Why no sandbox can be built from what `probe` found ("" = one can): the first missing piece
/// in the order bubblewrap, user namespaces, Landlock, seccomp, with how to fix it.
std::string unavailable_reason(const SandboxProbe& probe);

/// Human lines for `doctor`, one per capability.
std::vector<std::string> describe_probe(const SandboxProbe& probe);

/// The full preflight: every namespace bwrap offers, user and network included.
std::vector<std::string> preflight_argv(const std::string& bwrap_path);

/// The sysctls that gate unprivileged user namespaces, as read from /proc/sys (nullopt: absent).
struct UsernsSysctls {
  std::optional<long> apparmor_restrict_unprivileged_userns;  // kernel.* (Ubuntu 23.10+)
  std::optional<long> unprivileged_userns_clone;              // kernel.* (Debian/Ubuntu patch)
  std::optional<long> max_user_namespaces;                    // user.*
};
UsernsSysctls read_userns_sysctls();

/// The message for a failed preflight: exit status (or -1 when it was killed / timed out),
/// bwrap's stderr and the sysctls, to what is missing and how to fix it. Pure.
std::string explain_preflight_failure(int exit_code, std::string_view stderr_text, const UsernsSysctls& sysctls = {});

}  // namespace clawexec::sandbox
