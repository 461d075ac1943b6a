// Command explanation: from a parsed script to the reference explainer's command list.
//
// Problem: the guards must reach the same verdict as the reference, whose explainer lists
// every command node of a tree-sitter-bash parse (top level, inside compound commands,
// substitutions and function bodies), parses the payload of `sh -c`-style wrappers two levels
// deep, skips commands whose name is not a literal word, and gives up when the syntax tree
// exceeds 50 000 nodes. A syntax error anywhere (also in a payload) makes the whole
// explanation unusable, and callers then fall back to a line-by-line view.
//
// Approach: parse with our parser (parse_script), turn each command into an argv with the
// reference's word-value rules, and recurse into wrapper payloads that the reference would
// parse (POSIX-parseable shell, -c style flag, payload not an expansion and found verbatim in
// one argument). Work is measured with the parser's estimate of the tree size; for input that
// does not parse, a lexical estimate of the unparsed rest is added (tree-sitter counts the
// nodes of its error recovery too, so a huge broken line still hits the limit). Unlike the
// reference, the commands read before a syntax error, and all commands of valid bash that
// only tree-sitter-bash rejects, are still listed (with outcome kUnparseable) so that
// fail-closed callers can check them.

#include "shell/explain.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "base/utf.h"
#include "shell/shell_wrappers.h"

namespace clawexec::shell {
namespace {

// Roughly two nodes per word and one per operator character; used only when a parse fails.
size_t lexical_node_estimate(std::string_view source) {
  size_t nodes = 1;
  bool in_word = false;
  for (char c : source) {
    bool blank = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    bool op = c == ';' || c == '&' || c == '|' || c == '(' || c == ')' || c == '<' || c == '>';
    if (op) nodes += 1;
    if (!blank && !op && !in_word) nodes += 2;
    in_word = !blank && !op;
  }
  return nodes;
}

bool is_plain_name(const Word& word) {
  if (word.parts.size() != 1 || word.parts[0].kind != WordPartKind::kUnquoted) return false;
  const std::string& t = word.text;
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

bool is_assignment_text(std::string_view text) {
  size_t i = 0;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_' ||
                             static_cast<unsigned char>(text[i]) >= 0x80)) {
    ++i;
  }
  if (i == 0 || text.substr(0, i) == "_") return false;
  if (i < text.size() && text[i] == '[') {
    i = text.find(']', i);
    if (i == std::string_view::npos) return false;
    ++i;
  }
  if (i < text.size() && text[i] == '+') ++i;
  return i < text.size() && text[i] == '=';
}

struct Walk {
  ShellDialect dialect = ShellDialect::kBash;
  size_t remaining = kMaxExplainNodes;
  bool parse_error = false;
  bool work_limit = false;
  std::vector<ExplainedCommand> commands;
};

}  // namespace

std::optional<Argv> explained_argv(const Command& command) {
  if (command.words.empty()) return std::nullopt;
  const Word& name = command.words[0];
  if (command.form == CommandForm::kSimple &&
      (command.name_has_line_continuation || !name.is_literal())) {
    return std::nullopt;
  }
  Argv argv{name.value};
  size_t end = command.words.size();
  // tree-sitter-bash reads `[ ... ]` as a test whose closing bracket is not an operand.
  if (name.value == "[" && end > 1 && command.words[end - 1].value == "]") --end;
  for (size_t i = 1; i < end; ++i) {
    // In declarations, a bare NAME is a variable name, not an operand.
    if (command.form == CommandForm::kDeclaration && is_plain_name(command.words[i])) continue;
    // ...and NAME=value is kept as written, minus backslash escapes.
    if (command.form == CommandForm::kDeclaration && is_assignment_text(command.words[i].text)) {
      argv.push_back(decode_unquoted(command.words[i].text));
      continue;
    }
    argv.push_back(explain_value(command.words[i]));
  }
  if (argv[0].empty()) return std::nullopt;
  return argv;
}

std::optional<std::string> explained_payload(const Command& command, const Argv& argv) {
  std::optional<ShellWrapper> wrapper = find_shell_wrapper(argv);
  if (!wrapper) return std::nullopt;
  bool found_in_argument = false;
  for (size_t i = 1; i < command.words.size(); ++i) {
    const Word& word = command.words[i];
    if (!word.is_literal() && argv[i] == wrapper->payload) return std::nullopt;  // dynamic payload
    if (argv[i].find(wrapper->payload) != std::string::npos) found_in_argument = true;
  }
  if (!found_in_argument || !is_parseable_shell_wrapper(argv, *wrapper)) return std::nullopt;
  return wrapper->payload;
}

namespace {

void explain_into(std::string_view source, CommandContext context, int payload_depth, Walk& walk) {
  ParseError error;
  Result<Script> parsed = parse_script(source, context, &error, walk.dialect);
  // For input that does not parse: what was parsed before the error, plus an estimate for
  // the rest (tree-sitter counts the nodes of its error recovery too).
  size_t nodes =
      parsed ? parsed->syntax_nodes
             : error.partial.syntax_nodes +
                   lexical_node_estimate(source.substr(std::min(error.offset, source.size())));
  if ((!parsed && error.kind == ParseFailure::kTooDeep) || nodes > walk.remaining) {
    walk.work_limit = true;
    return;
  }
  walk.remaining -= nodes;
  const Script& script = parsed ? *parsed : error.partial;
  if (!parsed || !script.reference_syntax_error.empty()) walk.parse_error = true;
  for (const Command& command : script.commands) {
    std::optional<Argv> argv = explained_argv(command);
    if (!argv) continue;
    walk.commands.push_back(ExplainedCommand{*argv, command.context});
    if (payload_depth >= kMaxWrapperPayloadDepth || command.form != CommandForm::kSimple) continue;
    if (std::optional<std::string> payload = explained_payload(command, *argv)) {
      explain_into(*payload, CommandContext::kWrapperPayload, payload_depth + 1, walk);
      if (walk.work_limit) return;
    }
  }
}

}  // namespace

std::string explain_value(const Word& word) {
  if (word.parts.size() > 1 && has_unescaped_pattern(word.text)) return decode_unquoted(word.text);
  return word.value;
}

bool dialects_may_differ(std::string_view source) {
  for (std::string_view marker : {"$'", "$\"", "|&", "&>"}) {
    if (source.find(marker) != std::string_view::npos) return true;
  }
  return false;
}

Explanation explain_command(std::string_view source, ShellDialect dialect) {
  Explanation explanation;
  if (utf16_length(source) > kMaxExplainSourceUnits) {
    explanation.outcome = ExplainOutcome::kUnparseable;
    return explanation;
  }
  Walk walk;
  walk.dialect = dialect;
  explain_into(source, CommandContext::kTopLevel, 0, walk);
  if (walk.work_limit) {
    explanation.outcome = ExplainOutcome::kWorkLimitExceeded;
    return explanation;
  }
  if (walk.parse_error) explanation.outcome = ExplainOutcome::kUnparseable;
  for (ExplainedCommand& c : walk.commands) {
    if (c.context == CommandContext::kTopLevel) explanation.commands.push_back(std::move(c));
  }
  for (ExplainedCommand& c : walk.commands) {
    if (c.context != CommandContext::kTopLevel) explanation.commands.push_back(std::move(c));
  }
  return explanation;
}

}  // namespace clawexec::shell
