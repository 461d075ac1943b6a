// Which script files does a command start? (reference §3.8 A)
//
// Problem: the preflight may only read files the command really hands to python or node, and
// must find them the way the reference does, quirks included: the whole command is split as one
// argv (operators are ordinary words, so `python a.py && x` still names a.py), interpreter
// options that take a value must be stepped over, and `-c`/`-m`/`-e` forms mean there is no
// script file at all.
//
// Approach: split with split_shell_args, try the argv as is and again with a leading
// `env ...` removed; skip NAME=value words, require a bare interpreter name, then walk its
// options with a small per-interpreter table.

#include <array>

#include "base/strings.h"
#include "base/utf.h"
#include "shell/executable.h"
#include "shell/script_inspection.h"
#include "shell/script_inspection_internal.h"

namespace clawexec::shell {
namespace preflight {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

template <size_t N>
bool is_one_of(std::string_view token, const std::array<std::string_view, N>& names) {
  for (std::string_view name : names) {
    if (token == name) return true;
  }
  return false;
}

// env options whose value is the next word (unless written --opt=value).
constexpr std::array<std::string_view, 10> kEnvOptionsWithValue = {
    "-C", "-S", "-u", "--argv0", "--block-signal", "--chdir", "--default-signal", "--ignore-signal",
    "--split-string", "--unset"};

// python options whose value is the next word.
constexpr std::array<std::string_view, 4> kPythonOptionsWithValue = {"-W", "-X", "-Q", "--check-hash-based-pycs"};

bool is_env_executable(std::string_view token) {
  size_t slash = token.find_last_of("/\\");
  std::string base = lower_trimmed(slash == std::string_view::npos ? token : token.substr(slash + 1));
  if (base.size() >= 4 && base.compare(base.size() - 4, 4, ".exe") == 0) base.resize(base.size() - 4);
  return base == "env";
}

// The first operand of python when it names a .py file; nullopt for -c, -m, - and any other
// first operand.
std::optional<std::string> python_script(const Argv& args, size_t from) {
  for (size_t i = from; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "--") {
      if (i + 1 < args.size() && has_extension(args[i + 1], ".py")) return args[i + 1];
      return std::nullopt;
    }
    if (token == "-" || starts_with(token, "-c") || starts_with(token, "-m")) return std::nullopt;
    if (is_one_of(token, kPythonOptionsWithValue)) {
      ++i;
      continue;
    }
    if (starts_with(token, "-")) continue;
    if (has_extension(token, ".py")) return token;
    return std::nullopt;
  }
  return std::nullopt;
}

bool is_node_inline_code(std::string_view token) {
  return token == "-e" || token == "-p" || token == "--eval" || token == "--print" || starts_with(token, "--eval=") ||
         starts_with(token, "--print=") || ((starts_with(token, "-e") || starts_with(token, "-p")) && token.size() > 2);
}

// Node's preloaded modules (.js only), then its entry script unless code is given inline.
std::vector<std::string> node_scripts(const Argv& args, size_t from) {
  std::vector<std::string> scripts;
  bool inline_code = false;
  for (size_t i = from; i < args.size(); ++i) {
    const std::string& token = args[i];
    if (token == "--") {
      if (!inline_code && i + 1 < args.size() && has_extension(args[i + 1], ".js")) scripts.push_back(args[i + 1]);
      break;
    }
    if (is_node_inline_code(token)) {
      inline_code = true;
      if (token == "-e" || token == "-p" || token == "--eval" || token == "--print") ++i;
      continue;
    }
    if (token == "-r" || token == "--require" || token == "--import") {
      if (i + 1 < args.size() && has_extension(args[i + 1], ".js")) scripts.push_back(args[i + 1]);
      ++i;
      continue;
    }
    if ((starts_with(token, "-r") && token.size() > 2) || starts_with(token, "--require=") ||
        starts_with(token, "--import=")) {
      std::string value = starts_with(token, "-r") ? token.substr(2) : token.substr(token.find('=') + 1);
      if (has_extension(value, ".js")) scripts.push_back(std::move(value));
      continue;
    }
    if (starts_with(token, "-")) continue;
    if (!inline_code && has_extension(token, ".js")) scripts.push_back(token);
    break;
  }
  return scripts;
}

}  // namespace

bool has_extension(std::string_view token, std::string_view extension) {
  std::string name = lower_trimmed(token);
  return name.size() >= extension.size() &&
         name.compare(name.size() - extension.size(), extension.size(), extension) == 0;
}

bool is_python_name(std::string_view name) {
  if (name == "python" || name == "python3") return true;
  if (!starts_with(name, "python3.") || name.size() == 8) return false;
  for (char c : name.substr(8)) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

bool is_interpreter_name(std::string_view name) { return is_python_name(name) || name == "node"; }

size_t skip_assignments(const Argv& argv, size_t from) {
  while (from < argv.size() && is_env_assignment_token(argv[from])) ++from;
  return from;
}

Argv strip_env_prefix(const Argv& argv) {
  size_t i = skip_assignments(argv);
  if (i >= argv.size() || !is_env_executable(argv[i])) return argv;
  ++i;
  while (i < argv.size()) {
    const std::string& token = argv[i];
    if (token == "--") {
      ++i;
      break;
    }
    if (is_env_assignment_token(token)) {
      ++i;
      continue;
    }
    if (!starts_with(token, "-") || token == "-") break;
    ++i;
    bool attached_value = token.find('=') != std::string::npos;
    if (!attached_value && is_one_of(token, kEnvOptionsWithValue) && i < argv.size()) ++i;
  }
  return Argv(argv.begin() + static_cast<std::ptrdiff_t>(i), argv.end());
}

Argv drop_leading_keyword(const Argv& argv) {
  static constexpr std::array<std::string_view, 8> kKeywords = {"if",   "then",  "do",    "elif",
                                                                "else", "while", "until", "time"};
  if (!argv.empty()) {
    for (std::string_view keyword : kKeywords) {
      if (iequals(argv[0], keyword)) return Argv(argv.begin() + 1, argv.end());
    }
  }
  return argv;
}

std::vector<ScriptTarget> targets_from_argv(const Argv& argv) {
  size_t command = skip_assignments(argv);
  if (command >= argv.size()) return {};
  std::string executable = lower_trimmed(argv[command]);
  std::vector<ScriptTarget> targets;
  if (is_python_name(executable)) {
    if (std::optional<std::string> script = python_script(argv, command + 1)) {
      targets.push_back({ScriptLanguage::kPython, std::move(*script)});
    }
  } else if (executable == "node") {
    for (std::string& script : node_scripts(argv, command + 1)) {
      targets.push_back({ScriptLanguage::kNode, std::move(script)});
    }
  }
  return targets;
}

std::vector<ScriptTarget> targets_from_segment(std::string_view segment) {
  std::optional<Argv> argv = split_shell_args(js_trim(segment));
  if (!argv || argv->empty()) return {};
  return targets_from_argv(strip_env_prefix(drop_leading_keyword(*argv)));
}

}  // namespace preflight

std::vector<ScriptTarget> extract_script_targets(std::string_view command) {
  std::optional<Argv> argv = split_shell_args(js_trim(command));
  if (!argv) return {};
  std::vector<ScriptTarget> targets = preflight::targets_from_argv(*argv);
  if (targets.empty()) targets = preflight::targets_from_argv(preflight::strip_env_prefix(*argv));
  return targets;
}

}  // namespace clawexec::shell
