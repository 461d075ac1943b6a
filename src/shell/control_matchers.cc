// Candidate matchers for the /approve, channel-login and operator-CLI guards.
//
// Problem: each candidate (a command as the guard sees it after carriers and wrappers are
// removed, joined into one string) must be tested exactly as the reference's regular
// expression and argv test do: JavaScript white space, ASCII-only case folding, a word
// boundary after the decision, and package runners in front of openclaw.
//
// Approach: a hand-written matcher for the fixed /approve pattern (it is deterministic: each
// part must consume a maximal run, so no backtracking is needed), and an argv walk for the
// runner forms (shared by the channel-login and operator-CLI matchers).

#include "shell/control_matchers.h"

#include <array>

#include "base/strings.h"
#include "base/utf.h"
#include "shell/executable.h"

namespace clawexec::shell {
namespace {

// Length of the run of white space (or, with `want_space` false, non-space) code points at
// s[i...].
size_t run_length(std::string_view s, size_t i, bool want_space) {
  size_t start = i;
  while (i < s.size()) {
    char32_t cp = 0;
    size_t len = decode_utf8(s.substr(i), cp);
    if (len == 0 || is_js_whitespace(cp) != want_space) break;
    i += len;
  }
  return i - start;
}

bool is_id_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}
bool is_id_char(char c) { return is_id_start(c) || c == '.' || c == '_' || c == ':' || c == '-'; }
bool is_word_char(char c) { return is_id_start(c) || c == '_'; }

std::string base_at(const Argv& argv, size_t i) {
  return i < argv.size() ? command_base_name(argv[i]) : "";
}

bool is_node_package_manager(std::string_view name) {
  return name == "pnpm" || name == "npm" || name == "yarn";
}

// Index where `openclaw` starts once a package runner in front of it is skipped.
size_t openclaw_start(const Argv& argv) {
  std::string runner = base_at(argv, 0);
  if (runner == "openclaw") return 0;
  if (is_node_package_manager(runner)) {
    if (base_at(argv, 1) == "openclaw") return 1;
    if (argv.size() > 1 && (argv[1] == "exec" || argv[1] == "dlx" || argv[1] == "run") &&
        base_at(argv, 2) == "openclaw") {
      return 2;
    }
  }
  if (runner == "npx" || runner == "bunx") {
    size_t i = 1;
    while (i < argv.size()) {
      const std::string& token = argv[i];
      if (token == "--") {
        ++i;
        break;
      }
      if (token.empty() || token[0] != '-' || token == "-") break;
      ++i;
      if ((token == "-p" || token == "--package") && i < argv.size()) ++i;
    }
    if (base_at(argv, i) == "openclaw") return i;
  }
  return 0;
}

}  // namespace

bool is_approve_command(std::string_view candidate) {
  std::string_view s = js_trim_start(candidate);
  constexpr std::string_view kCommand = "/approve";
  if (s.size() < kCommand.size() || !iequals(s.substr(0, kCommand.size()), kCommand)) return false;
  size_t i = kCommand.size();
  if (i < s.size() && s[i] == '@') {
    size_t target = run_length(s, i + 1, false);
    if (target == 0) return false;
    i += 1 + target;
  }
  size_t gap = run_length(s, i, true);
  if (gap == 0) return false;
  i += gap;
  if (i >= s.size() || !is_id_start(s[i])) return false;
  while (i < s.size() && is_id_char(s[i])) ++i;
  gap = run_length(s, i, true);
  if (gap == 0) return false;
  i += gap;
  static constexpr std::array<std::string_view, 4> kDecisions = {"allow-once", "allow-always",
                                                                 "always", "deny"};
  for (std::string_view decision : kDecisions) {
    if (s.size() - i < decision.size() || !iequals(s.substr(i, decision.size()), decision))
      continue;
    size_t after = i + decision.size();
    if (after == s.size() || !is_word_char(s[after])) return true;
  }
  return false;
}

bool is_operator_cli_command(const Argv& argv) {
  const std::string program = base_at(argv, 0);
  const size_t start = program == "clawexec" ? 0 : openclaw_start(argv);
  const std::string name = base_at(argv, start);
  if (name != "clawexec" && name != "openclaw") return false;
  size_t i = start + 1;
  while (i < argv.size() && !argv[i].empty() && argv[i][0] == '-') ++i;  // --profile x, -v...
  if (i >= argv.size()) return false;
  const std::string group = lower_for_match(argv[i]);
  if (group == "approvals" || group == "exec-policy") return true;
  if (group == "config") {
    for (size_t k = i + 1; k < argv.size(); ++k) {
      const std::string verb = lower_for_match(argv[k]);
      if (verb == "set" || verb == "unset") return true;
      if (verb.empty() || verb[0] != '-') break;
    }
    return false;
  }
  if (group == "doctor") {
    for (size_t k = i + 1; k < argv.size(); ++k) {
      if (argv[k] == "--fix" || argv[k].rfind("--fix=", 0) == 0) return true;
    }
  }
  return false;
}

bool is_channel_login_command(std::string_view candidate) {
  std::optional<Argv> argv = split_shell_args(candidate);
  if (!argv) return false;
  size_t start = openclaw_start(*argv);
  if (base_at(*argv, start) != "openclaw" || start + 2 >= argv->size()) return false;
  const std::string& group = (*argv)[start + 1];
  return (group == "channels" || group == "channel") && (*argv)[start + 2] == "login";
}

}  // namespace clawexec::shell
