// Package-manager exec forms.
//
// Problem: "pnpm exec tsx run.ts" runs tsx, so an allowlisted pnpm must not authorize it and an
// allowlisted tsx should. Each tool has its own global options (some taking values), exec
// subcommands and shorthands (pnpm runs unknown subcommands as binaries; yarn falls back to
// scripts and bins), and anything we cannot parse with certainty must fail closed.
//
// Approach: a shared option scanner parameterised by each tool's option tables (values from
// the reference), the per-tool unwrap rules, and a classification of what remains into
// not-exec or unsafe-exec.

#include "policy/package_manager.h"

#include <algorithm>
#include <initializer_list>
#include <string_view>

#include "base/utf.h"
#include "policy/shell_wrapper_policy.h"
#include "shell/executable.h"

namespace clawexec::policy {
namespace {

using Names = std::initializer_list<std::string_view>;

bool contains(Names names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

struct OptionTable {
  Names with_value;
  Names flags;
  Names case_sensitive_with_value = {};
  Names context_with_value = {};
  Names context_case_sensitive_with_value = {};
  Names context_flags = {};
};

// ---- option tables (the reference's lists) ----
const OptionTable kNpmDirect{{"--cache", "--loglevel", "--package", "--prefix", "--script-shell",
                              "--userconfig", "--workspace", "-p", "-w"},
                             {"--no", "--quiet", "--ws", "--workspaces", "--yes", "-q", "-y"}};
const OptionTable kNpm{kNpmDirect.with_value,
                       kNpmDirect.flags,
                       {"-C"},
                       {"--cache", "--package", "--prefix", "--script-shell", "--userconfig",
                        "--workspace", "-p", "-w"},
                       {"-C"},
                       {"--ws", "--workspaces"}};
const OptionTable kPnpm{{"--config", "--dir", "--filter", "--reporter", "--stream",
                         "--test-pattern", "--workspace-concurrency", "--allow-build",
                         "--package", "-p"},
                        {"--aggregate-output", "--color", "--parallel", "--recursive", "--silent",
                         "--workspace-root", "-r", "-s", "-w"},
                        {"-C"},
                        {"--allow-build", "--config", "--dir", "--filter", "--package", "-p"},
                        {"-C"},
                        {"--recursive", "--workspace-root", "-r", "-w"}};
const OptionTable kPnpmDlx{kPnpm.with_value, kPnpm.flags};
const OptionTable kYarnGlobal{{"--cwd"}, {"--immutable", "--silent", "-s"}};
const OptionTable kYarnExec{{"--cwd", "--package", "-p"},
                            {"--immutable", "--silent", "-s", "--quiet", "-q"},
                            {},
                            {"--cwd"}};
const OptionTable kYarnDlx{{"--package", "-p"}, {"--quiet", "-q"}, {}, {"--package", "-p"}};

const Names kNpmExecSubcommands = {"exec", "x"};
const Names kPnpmExecSubcommands = {"exec", "dlx", "node"};
const Names kPnpmScriptRunSubcommands = {"restart", "run", "start", "stop", "test"};
const Names kPnpmNonExecSubcommands = {
    "add",      "audit",  "bin",    "config", "dedupe", "deploy",  "help",    "import", "init",
    "install",  "licenses", "link", "list",   "outdated", "patch", "prune",   "publish",
    "rebuild",  "remove", "root",   "server", "store",  "unlink",  "update",  "view",   "why"};
const Names kYarnExecSubcommands = {"exec", "dlx"};
const Names kYarnNonExecSubcommands = {
    "add",     "audit",   "autoclean", "bin",     "cache",    "check",   "config",
    "create",  "dedupe",  "generate-lock-entry",  "global",   "help",    "import",
    "info",    "init",    "install",   "licenses", "link",    "list",    "login",
    "logout",  "outdated", "owner",    "pack",    "policies", "prune",   "publish",
    "remove",  "self-update", "tag",   "team",    "unlink",   "upgrade", "upgrade-interactive",
    "version", "versions", "why",      "workspace"};

enum class Terminator { kSkip, kStop, kReject };

std::string_view option_name(std::string_view token) { return token.substr(0, token.find('=')); }
bool has_equals(std::string_view token) { return token.find('=') != std::string_view::npos; }

// Tokens a known global option takes (with its value unless written "--opt=value"); 0 when the
// option is not in the table.
size_t known_option_width(std::string_view token, const OptionTable& t) {
  std::string_view name = option_name(token);
  std::string flag = shell::trim_lower(name);
  if (contains(t.case_sensitive_with_value, name) || contains(t.with_value, flag)) {
    return has_equals(token) ? 1 : 2;
  }
  return contains(t.flags, flag) ? 1 : 0;
}

// findFirstNonOptionIndex: index of the first positional token after known options.
std::optional<size_t> first_non_option(const Argv& argv, size_t start, const OptionTable& t,
                                       Terminator terminator = Terminator::kSkip) {
  size_t i = start;
  while (i < argv.size()) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) {
      ++i;
      continue;
    }
    if (token == "--") {
      if (terminator == Terminator::kReject) return std::nullopt;
      if (terminator == Terminator::kStop)
        return i + 1 < argv.size() ? std::optional<size_t>(i + 1) : std::nullopt;
      ++i;
      continue;
    }
    if (token[0] != '-') return i;
    size_t width = known_option_width(token, t);
    if (width == 0) return std::nullopt;
    i += width;
  }
  return std::nullopt;
}

enum class ContextScope { kLeading, kBeforeTerminator };

bool has_context_option(const Argv& argv, size_t start, const OptionTable& t,
                        ContextScope scope = ContextScope::kLeading) {
  size_t i = start;
  while (i < argv.size()) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) {
      ++i;
      continue;
    }
    if (token == "--") {
      if (scope == ContextScope::kBeforeTerminator) return false;
      ++i;
      continue;
    }
    if (token[0] != '-') {
      if (scope == ContextScope::kLeading) return false;
      ++i;
      continue;
    }
    std::string_view name = option_name(token);
    std::string flag = shell::trim_lower(name);
    if (contains(t.context_case_sensitive_with_value, name) ||
        contains(t.context_with_value, flag) || contains(t.context_flags, flag)) {
      return true;
    }
    size_t width = known_option_width(token, t);
    if (width == 0) {  // an option the table does not know
      if (scope == ContextScope::kLeading) return false;
      width = 1;
    }
    i += width;
  }
  return false;
}

