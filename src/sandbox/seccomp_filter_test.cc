// Installs the real filter in a forked child and checks each rule through raw system calls
// (the kernel's return value, -errno on failure, with no libc wrapper in between). Every check
// also runs in an unfiltered child first and requires a different outcome there, so a check
// fails when its rule is removed.

#include "sandbox/seccomp_filter.h"

#include <gtest/gtest.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <functional>
#include <thread>

#ifndef AF_VSOCK
#define AF_VSOCK 40
#endif

extern char** environ;

namespace clawexec::sandbox {
namespace {

#if defined(__x86_64__)
long raw_syscall(long nr, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0) {
  long ret;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  __asm__ volatile("syscall" : "=a"(ret) : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8) : "rcx", "r11", "memory");
  return ret;
}
#elif defined(__aarch64__)
long raw_syscall(long nr, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0) {
  register long x8 __asm__("x8") = nr;
  register long x0 __asm__("x0") = a;
  register long x1 __asm__("x1") = b;
  register long x2 __asm__("x2") = c;
  register long x3 __asm__("x3") = d;
  register long x4 __asm__("x4") = e;
  __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4) : "memory");
  return x0;
}
#else
#error "seccomp_filter_test: raw_syscall for this architecture"
#endif

struct ChildOutcome {
  int status = 0;             // wait status of the child
  std::optional<long> value;  // what the body returned, when the child got that far
};

/// Forks; the child runs `prelude` (if any), installs `program` (unless null) and reports
/// body()'s result.
ChildOutcome run_child(const std::string* program, const std::function<long()>& body,
                       const std::function<void()>& prelude = {}) {
  int fds[2];
  if (::pipe(fds) != 0) return {};
  pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    if (prelude) prelude();
    if (program != nullptr) {
      struct sock_fprog prog = {static_cast<unsigned short>(program->size() / sizeof(struct sock_filter)),
                                reinterpret_cast<struct sock_filter*>(const_cast<char*>(program->data()))};
      if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) ::_exit(120);
      if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0) ::_exit(121);
    }
    long value = body();
    if (::write(fds[1], &value, sizeof value) != sizeof value) ::_exit(122);
    ::_exit(0);
  }
  ::close(fds[1]);
  ChildOutcome out;
  long value = 0;
  if (::read(fds[0], &value, sizeof value) == sizeof value) out.value = value;
  ::close(fds[0]);
  ::waitpid(pid, &out.status, 0);
  return out;
}

std::string filter(bool own_network_namespace = true) {
  Result<std::string> program = build_seccomp_bpf(SeccompOptions{own_network_namespace});
  EXPECT_TRUE(program.ok()) << program.error().message;
  return program.ok() ? *program : std::string();
}

/// body() returns `expected` under the filter and something else without it.
void expect_filtered_result(const std::function<long()>& body, long expected, bool own_network_namespace = true,
                            const std::function<void()>& prelude = {}) {
  ChildOutcome bare = run_child(nullptr, body, prelude);
  ASSERT_TRUE(bare.value.has_value()) << "unfiltered child died, status " << bare.status;
  EXPECT_NE(*bare.value, expected) << "the check cannot tell: same result without the filter";
  std::string program = filter(own_network_namespace);
  ChildOutcome filtered = run_child(&program, body, prelude);
  ASSERT_TRUE(filtered.value.has_value()) << "filtered child died, status " << filtered.status;
  EXPECT_EQ(*filtered.value, expected);
}

long close_if_fd(long r) {
  if (r >= 0) {
    ::close(static_cast<int>(r));
    return 0;
  }
  return r;
}

TEST(SeccompFilter, ProgramIsWholeInstructions) {
  std::string program = filter();
  ASSERT_FALSE(program.empty());
  EXPECT_EQ(program.size() % sizeof(struct sock_filter), 0u);
  EXPECT_LT(program.size() / sizeof(struct sock_filter), 4096u);  // BPF_MAXINSNS
}

TEST(SeccompFilter, PtraceIsDenied) {
  expect_filtered_result([] { return raw_syscall(SYS_ptrace, PTRACE_TRACEME); }, -EPERM);
}

TEST(SeccompFilter, ProcessVmReadvIsDenied) {
  expect_filtered_result([] { return raw_syscall(SYS_process_vm_readv, ::getppid(), 0, 0, 0, 0); }, -EPERM);
}

TEST(SeccompFilter, IoUringSetupIsDenied) {
  expect_filtered_result([] { return raw_syscall(SYS_io_uring_setup, 0, 0); }, -EPERM);
}

TEST(SeccompFilter, UnshareOfAUserNamespaceIsDenied) {
  expect_filtered_result([] { return raw_syscall(SYS_unshare, CLONE_NEWUSER); }, -EPERM);
}

TEST(SeccompFilter, UnshareOfANetworkNamespaceIsDenied) {
  // Without root, a user namespace entered before the filter gives the capability it needs.
  auto own_user_namespace = [] {
    if (::geteuid() != 0) raw_syscall(SYS_unshare, CLONE_NEWUSER);
  };
  expect_filtered_result([] { return raw_syscall(SYS_unshare, CLONE_NEWNET); }, -EPERM, true, own_user_namespace);
}

TEST(SeccompFilter, CloneWithANamespaceFlagIsDenied) {
  // The child of a successful clone exits at once; the parent reaps it.
  expect_filtered_result(
      [] {
        long r = raw_syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0);
        if (r == 0) ::_exit(0);
        if (r > 0) {
          ::waitpid(static_cast<pid_t>(r), nullptr, 0);
          return 0L;
        }
        return r;
      },
      -EPERM);
}

TEST(SeccompFilter, Clone3IsNotImplemented) {
  expect_filtered_result([] { return raw_syscall(SYS_clone3, 0, 0); }, -ENOSYS);
}

