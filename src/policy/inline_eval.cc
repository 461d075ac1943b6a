// Direct inline-eval detection: does this argv give an interpreter its program as an
// argument?
//
// Problem: every interpreter spells "run this code" differently: python -c and clusters like
// -bc, node --eval=..., perl -ne / -0777pe / -l0e, php -B, make -E..., gdb -ex, and the
// positional forms (awk '{...}', sed 's/x/y/e', xargs cmd). A mis-read either misses code
// execution or flags harmless runs, so the reference's per-interpreter rules are reproduced
// exactly, including the order in which each token is tried.
//
// Approach: one static table row per interpreter family (names and flag rules), a matcher
// that tries the rules on each argument in a fixed order, and a second, smaller table for the
// positional forms that walks options (skipping their values) to the first operand. Names
// match with or without a version suffix (python3.13 is python).

#include "policy/inline_eval.h"

#include <algorithm>
#include <vector>

#include "base/utf.h"
#include "shell/executable.h"

namespace clawexec::policy {
namespace {

using Names = std::vector<std::string_view>;

struct LabeledPrefix {
  std::string_view label;
  std::string_view prefix;
};

struct AbbreviatedFlag {
  std::string_view label;
  std::string_view full;
  std::string_view min;  // shortest accepted abbreviation
};

// A flag letter that may end a cluster of other single-letter switches (-bc, -ne, -00pe).
struct ClusterFlag {
  std::string_view label;
  char flag = 0;
  std::string_view prefix_chars;  // switches allowed before the flag letter
  bool numeric_record_separator = false;  // "0" followed by digits allowed (perl/ruby -0777)
  std::string_view digit_value_chars;     // switches that may be followed by digits (-W2, -l0)
};

struct FlagSpec {
  Names names;
  Names exact;  // compared with the lower-cased token
  std::vector<LabeledPrefix> raw_exact;   // compared case-sensitively; prefix = the flag
  std::vector<LabeledPrefix> raw_prefix;  // raw token starts with prefix (and is longer)
  std::vector<AbbreviatedFlag> abbreviated;
  std::optional<Names> joined_exact;  // single-letter flags with attached value; default exact
  Names joined_deny_exact;
  Names joined_deny_prefixes;
  std::vector<ClusterFlag> clusters;
  std::vector<LabeledPrefix> prefix;  // lower-cased token starts with prefix (and is longer)
  bool scan_past_double_dash = false;
};

struct PositionalSpec {
  Names names;
  Names file_flags;
  Names file_flag_prefixes;
  Names value_flags;
  Names optional_value_flags;
  Names prefix_value_flags;
  std::string_view flag;
};

const std::vector<FlagSpec>& flag_specs() {
  static const std::vector<FlagSpec> specs = [] {
    std::vector<FlagSpec> s;
    s.push_back({.names = {"python", "python2", "python3", "pypy", "pypy3"},
                 .exact = {"-c"},
                 .clusters = {{"-c", 'c', "BEIOPRSbdiqsuvx"}}});
    s.push_back({.names = {"node", "nodejs", "bun", "deno"},
                 .exact = {"-e", "--eval", "-p", "--print"}});
    s.push_back({.names = {"awk", "gawk", "mawk", "nawk"},
                 .exact = {"-e", "--source"},
                 .abbreviated = {{"--source", "--source", "--s"}},
                 .prefix = {{"--source", "--source="}}});
    s.push_back({.names = {"ruby"},
                 .exact = {"-e"},
                 .clusters = {{"-e", 'e', "SUWacdlnpsvw", true, "W"}}});
    s.push_back({.names = {"perl"},
                 .exact = {"-e", "-E"},
                 .clusters = {{"-e", 'e', "STWXUVacdflnpstuw", true, "l"},
                              {"-e", 'E', "STWXUVacdflnpstuw", true, "l"}}});
    s.push_back({.names = {"php"},
                 .exact = {"-r"},
                 .raw_exact = {{"-B", "-B"}, {"-E", "-E"}, {"-R", "-R"}}});
    s.push_back({.names = {"r", "rscript"}, .exact = {"-e"}});
    s.push_back({.names = {"julia"},
                 .exact = {"-e", "--eval", "--print"},
                 .raw_exact = {{"-E", "-E"}}});
    s.push_back({.names = {"elixir", "iex"},
                 .exact = {"-e", "--eval", "--rpc-eval"},
                 .joined_exact = Names{}});
    s.push_back({.names = {"guile"}, .exact = {"-c", "-e"}, .joined_exact = Names{}});
    s.push_back({.names = {"groovy"},
                 .exact = {"-e"},
                 .joined_deny_exact = {"-encoding"},
                 .joined_deny_prefixes = {"-encoding="},
                 .clusters = {{"-e", 'e', "np"}}});
    s.push_back({.names = {"scala", "scala-cli"},
                 .exact = {"-e", "--script-snippet", "--execute-script", "--execute-sc",
                           "--execute-scala-script", "--scala-snippet", "--execute-scala",
                           "--java-snippet", "--execute-java", "--markdown-snippet",
                           "--md-snippet", "--execute-markdown", "--execute-md"},
                 .joined_exact = Names{}});
    s.push_back({.names = {"clojure", "clj"}, .exact = {"-e", "--eval"}, .joined_exact = Names{}});
    s.push_back({.names = {"raku", "perl6"},
                 .exact = {"-e"},
                 .joined_exact = Names{"-e"},
                 .clusters = {{"-e", 'e', "np"}}});
    s.push_back({.names = {"ghc", "ghci"}, .exact = {"-e"}, .joined_exact = Names{}});
    s.push_back({.names = {"erl", "werl"}, .exact = {"-eval", "-run", "-s"}, .joined_exact = Names{}});
    s.push_back(
        {.names = {"gdb"},
         .exact = {"-ex", "-iex", "-eiex", "-eval-command", "--eval-command", "-init-eval-command",
                   "--init-eval-command", "-early-init-eval-command", "--early-init-eval-command"},
         .abbreviated = {{"-eval-command", "-eval-command", "-ev"},
                         {"--eval-command", "--eval-command", "--ev"},
                         {"-init-eval-command", "-init-eval-command", "-init-e"},
                         {"--init-eval-command", "--init-eval-command", "--init-e"},
                         {"-early-init-eval-command", "-early-init-eval-command", "-early-init-e"},
                         {"--early-init-eval-command", "--early-init-eval-command",
                          "--early-init-e"}},
         .prefix = {{"-ex", "-ex="},
                    {"-iex", "-iex="},
                    {"-eiex", "-eiex="},
                    {"-eval-command", "-eval-command="},
                    {"-init-eval-command", "-init-eval-command="},
                    {"-early-init-eval-command", "-early-init-eval-command="}}});
    s.push_back({.names = {"expect"}, .exact = {"-c"}});
    s.push_back({.names = {"lua"}, .exact = {"-e"}});
    s.push_back({.names = {"osascript"}, .exact = {"-e"}});
    s.push_back({.names = {"find"},
                 .exact = {"-exec", "-execdir", "-ok", "-okdir"},
                 .scan_past_double_dash = true});
    s.push_back({.names = {"make", "gmake"},
                 .exact = {"-f", "--file", "--makefile", "--eval"},
                 .raw_exact = {{"-E", "-E"}},
                 .raw_prefix = {{"-E", "-E"}},
                 .abbreviated = {{"--eval", "--eval", "--ev"}},
                 .prefix = {{"-f", "-f"},
                            {"--file", "--file="},
                            {"--makefile", "--makefile="},
                            {"--eval", "--eval="}}});
    s.push_back({.names = {"sed", "gsed"},
                 .exact = {},
                 .raw_exact = {{"-e", "-e"}},
                 .raw_prefix = {{"-e", "-e"}}});
    return s;
  }();
  return specs;
}

const std::vector<PositionalSpec>& positional_specs() {
  static const std::vector<PositionalSpec> specs = {
      {.names = {"awk", "gawk", "mawk", "nawk"},
       .file_flags = {"-f", "--file"},
       .file_flag_prefixes = {"-f", "--file="},
       .value_flags = {"-f", "--file", "-F", "--field-separator", "-v", "--assign", "-i",
                       "--include", "-l", "--load", "-W"},
       .prefix_value_flags = {"-F", "--field-separator=", "-v", "--assign=", "--include=",
                              "--load="},
       .flag = "<program>"},
      {.names = {"xargs"},
       .value_flags = {"-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "--max-lines",
                       "-n", "--max-args", "-P", "--max-procs", "-s", "--max-chars"},
       .optional_value_flags = {"--eof", "--replace"},
       .prefix_value_flags = {"-a", "--arg-file=", "-d", "--delimiter=", "-E", "--eof=", "-I",
                              "--replace=", "-i", "-L", "--max-lines=", "-l", "-n",
                              "--max-args=", "-P", "--max-procs=", "-s", "--max-chars="},
       .flag = "<command>"},
      {.names = {"sed", "gsed"},
       .file_flags = {"-f", "--file"},
       .file_flag_prefixes = {"-f", "--file="},
       .value_flags = {"-f", "--file", "-l", "--line-length"},
       .optional_value_flags = {"-i", "--in-place"},
       .prefix_value_flags = {"-f", "--file=", "--in-place=", "--line-length="},
       .flag = "<program>"},
  };
  return specs;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// `s` starts with `prefix` and has more after it.
bool starts_with_more(std::string_view s, std::string_view prefix) {
  return s.size() > prefix.size() && starts_with(s, prefix);
}

bool contains(const Names& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

bool is_ascii_letter(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }
bool is_digit(char c) { return c >= '0' && c <= '9'; }

// "-x" with an ASCII letter x.
bool is_single_letter_flag(std::string_view flag) {
  return flag.size() == 2 && flag[0] == '-' && is_ascii_letter(flag[1]);
}

bool names_match(const Names& names, std::string_view normalized) {
  std::string_view variants[2];
  int count = detail::interpreter_name_variants(normalized, variants);
  for (int i = 0; i < count; ++i) {
    if (contains(names, variants[i])) return true;
  }
  return false;
}

std::optional<std::string_view> match_abbreviated(const FlagSpec& spec, std::string_view lower) {
  std::string_view option = lower.substr(0, lower.find('='));
  for (const AbbreviatedFlag& flag : spec.abbreviated) {
    if (option.size() >= flag.min.size() && starts_with(flag.full, option)) return flag.label;
  }
  return std::nullopt;
}

std::optional<std::string_view> match_joined_exact(const FlagSpec& spec, std::string_view token,
                                                   std::string_view lower) {
  if (contains(spec.joined_deny_exact, lower)) return std::nullopt;
  for (std::string_view prefix : spec.joined_deny_prefixes) {
    if (starts_with(lower, prefix)) return std::nullopt;
  }
  for (std::string_view flag : spec.exact) {
    if (!starts_with(flag, "--")) continue;
    if (lower.size() > flag.size() + 1 && starts_with(lower, flag) && lower[flag.size()] == '=') {
      return flag;
    }
  }
  for (std::string_view flag : spec.joined_exact ? *spec.joined_exact : spec.exact) {
    if (is_single_letter_flag(flag) && starts_with_more(token, flag)) return flag;
  }
  return std::nullopt;
}

bool cluster_prefix_allowed(const ClusterFlag& cluster, std::string_view prefix) {
  for (size_t i = 0; i < prefix.size(); ++i) {
    char c = prefix[i];
    if (cluster.prefix_chars.find(c) != std::string_view::npos) {
      if (cluster.digit_value_chars.find(c) != std::string_view::npos) {
        while (i + 1 < prefix.size() && is_digit(prefix[i + 1])) ++i;
      }
      continue;
    }
    if (cluster.numeric_record_separator && c == '0') {
      while (i + 1 < prefix.size() && is_digit(prefix[i + 1])) ++i;
      continue;
    }
    return false;
  }
  return true;
}

std::optional<std::string_view> match_cluster(const FlagSpec& spec, std::string_view token) {
  if (!starts_with(token, "-") || starts_with(token, "--")) return std::nullopt;
  for (const ClusterFlag& cluster : spec.clusters) {
    size_t index = token.find(cluster.flag, 2);
    if (index == std::string_view::npos) continue;
    if (cluster_prefix_allowed(cluster, token.substr(1, index - 1))) return cluster.label;
  }
  return std::nullopt;
}

// The label of the first rule that matches one argument, tried in the reference's order.
std::optional<std::string> match_flag_token(const FlagSpec& spec, std::string_view token) {
  for (const LabeledPrefix& raw : spec.raw_exact) {
    if (token == raw.prefix) return std::string(raw.label);
  }
  for (const LabeledPrefix& raw : spec.raw_exact) {
    if (is_single_letter_flag(raw.prefix) && starts_with_more(token, raw.prefix)) {
      return std::string(raw.label);
    }
  }
  for (const LabeledPrefix& raw : spec.raw_prefix) {
    if (starts_with_more(token, raw.prefix)) return std::string(raw.label);
  }
  std::string lower = shell::trim_lower(token);
  if (auto label = match_abbreviated(spec, lower)) return std::string(*label);
  if (contains(spec.exact, lower)) return lower;
  if (auto label = match_joined_exact(spec, token, lower)) return shell::trim_lower(*label);
  if (auto label = match_cluster(spec, token)) return std::string(*label);
  for (const LabeledPrefix& prefix : spec.prefix) {
    if (starts_with_more(lower, prefix.prefix)) return std::string(prefix.label);
  }
  return std::nullopt;
}

InlineEvalHit make_hit(std::string_view executable, const Argv& argv, std::string flag) {
  return InlineEvalHit{std::string(executable), shell::normalize_executable_token(executable),
                       std::move(flag), argv};
}

std::optional<std::string> detect_flag_form(const FlagSpec& spec, const Argv& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) continue;
    if (token == "--") {
      if (spec.scan_past_double_dash) continue;
      break;
    }
    if (auto label = match_flag_token(spec, token)) return label;
  }
  return std::nullopt;
}

bool any_prefix_with_more(const Names& prefixes, std::string_view token) {
  return std::any_of(prefixes.begin(), prefixes.end(),
                     [&](std::string_view prefix) { return starts_with_more(token, prefix); });
}

// Walks options to the first operand, which is the program (or command).
bool detect_positional_form(const PositionalSpec& spec, const Argv& argv) {
  for (size_t i = 1; i < argv.size(); ++i) {
    std::string_view token = js_trim(argv[i]);
    if (token.empty()) continue;
    if (token == "--") return i + 1 < argv.size() && !js_trim(argv[i + 1]).empty();
    if (contains(spec.file_flags, token)) return false;
    if (any_prefix_with_more(spec.file_flag_prefixes, token)) return false;
    if (contains(spec.value_flags, token)) {
      ++i;
      continue;
    }
    if (contains(spec.optional_value_flags, token)) continue;
    if (any_prefix_with_more(spec.prefix_value_flags, token)) continue;
    if (starts_with(token, "-")) continue;
    return true;
  }
  return false;
}

// The end of a trailing version suffix (-?\d+(\.\d+)*$): where it starts, or npos.
size_t version_suffix_start(std::string_view name) {
  size_t start = std::string_view::npos;
  size_t end = name.size();
  while (end > 0 && is_digit(name[end - 1])) {
    size_t group = end;
    while (group > 0 && is_digit(name[group - 1])) --group;
    start = group;
    if (group >= 2 && name[group - 1] == '.' && is_digit(name[group - 2])) {
      end = group - 1;  // another "digits." group may precede
      continue;
    }
    break;
  }
  if (start != std::string_view::npos && start > 0 && name[start - 1] == '-') --start;
  return start;
}

}  // namespace

namespace detail {

int interpreter_name_variants(std::string_view name, std::string_view out[2]) {
  out[0] = name;
  size_t start = version_suffix_start(name);
  if (start == std::string_view::npos || start == 0) return 1;
  std::string_view stripped = name.substr(0, start);
  if (utf16_length(stripped) < 2) return 1;
  out[1] = stripped;
  return 2;
}

bool is_inline_eval_interpreter_name(std::string_view name) {
  for (const FlagSpec& spec : flag_specs()) {
    if (contains(spec.names, name)) return true;
  }
  for (const PositionalSpec& spec : positional_specs()) {
    if (contains(spec.names, name)) return true;
  }
  return false;
}

}  // namespace detail

std::optional<InlineEvalHit> detect_interpreter_inline_eval_argv(const Argv& argv) {
  if (argv.empty()) return std::nullopt;
  std::string_view executable = js_trim(argv[0]);
  if (executable.empty()) return std::nullopt;
  std::string normalized = shell::normalize_executable_token(executable);
  for (const FlagSpec& spec : flag_specs()) {
    if (!names_match(spec.names, normalized)) continue;
    if (auto flag = detect_flag_form(spec, argv)) return make_hit(executable, argv, *flag);
    break;
  }
  for (const PositionalSpec& spec : positional_specs()) {
    if (!names_match(spec.names, normalized)) continue;
    if (detect_positional_form(spec, argv)) return make_hit(executable, argv, std::string(spec.flag));
    break;
  }
  return std::nullopt;
}

std::string describe_interpreter_inline_eval(const InlineEvalHit& hit) {
  if (hit.flag == "<command>") return hit.normalized_executable + " inline command";
  if (hit.flag == "<program>") return hit.normalized_executable + " inline program";
  std::string flag = hit.flag;
  for (auto [placeholder, text] : {std::pair<std::string_view, std::string_view>{"<stdin>", "program from stdin"},
                                   {"<interactive>", "interactive session"},
                                   {"<url>", "program from a URL"}}) {
    size_t at = flag.find(placeholder);
    if (at != std::string::npos) flag.replace(at, placeholder.size(), text);
  }
  return hit.normalized_executable + " " + flag;
}

bool is_interpreter_like_allowlist_pattern(std::string_view pattern) {
  std::string trimmed = shell::trim_lower(pattern);
  if (trimmed.empty()) return false;
  auto any_variant_known = [](std::string_view name) {
    std::string_view variants[2];
    int count = detail::interpreter_name_variants(name, variants);
    for (int i = 0; i < count; ++i) {
      if (detail::is_inline_eval_interpreter_name(variants[i])) return true;
    }
    return false;
  };
  if (any_variant_known(shell::normalize_executable_token(trimmed))) return true;
  std::string_view base = trimmed;
  size_t separator = base.find_last_of("/\\");
  if (separator != std::string_view::npos) base.remove_prefix(separator + 1);
  if (base.size() >= 4 && base.substr(base.size() - 4) == ".exe") base.remove_suffix(4);
  std::string stripped;
  for (char c : base) {
    if (std::string_view("*?[]{}()").find(c) == std::string_view::npos) stripped += c;
  }
  while (!stripped.empty() && (stripped.back() == '.' || stripped.back() == '-')) stripped.pop_back();
  return any_variant_known(stripped);
}

}  // namespace clawexec::policy
