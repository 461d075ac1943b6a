#pragma once
// Where a command runs (reference §4.1 and §1.4 step 6). Pure: the configured host, the
// per-call request and the sandbox facts go in; the selected and effective host, or the
// reference's error text, come out.

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "config/exec_settings.h"
#include "json/json.h"

namespace clawexec::exec {

using ExecHost = config::ExecHost;

inline std::string_view host_name(ExecHost host) { return config::to_string(host); }
std::optional<ExecHost> parse_host(std::string_view name);  // exact lower-case names

/// The per-call `host` parameter: absent/blank = no request; an unknown value
/// is an error ("Invalid exec host ..."). Matching is case-insensitive and trims.
Result<std::optional<ExecHost>> parse_requested_host(const std::optional<std::string>& raw);
/// The reference's text for an unknown host string `raw`: `Invalid exec host "<raw>". Allowed
/// values: auto, sandbox, gateway, node.`
std::string invalid_host_text(std::string_view raw);

struct TargetInput {
  ExecHost configured = ExecHost::kAuto;
  std::optional<ExecHost> requested;  // kAuto counts as no request
  bool elevated_requested = false;
  bool sandbox_available = false;
  bool sandbox_required = false;
};

struct Target {
  ExecHost selected;   // may be kAuto
  ExecHost effective;  // kSandbox, kGateway or kNode
};

Result<Target> resolve_exec_target(const TargetInput& input);

}  // namespace clawexec::exec
