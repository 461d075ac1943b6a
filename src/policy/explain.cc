// The policy explainer: from our bash parse to the steps, operators, shapes and risks the
// authorization planner needs (reference spec §3.2).
//
// Problem: the planner must know, for every command the line runs, its argv and where it sits
// in the text (to replace an executable by its resolved path later, and to tell whether a
// risk lies inside a given command), plus every construct that makes the line unanalyzable.
// Payloads of shell wrappers (bash -c '...') are commands too, written inside a quoted
// argument; their positions must be mapped back through the quoting.
//
// Approach: parse the line (and each parseable wrapper payload, two levels deep) with
// shell::parse_script, walk every command in every context, and record a step for each one
// whose name is literal. Risks come from word parts (substitutions, expansions), redirects,
// non-literal names and the parse outcome; command-level risks (eval, carriers, inline eval,
// wrappers) come from command_risks. Each walked source carries a byte map from its own
// offsets to offsets in the original text, so spans are always original-text spans.

#include "policy/explain.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <utility>

#include "base/utf.h"
#include "policy/explain_risks.h"
#include "shell/executable.h"
#include "shell/explain.h"
#include "shell/script.h"
#include "shell/word.h"

namespace clawexec::policy {
namespace {

using shell::Command;
using shell::CommandContext;
using shell::Script;
using shell::ScriptFeature;
using shell::Separator;
using shell::Word;
using shell::WordPart;
using shell::WordPartKind;

/// One source being walked: the original line or a wrapper payload.
struct Source {
  std::string_view text;
  std::vector<size_t> map;  // local byte offset -> original byte offset (size text.size()+1)
  std::optional<size_t> parent;  // wrapper step whose payload this is
  int depth = 0;
};

struct Walker {
  ShellExplanation& out;
  shell::ShellDialect dialect = shell::ShellDialect::kBash;
  size_t remaining_nodes = shell::kMaxExplainNodes;
  size_t next_id = 0;
  bool work_limit = false;
};

ByteSpan map_span(const Source& src, size_t begin, size_t end) {
  begin = std::min(begin, src.text.size());
  end = std::min(std::max(end, begin), src.text.size());
  return {src.map[begin], std::max(src.map[begin], src.map[end])};
}

StepContext step_context(CommandContext c) {
  switch (c) {
    case CommandContext::kTopLevel: return StepContext::kTopLevel;
    case CommandContext::kCommandSubstitution: return StepContext::kCommandSubstitution;
    case CommandContext::kProcessSubstitution: return StepContext::kProcessSubstitution;
    case CommandContext::kFunctionBody: return StepContext::kFunctionDefinition;
    case CommandContext::kWrapperPayload: return StepContext::kWrapperPayload;
  }
  return StepContext::kTopLevel;
}

// Per-byte map from a word's value to the source offsets of the characters that produced it.
// Falls back to the word's start for every byte when the parts do not line up with the text.
std::vector<size_t> word_value_map(const Word& word) {
  std::vector<size_t> map;
  map.reserve(word.value.size());
  size_t pos = word.offset;
  for (const WordPart& part : word.parts) {
    const std::string& t = part.text;
    size_t before = map.size();
    if (part.kind == WordPartKind::kSingleQuoted) {
      for (size_t i = 1; i + 1 < t.size(); ++i) map.push_back(pos + i);
    } else if (part.kind == WordPartKind::kUnquoted || part.kind == WordPartKind::kDoubleQuoted) {
      bool dq = part.kind == WordPartKind::kDoubleQuoted;
      size_t i = dq ? 1 : 0, stop = dq && t.size() >= 2 ? t.size() - 1 : t.size();
      while (i < stop) {
        if (t[i] == '\\' && i + 1 < stop) {
          char n = t[i + 1];
          if (n == '\n') { i += 2; continue; }
          if (!dq || n == '\\' || n == '"' || n == '$' || n == '`') {
            map.push_back(pos + i + 1);
            i += 2;
            continue;
          }
        }
        map.push_back(pos + i);
        ++i;
      }
    } else {
      for (size_t i = 0; i < part.value.size(); ++i) map.push_back(pos + std::min(i, t.size()));
    }
    if (map.size() - before != part.value.size()) {  // escapes we do not model (ANSI-C)
      map.resize(before);
      for (size_t i = 0; i < part.value.size(); ++i) map.push_back(pos);
    }
    pos += t.size();
  }
  if (map.size() != word.value.size()) map.assign(word.value.size(), word.offset);
  return map;
}

void add_risk(Walker& w, const Source& src, std::string kind, std::string text, size_t begin, size_t end,
              std::optional<size_t> step = std::nullopt) {
  Risk r;
  r.kind = std::move(kind);
  r.text = std::move(text);
  r.span = map_span(src, begin, end);
  r.step_id = step;
  r.payload_of = src.parent;
  w.out.risks.push_back(std::move(r));
}

// Substitutions anywhere in a word (also inside double quotes).
void collect_word_risks(Walker& w, const Source& src, const Word& word, std::optional<size_t> step) {
  size_t pos = word.offset;
  for (const WordPart& part : word.parts) {
    size_t end = pos + part.text.size();
    if (part.kind == WordPartKind::kCommandSubstitution) {
      add_risk(w, src, "command-substitution", part.text, pos, end, step);
    } else if (part.kind == WordPartKind::kProcessSubstitution) {
      add_risk(w, src, "process-substitution", part.text, pos, end, step);
    } else if (part.kind == WordPartKind::kDoubleQuoted && part.has_expansion) {
      const std::string& t = part.text;
      for (size_t i = 0; i < t.size(); ++i) {
        if (t[i] == '\\') { ++i; continue; }
        if (t[i] == '`' || (t[i] == '$' && i + 1 < t.size() && t[i + 1] == '(' &&
                            !(i + 2 < t.size() && t[i + 2] == '('))) {
          add_risk(w, src, "command-substitution", t, pos, end, step);
          break;
        }
      }
    }
    pos = end;
  }
}

bool is_shell_expansion_text(std::string_view t) {
  for (size_t i = 0; i + 1 < t.size(); ++i) {
    char c = t[i], n = t[i + 1];
    if (c == '`') return true;
    if (c == '$' && (n == '{' || n == '(' || n == '_' || (n >= 'A' && n <= 'Z') || (n >= 'a' && n <= 'z') ||
                     (n >= '0' && n <= '9') || n == '@' || n == '*' || n == '#' || n == '?' || n == '$' ||
                     n == '!' || n == '-')) {
      return true;
    }
    if ((c == '<' || c == '>') && n == '(') return true;
  }
  return !t.empty() && t.back() == '`';
}

void collect_shapes(ShellExplanation& out, const Script& script, bool top_level) {
  auto add = [&](const char* s) {
    out.shapes.emplace_back(s);
    if (top_level) out.top_level_shapes.emplace_back(s);
  };
  const auto& f = script.features;
  if (f.has(ScriptFeature::kBackground)) add("background");
  if (f.has(ScriptFeature::kIf)) add("if");
  if (f.has(ScriptFeature::kFor)) add("for");
  if (f.has(ScriptFeature::kWhile)) add("while");
  if (f.has(ScriptFeature::kCase)) add("case");
  if (f.has(ScriptFeature::kSubshell)) add("subshell");
  if (f.has(ScriptFeature::kGroup)) add("group");
  // (( ... )) and negation-free arithmetic commands: not a shape the reference names; treat
  // the arithmetic command as control flow so it is never auto-allowed.
  if (f.has(ScriptFeature::kControlFlow) && !f.has(ScriptFeature::kIf) && !f.has(ScriptFeature::kFor) &&
      !f.has(ScriptFeature::kWhile) && !f.has(ScriptFeature::kCase)) {
    add("arithmetic");
  }
  const auto& cmds = script.commands;
  for (size_t i = 0; i < cmds.size(); ++i) {
    switch (cmds[i].next) {
      case Separator::kPipe:
      case Separator::kPipeStderr: add("pipeline"); break;
      case Separator::kAnd: add("and"); break;
      case Separator::kOr: add("or"); break;
      case Separator::kBackground: add("background"); break;
      case Separator::kSequence: add("sequence"); break;
      case Separator::kNewline:
        for (size_t j = i + 1; j < cmds.size(); ++j) {
          if (cmds[j].context == cmds[i].context && cmds[j].begin >= cmds[i].end) {
            add("sequence");
            break;
          }
        }
        break;
      case Separator::kNone: break;
    }
  }
}

std::string_view operator_kind(std::string_view between, std::string& text) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 9> kOps{{
      {"&&", "and"}, {"||", "or"}, {"|&", "stderr-pipe"}, {"|", "pipe"}, {";", "sequence"},
      {"&", "background"}, {"\r\n", "newline-sequence"}, {"\n", "newline-sequence"}, {"\r", "newline-sequence"}}};
  size_t best = std::string_view::npos;
  std::string_view kind;
  for (const auto& [op, k] : kOps) {
    size_t at = between.find(op);
    if (at < best) {
      best = at;
      kind = k;
      text = std::string(op);
    }
  }
  return kind;
}

void walk_source(Walker& w, const Source& src);

std::string_view separator_kind(Separator next, std::string& text) {
  switch (next) {
    case Separator::kAnd: text = "&&"; return "and";
    case Separator::kOr: text = "||"; return "or";
    case Separator::kPipe: text = "|"; return "pipe";
    case Separator::kPipeStderr: text = "|&"; return "stderr-pipe";
    case Separator::kSequence: text = ";"; return "sequence";
    case Separator::kBackground: text = "&"; return "background";
    case Separator::kNewline: text = "\n"; return "newline-sequence";
    case Separator::kNone: break;
  }
  return {};
}

// Every substitution the parser read, wherever it sits (inside ${...}, $((...)), an assignment,
// a redirect target), is a risk, even where no word part shows it. Sites already inside a risk
// of their kind from this source are not repeated (the reference lists those once).
void collect_substitution_sites(Walker& w, const Source& src, const Script& script) {
  for (bool process : {false, true}) {
    std::string_view kind = process ? "process-substitution" : "command-substitution";
    // Covering spans sorted by start, with the furthest end reached so far: one binary search
    // per site tells whether any span starting before it also ends after it.
    std::vector<std::pair<size_t, size_t>> covering;
    for (const Risk& r : w.out.risks) {
      if (r.kind == kind && r.payload_of == src.parent) covering.emplace_back(r.span.begin, r.span.end);
    }
    std::sort(covering.begin(), covering.end());
    for (size_t i = 1; i < covering.size(); ++i) covering[i].second = std::max(covering[i].second, covering[i - 1].second);
    for (const shell::SubstitutionSite& site : script.substitutions) {
      if (site.process != process) continue;
      ByteSpan span = map_span(src, site.begin, site.end);
      auto after = std::upper_bound(covering.begin(), covering.end(), std::make_pair(span.begin, SIZE_MAX));
      if (after != covering.begin() && std::prev(after)->second >= span.end) continue;
      size_t begin = std::min(site.begin, src.text.size());
      size_t end = std::min(std::max(site.end, begin), src.text.size());
      add_risk(w, src, std::string(kind), std::string(src.text.substr(begin, end - begin)), begin, end);
    }
  }
}

void add_step(Walker& w, const Source& src, const Command& command, const shell::Argv& argv) {
  ExplainStep step;
  step.id = w.next_id++;
  step.parent_id = src.parent;
  step.context = step_context(command.context);
  if (src.parent && step.context == StepContext::kTopLevel) step.context = StepContext::kWrapperPayload;
  step.executable = argv[0];
  step.argv = argv;
  const Word& name = command.words[0];
  size_t begin = command.assignments.empty() ? name.offset : command.assignments.front().offset;
  size_t end = name.offset + name.text.size();
  for (const Word& word : command.words) end = std::max(end, word.offset + word.text.size());
  step.local_begin = begin;
  step.local_end = end;
  step.bucket = src.parent ? *src.parent + 1 : 0;
  step.text = std::string(src.text.substr(begin, end - begin));
  step.span = map_span(src, begin, end);
  step.executable_span = map_span(src, name.offset, name.offset + name.text.size());
  for (size_t i = 1; i < command.words.size(); ++i) {
    const Word& word = command.words[i];
    step.argument_spans.push_back(map_span(src, word.offset, word.offset + word.text.size()));
  }
  step.has_env_prelude = !command.assignments.empty();
  step.next = command.next;
  step.negated = command.negated;
  step.exact_argv.emplace();
  // An expansion in an assignment prefix can fail (dash: "bad substitution") or run code, so
  // what the command does is not known exactly either.
  bool prelude_expands = std::any_of(command.assignments.begin(), command.assignments.end(),
                                     [](const Word& a) { return a.has_expansion(); });
  for (size_t i = 0; i < command.words.size() && !prelude_expands; ++i) {
    std::optional<std::string> exact = shell::exact_word_value(command.words[i]);
    if (!exact) break;
    step.exact_argv->push_back(std::move(*exact));
  }
  if (prelude_expands || step.exact_argv->size() != command.words.size()) step.exact_argv.reset();
  size_t id = step.id;
  w.out.steps.push_back(std::move(step));

  // Arguments whose value is not literal.
  std::string exe = shell::normalize_executable_token(argv[0]);
  for (size_t i = 1; i < command.words.size(); ++i) {
    const Word& word = command.words[i];
    if (word.is_literal()) continue;
    add_risk(w, src, "dynamic-argument", word.text, word.offset, word.offset + word.text.size(), id);
    w.out.risks.back().command = exe;
    w.out.risks.back().argument_index = i;
    w.out.risks.back().expansion = word.has_expansion();
  }
  std::vector<Risk> command_risks = risks_for_argv(argv);
  for (Risk& r : command_risks) {
    r.span = w.out.steps.back().span;
    r.step_id = id;
    r.payload_of = src.parent;
    if (r.text.empty()) r.text = w.out.steps.back().text;
    w.out.risks.push_back(std::move(r));
  }

  // A wrapper payload is explained as nested commands, with offsets mapped through the word.
  if (src.depth >= shell::kMaxWrapperPayloadDepth || command.form != shell::CommandForm::kSimple) return;
  std::optional<std::string> payload = shell::explained_payload(command, argv);
  if (!payload) return;
  for (size_t i = 1; i < command.words.size(); ++i) {
    const Word& word = command.words[i];
    size_t at = word.value.find(*payload);
    if (at == std::string::npos) continue;
    std::vector<size_t> value_map = word_value_map(word);
    Source nested;
    nested.text = *payload;
    nested.parent = id;
    nested.depth = src.depth + 1;
    nested.map.reserve(payload->size() + 1);
    for (size_t k = 0; k <= payload->size(); ++k) {
      size_t vi = at + k;
      size_t local = vi < value_map.size() ? value_map[vi] : word.offset + word.text.size();
      if (vi == value_map.size() && !value_map.empty()) local = value_map.back() + 1;
      nested.map.push_back(src.map[std::min(local, src.text.size())]);
    }
    walk_source(w, nested);
    return;
  }
}

void collect_command(Walker& w, const Source& src, const Command& command) {
  // The command itself first (as the reference walks a node before its children).
  if (!command.words.empty()) {
    if (std::optional<shell::Argv> argv = shell::explained_argv(command)) {
      add_step(w, src, command, *argv);
    } else {
      const Word& name = command.words[0];
      add_risk(w, src, "dynamic-executable", name.text, name.offset, name.offset + name.text.size());
    }
  }
  // A standalone assignment (`HOME=/tmp/x; git status`) changes what later commands see, like
  // an env override or an assignment prefix; it is never analysed through.
  if (command.words.empty() && !command.assignments.empty()) {
    const Word& first = command.assignments.front();
    const Word& last = command.assignments.back();
    add_risk(w, src, "standalone-assignment", first.text, first.offset, last.offset + last.text.size());
  }
  for (const Word& word : command.assignments) collect_word_risks(w, src, word, std::nullopt);
  for (const Word& word : command.words) collect_word_risks(w, src, word, std::nullopt);
  for (const shell::Redirect& redirect : command.redirects) {
    std::string kind = redirect.op == "<<" || redirect.op == "<<-" ? "heredoc"
                       : redirect.op == "<<<"                      ? "here-string"
                                                                   : "redirect";
    size_t at = redirect.targets.empty() ? command.begin : redirect.targets.front().offset;
    size_t end = redirect.targets.empty() ? command.end : at + redirect.targets.front().text.size();
    add_risk(w, src, kind, redirect.fd + redirect.op, at, end);
    for (const Word& word : redirect.targets) collect_word_risks(w, src, word, std::nullopt);
  }
}

void walk_source(Walker& w, const Source& src) {
  shell::ParseError error;
  CommandContext ctx = src.parent ? CommandContext::kWrapperPayload : CommandContext::kTopLevel;
  Result<Script> parsed = shell::parse_script(src.text, ctx, &error, w.dialect);
  const Script& script = parsed ? *parsed : error.partial;
  if (!parsed && error.kind == shell::ParseFailure::kTooDeep) {
    w.work_limit = true;
    return;
  }
  size_t nodes = script.syntax_nodes;
  if (nodes > w.remaining_nodes) {
    w.work_limit = true;
    return;
  }
  w.remaining_nodes -= nodes;
  if (!parsed || !script.reference_syntax_error.empty()) {
    w.out.ok = false;
    size_t at = parsed ? 0 : std::min(error.offset, src.text.size());
    add_risk(w, src, "syntax-error", parsed ? script.reference_syntax_error : error.message, at, src.text.size());
  }
  for (size_t i = 0; i + 1 < src.text.size(); ++i) {
    if (src.text[i] == '\\' && (src.text[i + 1] == '\n' || src.text[i + 1] == '\r')) {
      add_risk(w, src, "line-continuation", "\\", i, i + 2);
      break;
    }
  }
  if (script.features.has(ScriptFeature::kFunction)) {
    add_risk(w, src, "function-definition", std::string(src.text), 0, src.text.size());
  }
  collect_shapes(w.out, script, !src.parent.has_value());
  size_t first_step = w.out.steps.size();
  for (const Command& command : script.commands) {
    if (!src.parent && command.context == CommandContext::kTopLevel) ++w.out.top_level_commands;
    collect_command(w, src, command);
    if (w.work_limit) return;
  }
  collect_substitution_sites(w, src, script);
  // Operators between consecutive steps of this source that share a context.
  std::map<StepContext, std::vector<size_t>> buckets;
  for (size_t i = first_step; i < w.out.steps.size(); ++i) {
    const ExplainStep& s = w.out.steps[i];
    if (s.parent_id == src.parent) buckets[s.context].push_back(i);
  }
  for (auto& [ctx_key, idx] : buckets) {
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return w.out.steps[a].local_begin < w.out.steps[b].local_begin; });
    for (size_t k = 0; k + 1 < idx.size(); ++k) {
      const ExplainStep& a = w.out.steps[idx[k]];
      const ExplainStep& b = w.out.steps[idx[k + 1]];
      if (b.local_begin < a.local_end) continue;  // nested inside a's words
      std::string text;
      // The parser's reading of the operator after `a`; the text between the two commands is
      // scanned only where the parser has none (a comment holding "&&" is not an operator).
      std::string_view kind = separator_kind(a.next, text);
      if (kind.empty()) kind = operator_kind(src.text.substr(a.local_end, b.local_begin - a.local_end), text);
      if (kind.empty()) continue;
      ExplainOperator op;
      op.id = w.out.operators.size();
      op.kind = std::string(kind);
      op.text = text;
      op.from_step = a.id;
      op.to_step = b.id;
      op.parent_id = src.parent;
      w.out.operators.push_back(std::move(op));
    }
  }
}

}  // namespace

