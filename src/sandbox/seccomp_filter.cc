// build_seccomp_bpf: the rules of seccomp_filter.h written with libseccomp, exported as BPF
// through a memfd (libseccomp 2.5 can only export to a descriptor). Each rule names its
// syscall in the error when libseccomp refuses it.

#include "sandbox/seccomp_filter.h"

#include <linux/sched.h>
#include <seccomp.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <initializer_list>
#include <vector>

#include "sys/sys.h"
#include "sys/whole_file.h"

namespace clawexec::sandbox {
namespace {

class Filter {
 public:
  Filter() : ctx_(seccomp_init(SCMP_ACT_ALLOW)) {}
  ~Filter() {
    if (ctx_ != nullptr) seccomp_release(ctx_);
  }
  Filter(const Filter&) = delete;
  Filter& operator=(const Filter&) = delete;

  scmp_filter_ctx get() const { return ctx_; }

  Result<void> add(uint32_t action, int syscall, const char* name, std::initializer_list<scmp_arg_cmp> args = {}) {
    std::vector<scmp_arg_cmp> cmp(args);
    int rc = seccomp_rule_add_array(ctx_, action, syscall, static_cast<unsigned>(cmp.size()),
                                    cmp.empty() ? nullptr : cmp.data());
    if (rc < 0) return Error::from_errno(std::string("seccomp rule for ") + name, -rc);
    return {};
  }
  Result<void> deny(int syscall, const char* name, std::initializer_list<scmp_arg_cmp> args = {}) {
    return add(SCMP_ACT_ERRNO(EPERM), syscall, name, args);
  }

 private:
  scmp_filter_ctx ctx_;
};

#define DENY(f, name) TRY((f).deny(SCMP_SYS(name), #name))

// The CLONE_NEW* flags clone(2) accepts. CLONE_NEWTIME shares its bit with the exit signal
// byte of clone(2), so it is checked for unshare only.
constexpr uint64_t kCloneNamespaceFlags[] = {CLONE_NEWUSER, CLONE_NEWNS,  CLONE_NEWNET,   CLONE_NEWPID,
                                             CLONE_NEWIPC,  CLONE_NEWUTS, CLONE_NEWCGROUP};

Result<void> add_rules(Filter& f, const SeccompOptions& options) {
  DENY(f, ptrace);
  DENY(f, process_vm_readv);
  DENY(f, process_vm_writev);
  DENY(f, pidfd_getfd);
  DENY(f, io_uring_setup);
  DENY(f, io_uring_enter);
  DENY(f, io_uring_register);
  DENY(f, bpf);
  DENY(f, perf_event_open);
  DENY(f, userfaultfd);
  DENY(f, keyctl);
  DENY(f, add_key);
  DENY(f, request_key);
  DENY(f, kexec_load);
  DENY(f, kexec_file_load);
  DENY(f, init_module);
  DENY(f, finit_module);
  DENY(f, delete_module);
  DENY(f, lookup_dcookie);
  DENY(f, mount);
  DENY(f, umount2);
  DENY(f, pivot_root);
  DENY(f, move_mount);
  DENY(f, open_tree);
  DENY(f, fsopen);
  DENY(f, fsconfig);
  DENY(f, fsmount);
  DENY(f, fspick);
  DENY(f, mount_setattr);
  DENY(f, setns);
  DENY(f, open_by_handle_at);
  DENY(f, name_to_handle_at);
  DENY(f, swapon);
  DENY(f, swapoff);
  DENY(f, reboot);
  DENY(f, acct);
  DENY(f, quotactl);
  DENY(f, quotactl_fd);

  for (uint64_t flag : kCloneNamespaceFlags) {
    TRY(f.deny(SCMP_SYS(unshare), "unshare", {SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag)}));
    TRY(f.deny(SCMP_SYS(clone), "clone", {SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag)}));
  }
  TRY(f.deny(SCMP_SYS(unshare), "unshare", {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_NEWTIME, CLONE_NEWTIME)}));
  TRY(f.add(SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), "clone3"));

  // The ioctl request is an unsigned int: compare the low 32 bits only.
  TRY(f.deny(SCMP_SYS(ioctl), "ioctl", {SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, TIOCSTI)}));
  TRY(f.deny(SCMP_SYS(ioctl), "ioctl", {SCMP_A1(SCMP_CMP_MASKED_EQ, 0xFFFFFFFFu, TIOCLINUX)}));

  if (options.own_network_namespace) {
    TRY(f.deny(SCMP_SYS(socket), "socket", {SCMP_A0(SCMP_CMP_EQ, AF_VSOCK)}));
    TRY(f.deny(SCMP_SYS(socketpair), "socketpair", {SCMP_A0(SCMP_CMP_EQ, AF_VSOCK)}));
  } else {
    TRY(f.deny(SCMP_SYS(socket), "socket", {SCMP_A0(SCMP_CMP_NE, AF_UNIX)}));
    TRY(f.deny(SCMP_SYS(socketpair), "socketpair", {SCMP_A0(SCMP_CMP_NE, AF_UNIX)}));
  }
  return {};
}

#undef DENY

}  // namespace

Result<std::string> build_seccomp_bpf(const SeccompOptions& options) {
  Filter f;
  if (f.get() == nullptr) return Error::internal("seccomp_init failed");
  // Only the native architecture is in the filter; every other ABI is killed outright.
  int rc = seccomp_attr_set(f.get(), SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
  if (rc < 0) return Error::from_errno("seccomp bad-arch action", -rc);
  TRY(add_rules(f, options));

  sys::UniqueFd memfd = TRY(sys::create_memfd("clawexec-seccomp"));
  rc = seccomp_export_bpf(f.get(), memfd.get());
  if (rc < 0) return Error::from_errno("seccomp_export_bpf", -rc);
  TRY(sys::seek_to_start(memfd.get(), "seccomp program"));
  constexpr size_t kMaxProgram = 1 << 20;
  std::string program = TRY(sys::read_fd_at_most(memfd.get(), kMaxProgram, "seccomp program"));
  if (program.empty() || program.size() > kMaxProgram || program.size() % 8 != 0) {
    return Error::internal("seccomp program: unexpected size " + std::to_string(program.size()));
  }
  return program;
}

}  // namespace clawexec::sandbox
