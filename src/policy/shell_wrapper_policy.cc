// Wrapper classification and shell-wrapper payloads for the policy.
//
// Problem: the allowlist must judge the program that really runs, so wrappers that only adjust
// scheduling (nice, nohup, timeout, ...) are looked through, while wrappers that change what
// runs or where (sudo, chroot, env with assignments, time -o) must block a match entirely. For
// shells the policy further needs the inline command and whether an approval may bind to it
// (a login or interactive shell runs startup files first, so its payload is not the whole
// story).
//
// Approach: one-level unwrapping reuses the exec tool's dispatch-wrapper and multiplexer code
// (src/shell, same Linux semantics) and adds the wrapper's name; this file layers the policy's
// transparency rules, the "shell candidate" walk (at most four wrappers deep) and the
// bindability rules on top.

#include "policy/shell_wrapper_policy.h"

#include <algorithm>

#include "base/utf.h"
#include "policy/shell_wrapper_policy_internal.h"
#include "shell/carriers.h"
#include "shell/dispatch_wrappers.h"
#include "shell/executable.h"
#include "shell/shell_wrappers.h"
#include "shell/word.h"

namespace clawexec::policy {
namespace {

constexpr int kMaxClassificationDepth = 4;

enum class Family { kNone, kPosix, kCmd, kPowerShell };

Family family_of(std::string_view base) {
  if (base == "cmd") return Family::kCmd;
  if (base == "powershell" || base == "pwsh") return Family::kPowerShell;
  return shell::is_shell_wrapper_executable(base) ? Family::kPosix : Family::kNone;
}

bool is_opaque_startup_shell(std::string_view base) {
  return base == "csh" || base == "osh" || base == "tcsh";
}

WrapperUnwrap from_shell(const shell::DispatchUnwrap& u, const Argv& argv) {
  WrapperUnwrap out;
  if (u.kind == shell::DispatchKind::kNotWrapper) return out;
  out.wrapper = normalize_executable_token(js_trim(argv[0]));
  out.kind = u.kind == shell::DispatchKind::kBlocked ? UnwrapKind::kBlocked : UnwrapKind::kUnwrapped;
  if (out.kind == UnwrapKind::kUnwrapped) out.argv = u.argv;
  return out;
}

// time -o FILE / --output FILE writes a file: not a transparent use of time.
bool time_writes_output_file(const Argv& argv) {
  bool expects_value = false;
  for (size_t i = 1; i < argv.size(); ++i) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) continue;
    if (expects_value) {
      expects_value = false;
      continue;
    }
    if (token == "--" || token[0] != '-' || token == "-") return false;
    std::string lower = shell::trim_lower(token);
    std::string flag = lower.substr(0, lower.find('='));
    if (flag == "-o" || flag == "--output") return true;
    if ((flag == "-f" || flag == "--format") && lower.find('=') == std::string::npos)
      expects_value = true;
  }
  return false;
}

// A use of an unwrappable wrapper that changes what the command does.
bool is_semantic_dispatch_use(std::string_view wrapper, const Argv& argv) {
  if (wrapper == "env") return env_invocation_uses_modifiers(argv);
  if (wrapper == "time") return time_writes_output_file(argv);
  return wrapper == "script" || wrapper == "arch" || wrapper == "xcrun";
}

struct ShellCandidate {
  Argv argv;
  bool env_manipulated = false;  // an env with modifiers was unwrapped on the way
};

// resolveShellWrapperCandidate: the argv behind dispatch wrappers and multiplexers; nullopt
// when one of them is blocked or the chain is deeper than four.
std::optional<ShellCandidate> shell_candidate(const Argv& argv) {
  ShellCandidate c{argv, false};
  for (int depth = 0; depth <= kMaxClassificationDepth; ++depth) {
    if (c.argv.empty() || js_trim(c.argv[0]).empty()) return std::nullopt;
    WrapperUnwrap d = unwrap_known_dispatch_wrapper(c.argv);
    if (d.kind == UnwrapKind::kBlocked) return std::nullopt;
    if (d.kind == UnwrapKind::kUnwrapped) {
      if (d.wrapper == "env" && env_invocation_uses_modifiers(c.argv)) c.env_manipulated = true;
      c.argv = std::move(d.argv);
      continue;
    }
    WrapperUnwrap m = unwrap_known_shell_multiplexer(c.argv);
    if (m.kind == UnwrapKind::kBlocked) return std::nullopt;
    if (m.kind == UnwrapKind::kUnwrapped) {
      c.argv = std::move(m.argv);
      continue;
    }
    return c;
  }
  return std::nullopt;
}

