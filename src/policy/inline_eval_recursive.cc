// Recursive inline-eval detection: finding "python -c ..." when it is carried by another
// program (sudo, env -S, command, exec, nice, timeout, ...) or by a shell trampoline that
// only re-executes its positional arguments (sh -c '$0 "$@"' python -c ...).
//
// Problem: the carried argv is not argv[0]'s, so the direct detector misses it; and a
// carrier's own options decide where the carried command starts (sudo -u root, env -S
// 'split string', exec -a name), so guessing would either miss hits or invent them
// (sudo echo python -c is only echo).
//
// Approach: try the direct detector, then the trampoline form (parse the shell's inline
// command; follow it only when it is exactly [exec [--]] $0 followed by "$@" or $N
// references), then one dispatch-wrapper or carrier step using the shell module's unwrappers,
// recursing on what they carry. A set of argv already visited stops loops. The strict
// variant uses the same walk with the code-carrying rules added to the direct step, and also
// looks through package-manager exec layers (npx tsx -e ..., pnpm exec python3 -).

#include <set>
#include <string>

#include "base/utf.h"
#include "policy/code_carrying.h"
#include "policy/inline_eval.h"
#include "policy/package_manager.h"
#include "shell/carriers.h"
#include "shell/dispatch_wrappers.h"
#include "shell/executable.h"

namespace clawexec::policy {
namespace {

using Seen = std::set<std::string, std::less<>>;

// kReference: the reference's rules (§6); kStrict: plus the code-carrying rules.
enum class Rules { kReference, kStrict };

struct Walk {
  Seen seen;
  Rules rules = Rules::kReference;
};

std::optional<InlineEvalHit> detect_internal(const Argv& argv, Walk& walk);

std::string argv_key(const Argv& argv) {
  std::string key;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (i > 0) key += '\0';
    key += argv[i];
  }
  return key;
}

// True when argv was not visited yet (and marks it visited).
bool first_visit(const Argv& argv, Walk& walk) { return walk.seen.insert(argv_key(argv)).second; }

// argv without leading NAME=value words; `storage` holds the copy when one is needed.
const Argv& strip_leading_env_assignments(const Argv& argv, Argv& storage) {
  size_t i = 0;
  while (i < argv.size() && shell::is_env_assignment_token(argv[i])) ++i;
  if (i == 0) return argv;
  storage.assign(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
  return storage;
}

bool is_parseable_posix_shell(std::string_view name) {
  for (std::string_view shell : {"ash", "bash", "dash", "fish", "ksh", "mksh", "sh", "yash", "zsh"}) {
    if (name == shell) return true;
  }
  return false;
}

bool is_ascii_letters(std::string_view s) {
  for (char c : s) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
  }
  return true;
}

size_t count_o_options(std::string_view token) {
  size_t count = 0;
  for (size_t i = 1; i < token.size(); ++i) count += token[i] == 'o' || token[i] == 'O';
  return count;
}

struct InlineCommandMatch {
  std::optional<std::string> command;
  std::optional<size_t> value_token_index;
};

// The POSIX shell inline command (-c, -lc, --command, --commands, --cmdline, or a short
// cluster containing c) and the index of the argv entry holding it.
InlineCommandMatch posix_inline_command(const Argv& argv) {
  auto payload_at = [&argv](size_t index) -> std::optional<std::string> {
    if (index >= argv.size()) return std::nullopt;
    std::string_view value = js_trim(argv[index]);
    if (value.empty()) return std::nullopt;
    return std::string(value);
  };
  size_t i = 1;
  while (i < argv.size()) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) {
      ++i;
      continue;
    }
    if (token == "--") break;
    if (token == "-lc" || token == "-c" || token == "--command" || token == "--commands" ||
        token == "--cmdline") {
      InlineCommandMatch match{payload_at(i + 1), std::nullopt};
      if (i + 1 < argv.size()) match.value_token_index = i + 1;
      return match;
    }
    bool dash_cluster = token.size() >= 2 && token[0] == '-' && token[1] != '-' &&
                        token.substr(1).find('-') == std::string_view::npos;
    size_t c_index = dash_cluster ? token.find('c', 1) : std::string_view::npos;
    if (c_index != std::string_view::npos) {
      std::string_view suffix = token.substr(c_index + 1);
      if (!suffix.empty() && !is_ascii_letters(suffix)) {
        std::string_view attached = js_trim(suffix);
        return {attached.empty() ? std::nullopt : std::optional<std::string>(attached), i};
      }
      size_t value_index = i + 1 + count_o_options(token);
      return {payload_at(value_index), value_index};
    }
    if (token[0] != '-' && token[0] != '+') break;
    bool option_cluster = token.size() >= 2 && token[1] != '-' &&
                          token.substr(1).find('-') == std::string_view::npos;
    size_t values = option_cluster ? count_o_options(token) : 0;
    if (values > 0) {
      i += 1 + values;
    } else if (token == "--init-file" || token == "--rcfile" || token == "-O" || token == "-o" ||
               token == "+O" || token == "+o") {
      i += 2;
    } else {
      i += 1;
    }
  }
  return {};
}

