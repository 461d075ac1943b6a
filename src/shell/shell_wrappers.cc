// Shell-wrapper detection and payload extraction.
//
// Problem: "bash -c '/approve x deny'" hides a command in a string. To check it, the string
// must be found exactly as the shell would take it: after options that take values (-o opt,
// --rcfile f), in combined flags (-lc, -ec, "-cecho hi"), for PowerShell's abbreviable
// switches (-c, -com, -Command, /c, -EncodedCommand, ...) and cmd.exe's /c /k, and behind
// dispatch wrappers (timeout, nice, env ...) and busybox/toybox.
//
// Approach: resolve the wrapper chain first (at most four levels, as the reference does),
// then scan the shell's own options with the rules of its family (POSIX, nu, cmd, PowerShell).
// The per-family option rules are public: the policy's shell-wrapper analysis scans with them.

#include "shell/shell_wrappers.h"

#include <algorithm>
#include <initializer_list>

#include "base/utf.h"
#include "shell/executable.h"

namespace clawexec::shell {
namespace {

using Names = std::initializer_list<std::string_view>;

bool contains(Names names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const Names kPosixShells = {"ash", "bash", "csh", "dash", "elvish", "fish", "ksh", "mksh",
                            "nu",  "osh",  "sh",  "tcsh", "xonsh",  "yash", "zsh"};
const Names kParseableShells = {"ash", "bash", "dash", "fish", "ksh", "mksh", "sh", "yash", "zsh"};
const Names kOpaqueStartupShells = {"csh", "osh", "tcsh"};
const Names kPosixInlineFlags = {"-lc", "-c", "--command", "--commands", "--cmdline"};
const Names kNushellExtraFlags = {"-e", "--execute"};
const Names kNushellStartupOptions = {"--config", "--env-config", "--plugin-config", "--plugins"};
const Names kPosixValueOptions = {"--init-file", "--rcfile", "-O", "-o", "+O", "+o"};
constexpr int kMaxWrapperDepth = 4;

enum class Family { kNone, kPosix, kCmd, kPowerShell };

Family family_of(std::string_view base) {
  if (contains(kPosixShells, base)) return Family::kPosix;
  if (base == "cmd") return Family::kCmd;
  if (base == "powershell" || base == "pwsh") return Family::kPowerShell;
  return Family::kNone;
}

bool is_ascii_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

std::optional<std::string> non_empty_trimmed(std::string_view s) {
  std::string_view t = js_trim(s);
  if (t.empty()) return std::nullopt;
  return std::string(t);
}

// ---- POSIX shells ----------------------------------------------------------------------

size_t count_value_option_chars(std::string_view token) {
  return static_cast<size_t>(
      std::count_if(token.begin() + 1, token.end(), [](char c) { return c == 'o' || c == 'O'; }));
}

std::optional<std::string> posix_inline_command(const Argv& argv, bool nushell) {
  for (size_t i = 1; i < argv.size();) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) {
      ++i;
      continue;
    }
    if (trim_lower(token) == "--") break;
    if (contains(kPosixInlineFlags, token) || (nushell && contains(kNushellExtraFlags, token))) {
      if (i + 1 >= argv.size()) return std::nullopt;
      return non_empty_trimmed(argv[i + 1]);
    }
    if (std::optional<CombinedCommandFlag> combined = parse_combined_c(token)) {
      if (combined->attached) return non_empty_trimmed(*combined->attached);
      size_t value_index = i + 1 + combined->value_count;
      if (value_index >= argv.size()) return std::nullopt;
      return non_empty_trimmed(argv[value_index]);
    }
    if (token[0] != '-' && token[0] != '+') break;
    i += posix_option_advance(token);
  }
  return std::nullopt;
}

// ---- cmd.exe and PowerShell ------------------------------------------------------------

// "-name", "--name" or "/name" where name is `word` or a prefix of it at least `min` long.
bool is_switch_prefix(std::string_view lower, std::string_view word, size_t min) {
  size_t skip = lower.substr(0, 2) == "--"                                 ? 2
                : (!lower.empty() && (lower[0] == '-' || lower[0] == '/')) ? 1
                                                                           : 0;
  if (skip == 0) return false;
  std::string_view name = lower.substr(skip);
  return name.size() >= min && name.size() <= word.size() && word.substr(0, name.size()) == name;
}

std::optional<std::string> powershell_inline_command(const Argv& argv) {
  for (size_t i = 1; i < argv.size();) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) {
      ++i;
      continue;
    }
    std::string lower = trim_lower(token);
    if (lower == "--") break;
    if (is_powershell_inline_flag(lower)) {
      if (!is_powershell_command_flag(lower)) {
        return i + 1 < argv.size() ? non_empty_trimmed(argv[i + 1]) : std::nullopt;
      }
      std::string rest;
      for (size_t k = i + 1; k < argv.size(); ++k)
        rest += (k > i + 1 ? " " : "") + std::string(js_trim(argv[k]));
      return non_empty_trimmed(rest);
    }
    if (is_powershell_value_option(lower)) {
      i += 2;
      continue;
    }
    if (!is_powershell_option_token(token)) break;
    ++i;
  }
  return std::nullopt;
}

