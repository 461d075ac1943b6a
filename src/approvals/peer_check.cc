// The "decisions come from humans" checks of the operator channel and CLI (peer_check.h),
// built on sys::find_supervising_ancestor.

#include "approvals/peer_check.h"

#include <unistd.h>

#include "sys/process_ancestry.h"

namespace clawexec::approvals {
namespace {

const sys::AncestryOptions& ancestry_options() {
  static const sys::AncestryOptions options{"/proc", sys::this_installation()};
  return options;
}

constexpr const char* kHumansOnly = "approvals must come from a human";

}  // namespace

std::optional<std::string> operator_peer_refusal(int socket_fd) {
  Result<sys::PeerCredentials> cred = sys::peer_credentials(socket_fd);
  if (!cred.ok()) {
    return "operator channel: refusing a peer that cannot be verified (" + cred.error().message + "); " + kHumansOnly;
  }
  const std::string who = "pid " + std::to_string(cred->pid);
  Result<std::optional<sys::UniqueFd>> pidfd = sys::peer_pidfd(socket_fd);
  if (!pidfd.ok()) {
    return "operator channel: refusing a peer that cannot be verified (" + who + ": " + pidfd.error().message +
           "); " + kHumansOnly;
  }
  const sys::UniqueFd* pin = pidfd->has_value() ? &**pidfd : nullptr;
  Result<std::optional<sys::SupervisingAncestor>> found = sys::find_supervising_ancestor(cred->pid, pin, ancestry_options());
  if (!found.ok()) {
    return "operator channel: refusing a peer that cannot be verified (" + who + ": " + found.error().message +
           "); " + kHumansOnly;
  }
  if (found->has_value()) {
    return "operator channel: refusing a peer that runs under a clawexec command (" + who + "); " + kHumansOnly;
  }
  return std::nullopt;
}

std::optional<std::string> supervision_of_this_process() {
  Result<std::optional<sys::SupervisingAncestor>> found =
      sys::find_supervising_ancestor(::getpid(), nullptr, ancestry_options());
  if (!found.ok()) {
    return "this process cannot be verified not to run under a clawexec command (" + found.error().message + ")";
  }
  if (!found->has_value()) return std::nullopt;
  return "this process runs under a clawexec command (supervisor pid " + std::to_string((*found)->pid) + ", " +
         (*found)->executable + ")";
}

}  // namespace clawexec::approvals
