#pragma once
// The authorization plan (reference spec §3.3–3.6): whether a command line is analyzable at
// all, and if so the chain groups of candidate commands that must each be authorized, with
// how far each may be trusted (prompt-only / exact-command / executable) and whether an
// allow-always grant may be derived from it.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "policy/explain.h"

namespace clawexec::policy {

enum class TrustMode { kPromptOnly, kExactCommand, kExecutable };
std::string_view to_string(TrustMode mode);

struct Candidate {
  Argv argv;
  size_t step_id = 0;      // the explained step (for a positional carrier: the wrapper step)
  std::string raw_text;    // the step's text in the original line
  ByteSpan span;
  ByteSpan executable_span;
  std::vector<ByteSpan> argument_spans;  // of argv[1..] (empty for synthetic candidates)
  bool shell_wrapper_transport = false;  // promoted from a wrapper payload
  bool synthetic = false;                // carried by `sh -c '$0 "$@"' cmd ...`
  size_t wrapper_step_id = 0;            // the wrapper step, for shell-wrapper transports
  std::string inline_command;            // the wrapper payload, for shell-wrapper transports
  TrustMode trust_mode = TrustMode::kExecutable;
  bool allow_always = true;
  bool inline_eval = false;  // an inline-eval risk sits in this step
  std::vector<std::string> reasons;
};

struct ChainGroup {
  std::vector<Candidate> candidates;  // a pipeline (one element: a simple command)
  std::string op_to_next;             // "&&", "||", ";", "&" or "" for the last group
};

struct AuthorizationPlan {
  bool ok = false;
  std::string reason;  // why not ok
  std::vector<ChainGroup> groups;
  ShellExplanation explanation;

  size_t candidate_count() const;
  std::vector<const Candidate*> candidates() const;
};

/// Plans the authorization of a POSIX shell command line, read as `dialect` reads it. Pure.
AuthorizationPlan plan_shell_authorization(std::string_view command,
                                           shell::ShellDialect dialect = shell::ShellDialect::kBash);

/// The unanalyzable risk kinds of §3.3 (command-substitution, redirect, heredoc, ...).
bool is_unanalyzable_risk(std::string_view kind);

/// True for `sh -c payload`-style argv whose inline command is bindable (no login or
/// interactive startup first; see extract_bindable_shell_wrapper_inline_command).
bool is_bindable_shell_wrapper(const Argv& argv);

}  // namespace clawexec::policy
