// Code-carrying command lines for strictInlineEval: the engine over the program rows.
//
// Problem: strict inline eval promises that an interpreter handed code rather than a program
// file the operator can inspect always needs a human. The reference's rules (§6) see -c/-e
// flags and awk/sed program operands only, so python3 -m timeit CODE, echo CODE | python3,
// python3 /dev/stdin, a REPL fed later through `process write`, perl -M'x;CODE', node --import
// data:..., sed -f /dev/stdin and git -c alias.x='!cmd' all ran unasked.
//
// Approach: every covered program is a row (code_carrying_rows.h): its option grammar, where
// its program comes from, and its subcommands. The engine scans argv with the row's grammar,
// reports the first option whose meaning is code (or an interactive prompt, or a program file
// that is stdin or a device), then follows the subcommand table, then asks where the program
// comes from when no option supplied one: no program file means stdin; an interactive program
// is a hit unless an option only prints information.

#include "policy/code_carrying.h"

#include <algorithm>
#include <array>
#include <unordered_map>

#include "base/utf.h"
#include "policy/code_carrying_rows.h"
#include "shell/executable.h"

namespace clawexec::policy {
namespace {

using code_rows::ProgramSource;
using code_rows::ToolRow;

constexpr int kMaxSubcommandDepth = 4;

std::string option_label(const ScannedOption& option) {
  std::string label(option.rule->name);
  if (option.rule->label_value && option.value) {
    std::string_view value = *option.value;
    std::string text = code_rows::label_text(value.substr(0, value.find('=')));
    if (!text.empty()) label += " " + text;
  }
  return label;
}

std::string with_prefix(std::string_view prefix, std::string_view label) {
  return prefix.empty() ? std::string(label) : std::string(prefix) + " " + std::string(label);
}

std::optional<std::string> analyze(const ToolRow& row, const Argv& argv, size_t start, const std::string& prefix,
                                   int depth);

// The hit an option carries, if any; `program` / `info` record what the option supplies.
std::optional<std::string> option_hit(const ScannedOption& option, const Argv& argv, bool& program, bool& info) {
  std::span<const std::string> rest;
  if (option.rest_index < argv.size()) rest = std::span<const std::string>(argv).subspan(option.rest_index);
  switch (option.rule->meaning) {
    case Meaning::kPlain: return std::nullopt;
    case Meaning::kCode:
    case Meaning::kInteractive: return option_label(option);
    case Meaning::kCodeIf:
      if (option.rule->check && option.rule->check(option.value.value_or(""), rest)) return option_label(option);
      // An option that ends the interpreter's options selected the program (python -m pytest).
      if (option.rule->ends_options) program = true;
      return std::nullopt;
    case Meaning::kProgramFile:
      program = true;
      if (option.value && is_stdin_like_program_path(*option.value)) {
        std::string text = code_rows::label_text(*option.value);
        return std::string(option.rule->name) + " " + (text.empty() ? "<stdin>" : text);
      }
      return std::nullopt;
    case Meaning::kProgram: program = true; return std::nullopt;
    case Meaning::kInfo: info = true; return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> subcommand_hit(const ToolRow& row, const Argv& argv, const OptionScan& scan,
                                          const std::string& prefix, int depth, bool& matched) {
  matched = false;
  if (row.subcommands.empty() || scan.operands.empty()) return std::nullopt;
  size_t first = scan.operands.front();
  std::string_view name = argv[first];
  for (const code_rows::Subcommand& sub : row.subcommands) {
    if (sub.name != name) continue;
    matched = true;
    if (!sub.hit.empty()) return with_prefix(prefix, sub.hit);
    if (sub.row && depth < kMaxSubcommandDepth) return analyze(*sub.row, argv, first + 1, with_prefix(prefix, name), depth + 1);
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::string> analyze(const ToolRow& row, const Argv& argv, size_t start, const std::string& prefix,
                                   int depth) {
  OptionScan scan = scan_options(argv, start, row.grammar);
  bool program = false;
  bool info = false;
  for (const ScannedOption& option : scan.options) {
    if (auto hit = option_hit(option, argv, program, info)) return with_prefix(prefix, *hit);
  }
  if (row.extra) {
    if (auto hit = row.extra(argv, scan)) return with_prefix(prefix, *hit);
  }
  bool matched = false;
  if (auto hit = subcommand_hit(row, argv, scan, prefix, depth, matched)) return hit;
  if (matched) return std::nullopt;
  switch (row.program) {
    case ProgramSource::kNone:
    case ProgramSource::kTextOperand: return std::nullopt;
    case ProgramSource::kInteractive:
      if (info || program) return std::nullopt;  // R -f file, gdb -batch, sftp -b file
      return with_prefix(prefix, "<interactive>");
    case ProgramSource::kFileOperand: {
      if (program) return std::nullopt;
      if (scan.operands.empty()) {
        if (info) return std::nullopt;
        return with_prefix(prefix, "<stdin>");
      }
      std::string_view operand = argv[scan.operands.front()];
      if (!is_stdin_like_program_path(operand)) return std::nullopt;
      std::string text = operand == "-" ? "" : code_rows::label_text(operand);
      return with_prefix(prefix, text.empty() ? "<stdin>" : text);
    }
  }
  return std::nullopt;
}

// The row for a normalised name (or the name without its version suffix), by hash lookup:
// this runs for every analysed segment.
const ToolRow* find_row(std::string_view normalized) {
  using Index = std::unordered_map<std::string_view, const ToolRow*>;
  static const Index index = [] {
    Index built;
    for (const auto* rows : {&code_rows::interpreter_rows(), &code_rows::tool_rows()}) {
      for (const ToolRow& row : *rows) {
        for (std::string_view name : row.names) built.emplace(name, &row);
      }
    }
    return built;
  }();
  std::string_view variants[2];
  int count = detail::interpreter_name_variants(normalized, variants);
  for (int i = 0; i < count; ++i) {
    auto found = index.find(variants[i]);
    if (found != index.end()) return found->second;
  }
  return nullptr;
}

}  // namespace

namespace code_rows {

std::string_view short_option_name(char letter) {
  // Stable storage for the names "-a".."-~" the rules point at.
  static const std::array<std::string, 128> kShortNames = [] {
    std::array<std::string, 128> names;
    for (size_t c = 0; c < names.size(); ++c) names[c] = std::string("-") + static_cast<char>(c);
    return names;
  }();
  return kShortNames[static_cast<unsigned char>(letter) & 0x7f];
}

void add_switch_letters(std::vector<OptionRule>& options, std::string_view letters) {
  for (char letter : letters) options.push_back(sw(short_option_name(letter)));
}

void add_value_letters(std::vector<OptionRule>& options, std::string_view letters) {
  for (char letter : letters) options.push_back(val(short_option_name(letter)));
}

void add_all(std::vector<OptionRule>& options, std::initializer_list<std::string_view> names,
             OptionRule (*make)(std::string_view)) {
  for (std::string_view name : names) options.push_back(make(name));
}

bool stdin_like_value(std::string_view value, std::span<const std::string>) { return is_stdin_like_program_path(value); }

bool nonempty_value(std::string_view value, std::span<const std::string>) { return !value.empty(); }

std::string label_text(std::string_view text) {
  if (text.empty() || text.size() > 64) return {};
  for (char c : text) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              std::string_view("._-/:@+").find(c) != std::string_view::npos;
    if (!ok) return {};
  }
  return std::string(text);
}

}  // namespace code_rows

bool is_stdin_like_program_path(std::string_view path) {
  if (path == "-") return true;
  if (path.empty()) return false;
  // Lexically: "." and empty segments vanish, ".." pops. A relative path reaches /dev or
  // /proc only by climbing out of the working directory (the analysis does not know it).
  std::vector<std::string_view> segments;
  bool climbed_out = false;
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = std::min(path.find('/', start), path.size());
    std::string_view segment = path.substr(start, end - start);
    if (segment == "..") {
      if (segments.empty()) climbed_out = true;
      else segments.pop_back();
    } else if (!segment.empty() && segment != ".") {
      segments.push_back(segment);
    }
    start = end + 1;
  }
  if (path.front() != '/' && !climbed_out) return false;
  if (segments.size() < 2) return false;
  if (segments[0] == "dev") return !(segments.size() == 2 && segments[1] == "null");
  return segments[0] == "proc";
}

std::optional<InlineEvalHit> detect_code_carrying_argv(const Argv& argv) {
  if (argv.empty()) return std::nullopt;
  std::string_view executable = js_trim(argv[0]);
  if (executable.empty()) return std::nullopt;
  std::string normalized = shell::normalize_executable_token(executable);
  const ToolRow* row = find_row(normalized);
  if (!row) return std::nullopt;
  std::optional<std::string> flag = analyze(*row, argv, 1, "", 0);
  if (!flag) return std::nullopt;
  return InlineEvalHit{std::string(executable), std::move(normalized), std::move(*flag), argv};
}

}  // namespace clawexec::policy