std::string_view to_string(StepContext context) {
  switch (context) {
    case StepContext::kTopLevel: return "top-level";
    case StepContext::kCommandSubstitution: return "command-substitution";
    case StepContext::kProcessSubstitution: return "process-substitution";
    case StepContext::kFunctionDefinition: return "function-definition";
    case StepContext::kWrapperPayload: return "wrapper-payload";
  }
  return "top-level";
}

const ExplainStep* ShellExplanation::step(size_t id) const {
  if (id >= step_positions.size() || step_positions[id] >= steps.size()) return nullptr;
  return &steps[step_positions[id]];
}

bool ShellExplanation::has_shape(std::string_view shape) const {
  return std::find(shapes.begin(), shapes.end(), shape) != shapes.end();
}

bool ShellExplanation::has_risk(std::string_view kind) const {
  return std::any_of(risks.begin(), risks.end(), [&](const Risk& r) { return r.kind == kind; });
}

bool is_shell_expansion_argument(std::string_view text) { return is_shell_expansion_text(text); }

ShellExplanation explain_shell_command(std::string_view source, shell::ShellDialect dialect) {
  ShellExplanation out;
  out.source = std::string(source);
  out.dialect = dialect;
  if (utf16_length(source) > kMaxExplainUnits) {
    out.ok = false;
    out.error = "Shell command is too large to explain";
    return out;
  }
  Walker w{out, dialect};
  Source src;
  src.text = out.source;
  src.map.resize(source.size() + 1);
  for (size_t i = 0; i <= source.size(); ++i) src.map[i] = i;
  walk_source(w, src);
  if (w.work_limit) {
    ShellExplanation limited;
    limited.source = out.source;
    limited.dialect = dialect;
    limited.ok = false;
    limited.error = "Shell command is too complex to explain";
    return limited;
  }
  std::sort(out.shapes.begin(), out.shapes.end());
  out.shapes.erase(std::unique(out.shapes.begin(), out.shapes.end()), out.shapes.end());
  std::stable_sort(out.steps.begin(), out.steps.end(), [](const ExplainStep& a, const ExplainStep& b) {
    bool ta = a.context == StepContext::kTopLevel, tb = b.context == StepContext::kTopLevel;
    if (ta != tb) return ta;
    return false;
  });
  out.step_positions.assign(w.next_id, static_cast<size_t>(-1));
  for (size_t i = 0; i < out.steps.size(); ++i) out.step_positions[out.steps[i].id] = i;
  return out;
}

std::pair<size_t, size_t> utf16_span(std::string_view source, ByteSpan span) {
  size_t b = std::min(span.begin, source.size());
  size_t e = std::min(std::max(span.end, b), source.size());
  size_t ub = utf16_length(source.substr(0, b));
  return {ub, ub + utf16_length(source.substr(b, e - b))};
}

}  // namespace clawexec::policy