std::optional<std::string> payload_of(const Argv& shell_argv) {
  std::string base = normalize_executable_token(js_trim(shell_argv[0]));
  switch (family_of(base)) {
    case Family::kNone:
      return std::nullopt;
    case Family::kCmd:
      return shell::cmd_inline_command(shell_argv);
    case Family::kPowerShell:
      return resolve_powershell_inline_command_match(shell_argv).command;
    case Family::kPosix:
      if (is_opaque_startup_shell(base)) return std::nullopt;
      if (base == "nu") return shell::nushell_inline_command(shell_argv);
      return resolve_posix_inline_command_match(shell_argv, CombinedFlags::kAllowCombinedC).command;
  }
  return std::nullopt;
}

struct ResolvedShellWrapper {
  Argv argv;
  std::string payload;
  bool env_manipulated = false;
};

std::optional<ResolvedShellWrapper> resolve_shell_wrapper(const Argv& argv) {
  std::optional<ShellCandidate> c = shell_candidate(argv);
  if (!c) return std::nullopt;
  std::optional<std::string> payload = payload_of(c->argv);
  if (!payload) return std::nullopt;
  return ResolvedShellWrapper{std::move(c->argv), std::move(*payload), c->env_manipulated};
}

// startupWrapperRequiresFullArgv for POSIX-family shells.
bool startup_blocks_binding(const Argv& argv, std::string_view base, bool legacy_sh_lc_allowed) {
  if (base == "fish" && detail::has_fish_init_command_option(argv)) return true;
  if (base == "nu") return detail::has_nushell_login_or_interactive_startup(argv);
  if (has_posix_login_startup_before_inline_command(argv)) {
    bool legacy_form = base == "sh" && argv.size() > 1 && js_trim(argv[1]) == "-lc";
    return !(legacy_form && legacy_sh_lc_allowed);
  }
  return has_posix_interactive_startup_before_inline_command(argv);
}

}  // namespace

std::string normalize_executable_token(std::string_view token) {
  return shell::normalize_executable_token(token);
}

bool is_dispatch_wrapper_executable(std::string_view token) {
  // Every known dispatch wrapper either unwraps or blocks; alone on a line none can unwrap.
  return shell::unwrap_dispatch_wrapper(Argv{std::string(token)}).kind !=
         shell::DispatchKind::kNotWrapper;
}

bool is_shell_wrapper_executable(std::string_view token) {
  return shell::is_shell_wrapper_executable(token);
}

bool is_posix_shell_executable(std::string_view token) {
  return family_of(normalize_executable_token(token)) == Family::kPosix;
}

WrapperUnwrap unwrap_known_dispatch_wrapper(const Argv& argv) {
  if (argv.empty() || js_trim(argv[0]).empty()) return {};
  return from_shell(shell::unwrap_dispatch_wrapper(argv), argv);
}

WrapperUnwrap unwrap_known_shell_multiplexer(const Argv& argv) {
  if (argv.empty() || js_trim(argv[0]).empty()) return {};
  return from_shell(shell::unwrap_shell_multiplexer(argv), argv);
}

std::optional<Argv> unwrap_env_invocation(const Argv& argv) {
  return shell::resolve_env_carried_argv(argv, 0);
}

bool env_invocation_uses_modifiers(const Argv& argv) {
  std::optional<shell::EnvPrelude> prelude = shell::parse_env_prelude(argv, 0);
  if (prelude) return prelude->uses_modifiers;
  return !argv.empty() && normalize_executable_token(argv[0]) == "env";
}