bool is_shell_space(char32_t c) { return c != '\r' && c != '\n' && is_js_whitespace(c); }

// Splits on JavaScript white space other than line breaks; nullopt if a line break occurs.
std::optional<std::vector<std::string_view>> split_payload_words(std::string_view text) {
  std::vector<std::string_view> words;
  size_t offset = 0;
  size_t word_start = std::string_view::npos;
  while (offset < text.size()) {
    char32_t c = 0;
    size_t length = std::max<size_t>(1, decode_utf8(text.substr(offset), c));
    if (c == '\r' || c == '\n') return std::nullopt;
    if (is_shell_space(c)) {
      if (word_start != std::string_view::npos) words.push_back(text.substr(word_start, offset - word_start));
      word_start = std::string_view::npos;
    } else if (word_start == std::string_view::npos) {
      word_start = offset;
    }
    offset += length;
  }
  if (word_start != std::string_view::npos) words.push_back(text.substr(word_start));
  return words;
}

// A positional reference: $N, ${N}, "$N" or "${N}" with N one of 0-9, @, *. Returns the
// character, or 0 when the word is not one.
char positional_reference(std::string_view word) {
  if (word.size() >= 2 && word.front() == '"' && word.back() == '"') {
    word = word.substr(1, word.size() - 2);
  }
  if (word.size() == 2 && word[0] == '$') return word[1];
  if (word.size() == 4 && word[0] == '$' && word[1] == '{' && word[3] == '}') return word[2];
  return 0;
}

bool is_positional_name(char c) { return (c >= '0' && c <= '9') || c == '@' || c == '*'; }

struct PositionalPlan {
  bool all = false;             // "$@": every argument after the payload
  std::vector<size_t> indexes;  // otherwise these positions ($0 first)
};

// [exec [--]] $0 followed only by "$@" / $1-$9 references (quoted or not). "$*" or anything
// else is not followed.
std::optional<PositionalPlan> positional_carrier_plan(std::string_view command) {
  std::optional<std::vector<std::string_view>> words = split_payload_words(js_trim(command));
  if (!words || words->empty()) return std::nullopt;
  size_t i = 0;
  if ((*words)[0] == "exec") {
    i = 1;
    if (i < words->size() && (*words)[i] == "--") ++i;
  }
  if (i >= words->size() || positional_reference((*words)[i]) != '0') return std::nullopt;
  size_t first_reference = i + 1;
  for (size_t j = first_reference; j < words->size(); ++j) {
    char ref = positional_reference((*words)[j]);
    if (!is_positional_name(ref) || ref == '0') return std::nullopt;
  }
  PositionalPlan plan;
  plan.indexes.push_back(0);
  for (size_t j = first_reference; j < words->size(); ++j) {
    char ref = positional_reference((*words)[j]);
    if (ref == '*') return std::nullopt;
    if (ref == '@') {
      plan.all = true;
      return plan;
    }
    plan.indexes.push_back(static_cast<size_t>(ref - '0'));
  }
  return plan;
}

