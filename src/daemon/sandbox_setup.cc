// Sandbox runtime at startup.
//
// The probe (bubblewrap present and able to create user and network namespaces, Landlock,
// seccomp) runs on the first call that would be sandboxed, so a server with sandboxing off, or
// a one-shot command on the host, pays nothing. What it finds missing becomes the runtime's
// `unavailable` text, which names the missing piece and the fix: the exec pipeline fails closed
// with it rather than running a sandboxed session on the host.

#include "daemon/sandbox_setup.h"

#include "sandbox/probe.h"
#include "sandbox/seccomp_filter.h"
#include "sys/sys.h"

namespace clawexec::daemon {
namespace {

exec::SandboxFacts probe_machine(bool bridge_network) {
  exec::SandboxFacts facts;
  sandbox::SandboxProbe probe = sandbox::probe_sandbox_support();
  facts.bwrap_path = probe.bwrap_path;
  facts.pasta_path = probe.pasta_path;
  facts.unavailable = sandbox::unavailable_reason(probe);
  if (facts.unavailable.empty() && bridge_network && probe.pasta_path.empty()) {
    facts.unavailable = "docker.network \"bridge\" needs pasta for user-mode networking; install the passt package "
                        "(apt-get install passt), or set docker.network to \"none\".";
  }
  Result<std::string> program = sandbox::build_seccomp_bpf({.own_network_namespace = true});
  if (!program.ok() && facts.unavailable.empty()) {
    facts.unavailable = "the seccomp filter could not be built: " + program.error().message;
  }
  if (program.ok()) facts.seccomp_program = std::move(program).value();
  return facts;
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
  std::string root = config::sandbox_root(settings, state_dir);
  const bool bridge = settings.network == config::SandboxNetwork::kBridge;
  auto runtime = std::make_shared<exec::SandboxRuntime>(std::move(settings), std::move(root),
                                                        [bridge] { return probe_machine(bridge); });
  return std::shared_ptr<const exec::SandboxRuntime>(std::move(runtime));
}

}  // namespace clawexec::daemon
