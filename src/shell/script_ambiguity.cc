// The fail-closed half of the script preflight (reference §3.8 C).
//
// Problem: when no direct `python x.py` / `node x.js` target was found, the script that will
// run may still be in plain sight: `cat bad.py | python`, `if true; then python bad.py; fi`,
// `bash -c "python 'bad.py'"`. Such commands are refused, so the agent rewrites them as a direct
// invocation the preflight can check. Harmless commands that merely mention an interpreter or
// a script (`echo 'python bad.py | python'`, `echo bad.py; python --version`,
// `node -e "..."`) must still run.
//
// Approach: the reference's heuristics, reproduced term by term: quoted text is removed before
// looking for operators; the command is cut into list segments (and pipeline stages) outside
// quotes; a segment's leading executable is found after keywords, env and NAME=value prefixes;
// a `sh -c` payload is analysed as a command of its own. Refuse only when an interpreter runs,
// the syntax is complex, and a script hint ties the two together.

#include "base/strings.h"
#include "base/utf.h"
#include "shell/script_inspection.h"
#include "shell/script_inspection_internal.h"

namespace clawexec::shell {

const std::string_view kComplexInterpreterMessage =
    "exec preflight: complex interpreter invocation detected; refusing to run without script preflight "
    "validation. Use a direct `python <file>.py` or `node <file>.js` command.";

namespace {

// The command with quoted text removed (escapes outside quotes kept as "\x"); nullopt when a
// quote or escape is left open.
std::optional<std::string> unquoted_text(std::string_view raw) {
  std::string out;
  bool in_single = false, in_double = false, escaped = false;
  for (char c : raw) {
    if (escaped) {
      if (!in_single && !in_double) {
        out += '\\';
        out += c;
      }
      escaped = false;
    } else if (!in_single && c == '\\') {
      escaped = true;
    } else if (in_single) {
      if (c == '\'') in_single = false;
    } else if (in_double) {
      if (c == '"') in_double = false;
    } else if (c == '\'') {
      in_single = true;
    } else if (c == '"') {
      in_double = true;
    } else {
      out += c;
    }
  }
  if (escaped || in_single || in_double) return std::nullopt;
  return out;
}

enum class PipeSplit { kKeepPipelines, kSplitPipelines };

// Cuts at newlines, ';', '&&', '||' (and '|' when asked) outside quotes and escapes; blank
// pieces are dropped, the others keep their quotes.
std::vector<std::string> split_segments(std::string_view raw, PipeSplit pipes) {
  std::vector<std::string> segments;
  std::string buf;
  bool in_single = false, in_double = false, escaped = false;
  auto push = [&] {
    if (!js_trim(buf).empty()) segments.push_back(buf);
    buf.clear();
  };
  for (size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    char next = i + 1 < raw.size() ? raw[i + 1] : '\0';
    if (escaped || in_single || in_double) {
      buf += c;
      if (escaped) {
        escaped = false;
      } else if (!in_single && c == '\\') {
        escaped = true;
      } else if ((in_single && c == '\'') || (in_double && c == '"')) {
        in_single = in_double = false;
      }
    } else if (c == '\\' || c == '\'' || c == '"') {
      buf += c;
      escaped = c == '\\';
      in_single = c == '\'';
      in_double = c == '"';
    } else if (c == '\n' || c == '\r' || c == ';') {
      push();
    } else if ((c == '&' && next == '&') || (c == '|' && next == '|')) {
      push();
      ++i;
    } else if (c == '|' && pipes == PipeSplit::kSplitPipelines) {
      push();
    } else {
      buf += c;
    }
  }
  push();
  return segments;
}

// `sequence` occurs in `raw` at a position not preceded by an escaping backslash.
bool has_unescaped(std::string_view raw, std::string_view sequence) {
  bool escaped = false;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (escaped) {
      escaped = false;
    } else if (raw[i] == '\\') {
      escaped = true;
    } else if (raw.compare(i, sequence.size(), sequence) == 0) {
      return true;
    }
  }
  return false;
}

// An unquoted word ending in .py or .js (words end at white space, quotes and | & ; ( ) < >).
bool has_unquoted_script_hint(std::string_view raw) {
  std::string token;
  bool in_single = false, in_double = false, escaped = false;
  auto flush = [&] {
    bool hint = preflight::has_extension(token, ".py") || preflight::has_extension(token, ".js");
    token.clear();
    return hint;
  };
  for (size_t i = 0; i < raw.size();) {
    char32_t cp = 0;
    size_t len = decode_utf8(raw.substr(i), cp);
    if (len == 0) len = 1;
    std::string_view ch = raw.substr(i, len);
    i += len;
    if (escaped) {
      if (!in_single && !in_double) token += ch;
      escaped = false;
    } else if (!in_single && ch == "\\") {
      escaped = true;
    } else if (in_single) {
      if (ch == "'") in_single = false;
    } else if (in_double) {
      if (ch == "\"") in_double = false;
    } else if (ch == "'" || ch == "\"") {
      if (flush()) return true;
      in_single = ch == "'";
      in_double = ch == "\"";
    } else if (is_js_whitespace(cp) ||
               (len == 1 && std::string_view("|&;()<>").find(ch[0]) != std::string_view::npos)) {
      if (flush()) return true;
    } else {
      token += ch;
    }
  }
  return flush();
}

// The words of a segment after a leading keyword, env prefix and NAME=value words; the
// executable is words[index] (index == size when there is none).
struct SegmentCommand {
  Argv words;
  size_t index = 0;
  std::string executable() const { return index < words.size() ? lower_trimmed(words[index]) : std::string(); }
};

std::optional<SegmentCommand> segment_command(std::string_view segment) {
  std::optional<Argv> argv = split_shell_args(js_trim(segment));
  if (!argv || argv->empty()) return std::nullopt;
  Argv without_keyword = preflight::drop_leading_keyword(*argv);
  if (without_keyword.empty()) return std::nullopt;
  SegmentCommand command{preflight::strip_env_prefix(without_keyword), 0};
  command.index = preflight::skip_assignments(command.words);
  return command;
}

// The leading executable of a segment once its quoted text is gone (lower_trimmed; "" if none).
std::string leading_executable(std::string_view segment) {
  std::optional<std::string> unquoted = unquoted_text(segment);
  std::optional<SegmentCommand> command = segment_command(unquoted ? *unquoted : std::string(segment));
  return command ? command->executable() : std::string();
}

struct Heuristics {
  bool python = false;
  bool node = false;
  bool complex_syntax = false;
  bool process_substitution = false;
  bool script_hint = false;
};

// `unquoted` is a command whose quoted text was already removed.
Heuristics analyze(std::string_view unquoted) {
  Heuristics h;
  for (const std::string& segment : split_segments(unquoted, PipeSplit::kSplitPipelines)) {
    std::string executable = leading_executable(segment);
    h.python = h.python || preflight::is_python_name(executable);
    h.node = h.node || executable == "node";
  }
  h.process_substitution = has_unescaped(unquoted, "<(") || has_unescaped(unquoted, ">(");
  h.complex_syntax = h.process_substitution || unquoted.find_first_of("\n\r") != std::string_view::npos;
  for (std::string_view operator_text : {"|", "&&", "||", ";", "$(", "`"}) {
    h.complex_syntax = h.complex_syntax || has_unescaped(unquoted, operator_text);
  }
  h.script_hint = has_unquoted_script_hint(unquoted);
  return h;
}

bool has_line_terminator(std::string_view s) {
  return s.find_first_of("\n\r") != std::string_view::npos || s.find("\xE2\x80\xA8") != std::string_view::npos ||
         s.find("\xE2\x80\xA9") != std::string_view::npos;
}

bool is_letters_option(std::string_view arg) {  // -[A-Za-z]+
  if (arg.size() < 2 || arg[0] != '-') return false;
  for (char c : arg.substr(1)) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'))) return false;
  }
  return true;
}

