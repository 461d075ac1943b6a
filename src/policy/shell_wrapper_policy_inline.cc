// Finding the inline command of a shell invocation.
//
// Problem: "bash -xc 'cmd'", "bash -o posix -c cmd", "sh -cecho", "pwsh -enc ...", "pwsh
// -WorkingDirectory d -c ...", "cmd /d /c ..." and "nu --commands=..." all carry a command in a
// different place, and the policy needs both the payload and the token that holds it. The scan
// must skip exactly the options that take values and stop where the shell would stop reading
// options, otherwise a script argument could be taken for a payload or the other way round.
//
// Approach: each family's option rules (which options take values, combined -c clusters,
// PowerShell's abbreviable switches, nu's and cmd's payloads) come from shell/shell_wrappers.h,
// the same rules find_shell_wrapper scans with. Here are the scans that also report which token
// holds the payload, plus the login/interactive scans that decide whether a payload may be bound
// to an approval.

#include <algorithm>
#include <initializer_list>

#include "base/utf.h"
#include "policy/shell_wrapper_policy_internal.h"
#include "shell/executable.h"
#include "shell/shell_wrappers.h"

namespace clawexec::policy {
namespace {

using Names = std::initializer_list<std::string_view>;

bool contains(Names names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const Names kPosixInlineFlags = {"-lc", "-c", "--command", "--commands", "--cmdline"};

std::optional<std::string> non_empty_trimmed(std::string_view s) {
  std::string_view t = js_trim(s);
  if (t.empty()) return std::nullopt;
  return std::string(t);
}

// A short cluster ("-il", "-li") containing `option`.
bool is_posix_short_option(std::string_view token, char option) {
  if (token.size() < 2 || token[0] != '-' || token[1] == '-') return false;
  bool seen = false;
  for (char c : token.substr(1)) {
    if (c == '-') return false;
    if (c == option) seen = true;
  }
  return seen;
}

// Login or interactive mode (per `is_mode`) seen before the inline command flag.
template <typename Pred>
bool posix_mode_before_inline_flag(const Argv& argv, Pred is_mode) {
  bool seen = false;
  for (size_t i = 1; i < argv.size();) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) {
      ++i;
      continue;
    }
    if (token == "--") return false;
    if (is_mode(token)) seen = true;
    if (contains(kPosixInlineFlags, token) || shell::parse_combined_c(token)) return seen;
    if (token[0] != '-' && token[0] != '+') return false;
    i += shell::posix_option_advance(token);
  }
  return false;
}

bool is_nushell_short_option(std::string_view lower, char option) {
  if (lower.size() < 2 || lower[0] != '-' || lower[1] == '-') return false;
  return lower.substr(1).find(option) != std::string_view::npos;
}

}  // namespace

InlineCommandMatch resolve_posix_inline_command_match(const Argv& argv, CombinedFlags combined) {
  const bool allow_combined = combined == CombinedFlags::kAllowCombinedC;
  for (size_t i = 1; i < argv.size();) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) {
      ++i;
      continue;
    }
    std::string lower = shell::trim_lower(token);
    if (lower == "--") break;
    std::string_view comparable = allow_combined ? token : std::string_view(lower);
    if (contains(kPosixInlineFlags, comparable)) {
      InlineCommandMatch m;
      if (i + 1 < argv.size()) {
        m.value_token_index = i + 1;
        m.command = non_empty_trimmed(argv[i + 1]);
      }
      return m;
    }
    if (allow_combined) {
      if (std::optional<shell::CombinedCommandFlag> c = shell::parse_combined_c(token)) {
        InlineCommandMatch m;
        if (c->attached) {
          m.command = non_empty_trimmed(*c->attached);
          m.value_token_index = i;
          return m;
        }
        size_t index = i + 1 + c->value_count;
        m.value_token_index = index;
        if (index < argv.size()) m.command = non_empty_trimmed(argv[index]);
        return m;
      }
      if (token[0] != '-' && token[0] != '+') break;
      i += shell::posix_option_advance(token);
    } else {
      ++i;
    }
  }
  return {};
}

