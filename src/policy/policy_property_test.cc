// Property test of the gateway decision over generated command lines (the deterministic
// companion of fuzz/fuzz_policy_analyzer.cc, which runs only with clang).
//
// Property: an unanalyzable command is never allowed without a human. Under `allowlist`
// security a command whose plan failed, or with a prompt-only segment, is never kAllow; with
// ask=on-miss it is kAsk; and when nobody answers, an ask fallback other than `full` never
// approves it.
//
// Approach: a fixed seed drives a generator that strings together words, quotes, $VAR, $(...),
// backquotes, redirects, heredocs, ; && || | &, ( ) { }, if/for, sh -c '...', env X=1 and
// newlines, recursively. Each command is decided against three allowlists ("*", "/usr/bin/*",
// a mix of names and paths) in an in-memory world where every /usr/bin/<name> is executable.
// The test also requires that the generator reaches both sides: enough unanalyzable commands
// and enough that are allowed outright, so it cannot pass by generating only one kind.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "policy/decide.h"
#include "policy/plan.h"
#include "policy/safe_bins.h"
#include "shell/script.h"

namespace clawexec::policy {
namespace {

constexpr std::string_view kUsrBin = "/usr/bin/";

bool in_usr_bin(const std::string& path) {
  if (path.size() <= kUsrBin.size() || path.compare(0, kUsrBin.size(), kUsrBin) != 0) return false;
  return path.find('/', kUsrBin.size()) == std::string::npos;
}

class CommandGenerator {
 public:
  explicit CommandGenerator(uint32_t seed) : rng_(seed) {}

  std::string command() { return sequence(0); }

 private:
  size_t below(size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng_); }
  template <size_t N>
  const char* pick(const char* const (&items)[N]) { return items[below(N)]; }

  std::string word(int depth) {
    static const char* const kPlain[] = {"git", "status", "ls", "-la", "src", "head", "-n", "5", "echo", "hi",
                                         "npm", "test", "cat", "file.txt", "python3", "-c", "wc", "-l", "tr",
                                         "a-z", "/usr/bin/git", "./run.sh", "*.ts", "~/bin/tool", "--", "x=1"};
    switch (below(depth > 2 ? 3 : 9)) {
      case 0: case 1: case 2: return pick(kPlain);
      case 3: return std::string("'") + pick(kPlain) + " " + pick(kPlain) + "'";
      case 4: return std::string("\"") + pick(kPlain) + " $HOME\"";
      case 5: return pick({"$VAR", "${HOME}", "$1", "\"$@\"", "$0"});
      case 6: return "$(" + simple(depth + 1) + ")";
      case 7: return "`" + simple(depth + 1) + "`";
      default: return pick({"<(ls)", "\\\n", "'$(id)'", "\"a && b\""});
    }
  }

  std::string simple(int depth) {
    std::string out;
    switch (below(6)) {
      case 0: out = "env X=1 "; break;
      case 1: out = "FOO=bar "; break;
      default: break;
    }
    size_t n = 1 + below(4);
    for (size_t i = 0; i < n; ++i) out += (i ? " " : "") + word(depth);
    switch (below(10)) {
      case 0: out += " > out.txt"; break;
      case 1: out += " 2>&1"; break;
      case 2: out += " < in.txt"; break;
      case 3: out += " <<EOF\nbody $X\nEOF\n"; break;
      case 4: out += " <<< word"; break;
      default: break;
    }
    return out;
  }

  std::string command_unit(int depth) {
    if (depth > 2) return simple(depth);
    switch (below(12)) {
      case 0: return "sh -c '" + simple(depth + 1) + "'";
      case 1: return "bash -c \"" + simple(depth + 1) + "\"";
      case 2: return "(" + sequence(depth + 1) + ")";
      case 3: return "{ " + sequence(depth + 1) + "; }";
      case 4: return "if " + simple(depth + 1) + "; then " + simple(depth + 1) + "; fi";
      case 5: return "for f in a b; do " + simple(depth + 1) + "; done";
      case 6: return "sh -c '$0 \"$@\"' " + simple(depth + 1);
      default: return simple(depth);
    }
  }

  std::string sequence(int depth) {
    static const char* const kOps[] = {" ; ", " && ", " || ", " | ", " & ", "\n", " |& "};
    std::string out = command_unit(depth);
    size_t n = below(3);
    for (size_t i = 0; i < n; ++i) out += pick(kOps) + command_unit(depth);
    return out;
  }

  std::mt19937 rng_;
};

AllowlistEntry entry(std::string pattern) {
  AllowlistEntry e;
  e.pattern = std::move(pattern);
  return e;
}

class PolicyProperty : public ::testing::Test {
 protected:
  PolicyProperty() {
    fs_.is_executable_file = [](const std::string& path) { return in_usr_bin(path); };
    fs_.realpath = [](const std::string& path) -> std::optional<std::string> {
      if (in_usr_bin(path) || path == "/work/project") return path;
      return std::nullopt;
    };
    safe_bins_ = resolve_exec_safe_bin_runtime_policy(SafeBinLayer{}, SafeBinLayer{}, fs_);
    allowlists_ = {{entry("*")},
                   {entry("/usr/bin/*")},
                   {entry("echo"), entry("ls"), entry("/usr/bin/git"), entry("npm"), entry("sh"), entry("cat")}};
  }