std::string package_manager_name(const Argv& argv) {
  std::string name = normalize_executable_token(argv.empty() ? "" : argv[0]);
  for (std::string_view ext : {".cjs", ".mjs", ".js"}) {  // `npm-cli.js` style launchers
    if (name.size() >= ext.size() && name.compare(name.size() - ext.size(), ext.size(), ext) == 0) {
      name.resize(name.size() - ext.size());
      break;
    }
  }
  return name;
}

Argv tail_from(const Argv& argv, size_t index) {
  if (index >= argv.size()) return {};
  return Argv(argv.begin() + static_cast<std::ptrdiff_t>(index), argv.end());
}

// A tail with one leading "--" removed.
Argv without_leading_terminator(Argv tail) {
  if (!tail.empty() && tail[0] == "--") tail.erase(tail.begin());
  return tail;
}

std::optional<Argv> non_empty(Argv argv) {
  if (argv.empty()) return std::nullopt;
  return argv;
}

std::optional<Argv> unwrap_npm(const Argv& argv) {
  std::optional<size_t> idx = first_non_option(argv, 1, kNpm, Terminator::kReject);
  if (!idx || !contains(kNpmExecSubcommands, js_trim(argv[*idx]))) return std::nullopt;
  Argv tail = tail_from(argv, *idx + 1);
  if (!tail.empty() && tail[0] == "--") return non_empty(without_leading_terminator(tail));
  std::optional<size_t> inner = first_non_option(argv, *idx + 1, kNpmDirect, Terminator::kReject);
  if (!inner) return std::nullopt;
  return tail_from(argv, *inner);
}