TEST(SeccompFilter, VsockSocketsAreDenied) {
  expect_filtered_result([] { return close_if_fd(raw_syscall(SYS_socket, AF_VSOCK, SOCK_STREAM, 0)); }, -EPERM);
}

TEST(SeccompFilter, MountIsDenied) {
  expect_filtered_result([] { return raw_syscall(SYS_mount, 0, 0, 0, 0, 0); }, -EPERM);
}

TEST(SeccompFilter, KeyctlIsDenied) {
  // KEYCTL_GET_KEYRING_ID (0) of the session keyring (-3), creating it: a key id without the filter.
  expect_filtered_result([] { return raw_syscall(SYS_keyctl, 0, -3, 1); }, -EPERM);
}

TEST(SeccompFilter, BpfIsDenied) {
  expect_filtered_result([] { return raw_syscall(SYS_bpf, -1, 0, 0); }, -EPERM);
}

TEST(SeccompFilter, SetnsIsDenied) {
  expect_filtered_result([] { return raw_syscall(SYS_setns, -1, 0); }, -EPERM);
}

TEST(SeccompFilter, InetSocketsDependOnTheNetworkNamespace) {
  auto inet = [] { return close_if_fd(raw_syscall(SYS_socket, AF_INET, SOCK_STREAM, 0)); };
  std::string own = filter(true);
  ChildOutcome allowed = run_child(&own, inet);
  ASSERT_TRUE(allowed.value.has_value());
  EXPECT_EQ(*allowed.value, 0) << "socket(AF_INET) must work in its own network namespace";
  expect_filtered_result(inet, -EPERM, /*own_network_namespace=*/false);
  auto pair_inet = [] {
    int sv[2];
    return raw_syscall(SYS_socketpair, AF_INET, SOCK_STREAM, 0, reinterpret_cast<long>(sv));
  };
  std::string shared = filter(false);
  ChildOutcome pair = run_child(&shared, pair_inet);
  ASSERT_TRUE(pair.value.has_value());
  EXPECT_EQ(*pair.value, -EPERM);
}

TEST(SeccompFilter, UnixSocketsAreAllowedEitherWay) {
  auto unix_socket = [] { return close_if_fd(raw_syscall(SYS_socket, AF_UNIX, SOCK_STREAM, 0)); };
  auto unix_pair = [] {
    int sv[2];
    long r = raw_syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, reinterpret_cast<long>(sv));
    if (r == 0) {
      ::close(sv[0]);
      ::close(sv[1]);
    }
    return r;
  };
  for (bool own : {true, false}) {
    std::string program = filter(own);
    ChildOutcome s = run_child(&program, unix_socket);
    ASSERT_TRUE(s.value.has_value());
    EXPECT_EQ(*s.value, 0) << "own_network_namespace=" << own;
    ChildOutcome p = run_child(&program, unix_pair);
    ASSERT_TRUE(p.value.has_value());
    EXPECT_EQ(*p.value, 0) << "own_network_namespace=" << own;
  }
}

TEST(SeccompFilter, ForkExecPosixSpawnAndThreadsStillWork) {
  std::string program = filter(false);
  ChildOutcome out = run_child(&program, [] {
    pid_t pid = ::fork();
    if (pid == 0) {
      char* argv[] = {const_cast<char*>("true"), nullptr};
      ::execve("/bin/true", argv, environ);
      ::_exit(127);
    }
    int status = -1;
    ::waitpid(pid, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 1L;
    // posix_spawn and thread creation try clone3 first and must fall back to clone.
    char* argv[] = {const_cast<char*>("true"), nullptr};
    pid_t spawned = -1;
    if (::posix_spawn(&spawned, "/bin/true", nullptr, nullptr, argv, environ) != 0) return 2L;
    ::waitpid(spawned, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return 3L;
    bool ran = false;
    std::thread([&ran] { ran = true; }).join();
    return ran ? 0L : 4L;
  });
  ASSERT_TRUE(out.value.has_value()) << "status " << out.status;
  EXPECT_EQ(*out.value, 0);
}

#if defined(__x86_64__)
long i386_getpid() {
  long ret;
  __asm__ volatile("int $0x80" : "=a"(ret) : "a"(20L) : "memory");  // __NR_getpid of i386
  return ret;
}

TEST(SeccompFilter, The32BitAbiKillsTheProcess) {
  ChildOutcome bare = run_child(nullptr, [] { return i386_getpid(); });
  if (!bare.value.has_value() || *bare.value <= 0) GTEST_SKIP() << "no IA32 emulation in this kernel";
  std::string program = filter();
  ChildOutcome filtered = run_child(&program, [] { return i386_getpid(); });
  EXPECT_FALSE(filtered.value.has_value());
  ASSERT_TRUE(WIFSIGNALED(filtered.status)) << "status " << filtered.status;
  EXPECT_EQ(WTERMSIG(filtered.status), SIGSYS);
}

TEST(SeccompFilter, TheX32AbiKillsTheProcess) {
  constexpr long kX32Bit = 0x40000000;
  auto x32_getpid = [] { return raw_syscall(kX32Bit | SYS_getpid); };
  ChildOutcome bare = run_child(nullptr, x32_getpid);
  ASSERT_TRUE(bare.value.has_value()) << "status " << bare.status;  // a pid, or -ENOSYS without x32
  std::string program = filter();
  ChildOutcome filtered = run_child(&program, x32_getpid);
  EXPECT_FALSE(filtered.value.has_value());
  ASSERT_TRUE(WIFSIGNALED(filtered.status)) << "status " << filtered.status;
  EXPECT_EQ(WTERMSIG(filtered.status), SIGSYS);
}
#endif

}  // namespace
}  // namespace clawexec::sandbox
