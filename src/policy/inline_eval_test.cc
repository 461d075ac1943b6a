// Inline-eval detection (reference §6) beyond the conformance cases: the per-interpreter flag
// rules, the positional forms, and recursion through carriers, wrappers and trampolines.

#include "policy/inline_eval.h"

#include <gtest/gtest.h>

namespace clawexec::policy {
namespace {

// "" when nothing is detected, else the description.
std::string direct(const Argv& argv) {
  std::optional<InlineEvalHit> hit = detect_interpreter_inline_eval_argv(argv);
  return hit ? describe_interpreter_inline_eval(*hit) : "";
}

std::string recursive(const Argv& argv) {
  std::optional<InlineEvalHit> hit = detect_inline_eval_argv(argv);
  return hit ? describe_interpreter_inline_eval(*hit) : "";
}

TEST(InlineEvalDirect, PythonClustersOnlyAfterSwitchLetters) {
  EXPECT_EQ(direct({"python3", "-I", "-c", "x"}), "python3 -c");
  EXPECT_EQ(direct({"python", "-Sc", "x"}), "python -c");
  EXPECT_EQ(direct({"python", "-cprint(1)"}), "python -c");
  EXPECT_EQ(direct({"python", "-Wc", "x"}), "");
  EXPECT_EQ(direct({"Python3.EXE", "-c", "1"}), "python3 -c");
  EXPECT_EQ(direct({"/usr/bin/python3.13", "script.py", "-c"}), "python3.13 -c");
}

TEST(InlineEvalDirect, NodeFamilyFlagsAndJoinedForms) {
  EXPECT_EQ(direct({"node", "--eval=1"}), "node --eval");
  EXPECT_EQ(direct({"deno", "--print", "1"}), "deno --print");
  EXPECT_EQ(direct({"node", "--evalish=1"}), "");
  EXPECT_EQ(direct({"node", "--", "-e", "1"}), "");  // "--" ends the options
}

TEST(InlineEvalDirect, PerlAndRubyClusters) {
  EXPECT_EQ(direct({"perl", "-l0e", "1"}), "perl -e");
  EXPECT_EQ(direct({"perl", "-0777pe", "1"}), "perl -e");
  EXPECT_EQ(direct({"perl", "-E", "say 1"}), "perl -e");
  EXPECT_EQ(direct({"perl", "-C0e", "1"}), "");
  EXPECT_EQ(direct({"perl", "-0xFFpe", "1"}), "");
  EXPECT_EQ(direct({"perl", "-Me", "1"}), "");
  EXPECT_EQ(direct({"ruby", "-W2e", "1"}), "ruby -e");
  EXPECT_EQ(direct({"ruby", "-00pe", "1"}), "ruby -e");
  EXPECT_EQ(direct({"ruby", "-EUTF-8", "x.rb"}), "");
}

TEST(InlineEvalDirect, RawCaseSensitiveFlags) {
  EXPECT_EQ(direct({"php", "-B", "x"}), "php -B");
  EXPECT_EQ(direct({"php", "-r", "x"}), "php -r");
  EXPECT_EQ(direct({"julia", "-Ex"}), "julia -E");
  EXPECT_EQ(direct({"make", "-E", "$(shell id)"}), "make -E");
  EXPECT_EQ(direct({"make", "-fMakefile"}), "make -f");
  EXPECT_EQ(direct({"make", "--ev", "x"}), "make --eval");
  EXPECT_EQ(direct({"sed", "-n", "-e", "p"}), "sed -e");
}

TEST(InlineEvalDirect, AbbreviationsAndDeniedJoinedForms) {
  EXPECT_EQ(direct({"awk", "--so", "x"}), "awk --source");
  EXPECT_EQ(direct({"gdb", "--ev", "x"}), "gdb --eval-command");
  EXPECT_EQ(direct({"gdb", "-ex=run"}), "gdb -ex");
  EXPECT_EQ(direct({"groovy", "-encoding=utf8"}), "");
  EXPECT_EQ(direct({"groovy", "-enfoo"}), "groovy -e");
  EXPECT_EQ(direct({"ghc", "-efoo"}), "");  // no joined forms for ghc
}

TEST(InlineEvalDirect, FindScansPastDoubleDash) {
  EXPECT_EQ(direct({"find", "--", ".", "-exec", "id"}), "find -exec");
  EXPECT_EQ(direct({"find", ".", "-name", "x"}), "");
}

TEST(InlineEvalPositional, AwkProgramsButNotScripts) {
  EXPECT_EQ(direct({"awk", "-F:", "{print}"}), "awk inline program");
  EXPECT_EQ(direct({"awk", "-F", ":", "{print}"}), "awk inline program");
  EXPECT_EQ(direct({"awk", "-v", "x=1"}), "");
  EXPECT_EQ(direct({"awk", "-f", "p.awk", "in"}), "");
  EXPECT_EQ(direct({"awk", "--", "x"}), "awk inline program");
  EXPECT_EQ(direct({"awk", "--"}), "");
}

TEST(InlineEvalPositional, XargsCommandsAndSedPrograms) {
  EXPECT_EQ(direct({"xargs", "-0"}), "");
  EXPECT_EQ(direct({"xargs", "-n", "1"}), "");
  EXPECT_EQ(direct({"xargs", "-0", "rm"}), "xargs inline command");
  EXPECT_EQ(direct({"sed", "-i", "s/x/y/", "f"}), "sed inline program");
  EXPECT_EQ(direct({"gsed", "-f", "s.sed", "in"}), "");
}

TEST(InlineEvalNames, VersionSuffixesButNeverDownToOneLetter) {
  EXPECT_EQ(direct({"lua5.4", "-e", "x"}), "lua5.4 -e");
  EXPECT_EQ(direct({"php-8", "-r", "x"}), "php-8 -r");
  EXPECT_EQ(direct({"r2", "-e", "x"}), "");
  EXPECT_EQ(direct({"R", "-e", "x"}), "r -e");
  std::string_view variants[2];
  EXPECT_EQ(detail::interpreter_name_variants("python3.13", variants), 2);
  EXPECT_EQ(variants[1], "python");
  EXPECT_EQ(detail::interpreter_name_variants("x-1.2", variants), 1);  // "x" is too short
  EXPECT_EQ(detail::interpreter_name_variants("1.2", variants), 1);
}

TEST(InlineEvalRecursive, ThroughDispatchWrappersAndCarriers) {
  EXPECT_EQ(recursive({"nice", "-n", "5", "python3", "-c", "1"}), "python3 -c");
  EXPECT_EQ(recursive({"timeout", "5", "node", "-e", "1"}), "node -e");
  EXPECT_EQ(recursive({"time", "-o", "f", "python3", "-c", "1"}), "python3 -c");
  EXPECT_EQ(recursive({"env", "-S", "python3 -c 1"}), "python3 -c");
  EXPECT_EQ(recursive({"command", "-v", "python3", "-c", "1"}), "");
  EXPECT_EQ(recursive({"sudo", "-l", "python3", "-c", "1"}), "");
  EXPECT_EQ(recursive({"sudo", "echo", "python3", "-c", "1"}), "");
  std::optional<InlineEvalHit> hit = detect_inline_eval_argv({"sudo", "env", "perl", "-e", "1"});
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->argv, (Argv{"perl", "-e", "1"}));
}

TEST(InlineEvalRecursive, LeadingAssignmentsOnlyStrippedForWrappers) {
  // The reference strips NAME=value words only before trampolines and carriers.
  EXPECT_EQ(recursive({"FOO=1", "python3", "-c", "1"}), "");
  EXPECT_EQ(recursive({"FOO=1", "env", "python3", "-c", "1"}), "python3 -c");
}

TEST(InlineEvalRecursive, PositionalShellTrampolines) {
  EXPECT_EQ(recursive({"env", "FOO=1", "sh", "-c", "$0 \"$@\"", "perl", "-e", "1"}), "perl -e");
  EXPECT_EQ(recursive({"sh", "-xc", "exec -- \"${0}\" ${@}", "python3", "-c", "1"}), "python3 -c");
  EXPECT_EQ(recursive({"sh", "-oc", "posix", "$0 \"$@\"", "python3", "-c", "1"}), "python3 -c");
  EXPECT_EQ(recursive({"sh", "-c", "$0 \"$2\" \"$1\"", "python3", "x", "-c"}), "python3 -c");
  EXPECT_EQ(recursive({"sh", "-c", "$0 $*", "python3", "-c", "1"}), "");
  EXPECT_EQ(recursive({"sh", "-c", "$0 \"$2\"", "python3", "-c", "x"}), "");
  EXPECT_EQ(recursive({"sh", "-c", "$0\n\"$@\"", "python3", "-c", "1"}), "");
  EXPECT_EQ(recursive({"sh", "-c", "echo $0", "python3", "-c", "1"}), "");
  EXPECT_EQ(recursive({"busybox", "sh", "-c", "$0 \"$@\"", "python3", "-c", "1"}), "");
}

TEST(InlineEvalRecursive, RevisitedArgvIsNotFollowedAgain) {
  // A trampoline that re-runs itself terminates.
  Argv loop = {"sh", "-c", "$0 \"$@\"", "sh", "-c", "$0 \"$@\""};
  EXPECT_EQ(recursive(loop), "");
  EXPECT_FALSE(detect_carrier_inline_eval_argv({"python3", "-c", "1"}).has_value());
  EXPECT_TRUE(detect_carrier_inline_eval_argv({"exec", "python3", "-c", "1"}).has_value());
}

TEST(InterpreterLikeAllowlistPattern, NamesAndGlobs) {
  for (const char* pattern : {"**/node", "xargs.exe", "gmake", "PERL*", "python-3", "rscript.exe", "sed.",
                              "/usr/bin/python3.13", "find"}) {
    EXPECT_TRUE(is_interpreter_like_allowlist_pattern(pattern)) << pattern;
  }
  for (const char* pattern : {"r2", "/usr/bin/rg", "", "  ", "*", "git"}) {
    EXPECT_FALSE(is_interpreter_like_allowlist_pattern(pattern)) << pattern;
  }
}

}  // namespace
}  // namespace clawexec::policy
