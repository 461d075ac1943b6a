// Pinning a segment's argv for canonical rendering.
//
// Problem: an allowlisted `timeout 1 sleep 3` must run the sleep the allowlist matched, under
// the timeout the text asked for, with exactly the arguments the policy checked - not the
// original text (which a shell may read differently from the analyzer) and not an argv that
// silently lost its wrappers. Anything that cannot be reproduced word for word must not be
// auto-approved.
//
// Approach: start from the step's exact argv (every word's value, known only when no word can
// expand), check that it is the argv the policy evaluated, then walk the wrappers the trust
// plan looks through one level at a time (dispatch wrappers, the command/exec carriers,
// busybox-style multiplexers), pinning each wrapper program to the real path PATH gives it and
// keeping its options verbatim, and finally pin the executable to the real path the
// evaluation resolved (checking that this walk ended at the argv the evaluation unwrapped to,
// so the two can never disagree).

#include "policy/pinned_argv.h"

#include <algorithm>

#include "base/utf.h"
#include "policy/evaluate.h"
#include "policy/shell_wrapper_policy.h"
#include "shell/executable.h"

namespace clawexec::policy {
namespace {

constexpr size_t kMaxPinnedWrappers = 8;

PinnedArgv fail(std::string reason) { return PinnedArgv{std::nullopt, std::move(reason)}; }

bool is_suffix(const Argv& inner, const Argv& outer) {
  return inner.size() <= outer.size() && std::equal(inner.begin(), inner.end(), outer.end() - static_cast<long>(inner.size()));
}

std::optional<std::string> pinned_path(const ExecutableResolution& r) {
  const std::optional<std::string>& path = r.resolved_real_path ? r.resolved_real_path : r.resolved_path;
  if (!path || path->empty() || (*path)[0] != '/') return std::nullopt;
  return path;
}

// The exact argv must be the argv the policy judged (a `[` test keeps its closing bracket).
bool matches_analysis(const Argv& exact, const Argv& analysis) {
  if (!analysis.empty() && shell::trim_lower(analysis[0]) == "[") {
    return exact.size() == analysis.size() + 1 && exact.back() == "]" &&
           std::equal(analysis.begin(), analysis.end(), exact.begin());
  }
  return exact == analysis;
}

void append_range(Argv& out, const Argv& from, size_t begin, size_t end) {
  out.insert(out.end(), from.begin() + static_cast<long>(begin), from.begin() + static_cast<long>(end));
}

}  // namespace

PinnedArgv pin_segment_argv(const ExplainStep& step, const Candidate& candidate, const SegmentEvaluation& segment,
                            const ResolveContext& ctx, shell::ShellDialect dialect) {
  if (candidate.synthetic || candidate.shell_wrapper_transport) return fail("shell quoting required in wrapper payload");
  if (step.has_env_prelude) return fail("env assignment before the command");
  if (!step.exact_argv || step.exact_argv->empty()) return fail("shell expansion in enforced arguments");
  const Argv& exact = *step.exact_argv;
  if (!matches_analysis(exact, candidate.argv)) return fail("analysis argv differs from the shell's argv");
  if (segment.satisfied_by == SatisfiedBy::kSafeBuiltins) {
    Argv out = exact;
    out[0] = shell::trim_lower(exact[0]);  // the builtin the analysis approved, by its own name
    return PinnedArgv{std::move(out), {}};
  }
  if (!segment.resolution || segment.resolution->policy_blocked) return fail("segment execution plan unavailable");

  Argv out;
  Argv current = exact;
  for (size_t level = 0;; ++level) {
    if (level > kMaxPinnedWrappers) return fail("too many wrappers");
    WrapperUnwrap dispatch = unwrap_known_dispatch_wrapper(current);
    WrapperUnwrap mux = dispatch.kind == UnwrapKind::kNotWrapper ? unwrap_known_shell_multiplexer(current) : WrapperUnwrap{};
    if (dispatch.kind == UnwrapKind::kBlocked || mux.kind == UnwrapKind::kBlocked) return fail("segment execution plan unavailable");
    const WrapperUnwrap& wrapper = dispatch.kind == UnwrapKind::kUnwrapped ? dispatch : mux;
    if (wrapper.kind == UnwrapKind::kUnwrapped) {
      if (wrapper.argv.empty() || !is_suffix(wrapper.argv, current)) return fail("wrapper argv mismatch");
      std::optional<std::string> path = pinned_path(resolve_executable(current[0], ctx));
      if (!path) return fail("wrapper " + std::string(js_trim(current[0])) + " not found on PATH");
      out.push_back(*path);
      // A multiplexer's applet is named, not a path: everything after it stays as written.
      bool multiplexer = &wrapper == &mux;
      append_range(out, current, 1, multiplexer ? current.size() : current.size() - wrapper.argv.size());
      if (multiplexer) return PinnedArgv{std::move(out), {}};
      current = wrapper.argv;
      continue;
    }
    // The carriers the trust plan looks through (the same function recognises them).
    WrapperUnwrap carrier = unwrap_shell_argv_carrier(current);
    if (carrier.kind == UnwrapKind::kBlocked) return fail("segment execution plan unavailable");
    if (carrier.kind == UnwrapKind::kUnwrapped) {
      if (carrier.argv.empty() || !is_suffix(carrier.argv, current)) return fail("segment execution plan unavailable");
      size_t options_end = current.size() - carrier.argv.size();
      if (carrier.wrapper == "builtin") return fail("builtin carrier cannot run a program");
      if (carrier.wrapper == "exec") {
        // exec's own options (-a NAME, -c, -l) are bash's; dash would read them as the program.
        if (options_end > 1 && dialect != shell::ShellDialect::kBash) return fail("exec options need bash");
        out.push_back("exec");
        append_range(out, current, 1, options_end);
      }
      // `command` only skips functions and aliases, which a pinned path never is: dropped.
      current = std::move(carrier.argv);
      continue;
    }
    break;
  }
  // The walk must end where the evaluation's own unwrapping ended, at the program it resolved.
  std::optional<std::string> target = pinned_path(segment.resolution->execution);
  if (!target || current != segment.resolution->effective_argv) return fail("segment execution plan unavailable");
  out.push_back(*target);
  append_range(out, current, 1, current.size());
  return PinnedArgv{std::move(out), {}};
}

}  // namespace clawexec::policy
