// Differential test of the analyzer against real shells (issue 10, docs/policy.md "What runs").
//
// For every generated command line and for each shell (bash, dash), with the analyzer reading
// it in that shell's dialect:
//  A. When the analysis is complete and claims to know every word exactly (every top-level
//     command is a planned segment with an exact argv), running the ORIGINAL text in that shell
//     must run exactly the stub argvs the analysis predicts, given the parser's operators.
//  B. When the policy renders the command (an allowlist of the two stubs, security=allowlist),
//     running the RENDERING in bash and in dash must run exactly the pinned argvs.
// A stub appends each argv it receives to a log (argv_stub.cc); runs are compared as multisets
// (the members of a pipeline run concurrently). The corpus size and seed come from
// CLAWEXEC_DIFF_COUNT and CLAWEXEC_DIFF_SEED (scripts/fuzz.sh runs it longer).

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <optional>

#include "corpus.h"
#include "policy/decide.h"
#include "shell/script.h"
#include "shell_runner.h"

namespace clawexec::differential {
namespace {

using policy::SegmentEvaluation;
using shell::Separator;
using shell::ShellDialect;

uint64_t env_number(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

std::string visible(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string describe(std::vector<Argv> records) {
  std::string out;
  for (const Argv& r : records) {
    out += "  [";
    for (size_t i = 0; i < r.size(); ++i) out += (i ? "|" : "") + visible(r[i]);
    out += "]\n";
  }
  return out.empty() ? "  (none)\n" : out;
}

class RealFs {
 public:
  RealFs() {
    view.is_executable_file = [](const std::string& path) {
      struct stat st {};
      return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(path.c_str(), X_OK) == 0;
    };
    view.realpath = [](const std::string& path) -> std::optional<std::string> {
      char buf[PATH_MAX];
      if (!::realpath(path.c_str(), buf)) return std::nullopt;
      return std::string(buf);
    };
  }
  policy::FsView view;
};

class Differential : public ::testing::Test {
 protected:
  Differential() : world_(ARGV_STUB) {
    allowlist_.push_back(entry(world_.stub_dir() + "/p"));
    allowlist_.push_back(entry(world_.stub_dir() + "/q"));
  }

  static policy::AllowlistEntry entry(std::string pattern) {
    policy::AllowlistEntry e;
    e.pattern = std::move(pattern);
    return e;
  }

  policy::Decision decide(const std::string& command, ShellDialect dialect) const {
    policy::DecisionInputs in;
    in.command = command;
    in.security = config::ExecSecurity::kAllowlist;
    in.ask = config::ExecAsk::kOff;
    in.ask_fallback = config::ExecSecurity::kDeny;
    in.evaluation.allowlist = &allowlist_;
    in.evaluation.resolve = policy::ResolveContext{world_.work_dir(), world_.path_env(), world_.home(), &fs_.view};
    in.evaluation.dialect = dialect;
    return policy::decide_gateway(in);
  }

  // The stub argv a segment's argv runs, if it runs a stub: wrappers looked through, the program
  // found by PATH (a bare name) or named by its path.
  std::optional<Argv> stub_record(const Argv& argv) const {
    policy::ResolveContext ctx{world_.work_dir(), world_.path_env(), world_.home(), &fs_.view};
    std::optional<policy::CommandResolution> r = policy::resolve_command_resolution_from_argv(argv, ctx);
    if (!r || r->policy_blocked || r->effective_argv.empty()) return std::nullopt;
    const std::string& program = r->effective_argv[0];
    std::string name;
    if (program == "p" || program == "q") name = program;
    if (program == world_.stub_dir() + "/p") name = "p";
    if (program == world_.stub_dir() + "/q") name = "q";
    if (name.empty()) return std::nullopt;
    Argv record = r->effective_argv;
    record[0] = name;
    return record;
  }

  // What the line runs, by the parser's operators: every stub returns 0, anything else 127.
  std::vector<Argv> expected_records(const policy::AllowlistEvaluation& e, bool pinned) const {
    std::vector<const policy::Candidate*> candidates = e.plan.candidates();
    std::vector<Argv> records;
    int status = 0;
    Separator before = Separator::kSequence;
    size_t i = 0;
    while (i < candidates.size()) {
      size_t end = i;  // the pipeline is candidates[i..end]
      while (end + 1 < candidates.size()) {
        Separator next = step_of(e, *candidates[end]).next;
        if (next != Separator::kPipe && next != Separator::kPipeStderr) break;
        ++end;
      }
      bool runs = before == Separator::kSequence || before == Separator::kNewline ||
                  (before == Separator::kAnd && status == 0) || (before == Separator::kOr && status != 0);
      if (runs) {
        int last = 0;
        for (size_t k = i; k <= end; ++k) {
          const Argv& argv = pinned ? *e.segments[k].pinned_argv : *step_of(e, *candidates[k]).exact_argv;
          std::optional<Argv> record = stub_record(argv);
          if (record) records.push_back(*record);
          last = record ? 0 : 127;
        }
        if (step_of(e, *candidates[i]).negated) last = last == 0 ? 1 : 0;
        status = last;
      }
      before = step_of(e, *candidates[end]).next;
      i = end + 1;
    }
    return records;
  }

  static const policy::ExplainStep& step_of(const policy::AllowlistEvaluation& e, const policy::Candidate& c) {
    for (const policy::ExplainStep& s : e.plan.explanation.steps) {
      if (s.id == c.step_id) return s;
    }
    throw std::logic_error("candidate without a step");
  }

  // The analysis claims to know exactly what the original text runs.
  static bool knows_exactly(const policy::AllowlistEvaluation& e) {
    if (!e.analysis_ok) return false;
    std::vector<const policy::Candidate*> candidates = e.plan.candidates();
    if (candidates.empty() || e.plan.explanation.top_level_commands != candidates.size()) return false;
    for (const policy::Candidate* c : candidates) {
      if (c->synthetic || c->shell_wrapper_transport) return false;
      const policy::ExplainStep& s = step_of(e, *c);
      if (!s.exact_argv || s.context != policy::StepContext::kTopLevel || s.next == Separator::kBackground) return false;
    }
    return true;
  }

  static std::vector<Argv> sorted(std::vector<Argv> v) {
    std::sort(v.begin(), v.end());
    return v;
  }

  World world_;
  RealFs fs_;
  std::vector<policy::AllowlistEntry> allowlist_;
};

struct Shell {
  ShellDialect dialect;
  std::vector<std::string> argv;
};

const std::vector<Shell>& shells() {
  static const std::vector<Shell> kShells = {{ShellDialect::kBash, {"/bin/bash", "--noprofile", "--norc", "-c"}},
                                             {ShellDialect::kDash, {"/bin/dash", "-c"}}};
  return kShells;
}

TEST_F(Differential, AnalyzedAndRenderedCommandsRunExactlyThePredictedArgv) {
  const uint64_t count = env_number("CLAWEXEC_DIFF_COUNT", 700);
  const uint64_t seed = env_number("CLAWEXEC_DIFF_SEED", 20261201);
  CorpusGenerator gen(seed);
  size_t exact = 0, rendered = 0, failures = 0;
  for (uint64_t n = 0; n < count && failures < 10; ++n) {
    const std::string command = gen.command();
    for (const Shell& shell : shells()) {
      policy::Decision d = decide(command, shell.dialect);
      const policy::AllowlistEvaluation& e = d.evaluation;
      if (knows_exactly(e)) {
        ++exact;
        std::vector<Argv> want = sorted(expected_records(e, false));
        ShellRun got = world_.run(shell.argv, command);
        std::vector<Argv> have = sorted(got.records);
        if (have != want || got.timed_out) {
          ++failures;
          ADD_FAILURE() << shell.argv[0] << " ran the original differently from the analysis\n  command: "
                        << visible(command) << "\n predicted:\n" << describe(want) << " ran:\n" << describe(have);
        }
      }
      if (!d.enforced_command) continue;
      ++rendered;
      std::vector<Argv> want = sorted(expected_records(e, true));
      for (const Shell& runner : shells()) {
        ShellRun got = world_.run(runner.argv, *d.enforced_command);
        std::vector<Argv> have = sorted(got.records);
        if (have != want || got.timed_out) {
          ++failures;
          ADD_FAILURE() << runner.argv[0] << " ran the rendering differently from the pinned argv\n  command: "
                        << visible(command) << "\n rendering: " << visible(*d.enforced_command) << "\n predicted:\n"
                        << describe(want) << " ran:\n" << describe(have);
        }
      }
    }
  }
  // The corpus must reach both properties often enough to mean something.
  EXPECT_GT(exact, count / 4) << "commands the analysis knew exactly";
  EXPECT_GT(rendered, count / 10) << "commands rendered";
  std::printf("differential: %llu commands, %zu exact analyses, %zu renderings checked in bash and dash\n",
              static_cast<unsigned long long>(count), exact, rendered);
}

// Every byte in every position a character class matters: inside a word, starting a word,
// alone, before a '#', quoted and escaped, and between two commands.
TEST_F(Differential, EveryByteIsClassifiedAsBashAndDashClassifyIt) {
  size_t exact = 0, failures = 0;
  for (int b = 1; b < 256 && failures < 10; ++b) {
    const std::string c(1, static_cast<char>(b));
    const std::vector<std::string> forms = {"p x" + c + "y",  "p " + c + "x",        "p x " + c,  "p x" + c + "#y",
                                            "p " + c + "#y",  "p '" + c + "'",       "p \"" + c + "\"", "p \\" + c,
                                            "p a" + c + "q b", "p $'" + c + "'",     "p " + c + c};
    for (const std::string& command : forms) {
      for (const Shell& shell : shells()) {
        policy::Decision d = decide(command, shell.dialect);
        if (!knows_exactly(d.evaluation)) continue;
        ++exact;
        std::vector<Argv> want = sorted(expected_records(d.evaluation, false));
        std::vector<Argv> have = sorted(world_.run(shell.argv, command).records);
        if (have != want) {
          ++failures;
          ADD_FAILURE() << shell.argv[0] << " byte 0x" << std::hex << b << std::dec << ": " << visible(command)
                        << "\n predicted:\n" << describe(want) << " ran:\n" << describe(have);
        }
      }
    }
  }
  EXPECT_GT(exact, 2000u) << "forms the analysis knew exactly";
}

}  // namespace
}  // namespace clawexec::differential