bool is_long_option(std::string_view arg) {  // --name or --name=value (value on one line)
  if (arg.size() < 3 || arg.substr(0, 2) != "--") return false;
  size_t eq = arg.find('=');
  std::string_view name = arg.substr(2, eq == std::string_view::npos ? std::string_view::npos : eq - 2);
  if (name.empty() || name[0] == '-') return false;
  for (char c : name) {
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return eq == std::string_view::npos || !has_line_terminator(arg.substr(eq + 1));
}

// The -c payload of a bash/dash/fish/ksh/sh/zsh command, found by walking its options.
std::optional<std::string> shell_wrapper_payload(std::string_view executable, const Argv& args) {
  size_t slash = executable.find_last_of("/\\");
  std::string base = lower_trimmed(slash == std::string_view::npos ? executable : executable.substr(slash + 1));
  if (base.size() >= 4 && base.compare(base.size() - 4, 4, ".exe") == 0) base.resize(base.size() - 4);
  if (base != "bash" && base != "dash" && base != "fish" && base != "ksh" && base != "sh" && base != "zsh") {
    return std::nullopt;
  }
  auto next = [&](size_t i) { return i + 1 < args.size() ? std::optional<std::string>(args[i + 1]) : std::nullopt; };
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") return std::nullopt;
    if (arg == "-c") return next(i);
    if (is_letters_option(arg)) {
      if (arg.find('c') != std::string::npos) return next(i);
      if (arg == "-O" || arg == "-o") ++i;
      continue;
    }
    if (!is_long_option(arg)) return std::nullopt;
    if (arg.find('=') == std::string::npos && i + 1 < args.size() && args[i + 1] != "--" && args[i + 1][0] != '-') ++i;
  }
  return std::nullopt;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The segment runs python or node on a script (not -c/-m/-e/-p code, not --version/--help...).
bool runs_interpreter_on_script(std::string_view segment) {
  std::optional<SegmentCommand> command = segment_command(segment);
  if (!command) return false;
  const std::string executable = command->executable();
  if (executable.empty()) return false;
  const Argv args(command->words.begin() + static_cast<std::ptrdiff_t>(command->index) + 1, command->words.end());
  auto any_arg = [&](auto predicate) {
    for (const std::string& arg : args) {
      if (predicate(std::string_view(arg))) return true;
    }
    return false;
  };
  if (preflight::is_python_name(executable)) {
    return !any_arg([](std::string_view a) {
      return a == "-V" || a == "--version" || a == "-h" || a == "--help" || starts_with(a, "-c") ||
             starts_with(a, "-m") || a == "--check-hash-based-pycs";
    });
  }
  if (executable == "node") {
    return !any_arg([](std::string_view a) {
      return a == "-v" || a == "--version" || a == "-h" || a == "--help" || a == "-c" || a == "--check" ||
             a == "--eval" || a == "--print" || starts_with(a, "--eval=") || starts_with(a, "--print=") ||
             starts_with(a, "-e") || starts_with(a, "-p");
    });
  }
  return false;
}

bool has_script_hint(std::string_view segment) {
  return !preflight::targets_from_segment(segment).empty() || has_unquoted_script_hint(segment);
}

// A pipeline stage (or list segment) that runs an interpreter on a script and names one.
bool interpreter_and_hint_in_one_segment(std::string_view text) {
  for (const std::string& segment : split_segments(text, PipeSplit::kSplitPipelines)) {
    if (runs_interpreter_on_script(segment) && has_script_hint(segment)) return true;
  }
  return false;
}

// A pipeline whose downstream stage runs an interpreter on a script, with a hint anywhere in it.
bool interpreter_downstream_in_hinted_pipeline(std::string_view text) {
  for (const std::string& segment : split_segments(text, PipeSplit::kKeepPipelines)) {
    std::vector<std::string> stages = split_segments(segment, PipeSplit::kSplitPipelines);
    bool downstream = false;
    for (size_t k = 1; k < stages.size() && !downstream; ++k) downstream = runs_interpreter_on_script(stages[k]);
    if (downstream && has_script_hint(segment)) return true;
  }
  return false;
}

}  // namespace