DispatchWrapperTrustPlan resolve_dispatch_wrapper_trust_plan(const Argv& argv, int max_depth) {
  DispatchWrapperTrustPlan plan;
  plan.argv = argv;
  auto block = [&](const std::string& wrapper) {
    plan.policy_blocked = true;
    plan.blocked_wrapper = wrapper;
    return plan;
  };
  for (int depth = 0; depth < max_depth; ++depth) {
    WrapperUnwrap u = unwrap_known_dispatch_wrapper(plan.argv);
    if (u.kind == UnwrapKind::kBlocked) return block(u.wrapper);
    if (u.kind != UnwrapKind::kUnwrapped || u.argv.empty()) break;
    plan.wrappers.push_back(u.wrapper);
    if (is_semantic_dispatch_use(u.wrapper, plan.argv)) return block(u.wrapper);
    plan.argv = std::move(u.argv);
  }
  if (static_cast<int>(plan.wrappers.size()) >= max_depth) {
    WrapperUnwrap overflow = unwrap_known_dispatch_wrapper(plan.argv);
    if (overflow.kind != UnwrapKind::kNotWrapper) return block(overflow.wrapper);
  }
  return plan;
}

bool has_posix_shell_startup_before_inline_command(const Argv& argv) {
  std::optional<ShellCandidate> c = shell_candidate(argv);
  if (!c || !is_posix_shell_executable(js_trim(c->argv[0]))) return false;
  return has_posix_login_startup_before_inline_command(c->argv) ||
         has_posix_interactive_startup_before_inline_command(c->argv);
}

bool is_shell_wrapper_invocation(const Argv& argv) {
  std::optional<ShellCandidate> c = shell_candidate(argv);
  return c && is_shell_wrapper_executable(js_trim(c->argv[0]));
}

std::optional<std::string> extract_shell_wrapper_inline_command(const Argv& argv) {
  std::optional<ResolvedShellWrapper> r = resolve_shell_wrapper(argv);
  if (!r) return std::nullopt;
  return std::move(r->payload);
}

std::optional<Argv> resolve_shell_wrapper_transport_argv(const Argv& argv) {
  std::optional<ResolvedShellWrapper> r = resolve_shell_wrapper(argv);
  if (!r) return std::nullopt;
  return std::move(r->argv);
}

ShellWrapperCommand extract_shell_wrapper_command(const Argv& argv,
                                                  std::optional<std::string_view> raw_command) {
  std::optional<std::string> raw;
  if (raw_command && !js_trim(*raw_command).empty()) raw = std::string(js_trim(*raw_command));
  std::optional<ResolvedShellWrapper> r = resolve_shell_wrapper(argv);
  if (!r) return {};
  std::string base = normalize_executable_token(js_trim(r->argv[0]));
  Family family = family_of(base);
  if (family == Family::kPosix && base == "fish" && detail::has_fish_attached_command_option(r->argv))
    return {true, std::nullopt};
  const bool raw_is_payload = raw && *raw == r->payload;
  const bool raw_is_canonical = raw && *raw == shell::format_exec_command(r->argv);
  if (family == Family::kPosix &&
      startup_blocks_binding(r->argv, base, raw_is_payload || raw_is_canonical)) {
    return {true, std::nullopt};
  }
  if (raw_is_canonical || !raw) return {true, std::move(r->payload)};
  return {true, std::move(*raw)};
}

std::optional<std::string> extract_bindable_shell_wrapper_inline_command(
    const Argv& argv, std::optional<std::string_view> raw_command) {
  return extract_shell_wrapper_command(argv, raw_command).command;
}

bool has_env_manipulation_before_shell_wrapper(const Argv& argv) {
  std::optional<ResolvedShellWrapper> r = resolve_shell_wrapper(argv);
  return r && r->env_manipulated;
}

std::vector<std::string> extract_env_assignment_keys_from_dispatch_wrappers(const Argv& argv,
                                                                            int max_depth) {
  std::vector<std::string> keys;
  Argv current = argv;
  for (int depth = 0; depth < max_depth; ++depth) {
    WrapperUnwrap u = unwrap_known_dispatch_wrapper(current);
    if (u.kind != UnwrapKind::kUnwrapped || u.argv.empty()) break;
    if (u.wrapper == "env") {
      if (std::optional<shell::EnvPrelude> p = shell::parse_env_prelude(current, 0)) {
        keys.insert(keys.end(), p->assignment_keys.begin(), p->assignment_keys.end());
      }
    }
    current = std::move(u.argv);
  }
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace clawexec::policy