std::optional<Argv> unwrap_pnpm(const Argv& argv) {
  std::optional<size_t> idx = first_non_option(argv, 1, kPnpm);
  if (!idx) return std::nullopt;
  std::string_view token = js_trim(argv[*idx]);
  if (token == "exec") {
    Argv tail = without_leading_terminator(tail_from(argv, *idx + 1));
    std::string first = tail.empty() ? "" : shell::trim_lower(option_name(tail[0]));
    if (first == "-c" || first == "--shell-mode") return std::nullopt;
    return non_empty(std::move(tail));
  }
  if (token == "dlx") {
    std::optional<size_t> inner = first_non_option(argv, *idx + 1, kPnpmDlx, Terminator::kStop);
    if (!inner) return std::nullopt;
    return tail_from(argv, *inner);
  }
  if (token == "node") {
    Argv out{"node"};
    Argv tail = without_leading_terminator(tail_from(argv, *idx + 1));
    out.insert(out.end(), tail.begin(), tail.end());
    return out;
  }
  return std::nullopt;
}

std::optional<Argv> unwrap_yarn(const Argv& argv) {
  std::optional<size_t> idx = first_non_option(argv, 1, kYarnGlobal);
  if (!idx) return std::nullopt;
  std::string_view token = js_trim(argv[*idx]);
  if (token == "exec") return non_empty(without_leading_terminator(tail_from(argv, *idx + 1)));
  if (token == "dlx") {
    std::optional<size_t> inner = first_non_option(argv, *idx + 1, kYarnDlx, Terminator::kStop);
    if (!inner) return std::nullopt;
    return tail_from(argv, *inner);
  }
  return std::nullopt;
}

std::optional<std::string> first_subcommand(const Argv& argv, const OptionTable& t) {
  std::optional<size_t> idx = first_non_option(argv, 1, t);
  if (!idx) return std::nullopt;
  return shell::trim_lower(argv[*idx]);
}

bool mentions_subcommand(const Argv& argv, Names subcommands) {
  for (size_t i = 1; i < argv.size(); ++i) {
    if (contains(subcommands, shell::trim_lower(argv[i]))) return true;
  }
  return false;
}

PackageManagerExec classify(bool unsafe) {
  return {unsafe ? PackageManagerExecKind::kUnsafeExec : PackageManagerExecKind::kNotExec, {}};
}

}  // namespace

PackageManagerExec resolve_known_package_manager_exec_invocation(const Argv& argv) {
  const std::string name = package_manager_name(argv);
  auto unwrapped = [](Argv inner) {
    return PackageManagerExec{PackageManagerExecKind::kUnwrapped, std::move(inner)};
  };
  if (name == "npm") {
    if (std::optional<Argv> inner = unwrap_npm(argv)) return unwrapped(std::move(*inner));
    std::optional<std::string> sub = first_subcommand(argv, kNpm);
    return classify(sub ? contains(kNpmExecSubcommands, *sub)
                        : mentions_subcommand(argv, kNpmExecSubcommands));
  }
  if (name == "npx" || name == "bunx") {
    std::optional<size_t> inner = first_non_option(argv, 1, kNpmDirect, Terminator::kReject);
    if (inner) return unwrapped(tail_from(argv, *inner));
    return classify(true);
  }
  if (name == "pnpm") {
    if (std::optional<Argv> inner = unwrap_pnpm(argv)) return unwrapped(std::move(*inner));
    std::optional<std::string> sub = first_subcommand(argv, kPnpm);
    if (!sub) return classify(mentions_subcommand(argv, kPnpmExecSubcommands));
    return classify(contains(kPnpmExecSubcommands, *sub) ||
                    (!contains(kPnpmScriptRunSubcommands, *sub) &&
                     !contains(kPnpmNonExecSubcommands, *sub)));
  }
  if (name == "yarn") {
    if (std::optional<Argv> inner = unwrap_yarn(argv)) return unwrapped(std::move(*inner));
    std::optional<std::string> sub = first_subcommand(argv, kYarnExec);
    if (!sub) return classify(mentions_subcommand(argv, kYarnExecSubcommands));
    return classify(contains(kYarnExecSubcommands, *sub) || *sub == "run" ||
                    !contains(kYarnNonExecSubcommands, *sub));
  }
  return {};
}