// ---- wrapper chain ---------------------------------------------------------------------

std::optional<Argv> resolve_shell_candidate(const Argv& argv, int depth) {
  if (depth > kMaxWrapperDepth || argv.empty() || js_trim(argv[0]).empty()) return std::nullopt;
  DispatchUnwrap dispatch = unwrap_dispatch_wrapper(argv);
  if (dispatch.kind == DispatchKind::kBlocked) return std::nullopt;
  if (dispatch.kind == DispatchKind::kUnwrapped)
    return resolve_shell_candidate(dispatch.argv, depth + 1);
  DispatchUnwrap multiplexer = unwrap_shell_multiplexer(argv);
  if (multiplexer.kind == DispatchKind::kBlocked) return std::nullopt;
  if (multiplexer.kind == DispatchKind::kUnwrapped)
    return resolve_shell_candidate(multiplexer.argv, depth + 1);
  return argv;
}

}  // namespace

// ---- option scanning, shared with the policy's shell-wrapper analysis ----------------

std::optional<CombinedCommandFlag> parse_combined_c(std::string_view token) {
  if (token.size() < 2 || token[0] != '-' || token[1] == '-') return std::nullopt;
  std::string_view chars = token.substr(1);
  size_t c = chars.find('c');
  if (c == std::string_view::npos || chars.find('-') != std::string_view::npos) return std::nullopt;
  std::string_view suffix = chars.substr(c + 1);
  CombinedCommandFlag out;
  if (!suffix.empty() && !std::all_of(suffix.begin(), suffix.end(), is_ascii_letter)) {
    out.attached = std::string(suffix);
  } else {
    out.value_count = count_value_option_chars(token);
  }
  return out;
}

size_t posix_option_advance(std::string_view token) {
  bool cluster = token.size() >= 2 && (token[0] == '-' || token[0] == '+') && token[1] != '-' &&
                 token.substr(1).find('-') == std::string_view::npos;
  if (cluster) {
    size_t values = count_value_option_chars(token);
    if (values > 0) return 1 + values;
  }
  return contains(kPosixValueOptions, token) ? 2 : 1;
}

bool is_nushell_inline_flag(std::string_view arg) {
  std::string lower = trim_lower(arg);
  if (contains(kPosixInlineFlags, lower) || contains(kNushellExtraFlags, lower)) return true;
  size_t eq = lower.find('=');
  if (eq == std::string::npos) return false;
  std::string_view flag = std::string_view(lower).substr(0, eq);
  return flag.substr(0, 2) == "--" &&
         (contains(kPosixInlineFlags, flag) || contains(kNushellExtraFlags, flag));
}

std::optional<std::string> nushell_inline_command(const Argv& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {  // startup config files run first: not followed
    std::string token = trim_lower(argv[i]);
    if (token.empty() || token == "--" || is_nushell_inline_flag(token)) break;
    for (std::string_view option : kNushellStartupOptions) {
      if (token == option || token.rfind(std::string(option) + "=", 0) == 0) return std::nullopt;
    }
  }
  for (size_t i = 1; i < argv.size(); ++i) {  // --commands=<payload>
    std::string_view arg = js_trim(argv[i]);
    if (arg.empty() || arg == "--") break;
    size_t eq = arg.find('=');
    if (eq == std::string_view::npos) continue;
    std::string flag = trim_lower(arg.substr(0, eq));
    if (flag.rfind("--", 0) == 0 &&
        (contains(kPosixInlineFlags, flag) || contains(kNushellExtraFlags, flag))) {
      return non_empty_trimmed(arg.substr(eq + 1));
    }
  }
  return posix_inline_command(argv, true);
}

std::optional<std::string> cmd_inline_command(const Argv& argv) {
  for (size_t i = 0; i < argv.size(); ++i) {
    std::string token = trim_lower(argv[i]);
    if (token != "/c" && token != "/k" && token != "-c" && token != "-k") continue;
    if (i + 1 >= argv.size()) return std::nullopt;
    std::string joined;
    for (size_t k = i + 1; k < argv.size(); ++k) joined += (k > i + 1 ? " " : "") + argv[k];
    return non_empty_trimmed(joined);
  }
  return std::nullopt;
}

