// The option scanner: each parser habit a grammar can declare decides where values and
// operands are, as the programs' own parsers do.

#include "policy/option_scan.h"

#include <gtest/gtest.h>

namespace clawexec::policy {
namespace {

OptionRule rule(std::string_view name, Takes takes = Takes::kNothing, Meaning meaning = Meaning::kPlain) {
  return {.name = name, .takes = takes, .meaning = meaning};
}

// "name=value" for each option (name alone without a value), then "| operand..." .
std::string scan(const Argv& argv, const OptionGrammar& grammar) {
  OptionScan s = scan_options(argv, 1, grammar);
  std::string out;
  for (const ScannedOption& o : s.options) {
    out += std::string(o.rule->name) + (o.value ? "=" + *o.value : "") + " ";
  }
  out += "|";
  for (size_t i : s.operands) out += " " + argv[i];
  return out;
}

OptionGrammar python_like() {
  return {.options = {rule("-c", Takes::kValue), rule("-W", Takes::kValue), rule("-b"), rule("-i")}};
}

TEST(OptionScan, ClusterValuesTakeTheRestOfTheArgumentElseTheNextOne) {
  OptionGrammar g = python_like();
  EXPECT_EQ(scan({"py", "-bi", "-c", "x", "f"}, g), "-b -i -c=x | f");
  EXPECT_EQ(scan({"py", "-Wdefault", "-cCODE"}, g), "-W=default -c=CODE |");
  EXPECT_EQ(scan({"py", "-Wc", "x"}, g), "-W=c | x");  // -W took "c": x is the program
  EXPECT_EQ(scan({"py", "-bc", "x"}, g), "-b -c=x |");
  EXPECT_EQ(scan({"py", "-zb", "f"}, g), "-b | f");  // unknown letters are switches
}

TEST(OptionScan, TheFirstOperandEndsOptionsUnlessTheGrammarPermutes) {
  OptionGrammar g = python_like();
  EXPECT_EQ(scan({"py", "f", "-c", "x"}, g), "| f -c x");
  g.permute = true;
  EXPECT_EQ(scan({"py", "f", "-c", "x"}, g), "-c=x | f");
  EXPECT_EQ(scan({"py", "--", "-c", "x"}, g), "| -c x");
  EXPECT_EQ(scan({"py", "-", "-b"}, g), "-b | -");  // "-" is an operand
}

TEST(OptionScan, LongOptionsTakeEqualsOrTheNextArgument) {
  OptionGrammar g{.options = {rule("--eval", Takes::kValue), rule("--in-place", Takes::kAttached), rule("--quiet")}};
  EXPECT_EQ(scan({"t", "--eval=1", "--eval", "2", "f"}, g), "--eval=1 --eval=2 | f");
  EXPECT_EQ(scan({"t", "--in-place", "f"}, g), "--in-place | f");
  EXPECT_EQ(scan({"t", "--in-place=.bak", "f"}, g), "--in-place=.bak | f");
  EXPECT_EQ(scan({"t", "--ev", "1"}, g), "| 1");  // exact matching by default
}

TEST(OptionScan, PrefixMatchingPrefersCodeCarryingOptionsAndExactNames) {
  OptionGrammar g{.options = {rule("--checkpoint", Takes::kAttached), rule("--check-links"),
                              rule("--checkpoint-action", Takes::kValue, Meaning::kCode),
                              rule("--to-stdout"), rule("--to-command", Takes::kValue, Meaning::kCode)},
                  .long_match = LongMatch::kPrefix};
  EXPECT_EQ(scan({"tar", "--checkpoint=1"}, g), "--checkpoint=1 |");
  EXPECT_EQ(scan({"tar", "--checkpoint-a=exec=x"}, g), "--checkpoint-action=exec=x |");
  EXPECT_EQ(scan({"tar", "--to=x"}, g), "--to-command=x |");  // ambiguous for tar: it refuses
  EXPECT_EQ(scan({"tar", "--check-l"}, g), "--check-links |");
}

TEST(OptionScan, UnknownLongOptionsMayTakeTheNextArgument) {
  OptionGrammar g{.options = {rule("--no-warnings")}};
  EXPECT_EQ(scan({"node", "--title", "x", "s.js"}, g), "| x s.js");
  g.unknown_long = UnknownLong::kMayTakeValue;
  EXPECT_EQ(scan({"node", "--title", "x", "s.js"}, g), "| s.js");
  EXPECT_EQ(scan({"node", "--title=x", "s.js"}, g), "| s.js");
  EXPECT_EQ(scan({"node", "--no-warnings", "s.js"}, g), "--no-warnings | s.js");
  // An option after an unknown one is still read as an option.
  EXPECT_EQ(scan({"node", "--new-switch", "--no-warnings", "s.js"}, g), "--no-warnings | s.js");
}

TEST(OptionScan, UnderscoresCanSpellDashes) {
  OptionGrammar g{.options = {rule("--input-type", Takes::kValue)}, .underscores_as_dashes = true};
  EXPECT_EQ(scan({"node", "--input_type", "module"}, g), "--input-type=module |");
}

TEST(OptionScan, SingleDashLongOptionsAreTriedBeforeClusters) {
  OptionGrammar g{.options = {rule("-ex", Takes::kValue), rule("-x", Takes::kValue), rule("-batch")},
                  .clusters = false,
                  .single_dash_long = true,
                  .long_match = LongMatch::kPrefix};
  EXPECT_EQ(scan({"gdb", "-ex", "run", "-x", "f", "-bat"}, g), "-ex=run -x=f -batch |");
}

TEST(OptionScan, PerlSwitchesMayShareOneArgumentSeparatedBySpaces) {
  OptionGrammar g{.options = {rule("-w"), {.name = "-e", .takes = Takes::kValue, .to_end = true},
                              {.name = "-i", .takes = Takes::kAttached},
                              {.name = "-l", .takes = Takes::kRun, .run = [](std::string_view rest) -> size_t {
                                 size_t n = 0;
                                 while (n < rest.size() && rest[n] >= '0' && rest[n] <= '7') ++n;
                                 return n;
                               }}},
                  .space_separated_switches = true};
  // perl's -e takes the rest of the argument, the space included.
  EXPECT_EQ(scan({"perl", "-w -e print 1"}, g), "-w -e= print 1 |");
  EXPECT_EQ(scan({"perl", "-i.bak -e x"}, g), "-i=.bak -e= x |");
  EXPECT_EQ(scan({"perl", "-l0e", "x"}, g), "-l=0 -e=x |");
  g.space_separated_switches = false;
  EXPECT_EQ(scan({"perl", "-i.bak -e x"}, g), "-i=.bak -e x |");
}

TEST(OptionScan, PlusOptionsReadLikeDashOptions) {
  OptionGrammar g{.options = {rule("-o", Takes::kValue)}, .plus_options = true};
  EXPECT_EQ(scan({"sh", "+o", "posix", "s.sh"}, g), "-o=posix | s.sh");
}

TEST(OptionScan, AnOptionThatEndsOptionsHandsTheRestToTheProgram) {
  OptionRule m = rule("-m", Takes::kValue);
  m.ends_options = true;
  OptionGrammar g{.options = {m, rule("-c", Takes::kValue)}};
  Argv argv{"py", "-m", "timeit", "-c", "x"};
  OptionScan s = scan_options(argv, 1, g);
  ASSERT_EQ(s.options.size(), 1u);
  EXPECT_EQ(*s.options[0].value, "timeit");
  EXPECT_EQ(s.program_args, 3u);
  EXPECT_TRUE(s.operands.empty());
}

}  // namespace
}  // namespace clawexec::policy