bool has_known_package_manager_exec_context_options(const Argv& argv) {
  const std::string name = package_manager_name(argv);
  if (name == "npm") {
    if (has_context_option(argv, 1, kNpm)) return true;
    std::optional<size_t> sub = first_non_option(argv, 1, kNpm);
    return sub && contains(kNpmExecSubcommands, argv[*sub]) &&
           has_context_option(argv, *sub + 1, kNpm, ContextScope::kBeforeTerminator);
  }
  if (name == "npx" || name == "bunx") return has_context_option(argv, 1, kNpm);
  if (name == "pnpm") {
    if (has_context_option(argv, 1, kPnpm)) return true;
    std::optional<size_t> sub = first_non_option(argv, 1, kPnpm);
    return sub && argv[*sub] == "dlx" && has_context_option(argv, *sub + 1, kPnpm);
  }
  if (name == "yarn") {
    if (has_context_option(argv, 1, kYarnExec)) return true;
    std::optional<size_t> sub = first_non_option(argv, 1, kYarnExec);
    return sub && argv[*sub] == "dlx" && has_context_option(argv, *sub + 1, kYarnDlx);
  }
  return false;
}

PackageManagerTarget resolve_package_manager_trust_target(const Argv& argv, ContextOptions context) {
  Argv current = argv;
  bool saw_exec = false;
  for (int depth = 0; depth < kMaxPackageManagerExecDepth; ++depth) {
    DispatchWrapperTrustPlan dispatch = resolve_dispatch_wrapper_trust_plan(current);
    if (dispatch.policy_blocked) return {PackageManagerTargetKind::kBlocked, {}};
    current = std::move(dispatch.argv);
    PackageManagerExec exec = resolve_known_package_manager_exec_invocation(current);
    if (exec.kind == PackageManagerExecKind::kUnwrapped && context == ContextOptions::kBlock &&
        has_known_package_manager_exec_context_options(current)) {
      return {PackageManagerTargetKind::kBlocked, {}};
    }
    if (exec.kind == PackageManagerExecKind::kUnsafeExec) return {PackageManagerTargetKind::kBlocked, {}};
    if (exec.kind != PackageManagerExecKind::kUnwrapped) {
      return {saw_exec ? PackageManagerTargetKind::kPackageManager
                       : PackageManagerTargetKind::kNotPackageManager,
              std::move(current)};
    }
    saw_exec = true;
    current = std::move(exec.inner_argv);
  }
  return {PackageManagerTargetKind::kBlocked, {}};
}

std::optional<Argv> resolve_package_manager_allowlist_target(const Argv& argv, ContextOptions context) {
  PackageManagerTarget target = resolve_package_manager_trust_target(argv, context);
  if (target.kind == PackageManagerTargetKind::kBlocked) return std::nullopt;
  if (target.kind == PackageManagerTargetKind::kNotPackageManager) return Argv{};
  ExecWrapperTrustPlan plan = resolve_exec_wrapper_trust_plan(target.argv);
  if (plan.policy_blocked || (plan.shell_wrapper_executable && plan.shell_inline_command))
    return std::nullopt;
  return plan.argv;
}

}  // namespace clawexec::policy
