#pragma once
// The seccomp filter every sandboxed command runs under: a deny-list on top of the namespaces
// and Landlock rules, aimed at the kernel interfaces that let a process escape or attack the
// sandbox rather than at ordinary programs. Default ALLOW; listed syscalls fail with EPERM
// (programs handle that as "not permitted here" and carry on), clone3 with ENOSYS (so libc
// falls back to clone, whose flags the filter can see), and any syscall made through another
// ABI than the native one (on x86_64: the i386 `int $0x80` ABI and x32) kills the process.
//
// What is denied and why:
//  * debugging other processes: ptrace, process_vm_readv/writev, pidfd_getfd;
//  * io_uring_setup/enter/register (its ops bypass this filter, sockets included);
//  * kernel attack surface: bpf, perf_event_open, userfaultfd, keyctl/add_key/request_key,
//    kexec_load/kexec_file_load, init/finit/delete_module, lookup_dcookie;
//  * the mount API: mount, umount2, pivot_root, move_mount, open_tree, fsopen, fsconfig,
//    fsmount, fspick, mount_setattr; and setns;
//  * file handles (open_by_handle_at escapes a bind mount; name_to_handle_at is its source);
//  * host administration: swapon/swapoff, reboot, acct, quotactl/quotactl_fd;
//  * new namespaces: unshare and clone with any CLONE_NEW* flag. Decision: every namespace
//    flag, not just CLONE_NEWUSER, because a nested user namespace grants the capabilities
//    the others need and the sandbox has no legitimate use for either; the cost is that a
//    nested sandbox (bwrap, Chromium's namespace sandbox, `unshare`) does not work inside;
//  * socket/socketpair(AF_VSOCK) (a path to the hypervisor host, e.g. WSL2 interop);
//  * ioctl TIOCSTI / TIOCLINUX (typing into, or reading, a terminal the command shares).
// With own_network_namespace == false (no --unshare-net) socket and socketpair of every
// family except AF_UNIX fail too: the command shares the host's network.
//
// Not restricted, on purpose: personality(2). The flags worth abusing (ADDR_NO_RANDOMIZE,
// READ_IMPLIES_EXEC, MMAP_PAGE_ZERO) only matter against a more privileged program, and the
// kernel clears them on a setuid exec while no_new_privs (required to install the filter)
// disables setuid altogether; `setarch -R` is legitimately used by debuggers.
//
// The non-native ABI decision: the filter names only the native architecture and its bad-arch
// action is KILL_PROCESS, so a 32-bit syscall cannot reach a rule-less table (the classic
// bypass: `int $0x80` with i386 numbers). 32-bit binaries therefore cannot run sandboxed.
//
// The filter denies setns and the mount API, so whoever installs it (bwrap --seccomp, or the
// shim entering an existing sandbox) must do so after its own namespace and mount work.

#include <string>

#include "base/result.h"

namespace clawexec::sandbox {

struct SeccompOptions {
  /// The command runs in a network namespace of its own (bwrap --unshare-net); when false,
  /// only AF_UNIX sockets may be created.
  bool own_network_namespace = true;
};

/// A classic-BPF program (the bytes of struct sock_filter[]), for prctl(PR_SET_SECCOMP,
/// SECCOMP_MODE_FILTER) or `bwrap --seccomp FD`.
Result<std::string> build_seccomp_bpf(const SeccompOptions& options);

}  // namespace clawexec::sandbox