  DecisionInputs inputs(const std::string& command, size_t allowlist) const {
    DecisionInputs in;
    in.command = command;
    in.security = ExecSecurity::kAllowlist;
    in.evaluation.allowlist = &allowlists_[allowlist];
    in.evaluation.safe_bins = &safe_bins_.policy;
    in.evaluation.trusted_dirs = &safe_bins_.trusted_dirs;
    in.evaluation.resolve = ResolveContext{"/work/project", std::string("/usr/bin"), "/home/user", &fs_};
    return in;
  }

  FsView fs_;
  SafeBinRuntimePolicy safe_bins_;
  std::vector<std::vector<AllowlistEntry>> allowlists_;
};

// An allowed command runs as its canonical rendering, and the rendering, parsed back, is exactly
// the pinned argv of every segment, every word single-quoted.
void expect_canonical_rendering(const Decision& d, const std::string& command) {
  ASSERT_TRUE(d.enforced_command) << command;
  ASSERT_EQ(d.command_to_run, *d.enforced_command) << command;
  Result<shell::Script> parsed = shell::parse_script(d.command_to_run);
  ASSERT_TRUE(parsed.ok()) << d.command_to_run;
  std::vector<Argv> argvs;
  for (const shell::Command& c : parsed->commands) {
    Argv argv;
    for (const shell::Word& w : c.words) {
      bool quoted = w.parts.size() == 1 && w.parts[0].kind == shell::WordPartKind::kSingleQuoted;
      bool escaped_quote = w.text.find("'\\''") != std::string::npos;  // a ' inside a word
      EXPECT_TRUE(quoted || escaped_quote) << w.text << " in " << d.command_to_run;
      argv.push_back(w.value);
    }
    argvs.push_back(std::move(argv));
  }
  ASSERT_EQ(argvs.size(), d.evaluation.segments.size()) << d.command_to_run;
  for (size_t i = 0; i < argvs.size(); ++i) {
    ASSERT_TRUE(d.evaluation.segments[i].pinned_argv) << command;
    EXPECT_EQ(argvs[i], *d.evaluation.segments[i].pinned_argv) << d.command_to_run;
  }
}

bool needs_human(const Decision& d) {
  if (!d.evaluation.analysis_ok || !d.evaluation.plan.ok) return true;
  for (const SegmentEvaluation& s : d.evaluation.segments) {
    if (s.trust_mode == TrustMode::kPromptOnly) return true;
  }
  return false;
}

TEST_F(PolicyProperty, UnanalyzableCommandsAreNeverAllowedWithoutAHuman) {
  CommandGenerator gen(20261130);
  constexpr int kCommands = 3000;
  int unanalyzable = 0, allowed = 0;
  for (int i = 0; i < kCommands; ++i) {
    const std::string command = gen.command();
    for (size_t k = 0; k < allowlists_.size(); ++k) {
      DecisionInputs in = inputs(command, k);
      for (ExecAsk ask : {ExecAsk::kOff, ExecAsk::kOnMiss}) {
        in.ask = ask;
        in.ask_fallback = ExecSecurity::kDeny;
        const Decision d = decide_gateway(in);
        ASSERT_FALSE(d.durable) << command;  // no allow-always entries in this world
        bool human = needs_human(d);
        if (human) {
          ASSERT_NE(d.verdict, Verdict::kAllow) << "allowlist " << k << ": " << command;
          if (ask == ExecAsk::kOnMiss) {
            ASSERT_EQ(d.verdict, Verdict::kAsk) << "allowlist " << k << ": " << command;
          }
        }
        if (d.verdict == Verdict::kAllow) expect_canonical_rendering(d, command);
        if (k == 0 && ask == ExecAsk::kOff) {
          unanalyzable += human ? 1 : 0;
          allowed += d.verdict == Verdict::kAllow ? 1 : 0;
        }
        if (d.verdict != Verdict::kAsk) continue;
        for (ExecSecurity fallback : {ExecSecurity::kDeny, ExecSecurity::kAllowlist, ExecSecurity::kFull}) {
          in.ask_fallback = fallback;
          FallbackOutcome f = resolve_ask_fallback(d, in);
          // security=allowlist clamps even a `full` fallback to allowlist.
          if (human) {
            ASSERT_FALSE(f.approved) << "fallback " << static_cast<int>(fallback) << ": " << command;
          }
          if (fallback == ExecSecurity::kDeny) {
            ASSERT_FALSE(f.approved) << command;
          }
        }
      }
    }
  }
  // The generator must exercise both sides of the property. (Canonical rendering refuses
  // `bash -c "..."` wrappers whose payload word expands, which the generator writes often, so
  // fewer of its commands are allowed outright than under the reference's renderer.)
  EXPECT_GT(unanalyzable, kCommands / 4);
  EXPECT_GT(allowed, kCommands / 40);
}

TEST_F(PolicyProperty, UnplannableCommandsAreDeniedAsAllowlistMissUnderAskOff) {
  CommandGenerator gen(7);
  int unplannable = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::string command = gen.command();
    const Decision d = decide_gateway(inputs(command, 0));
    if (d.evaluation.plan.ok) continue;
    ++unplannable;
    // Nobody is asked under ask=off and no allowlist entry can help: refused, with the reason.
    ASSERT_EQ(d.verdict, Verdict::kDeny) << command;
    ASSERT_EQ(d.deny_message, "exec denied: allowlist miss") << command;
    ASSERT_FALSE(d.reasons.empty()) << command;
    EXPECT_EQ(d.reasons.back(), "analysis-failed: " + d.evaluation.plan.reason) << command;
  }
  EXPECT_GT(unplannable, 250);
}

}  // namespace
}  // namespace clawexec::policy
