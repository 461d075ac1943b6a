// Sandbox runtime at startup.
//
// The probe (bubblewrap present and able to create user and network namespaces, Landlock,
// seccomp) runs only when some session can be sandboxed, so a server with sandboxing off pays
// nothing. What it finds missing becomes the runtime's `unavailable` text, which names the
// missing piece and the fix: the exec pipeline fails closed with it rather than running a
// sandboxed session on the host.

#include "daemon/sandbox_setup.h"

#include "sandbox/probe.h"
#include "sandbox/seccomp_filter.h"
#include "sys/sys.h"

namespace clawexec::daemon {
namespace {

std::string unavailable_reason(const sandbox::SandboxProbe& probe) {
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

}  // namespace

Result<std::shared_ptr<const exec::SandboxRuntime>> load_sandbox_runtime(const json::Value& document,
                                                                         const std::string& agent_id,
                                                                         const std::string& state_dir,
                                                                         const std::string& home_dir,
                                                                         std::vector<std::string>& warnings) {
  if (!document.is_object()) return std::shared_ptr<const exec::SandboxRuntime>();
  config::SandboxSettings settings = TRY(config::read_sandbox_settings(
      document.get_object(), agent_id, home_dir, [](const std::string& p) { return sys::canonicalize_existing_prefix(p); }));
  for (const std::string& w : settings.warnings) warnings.push_back(w);
  if (settings.mode == config::SandboxMode::kOff) return std::shared_ptr<const exec::SandboxRuntime>();
  auto runtime = std::make_shared<exec::SandboxRuntime>();
  runtime->root = settings.workspace_root.empty() ? state_dir + "/sandboxes" : settings.workspace_root;
  runtime->settings = std::move(settings);
  sandbox::SandboxProbe probe = sandbox::probe_sandbox_support();
  runtime->bwrap_path = probe.bwrap_path;
  runtime->unavailable = unavailable_reason(probe);
  Result<std::string> program = sandbox::build_seccomp_bpf({.own_network_namespace = true});
  if (!program.ok() && runtime->unavailable.empty()) {
    runtime->unavailable = "the seccomp filter could not be built: " + program.error().message;
  }
  if (program.ok()) runtime->seccomp_program = std::move(program).value();
  return std::shared_ptr<const exec::SandboxRuntime>(std::move(runtime));
}

}  // namespace clawexec::daemon
