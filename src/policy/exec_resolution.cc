// Resolving the program of a command.
//
// Problem: the allowlist trusts files, not words, so "rg", "./rg", "~/bin/rg" and
// "nice rg" must all be turned into the file that would run, exactly as execvp would find it
// (first executable regular file on PATH), and into its realpath so a symlink cannot stand in
// for another binary. Wrappers decide which word is the program at all.
//
// Approach: lexical path arithmetic with Node's rules (the reference's), file questions through
// FsView, and the exec-wrapper trust plan for the choice of the program; the policy target is
// resolved separately only when a multiplexer made it differ from the execution target.

#include "policy/exec_resolution.h"

#include "base/strings.h"
#include "base/utf.h"
#include "policy/glob.h"
#include "policy/shell_wrapper_policy.h"
#include "shell/lexical_path.h"

namespace clawexec::policy {
namespace {

bool has_separator(std::string_view s) { return s.find_first_of("/\\") != std::string_view::npos; }

std::string resolved_cwd(const ResolveContext& ctx) {
  return shell::resolve_lexically("/", js_trim(ctx.cwd));
}

bool is_executable(const ResolveContext& ctx, const std::string& path) {
  return ctx.fs != nullptr && ctx.fs->is_executable_file && ctx.fs->is_executable_file(path);
}

std::optional<std::string> real_path(const ResolveContext& ctx, const std::string& path) {
  if (ctx.fs == nullptr || !ctx.fs->realpath) return std::nullopt;
  return ctx.fs->realpath(path);
}

bool has_parent_segment(std::string_view entry) {
  for (std::string_view seg : split(entry, '/')) {
    if (seg == "..") return true;
  }
  return false;
}

std::optional<std::string> search_path(const std::string& name, const ResolveContext& ctx) {
  const std::string cwd = resolved_cwd(ctx);
  const std::string path_env = ctx.path_env.value_or("");
  size_t start = 0;
  while (start <= path_env.size()) {
    size_t end = path_env.find(':', start);
    if (end == std::string::npos) end = path_env.size();
    std::string_view entry = std::string_view(path_env).substr(start, end - start);
    start = end + 1;
    const bool absolute = !entry.empty() && entry[0] == '/';
    std::string candidate;
    if (has_parent_segment(entry)) {  // kept verbatim, as the reference does
      candidate = (absolute ? std::string(entry) : cwd + "/" + std::string(entry)) + "/" + name;
    } else {
      candidate = normalize_posix_path(shell::resolve_lexically(cwd, entry) + "/" + name);
    }
    if (is_executable(ctx, candidate)) return candidate;
  }
  return std::nullopt;
}

// The first word of a command string (parseFirstToken).
std::optional<std::string> first_token(std::string_view command) {
  std::string_view trimmed = js_trim(command);
  if (trimmed.empty()) return std::nullopt;
  char first = trimmed[0];
  if (first == '"' || first == '\'') {
    size_t end = trimmed.find(first, 1);
    if (end != std::string_view::npos && end > 1) return std::string(trimmed.substr(1, end - 1));
    return std::string(trimmed.substr(1));
  }
  size_t end = 0;
  while (end < trimmed.size()) {
    char32_t cp = 0;
    size_t n = decode_utf8(trimmed.substr(end), cp);
    if (n == 0) n = 1;
    if (is_js_whitespace(cp)) break;
    end += n;
  }
  return std::string(trimmed.substr(0, end));
}

}  // namespace

std::optional<std::string> resolve_executable_path_candidate(std::string_view raw,
                                                             const ResolveContext& ctx,
                                                             RequireSeparator require) {
  std::string expanded = expand_home_prefix(raw, ctx.home);
  if (!has_separator(expanded)) {
    if (require == RequireSeparator::kYes) return std::nullopt;
    return expanded;
  }
  if (expanded[0] == '/') return shell::resolve_lexically("/", expanded);
  return shell::resolve_lexically(resolved_cwd(ctx), expanded);
}

std::optional<std::string> resolve_executable_path(std::string_view raw, const ResolveContext& ctx) {
  std::optional<std::string> candidate =
      resolve_executable_path_candidate(raw, ctx, RequireSeparator::kNo);
  if (!candidate || candidate->empty()) return std::nullopt;
  if (has_separator(*candidate)) {
    if (is_executable(ctx, *candidate)) return candidate;
    return std::nullopt;
  }
  return search_path(*candidate, ctx);
}

ExecutableResolution resolve_executable(std::string_view raw, const ResolveContext& ctx) {
  ExecutableResolution r;
  r.raw_executable = std::string(raw);
  r.resolved_path = resolve_executable_path(raw, ctx);
  if (r.resolved_path) {
    r.resolved_real_path = real_path(ctx, *r.resolved_path);
    r.executable_name = std::string(posix_basename(*r.resolved_path));
  } else {
    r.executable_name = r.raw_executable;
  }
  return r;
}

std::optional<CommandResolution> resolve_command_resolution_from_argv(const Argv& argv,
                                                                      const ResolveContext& ctx) {
  ExecWrapperTrustPlan plan = resolve_exec_wrapper_trust_plan(argv);
  std::string_view raw = plan.argv.empty() ? std::string_view() : js_trim(plan.argv[0]);
  if (raw.empty()) return std::nullopt;
  CommandResolution out;
  out.execution = resolve_executable(raw, ctx);
  std::string_view policy_raw =
      plan.policy_argv.empty() ? std::string_view() : js_trim(plan.policy_argv[0]);
  out.policy = policy_raw.empty() ? out.execution : resolve_executable(policy_raw, ctx);
  out.effective_argv = std::move(plan.argv);
  out.wrapper_chain = std::move(plan.wrapper_chain);
  out.policy_blocked = plan.policy_blocked;
  out.blocked_wrapper = std::move(plan.blocked_wrapper);
  return out;
}

std::optional<CommandResolution> resolve_command_resolution(std::string_view command,
                                                            const ResolveContext& ctx) {
  std::optional<std::string> raw = first_token(command);
  if (!raw || raw->empty()) return std::nullopt;
  CommandResolution out;
  out.execution = resolve_executable(*raw, ctx);
  out.policy = out.execution;
  out.effective_argv = {*raw};
  return out;
}

std::optional<std::string> resolve_executable_candidate_path(const ExecutableResolution& r,
                                                             const ResolveContext& ctx) {
  if (r.resolved_path && !r.resolved_path->empty()) return r.resolved_path;
  std::string_view raw = js_trim(r.raw_executable);
  if (raw.empty()) return std::nullopt;
  return resolve_executable_path_candidate(raw, ctx, RequireSeparator::kYes);
}

std::optional<std::string> resolve_executable_trust_path(const ExecutableResolution& r,
                                                         const ResolveContext& ctx) {
  if (r.resolved_real_path && !js_trim(*r.resolved_real_path).empty())
    return std::string(js_trim(*r.resolved_real_path));
  std::optional<std::string> candidate = resolve_executable_candidate_path(r, ctx);
  if (!candidate) return std::nullopt;
  if (std::optional<std::string> real = real_path(ctx, *candidate)) return real;
  return candidate;
}

std::optional<Argv> planned_argv(const CommandResolution* resolution, const Argv& argv) {
  if (resolution != nullptr && resolution->policy_blocked) return std::nullopt;
  const bool use_effective = resolution != nullptr && !resolution->effective_argv.empty();
  Argv out = use_effective ? resolution->effective_argv : argv;
  if (out.empty()) return std::nullopt;
  if (resolution != nullptr) {
    const ExecutableResolution& e = resolution->execution;
    std::string exe;
    if (e.resolved_real_path) {
      exe = std::string(js_trim(*e.resolved_real_path));
    } else if (e.resolved_path) {
      exe = std::string(js_trim(*e.resolved_path));
    }
    if (!exe.empty()) out[0] = exe;
  }
  return out;
}

bool is_safe_executable_value(std::string_view value) {
  std::string_view v = js_trim(value);
  if (v.empty()) return false;
  if (v.find_first_of(std::string_view("\0\r\n;&|`$<>\"'", 12)) != std::string_view::npos)
    return false;
  const bool drive = v.size() >= 3 && ((v[0] >= 'A' && v[0] <= 'Z') || (v[0] >= 'a' && v[0] <= 'z')) &&
                     v[1] == ':' && (v[2] == '\\' || v[2] == '/');
  if (v[0] == '.' || v[0] == '~' || has_separator(v) || drive) return true;
  if (v[0] == '-') return false;
  for (char c : v) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '+' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace clawexec::policy
