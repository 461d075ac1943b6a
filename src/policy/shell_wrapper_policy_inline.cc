// Finding the inline command of a shell invocation.
//
// Problem: "bash -xc 'cmd'", "bash -o posix -c cmd", "sh -cecho", "pwsh -enc ...", "pwsh
// -WorkingDirectory d -c ...", "cmd /d /c ..." and "nu --commands=..." all carry a command in a
// different place, and the policy needs both the payload and the token that holds it. The scan
// must skip exactly the options that take values and stop where the shell would stop reading
// options, otherwise a script argument could be taken for a payload or the other way round.
//
// Approach: one option scanner parameterised by the shell family's rules (flag set, whether
// short clusters may contain c, which options take values, what ends the options), plus the
// login/interactive scans that decide whether a payload may be bound to an approval.

#include <algorithm>
#include <initializer_list>

#include "base/utf.h"
#include "policy/shell_wrapper_policy_internal.h"
#include "shell/executable.h"

namespace clawexec::policy {
namespace {

using Names = std::initializer_list<std::string_view>;

bool contains(Names names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const Names kPosixInlineFlags = {"-lc", "-c", "--command", "--commands", "--cmdline"};
const Names kNushellExtraFlags = {"-e", "--execute"};
const Names kNushellStartupOptions = {"--config", "--env-config", "--plugin-config", "--plugins"};
const Names kPosixValueOptions = {"--init-file", "--rcfile", "-O", "-o", "+O", "+o"};

bool is_ascii_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

std::optional<std::string> non_empty_trimmed(std::string_view s) {
  std::string_view t = js_trim(s);
  if (t.empty()) return std::nullopt;
  return std::string(t);
}

size_t count_value_option_chars(std::string_view token) {
  return static_cast<size_t>(
      std::count_if(token.begin() + 1, token.end(), [](char c) { return c == 'o' || c == 'O'; }));
}

struct CombinedC {
  std::optional<std::string> attached;  // "-cecho hi" -> "echo hi"
  size_t value_count = 0;               // -o/-O letters in the cluster
};

std::optional<CombinedC> parse_combined_c(std::string_view token) {
  if (token.size() < 2 || token[0] != '-' || token[1] == '-') return std::nullopt;
  std::string_view chars = token.substr(1);
  size_t c = chars.find('c');
  if (c == std::string_view::npos || chars.find('-') != std::string_view::npos) return std::nullopt;
  std::string_view suffix = chars.substr(c + 1);
  CombinedC out;
  if (!suffix.empty() && !std::all_of(suffix.begin(), suffix.end(), is_ascii_letter)) {
    out.attached = std::string(suffix);
  } else {
    out.value_count = count_value_option_chars(token);
  }
  return out;
}

// advancePosixInlineOptionScan: tokens consumed by one POSIX shell option.
size_t posix_option_advance(std::string_view token) {
  bool cluster = token.size() >= 2 && (token[0] == '-' || token[0] == '+') && token[1] != '-' &&
                 token.substr(1).find('-') == std::string_view::npos;
  if (cluster) {
    size_t values = count_value_option_chars(token);
    if (values > 0) return 1 + values;
  }
  return contains(kPosixValueOptions, token) ? 2 : 1;
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

InlineCommandMatch scan_posix(const Argv& argv, Names extra_flags, CombinedFlags combined) {
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
    if (contains(kPosixInlineFlags, comparable) || contains(extra_flags, comparable)) {
      InlineCommandMatch m;
      if (i + 1 < argv.size()) {
        m.value_token_index = i + 1;
        m.command = non_empty_trimmed(argv[i + 1]);
      }
      return m;
    }
    if (allow_combined) {
      if (std::optional<CombinedC> c = parse_combined_c(token)) {
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
      i += posix_option_advance(token);
    } else {
      ++i;
    }
  }
  return {};
}

// "-name", "--name" or "/name" where name is a prefix of `word` at least `min` long.
bool is_switch_prefix(std::string_view lower, std::string_view word, size_t min) {
  size_t skip = lower.substr(0, 2) == "--"                                 ? 2
                : (!lower.empty() && (lower[0] == '-' || lower[0] == '/')) ? 1
                                                                           : 0;
  if (skip == 0) return false;
  std::string_view name = lower.substr(skip);
  return name.size() >= min && name.size() <= word.size() && word.substr(0, name.size()) == name;
}

bool is_exact_switch(std::string_view lower, std::string_view word) {
  return is_switch_prefix(lower, word, word.size());
}

bool is_powershell_rest_flag(std::string_view lower) {
  return is_switch_prefix(lower, "command", 1) || is_switch_prefix(lower, "commandwithargs", 3) ||
         is_exact_switch(lower, "cwa");
}

bool is_powershell_inline_flag(std::string_view lower) {
  return is_powershell_rest_flag(lower) || is_switch_prefix(lower, "file", 1) ||
         is_switch_prefix(lower, "encodedcommand", 1) || is_switch_prefix(lower, "ec", 1);
}

bool is_powershell_value_option(std::string_view lower) {
  struct Prefix {
    std::string_view word;
    size_t min;
  };
  static constexpr Prefix kPrefixes[] = {
      {"configurationfile", 4}, {"configurationname", 6}, {"custompipename", 3},
      {"encodedarguments", 8},  {"executionpolicy", 2},   {"inputformat", 3},
      {"outputformat", 1},      {"psconsolefile", 4},     {"settingsfile", 8},
      {"token", 2},             {"utctimestamp", 3},      {"version", 1},
      {"windowstyle", 1},       {"workingdirectory", 1},  {"ea", 2},
      {"ep", 2},                {"if", 2},                {"of", 2},
      {"pscf", 4},              {"wd", 2}};
  for (const Prefix& p : kPrefixes) {
    if (is_switch_prefix(lower, p.word, p.min)) return true;
  }
  return false;
}

bool is_powershell_option_token(std::string_view token) {
  if (!token.empty() && token[0] == '-') return true;
  if (token.size() < 2 || token[0] != '/' || !is_ascii_letter(token[1])) return false;
  return std::all_of(token.begin() + 2, token.end(),
                     [](char c) { return is_ascii_letter(c) || (c >= '0' && c <= '9'); });
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
    if (contains(kPosixInlineFlags, token) || parse_combined_c(token)) return seen;
    if (token[0] != '-' && token[0] != '+') return false;
    i += posix_option_advance(token);
  }
  return false;
}

bool is_nushell_boundary(std::string_view arg) {
  std::string lower = shell::trim_lower(arg);
  if (contains(kPosixInlineFlags, lower) || contains(kNushellExtraFlags, lower)) return true;
  size_t eq = lower.find('=');
  if (eq == std::string::npos) return false;
  std::string_view flag = std::string_view(lower).substr(0, eq);
  return flag.substr(0, 2) == "--" &&
         (contains(kPosixInlineFlags, flag) || contains(kNushellExtraFlags, flag));
}

bool is_nushell_short_option(std::string_view lower, char option) {
  if (lower.size() < 2 || lower[0] != '-' || lower[1] == '-') return false;
  return lower.substr(1).find(option) != std::string_view::npos;
}

}  // namespace

InlineCommandMatch resolve_posix_inline_command_match(const Argv& argv, CombinedFlags combined) {
  return scan_posix(argv, {}, combined);
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
    if (is_powershell_inline_flag(lower)) {
      InlineCommandMatch m;
      if (i + 1 < argv.size()) m.value_token_index = i + 1;
      if (is_powershell_rest_flag(lower)) {
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
    if (is_powershell_value_option(lower)) {
      i += 2;
      continue;
    }
    if (!is_powershell_option_token(token)) break;
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

std::optional<std::string> cmd_inline_command(const Argv& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string token = shell::trim_lower(argv[i]);
    if (token != "/c" && token != "/k" && token != "-c" && token != "-k") continue;
    std::string joined;
    for (size_t k = i + 1; k < argv.size(); ++k) {
      if (k > i + 1) joined += ' ';
      joined += argv[k];
    }
    return non_empty_trimmed(joined);
  }
  return std::nullopt;
}

std::optional<std::string> nushell_inline_command(const Argv& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {  // startup config files run first: no payload
    std::string token = shell::trim_lower(argv[i]);
    if (token.empty() || token == "--" || is_nushell_boundary(token)) break;
    for (std::string_view option : kNushellStartupOptions) {
      if (token == option || token.rfind(std::string(option) + "=", 0) == 0) return std::nullopt;
    }
  }
  for (size_t i = 1; i < argv.size(); ++i) {  // --commands=<payload>
    std::string_view arg = js_trim(argv[i]);
    if (arg.empty() || arg == "--") break;
    size_t eq = arg.find('=');
    if (eq == std::string_view::npos) continue;
    std::string flag = shell::trim_lower(arg.substr(0, eq));
    if (flag.rfind("--", 0) == 0 &&
        (contains(kPosixInlineFlags, flag) || contains(kNushellExtraFlags, flag))) {
      return non_empty_trimmed(arg.substr(eq + 1));
    }
  }
  return scan_posix(argv, kNushellExtraFlags, CombinedFlags::kAllowCombinedC).command;
}

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
      if (is_nushell_boundary(arg)) return seen;
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