bool is_powershell_command_flag(std::string_view lower) {
  return is_switch_prefix(lower, "command", 1) || is_switch_prefix(lower, "commandwithargs", 3) ||
         is_switch_prefix(lower, "cwa", 3);
}

bool is_powershell_inline_flag(std::string_view lower) {
  return is_powershell_command_flag(lower) || is_switch_prefix(lower, "file", 1) ||
         is_switch_prefix(lower, "encodedcommand", 1) || is_switch_prefix(lower, "ec", 1);
}

bool is_powershell_value_option(std::string_view lower) {
  struct Prefix {
    std::string_view word;
    size_t min;
  };
  static constexpr Prefix kPrefixes[] = {{"configurationfile", 4},
                                         {"configurationname", 6},
                                         {"custompipename", 3},
                                         {"encodedarguments", 8},
                                         {"executionpolicy", 2},
                                         {"inputformat", 3},
                                         {"outputformat", 1},
                                         {"psconsolefile", 4},
                                         {"settingsfile", 8},
                                         {"token", 2},
                                         {"utctimestamp", 3},
                                         {"version", 1},
                                         {"windowstyle", 1},
                                         {"workingdirectory", 1},
                                         {"ea", 2},
                                         {"ep", 2},
                                         {"if", 2},
                                         {"of", 2},
                                         {"pscf", 4},
                                         {"wd", 2}};
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

std::optional<std::string> shell_command_flag(const Argv& argv) {
  if (argv.empty()) return std::nullopt;
  std::string shell = normalize_executable_token(argv[0]);
  for (size_t i = 1; i < argv.size(); ++i) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) continue;
    if (token == "--") break;
    std::string lower = trim_lower(token);
    if (shell == "cmd") {
      if (lower == "/c" || lower == "/k") return std::string(token);
      continue;
    }
    if (shell == "powershell" || shell == "pwsh") {
      if (contains({"-c", "-command", "--command", "-encodedcommand", "-enc", "-e", "-f", "-file"},
                   lower)) {
        return std::string(token);
      }
      continue;
    }
    if (lower == "-c" || lower == "--command") return std::string(token);
    if (token[0] == '-' && token.substr(0, 2) != "--" &&
        lower.substr(1).find('c') != std::string::npos) {
      return std::string(token);
    }
  }
  return std::nullopt;
}

bool is_shell_wrapper_executable(std::string_view token) {
  return family_of(normalize_executable_token(token)) != Family::kNone;
}

DispatchUnwrap unwrap_shell_multiplexer(const Argv& argv) {
  if (argv.empty() || js_trim(argv[0]).empty()) return {};
  std::string name = normalize_executable_token(js_trim(argv[0]));
  if (name != "busybox" && name != "toybox") return {};
  size_t applet = 1;
  if (argv.size() > 1 && js_trim(argv[1]) == "--") applet = 2;
  if (applet >= argv.size() || js_trim(argv[applet]).empty() ||
      !is_shell_wrapper_executable(js_trim(argv[applet]))) {
    return {DispatchKind::kBlocked, {}};
  }
  return {DispatchKind::kUnwrapped,
          Argv(argv.begin() + static_cast<std::ptrdiff_t>(applet), argv.end())};
}

std::optional<ShellWrapper> find_shell_wrapper(const Argv& argv) {
  std::optional<Argv> shell = resolve_shell_candidate(argv, 0);
  if (!shell) return std::nullopt;
  std::string base = normalize_executable_token(js_trim((*shell)[0]));
  std::optional<std::string> payload;
  switch (family_of(base)) {
    case Family::kNone:
      return std::nullopt;
    case Family::kPosix:
      if (contains(kOpaqueStartupShells, base)) return std::nullopt;
      payload = base == "nu" ? nushell_inline_command(*shell) : posix_inline_command(*shell, false);
      break;
    case Family::kCmd:
      payload = cmd_inline_command(*shell);
      break;
    case Family::kPowerShell:
      payload = powershell_inline_command(*shell);
      break;
  }
  if (!payload) return std::nullopt;
  return ShellWrapper{std::move(*shell), std::move(*payload)};
}

bool is_parseable_shell_wrapper(const Argv& argv, const ShellWrapper& wrapper) {
  if (!contains(kParseableShells, normalize_executable_token(wrapper.shell_argv[0]))) return false;
  std::optional<std::string> flag = shell_command_flag(wrapper.shell_argv);
  if (!flag) flag = shell_command_flag(argv);
  if (!flag) return false;
  std::string lower = lower_for_match(*flag);
  if (lower == "-c" || lower == "--command") return true;
  return lower.size() >= 2 && lower[0] == '-' && lower.substr(1).find('-') == std::string::npos &&
         lower.find('c') != std::string::npos;
}

}  // namespace clawexec::shell