bool is_complex_interpreter_invocation(std::string_view command) {
  const std::string_view raw = js_trim(command);
  std::optional<Argv> raw_argv = split_shell_args(raw);
  const Argv argv = raw_argv ? preflight::strip_env_prefix(*raw_argv) : Argv{};
  const size_t index = preflight::skip_assignments(argv);
  const std::string direct = index < argv.size() ? lower_trimmed(argv[index]) : std::string();
  const Argv args =
      index < argv.size() ? Argv(argv.begin() + static_cast<std::ptrdiff_t>(index) + 1, argv.end()) : Argv{};
  const bool direct_interpreter = preflight::is_interpreter_name(direct);

  const std::optional<std::string> raw_unquoted = unquoted_text(raw);
  const Heuristics top = analyze(raw_unquoted ? *raw_unquoted : std::string(raw));
  const std::optional<std::string> payload = shell_wrapper_payload(direct, args);
  Heuristics nested;
  if (payload) {
    std::optional<std::string> payload_unquoted = unquoted_text(*payload);
    nested = analyze(payload_unquoted ? *payload_unquoted : *payload);
  }

  const bool wrapped_segment_hint = payload && interpreter_and_hint_in_one_segment(*payload);
  const bool segment_hint = interpreter_and_hint_in_one_segment(raw) || wrapped_segment_hint;
  const bool pipeline_hint = interpreter_downstream_in_hinted_pipeline(raw) ||
                             (payload && interpreter_downstream_in_hinted_pipeline(*payload));
  const bool wrapped_invocation =
      (nested.python || nested.node) &&
      (wrapped_segment_hint || nested.script_hint || nested.complex_syntax || nested.process_substitution);
  bool top_level_invocation = false;
  for (const std::string& segment : split_segments(raw, PipeSplit::kSplitPipelines)) {
    top_level_invocation = top_level_invocation || preflight::is_interpreter_name(leading_executable(segment));
  }

  const bool invocation = direct_interpreter || wrapped_invocation || top_level_invocation;
  const bool complex_syntax = top.complex_syntax || wrapped_invocation;
  const bool process_substitution = top.process_substitution || nested.process_substitution;
  return invocation && complex_syntax &&
         (segment_hint || pipeline_hint || (process_substitution && direct_interpreter));
}

}  // namespace clawexec::shell