InlineCommandMatch resolve_powershell_inline_command_match(const Argv& argv) {
  for (size_t i = 1; i < argv.size();) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) {
      ++i;
      continue;
    }
    std::string lower = shell::trim_lower(token);
    if (lower == "--") break;
    if (shell::is_powershell_inline_flag(lower)) {
      InlineCommandMatch m;
      if (i + 1 < argv.size()) m.value_token_index = i + 1;
      if (shell::is_powershell_command_flag(lower)) {
        std::string rest;
        for (size_t k = i + 1; k < argv.size(); ++k) {
          if (k > i + 1) rest += ' ';
          rest.append(js_trim(argv[k]));
        }
        m.command = non_empty_trimmed(rest);
      } else if (i + 1 < argv.size()) {
        m.command = non_empty_trimmed(argv[i + 1]);
      }
      return m;
    }
    if (shell::is_powershell_value_option(lower)) {
      i += 2;
      continue;
    }
    if (!shell::is_powershell_option_token(token)) break;
    ++i;
  }
  return {};
}

bool has_posix_login_startup_before_inline_command(const Argv& argv) {
  return posix_mode_before_inline_flag(argv, [](std::string_view t) {
    return t == "--login" || is_posix_short_option(t, 'l');
  });
}

bool has_posix_interactive_startup_before_inline_command(const Argv& argv) {
  return posix_mode_before_inline_flag(argv, [](std::string_view t) {
    return t == "--interactive" || is_posix_short_option(t, 'i');
  });
}

bool is_direct_shell_positional_carrier_command(std::string_view command) {
  std::string_view rest = js_trim(command);
  if (rest.empty()) return false;
  auto is_blank = [](char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; };
  // Consumes horizontal white space; false when there is none.
  auto skip_blanks = [&](std::string_view& s) {
    size_t n = 0;
    while (n < s.size() && is_blank(s[n])) ++n;
    s.remove_prefix(n);
    return n > 0;
  };
  auto eat = [](std::string_view& s, std::string_view word) {
    if (s.substr(0, word.size()) != word) return false;
    s.remove_prefix(word.size());
    return true;
  };
  // $N or ${N} with N one of `names`, optionally inside double quotes.
  auto eat_parameter = [&](std::string_view& s, std::string_view names) {
    std::string_view t = s;
    bool quoted = eat(t, "\"");
    if (!eat(t, "$") || t.empty()) return false;
    bool braced = eat(t, "{");
    if (t.empty() || names.find(t[0]) == std::string_view::npos) return false;
    t.remove_prefix(1);
    if (braced && !eat(t, "}")) return false;
    if (quoted && !eat(t, "\"")) return false;
    s = t;
    return true;
  };
  std::string_view s = rest;
  if (eat(s, "exec")) {
    if (!skip_blanks(s)) return false;
    std::string_view after = s;
    if (eat(after, "--") && skip_blanks(after)) s = after;
  }
  if (!eat_parameter(s, "0")) return false;
  while (!s.empty()) {
    if (!skip_blanks(s) || !eat_parameter(s, "@123456789")) return false;
  }
  return true;
}

namespace detail {

bool has_fish_init_command_option(const Argv& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) continue;
    if (token == "--") return false;
    if (token.substr(0, 2) == "-C" || token == "--init-command" ||
        token.substr(0, 15) == "--init-command=") {
      return true;
    }
    if (token[0] != '-' && token[0] != '+') return false;
  }
  return false;
}

bool has_fish_attached_command_option(const Argv& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) continue;
    if (token == "--") return false;
    if (token.size() > 2 && token.substr(0, 2) == "-c") return true;
    if (token[0] != '-' && token[0] != '+') return false;
  }
  return false;
}

bool has_nushell_login_or_interactive_startup(const Argv& argv) {
  auto mode_before_boundary = [&](auto is_mode) {
    bool seen = false;
    for (size_t i = 1; i < argv.size(); ++i) {
      std::string_view arg = js_trim(argv[i]);
      if (arg.empty() || arg == "--") return false;
      if (is_mode(shell::trim_lower(arg))) seen = true;
      if (shell::is_nushell_inline_flag(arg)) return seen;
      if (arg[0] != '-' && arg[0] != '+') return false;
    }
    return false;
  };
  return mode_before_boundary([](const std::string& a) {
           return a == "--login" || is_nushell_short_option(a, 'l');
         }) ||
         mode_before_boundary([](const std::string& a) {
           return a == "--interactive" || is_nushell_short_option(a, 'i');
         });
}

}  // namespace detail
}  // namespace clawexec::policy
