// The exec-wrapper trust plan: which argv runs and which argv the allowlist judges.
//
// Problem: "time -p busybox sh -c 'x'" runs sh, but an approval of /usr/bin/busybox must be
// what authorizes it (busybox decides which applet runs), while "nohup nice rg" should be
// judged as rg. Wrappers may nest, so the walk must be bounded and fail closed past the bound.
//
// Approach: alternate the three unwrapping steps (dispatch wrappers via their own trust plan,
// the transparent shell carriers command/builtin/exec, busybox/toybox), freezing the policy
// argv at the first multiplexer, and block when the depth budget is spent on a wrapper.

#include <optional>

#include "base/utf.h"
#include "policy/shell_wrapper_policy.h"
#include "shell/carriers.h"

namespace clawexec::policy {
namespace {

// command -p (default PATH search) cannot be judged against the caller's PATH: blocked.
bool command_uses_default_path(const Argv& argv) {
  if (js_trim(argv[0]) != "command") return false;
  for (size_t i = 1; i < argv.size(); ++i) {
    std::string_view token = js_trim(argv[i]);
    if (token == "--" || token.empty() || token[0] != '-') return false;
    for (size_t k = 1; k < token.size() && token[k] != '-'; ++k) {
      if (token[k] == 'p') return true;
    }
  }
  return false;
}

ExecWrapperTrustPlan blocked_plan(Argv argv, Argv policy_argv, std::vector<std::string> chain,
                                  std::string wrapper) {
  ExecWrapperTrustPlan plan;
  plan.argv = std::move(argv);
  plan.policy_argv = std::move(policy_argv);
  plan.wrapper_chain = std::move(chain);
  plan.policy_blocked = true;
  plan.blocked_wrapper = std::move(wrapper);
  return plan;
}

}  // namespace

// unwrapTransparentShellArgvCarrierInvocation: builtin, command and exec (exact tokens).
WrapperUnwrap unwrap_shell_argv_carrier(const Argv& argv) {
  if (argv.empty()) return {};
  std::string token0(js_trim(argv[0]));
  if (token0 != "builtin" && token0 != "command" && token0 != "exec") return {};
  WrapperUnwrap out;
  out.wrapper = token0;
  out.kind = UnwrapKind::kBlocked;
  if (command_uses_default_path(argv)) return out;
  std::optional<Argv> carried = shell::resolve_carrier_argv(argv, shell::ExecCarrier::kInclude);
  if (carried && !carried->empty()) {
    out.kind = UnwrapKind::kUnwrapped;
    out.argv = std::move(*carried);
  }
  return out;
}

ExecWrapperTrustPlan resolve_exec_wrapper_trust_plan(const Argv& argv, int max_depth) {
  Argv current = argv;
  Argv policy_argv = argv;
  bool saw_multiplexer = false;
  std::vector<std::string> chain;
  const auto depth_spent = [&] { return static_cast<int>(chain.size()) >= max_depth; };
  for (int depth = 0; depth < max_depth; ++depth) {
    DispatchWrapperTrustPlan dispatch =
        resolve_dispatch_wrapper_trust_plan(current, max_depth - static_cast<int>(chain.size()));
    if (dispatch.policy_blocked) {
      std::string wrapper = dispatch.blocked_wrapper.value_or(current.empty() ? "unknown" : current[0]);
      return blocked_plan(dispatch.argv, dispatch.argv, chain, wrapper);
    }
    if (!dispatch.wrappers.empty()) {
      chain.insert(chain.end(), dispatch.wrappers.begin(), dispatch.wrappers.end());
      current = std::move(dispatch.argv);
      if (!saw_multiplexer) policy_argv = current;
      if (depth_spent()) break;
      continue;
    }
    WrapperUnwrap carrier = unwrap_shell_argv_carrier(current);
    if (carrier.kind == UnwrapKind::kBlocked)
      return blocked_plan(current, policy_argv, chain, carrier.wrapper);
    if (carrier.kind == UnwrapKind::kUnwrapped) {
      chain.push_back(carrier.wrapper);
      current = std::move(carrier.argv);
      if (!saw_multiplexer) policy_argv = current;
      if (depth_spent()) break;
      continue;
    }
    WrapperUnwrap mux = unwrap_known_shell_multiplexer(current);
    if (mux.kind == UnwrapKind::kBlocked) return blocked_plan(current, policy_argv, chain, mux.wrapper);
    if (mux.kind == UnwrapKind::kUnwrapped) {
      chain.push_back(mux.wrapper);
      if (!saw_multiplexer) {
        policy_argv = current;
        saw_multiplexer = true;
      }
      current = std::move(mux.argv);
      if (depth_spent()) break;
      continue;
    }
    break;
  }
  if (depth_spent()) {
    for (const WrapperUnwrap& next :
         {unwrap_known_dispatch_wrapper(current), unwrap_shell_argv_carrier(current),
          unwrap_known_shell_multiplexer(current)}) {
      if (next.kind != UnwrapKind::kNotWrapper)
        return blocked_plan(current, policy_argv, chain, next.wrapper);
    }
  }
  ExecWrapperTrustPlan plan;
  plan.argv = std::move(current);
  plan.policy_argv = std::move(policy_argv);
  plan.wrapper_chain = std::move(chain);
  std::string_view raw = plan.argv.empty() ? std::string_view() : js_trim(plan.argv[0]);
  plan.shell_wrapper_executable = !raw.empty() && is_shell_wrapper_executable(raw);
  if (plan.shell_wrapper_executable)
    plan.shell_inline_command = extract_bindable_shell_wrapper_inline_command(plan.argv);
  return plan;
}

}  // namespace clawexec::policy
