// Target resolution, following the reference's order of checks: sandbox-required sessions
// first, then whether a per-call request may override the configured host, then elevation,
// then `auto` collapsing to the sandbox when one exists and to the gateway otherwise.

#include "exec/target.h"

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::exec {
namespace {

constexpr std::string_view kAllowedHosts = "Allowed values: auto, sandbox, gateway, node.";

}  // namespace

std::optional<ExecHost> parse_host(std::string_view name) {
  for (ExecHost h : {ExecHost::kAuto, ExecHost::kSandbox, ExecHost::kGateway, ExecHost::kNode}) {
    if (name == host_name(h)) return h;
  }
  return std::nullopt;
}

Result<std::optional<ExecHost>> parse_requested_host(const std::optional<std::string>& raw) {
  if (!raw) return std::optional<ExecHost>();
  std::string_view trimmed = js_trim(*raw);
  if (trimmed.empty()) return std::optional<ExecHost>();
  if (std::optional<ExecHost> h = parse_host(ascii_lower(trimmed))) return h;
  return Error::invalid(invalid_host_text(*raw));
}

std::string invalid_host_text(std::string_view raw) {
  return "Invalid exec host \"" + std::string(raw) + "\". " + std::string(kAllowedHosts);
}

Result<Target> resolve_exec_target(const TargetInput& in) {
  // kAuto as a request means "no request" (kept as a plain value: GCC 12 misjudges optionals here).
  ExecHost requested = in.requested.value_or(ExecHost::kAuto);
  bool has_request = requested != ExecHost::kAuto;
  ExecHost configured = in.configured;
  if (in.sandbox_required) {
    if (!in.sandbox_available) {
      return Error::rejected("This session requires a sandbox, but its sandbox runtime is unavailable.");
    }
    if (in.elevated_requested) {
      return Error::rejected("Elevated execution is unavailable because this session requires a sandbox.");
    }
    configured = ExecHost::kAuto;
    if (requested == ExecHost::kGateway || requested == ExecHost::kNode) {
      return Error::rejected("exec host not allowed (requested " + std::string(host_name(requested)) +
                             "; this session requires a sandbox).");
    }
  }
  if (has_request && requested != configured) {
    bool gateway_or_node = requested == ExecHost::kGateway || requested == ExecHost::kNode;
    bool allowed = configured == ExecHost::kAuto && !(in.sandbox_available && gateway_or_node);
    if (!allowed) {
      std::string r(host_name(requested));
      std::string hint;
      if (configured == ExecHost::kAuto && in.sandbox_available && gateway_or_node) {
        hint = r;
      } else if (requested == ExecHost::kGateway && !in.sandbox_available) {
        hint = "gateway or auto";
      } else {
        hint = r + " or auto";
      }
      return Error::rejected("exec host not allowed (requested " + r + "; configured host is " +
                             std::string(host_name(configured)) + "; set tools.exec.host=" + hint +
                             " to allow this override).");
    }
  }
  ExecHost selected = has_request ? requested : configured;
  if (in.elevated_requested) selected = selected == ExecHost::kNode ? ExecHost::kNode : ExecHost::kGateway;
  ExecHost effective = selected;
  if (effective == ExecHost::kAuto) effective = in.sandbox_available ? ExecHost::kSandbox : ExecHost::kGateway;
  return Target{selected, effective};
}

}  // namespace clawexec::exec
