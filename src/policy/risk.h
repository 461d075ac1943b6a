#pragma once
// The vocabulary the explainer (explain.h) and the per-step command risks (explain_risks.h)
// share: a byte span of the command text and one risk found in it. Its own header so that
// neither of the two needs the other's.

#include <cstddef>
#include <optional>
#include <string>

namespace clawexec::policy {

/// A byte range [begin, end) in the original command text.
struct ByteSpan {
  size_t begin = 0;
  size_t end = 0;
};

struct Risk {
  std::string kind;  // command-substitution, redirect, dynamic-argument, eval, inline-eval, ...
  std::string text;  // the source text the risk concerns (may be empty)
  ByteSpan span;     // where it is in the original text
  // Kind-specific details (empty when not applicable).
  std::string command;     // normalised executable (dynamic-argument, carriers, inline-eval)
  std::string flag;        // inline-eval / shell-wrapper / carrier flag
  std::string executable;  // shell-wrapper: the shell
  std::string payload;     // shell-wrapper: the inline command
  std::string name;        // function-definition
  std::optional<size_t> argument_index;  // dynamic-argument
  bool expansion = false;                // dynamic-argument: the word holds a parameter, arithmetic or substitution
  std::optional<size_t> step_id;         // the step it was found in, if any
  std::optional<size_t> payload_of;      // found while parsing this wrapper step's payload
};

}  // namespace clawexec::policy
