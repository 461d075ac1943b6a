#pragma once
// The rows behind code_carrying.h: one per program (or subcommand), each an option grammar
// plus where the program's code comes from. Internal to the policy module.

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "policy/option_scan.h"

namespace clawexec::policy::code_rows {

/// Where a program's code comes from when no option supplied it.
enum class ProgramSource : uint8_t {
  kNone,         // operands are data (git, tar, ssh, ...)
  kFileOperand,  // the first operand is the program's file; without one it is read from stdin
  kTextOperand,  // the first operand is program text (awk, sed; the reference reports it)
  kInteractive,  // interactive by nature (editors, pagers, REPLs): a hit unless an info option
};

struct ToolRow;

struct Subcommand {
  std::string_view name;
  const ToolRow* row = nullptr;  // scanned with this row from the next argument
  std::string_view hit;          // non-empty: the subcommand itself runs code ("foreach")
};

/// Extra rules after the scan (git config writes, make VAR=value): a hit label or nullopt.
using RowCheck = std::optional<std::string> (*)(const Argv& argv, const OptionScan& scan);

struct ToolRow {
  std::vector<std::string_view> names;  // normalised executable names (empty for subcommands)
  OptionGrammar grammar;
  ProgramSource program = ProgramSource::kNone;
  std::vector<Subcommand> subcommands;  // looked up by the first operand
  RowCheck extra = nullptr;
};

/// Interpreter rows (code_carrying_interpreters.cc, code_carrying_languages.cc) and tool rows
/// (code_carrying_tools.cc, code_carrying_git.cc).
const std::vector<ToolRow>& interpreter_rows();
std::vector<ToolRow> more_interpreter_rows();
const std::vector<ToolRow>& tool_rows();
ToolRow git_row();

/// A subcommand row that carries no code (R CMD, deno fmt, ...).
const ToolRow& plain_subcommand_row();

/// A ValueCheck for perl-style -M/-m: more than "Module", "-Module" or "Module=args".
bool perl_module_has_code(std::string_view value, std::span<const std::string> rest);

// Row builders, so the tables read as option lists.
inline OptionRule sw(std::string_view name) { return {.name = name}; }
inline OptionRule val(std::string_view name) { return {.name = name, .takes = Takes::kValue}; }
inline OptionRule attached(std::string_view name) { return {.name = name, .takes = Takes::kAttached}; }
inline OptionRule code(std::string_view name, Takes takes = Takes::kValue) {
  return {.name = name, .takes = takes, .meaning = Meaning::kCode};
}
inline OptionRule code_if(std::string_view name, ValueCheck check, Takes takes = Takes::kValue) {
  return {.name = name, .takes = takes, .meaning = Meaning::kCodeIf, .check = check};
}
inline OptionRule program_file(std::string_view name) {
  return {.name = name, .takes = Takes::kValue, .meaning = Meaning::kProgramFile};
}
inline OptionRule program(std::string_view name, Takes takes = Takes::kNothing) {
  return {.name = name, .takes = takes, .meaning = Meaning::kProgram};
}
inline OptionRule interactive(std::string_view name, Takes takes = Takes::kNothing) {
  return {.name = name, .takes = takes, .meaning = Meaning::kInteractive};
}
inline OptionRule info(std::string_view name) { return {.name = name, .meaning = Meaning::kInfo}; }
inline OptionRule info_value(std::string_view name, Takes takes) {
  return {.name = name, .takes = takes, .meaning = Meaning::kInfo};
}
inline OptionRule labelled(OptionRule rule) {
  rule.label_value = true;
  return rule;
}
inline OptionRule ending(OptionRule rule) {
  rule.ends_options = true;
  return rule;
}

/// "-x" for the letter x, with static storage.
std::string_view short_option_name(char letter);
/// Appends a switch for every letter of `letters` ("bBdE" -> -b -B -d -E).
void add_switch_letters(std::vector<OptionRule>& options, std::string_view letters);
/// Appends an option taking a value for every letter of `letters`.
void add_value_letters(std::vector<OptionRule>& options, std::string_view letters);
/// Appends rules of one kind for each name.
void add_all(std::vector<OptionRule>& options, std::initializer_list<std::string_view> names,
             OptionRule (*make)(std::string_view));

/// A ValueCheck: the value is a stdin-like path (a file option pointed at stdin or /dev/fd/N).
bool stdin_like_value(std::string_view value, std::span<const std::string> rest);
/// A ValueCheck: the value is not empty (git --exec-path=DIR, but not --exec-path).
bool nonempty_value(std::string_view value, std::span<const std::string> rest);

/// "name" when `text` is short and made of name-like characters, else "" (labels are shown
/// to operators; anything else stays out of them).
std::string label_text(std::string_view text);

}  // namespace clawexec::policy::code_rows
