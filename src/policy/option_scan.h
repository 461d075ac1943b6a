#pragma once
// A table-driven command-line option scanner: walks an argv the way one program's own option
// parser would (short clusters, --long[=value], abbreviations, "--", options after operands)
// and reports which of the options it knows appeared, with their values, and the operands.
// The code-carrying detectors (code_carrying.h) describe each program as a grammar of this kind.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "policy/types.h"

namespace clawexec::policy {

/// How an option takes its value.
enum class Takes : uint8_t {
  kNothing,   // a switch; in a cluster the next character is another option
  kValue,     // short: the rest of the cluster, else the next argument; long: "=v", else the next argument
  kAttached,  // short: the rest of the cluster (possibly empty); long: "=v" only (optional value)
  kRun,       // short only: the characters `run` accepts (perl -l0, -0777), then the cluster goes on
};

/// What an option means for the question "does this command hand the program code?".
enum class Meaning : uint8_t {
  kPlain,        // nothing we care about
  kCode,         // the option (its value) is code, or loads code chosen on the command line: a hit
  kCodeIf,       // a hit when `check` says the value carries code
  kProgramFile,  // the value names the program's file: a program is supplied; stdin-like is a hit
  kProgram,      // the option supplies the program (a hit is reported elsewhere, if at all)
  kInteractive,  // starts a prompt that reads code from the terminal or stdin: a hit
  kInfo,         // prints something and exits: no program is needed
};

/// `value` of the option, `rest` = the arguments after the option (and its separate value).
using ValueCheck = bool (*)(std::string_view value, std::span<const std::string> rest);
/// How many characters of the rest of a cluster a kRun option consumes.
using RunLength = size_t (*)(std::string_view rest);

struct OptionRule {
  std::string_view name;  // as spelled: "-c", "--eval", "-exec" (a single-dash long option)
  Takes takes = Takes::kNothing;
  Meaning meaning = Meaning::kPlain;
  ValueCheck check = nullptr;  // kCodeIf
  RunLength run = nullptr;     // Takes::kRun
  bool ends_options = false;   // everything after the option (and its value) belongs to the program
  bool label_value = false;    // the hit's label includes a name-like value ("-m timeit", "-c alias.x")
  bool to_end = false;         // with space_separated_switches: an attached value still runs to the end
};

enum class LongMatch : uint8_t {
  kExact,
  // Unambiguous prefixes are accepted (getopt_long, git's parse-options). A token that is a
  // prefix of several known options counts as the first code-carrying one: the program would
  // refuse an ambiguous abbreviation, so over-reporting it costs nothing.
  kPrefix,
};

enum class UnknownLong : uint8_t {
  kSwitch,
  kMayTakeValue,  // an unknown --option without "=" is assumed to take the next argument
};

struct OptionGrammar {
  std::vector<OptionRule> options;
  bool clusters = true;            // -abc is -a -b -c
  bool single_dash_long = false;   // "-word" is looked up as a whole first (find -exec, gdb -ex)
  LongMatch long_match = LongMatch::kExact;
  UnknownLong unknown_long = UnknownLong::kSwitch;
  bool underscores_as_dashes = false;  // node: --input_type is --input-type
  bool permute = false;                // options may follow operands (GNU getopt, git)
  bool plus_options = false;           // shells: +o name, +x
  bool space_separated_switches = false;  // perl: '-w -e code' is one argument holding two switches
};

struct ScannedOption {
  const OptionRule* rule = nullptr;
  std::optional<std::string> value;
  size_t index = 0;       // argv index of the option
  size_t rest_index = 0;  // argv index after the option and its value
};

struct OptionScan {
  std::vector<ScannedOption> options;  // known options, in order
  std::vector<size_t> operands;        // argv indexes of operands
  /// argv index where an ends_options option stopped the scan (everything from here belongs
  /// to the program), or argv.size().
  size_t program_args = 0;
  bool double_dash = false;  // "--" was seen
};

/// Scans argv[start..] with the grammar. Without `permute`, the first operand ends option
/// parsing and it and everything after it are operands.
OptionScan scan_options(const Argv& argv, size_t start, const OptionGrammar& grammar);

}  // namespace clawexec::policy