std::optional<InlineEvalHit> detect_trampoline(const Argv& argv, Walk& walk) {
  Argv storage;
  const Argv& executable_argv = strip_leading_env_assignments(argv, storage);
  if (executable_argv.empty()) return std::nullopt;
  std::string executable = shell::normalize_executable_token(executable_argv[0]);
  if (!is_parseable_posix_shell(executable)) return std::nullopt;
  if (!first_visit(executable_argv, walk)) return std::nullopt;
  InlineCommandMatch match = posix_inline_command(executable_argv);
  if (!match.value_token_index || !match.command) return std::nullopt;
  std::optional<PositionalPlan> plan = positional_carrier_plan(*match.command);
  if (!plan) return std::nullopt;
  size_t first = *match.value_token_index + 1;
  Argv positional;
  if (first < executable_argv.size()) {
    positional.assign(executable_argv.begin() + static_cast<std::ptrdiff_t>(first),
                      executable_argv.end());
  }
  Argv carried;
  auto add = [&carried](std::string_view token) {
    std::string_view trimmed = js_trim(token);
    if (!trimmed.empty()) carried.emplace_back(trimmed);
  };
  if (plan->all) {
    for (const std::string& token : positional) add(token);
  } else {
    for (size_t index : plan->indexes) add(index < positional.size() ? positional[index] : "");
  }
  if (carried.empty()) return std::nullopt;
  return detect_internal(carried, walk);
}

bool is_carrier_name(std::string_view name) {
  return name == "sudo" || name == "doas" || name == "env" || name == "command" ||
         name == "builtin" || name == "exec";
}

std::optional<InlineEvalHit> detect_through_carrier(const Argv& argv, Walk& walk) {
  Argv storage;
  const Argv& executable_argv = strip_leading_env_assignments(argv, storage);
  if (!first_visit(executable_argv, walk)) return std::nullopt;
  if (!executable_argv.empty()) {
    shell::DispatchUnwrap unwrap = shell::unwrap_dispatch_wrapper(executable_argv);
    if (unwrap.kind == shell::DispatchKind::kUnwrapped) return detect_internal(unwrap.argv, walk);
  }
  if (walk.rules == Rules::kStrict) {
    PackageManagerExec exec = resolve_known_package_manager_exec_invocation(executable_argv);
    if (exec.kind == PackageManagerExecKind::kUnwrapped) return detect_internal(exec.inner_argv, walk);
  }
  std::string name =
      shell::normalize_executable_token(executable_argv.empty() ? "" : executable_argv[0]);
  if (!is_carrier_name(name)) return std::nullopt;
  std::optional<Argv> carried =
      shell::resolve_carrier_argv(executable_argv, shell::ExecCarrier::kInclude);
  if (!carried) return std::nullopt;
  return detect_internal(*carried, walk);
}

std::optional<InlineEvalHit> detect_direct(const Argv& argv, Rules rules) {
  if (auto hit = detect_interpreter_inline_eval_argv(argv)) return hit;
  if (rules == Rules::kStrict) return detect_code_carrying_argv(argv);
  return std::nullopt;
}

std::optional<InlineEvalHit> detect_internal(const Argv& argv, Walk& walk) {
  if (auto hit = detect_direct(argv, walk.rules)) return hit;
  if (auto hit = detect_trampoline(argv, walk)) return hit;
  return detect_through_carrier(argv, walk);
}

}  // namespace

std::optional<InlineEvalHit> detect_inline_eval_argv(const Argv& argv) {
  Walk walk;
  return detect_internal(argv, walk);
}

std::optional<InlineEvalHit> detect_carrier_inline_eval_argv(const Argv& argv) {
  Walk walk;
  return detect_through_carrier(argv, walk);
}

std::optional<InlineEvalHit> detect_strict_inline_eval_argv(const Argv& argv) {
  Walk walk{.rules = Rules::kStrict};
  return detect_internal(argv, walk);
}

}  // namespace clawexec::policy
