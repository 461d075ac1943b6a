// Entering a per-scope sandbox, done by the supervisor of each sandboxed command.
//
// Problem: a sandbox is long-lived (files in its /tmp, servers on its loopback and its process
// list persist between commands of one scope), so a command cannot get a fresh bubblewrap
// sandbox of its own; it must join the one that exists, like `docker exec`, and end up with no
// more power than a process bubblewrap started itself: joining a user namespace grants every
// capability inside it.
//
// Approach: setns() on a pidfd of the sandbox's holder joins all of its namespaces at once
// (no pid-reuse race). A pid namespace applies to children only, so the supervisor forks and
// the original exits: the supervisor then lives inside, as a subreaper at the sandbox's pid
// level, so orphans of the command are re-parented to it and its tree walk over the sandbox's
// /proc sees exactly the command's processes. Then, in this order: the bounding and ambient
// capability sets are emptied (needs CAP_SETPCAP, still held; resource limits are set just
// before, so RLIMIT_NPROC counts in the sandbox's own user namespace), the sandbox's uid/gid are
// taken, the remaining capability sets are cleared, no-new-privileges is set, Landlock limits
// writes to the given paths, and the seccomp program is installed last (it may forbid calls
// made above). Everything is inherited by the command across execve.

#include "shim/sandbox_entry.h"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "shim/landlock_abi.h"

namespace clawexec::shim {
namespace {

constexpr int kNamespaces = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS;

int parse_ids(const char* text, uid_t& uid, gid_t& gid) {
  char* end = nullptr;
  unsigned long u = std::strtoul(text, &end, 10);
  if (end == text || *end != ':') return EINVAL;
  const char* g_text = end + 1;
  unsigned long g = std::strtoul(g_text, &end, 10);
  if (end == g_text || *end != '\0') return EINVAL;
  uid = static_cast<uid_t>(u);
  gid = static_cast<gid_t>(g);
  return 0;
}

// "<resource>=<soft>:<hard>,..." (numbers; RLIM_INFINITY spelled as its value).
int apply_limits(const char* text) {
  const char* p = text;
  while (p && *p) {
    char* end = nullptr;
    unsigned long resource = std::strtoul(p, &end, 10);
    if (end == p || *end != '=') return EINVAL;
    p = end + 1;
    unsigned long long soft = std::strtoull(p, &end, 10);
    if (end == p || *end != ':') return EINVAL;
    p = end + 1;
    unsigned long long hard = std::strtoull(p, &end, 10);
    if (end == p || (*end != ',' && *end != '\0')) return EINVAL;
    p = *end == ',' ? end + 1 : end;
    struct rlimit limit = {static_cast<rlim_t>(soft), static_cast<rlim_t>(hard)};
    if (::setrlimit(static_cast<__rlimit_resource_t>(resource), &limit) != 0) return errno;
  }
  return 0;
}

int drop_capabilities(uid_t uid, gid_t gid) {
  for (int cap = 0; cap <= 63; ++cap) {
    if (::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL) return errno;
  }
  if (::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) != 0 && errno != EINVAL) return errno;
  // A user namespace whose setgroups is "deny" refuses this; the groups then stay as mapped.
  (void)::setgroups(0, nullptr);
  if (::setresgid(gid, gid, gid) != 0) return errno;
  if (::setresuid(uid, uid, uid) != 0) return errno;
  struct __user_cap_header_struct header = {_LINUX_CAPABILITY_VERSION_3, 0};
  struct __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capset, &header, data) != 0) return errno;
  return 0;
}

int apply_landlock(char** writable_paths) {
  long abi = ::syscall(kLandlockCreateRuleset, nullptr, 0, kLandlockCreateRulesetVersion);
  if (abi < 1) return ENOSYS;
  uint64_t handled = landlock_write_access(static_cast<int>(abi));
  LandlockRulesetAttrFs attr = {handled};
  int ruleset = static_cast<int>(::syscall(kLandlockCreateRuleset, &attr, sizeof attr, 0));
  if (ruleset < 0) return errno;
  for (char** p = writable_paths; p && *p; ++p) {
    int fd = ::open(*p, O_PATH | O_CLOEXEC);
    if (fd < 0) continue;  // a configured path that does not exist grants nothing
    struct stat st;
    uint64_t allowed = handled;
    if (::fstat(fd, &st) == 0 && !S_ISDIR(st.st_mode)) allowed &= kLandlockFileAccess;
    LandlockPathBeneathAttr rule = {allowed, fd};
    long added = ::syscall(kLandlockAddRule, ruleset, kLandlockRulePathBeneath, &rule, 0);
    int err = errno;
    ::close(fd);
    if (added != 0) {
      ::close(ruleset);
      return err;
    }
  }
  long restricted = ::syscall(kLandlockRestrictSelf, ruleset, 0);
  int err = errno;
  ::close(ruleset);
  return restricted == 0 ? 0 : err;
}

int apply_seccomp(const char* program, uint32_t bytes) {
  if (bytes == 0 || bytes % sizeof(struct sock_filter) != 0) return EINVAL;
  std::vector<struct sock_filter> filter(bytes / sizeof(struct sock_filter));
  std::memcpy(filter.data(), program, bytes);
  struct sock_fprog prog = {static_cast<unsigned short>(filter.size()), filter.data()};
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) != 0) return errno;
  return 0;
}

// Writes "0" (this process) to each cgroup.procs file of the newline-separated list.
int join_cgroups(const char* list) {
  char path[4096];
  for (const char* p = list; p && *p;) {
    const char* end = std::strchr(p, '\n');
    size_t n = end ? static_cast<size_t>(end - p) : std::strlen(p);
    if (n >= sizeof path) return ENAMETOOLONG;
    std::memcpy(path, p, n);
    path[n] = '\0';
    p = end ? end + 1 : p + n;
    if (n == 0) continue;
    int fd = ::open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0) return errno;
    ssize_t wrote = ::write(fd, "0", 1);
    int err = errno;
    ::close(fd);
    if (wrote != 1) return err;
  }
  return 0;
}

}  // namespace

int enter_sandbox(const SandboxEntry& entry) {
  uid_t uid = 0;
  gid_t gid = 0;
  if (!entry.user || parse_ids(entry.user, uid, gid) != 0) return EINVAL;
  // Before the mount namespace changes: the cgroup files are the host's.
  if (int err = join_cgroups(entry.cgroups)) return err;
  if (::setns(entry.holder_pidfd, kNamespaces) != 0) return errno;
  ::close(entry.holder_pidfd);
  pid_t child = ::fork();
  if (child < 0) return errno;
  if (child > 0) ::_exit(0);  // the spawner reaps us; the supervisor lives on inside
  if (int err = apply_limits(entry.limits)) return err;
  if (int err = drop_capabilities(uid, gid)) return err;
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return errno;
  if (int err = apply_landlock(entry.writable_paths)) return err;
  if (int err = apply_seccomp(entry.seccomp_program, entry.seccomp_bytes)) return err;
  // Nothing in the sandbox may open this process's descriptors (the control socket) through
  // /proc; the command's execve makes it dumpable again for itself.
  ::prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  return 0;
}

}  // namespace clawexec::shim
