// Option scanning by grammar: where one program's option parser would put each argument.
//
// Problem: "is there a program operand?" and "which option got which value?" depend on every
// detail of the program's own parser: -Wdefault -c code is python's -c (W took "default"),
// -avze ssh gives rsync's -e the value "ssh", --expr=... is sed's --expression, --input_type is
// node's --input-type, '-w -e code' is two perl switches in one argument. Guessing one rule for
// all programs either misses code or invents it.
//
// Approach: a grammar per program (its options and how each takes a value, plus the parser's
// habits: clusters, abbreviations, options after operands, single-dash long options) and one
// scanner that applies it. Unknown short options are read as switches; unknown long options
// as switches or, where a missed value would hide a missing program, as taking the next
// argument.

#include "policy/option_scan.h"

namespace clawexec::policy {
namespace {

bool is_hit_meaning(Meaning meaning) {
  return meaning == Meaning::kCode || meaning == Meaning::kCodeIf || meaning == Meaning::kInteractive ||
         meaning == Meaning::kProgramFile;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

bool is_long_name(std::string_view name, bool single_dash) {
  if (name.size() > 2 && name[0] == '-' && name[1] == '-') return true;
  return single_dash && name.size() > 2 && name[0] == '-';
}

// The option spelled `spelled` ("--eval", "-exec") by exact name, else by abbreviation.
const OptionRule* find_long(const OptionGrammar& grammar, std::string_view spelled) {
  for (const OptionRule& rule : grammar.options) {
    if (rule.name == spelled) return &rule;
  }
  if (grammar.long_match != LongMatch::kPrefix) return nullptr;
  const OptionRule* first = nullptr;
  for (const OptionRule& rule : grammar.options) {
    if (!is_long_name(rule.name, grammar.single_dash_long)) continue;
    if (rule.name.size() <= spelled.size() || rule.name.substr(0, spelled.size()) != spelled) continue;
    if (is_hit_meaning(rule.meaning)) return &rule;
    if (!first) first = &rule;
  }
  return first;
}

const OptionRule* find_short(const OptionGrammar& grammar, char letter) {
  for (const OptionRule& rule : grammar.options) {
    if (rule.name.size() == 2 && rule.name[0] == '-' && rule.name[1] == letter) return &rule;
  }
  return nullptr;
}

class Scanner {
 public:
  Scanner(const Argv& argv, const OptionGrammar& grammar) : argv_(argv), grammar_(grammar) {
    out_.program_args = argv.size();
  }

  OptionScan run(size_t start) {
    size_t i = start;
    bool options_done = false;
    while (i < argv_.size() && !stopped_) {
      std::string_view token = argv_[i];
      if (options_done) {
        out_.operands.push_back(i++);
        continue;
      }
      if (token == "--") {
        out_.double_dash = true;
        options_done = true;
        ++i;
        continue;
      }
      bool dash = token.size() >= 2 && token[0] == '-';
      bool plus = grammar_.plus_options && token.size() >= 2 && token[0] == '+';
      if (!dash && !plus) {
        out_.operands.push_back(i++);
        if (!grammar_.permute) options_done = true;
        continue;
      }
      i = dash && scan_long(token, i) ? next_ : scan_short(token, i);
    }
    return std::move(out_);
  }

 private:
  void add(const OptionRule* rule, std::optional<std::string> value, size_t index, size_t rest_index) {
    out_.options.push_back({rule, std::move(value), index, rest_index});
    if (rule->ends_options) {
      out_.program_args = rest_index;
      stopped_ = true;
    }
  }

  // A long option ("--name[=value]", or "-name" in single-dash grammars). False when the
  // token is to be read as a short cluster instead; `next_` is the index after it otherwise.
  bool scan_long(std::string_view token, size_t index) {
    bool double_dash = token[1] == '-';
    if (!double_dash && !grammar_.single_dash_long) return false;
    size_t equals = token.find('=');
    std::string spelled(token.substr(0, equals));
    if (grammar_.underscores_as_dashes) {
      for (size_t k = 2; k < spelled.size(); ++k) {
        if (spelled[k] == '_') spelled[k] = '-';
      }
    }
    const OptionRule* rule = find_long(grammar_, spelled);
    if (!rule && !double_dash) return false;  // not a known single-dash long option: a cluster
    next_ = index + 1;
    std::optional<std::string> value;
    if (equals != std::string_view::npos) value = std::string(token.substr(equals + 1));
    if (!rule) {
      // An unknown option is read as taking the next argument (which may hide that no program
      // follows), but not when that argument is itself an option, which must stay visible.
      bool may_take = grammar_.unknown_long == UnknownLong::kMayTakeValue && !value && next_ < argv_.size() &&
                      !argv_[next_].starts_with("-");
      if (may_take) ++next_;
      return true;
    }
    if (!value && rule->takes == Takes::kValue && next_ < argv_.size()) value = argv_[next_++];
    add(rule, std::move(value), index, next_);
    return true;
  }

  // Where an attached value ends: the token's end, or (perl) the next white space.
  size_t attached_end(std::string_view token, size_t from, const OptionRule& rule) const {
    if (!grammar_.space_separated_switches || rule.to_end) return token.size();
    size_t end = from;
    while (end < token.size() && !is_space(token[end])) ++end;
    return end;
  }

  size_t scan_short(std::string_view token, size_t index) {
    size_t next = index + 1;
    if (!grammar_.clusters) {
      const OptionRule* rule = find_short(grammar_, token[1]);
      if (!rule) return next;
      std::optional<std::string> value;
      if (rule->takes == Takes::kValue || rule->takes == Takes::kAttached) {
        if (token.size() > 2) value = std::string(token.substr(2));
        else if (rule->takes == Takes::kValue && next < argv_.size()) value = argv_[next++];
      } else if (token.size() > 2) {
        return next;  // "-xyz" is not option -x here
      }
      add(rule, std::move(value), index, next);
      return next;
    }
    size_t j = 1;
    while (j < token.size() && !stopped_) {
      char letter = token[j];
      if (grammar_.space_separated_switches && is_space(letter)) {
        while (j < token.size() && is_space(token[j])) ++j;
        if (j < token.size() && token[j] == '-') ++j;
        continue;
      }
      const OptionRule* rule = find_short(grammar_, letter);
      if (!rule) {
        ++j;  // an unknown letter: read as a switch
        continue;
      }
      switch (rule->takes) {
        case Takes::kNothing:
          add(rule, std::nullopt, index, next);
          ++j;
          break;
        case Takes::kRun: {
          size_t length = rule->run ? rule->run(token.substr(j + 1)) : 0;
          add(rule, std::string(token.substr(j + 1, length)), index, next);
          j += 1 + length;
          break;
        }
        case Takes::kValue:
        case Takes::kAttached: {
          size_t end = attached_end(token, j + 1, *rule);
          std::optional<std::string> value;
          if (end > j + 1) {
            value = std::string(token.substr(j + 1, end - j - 1));
          } else if (rule->takes == Takes::kValue && end == token.size() && next < argv_.size()) {
            value = argv_[next++];
          } else if (rule->takes == Takes::kAttached) {
            value = std::string();
          }
          add(rule, std::move(value), index, next);
          j = end;
          break;
        }
      }
    }
    return next;
  }

  const Argv& argv_;
  const OptionGrammar& grammar_;
  OptionScan out_;
  size_t next_ = 0;
  bool stopped_ = false;
};

}  // namespace

OptionScan scan_options(const Argv& argv, size_t start, const OptionGrammar& grammar) {
  return Scanner(argv, grammar).run(start);
}

}  // namespace clawexec::policy
