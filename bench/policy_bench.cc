// Google Benchmark figures for the policy engine: the full gateway decision
// (policy::decide_gateway) for typical commands against a 1000-entry allowlist, and the
// explain + plan step alone.
//
// Problem: every gateway exec pays for the decision; the budget is 50 µs per command.
// Approach: an in-memory file system (every /usr/bin/<name> is an executable, its own
// realpath), PATH=/usr/bin, the default safe bins, and an allowlist of 999 entries that do
// not match - a mix of path globs ("/opt/tool-17/bin/*", "~/bin/tool-18") and bare names
// ("tool-19*") - followed, near the end, by the entries the commands need. Decisions run
// under security=allowlist, ask=on-miss, so matching has to walk the list.

#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "policy/decide.h"
#include "policy/plan.h"
#include "policy/safe_bins.h"

namespace {

using namespace clawexec::policy;

bool in_usr_bin(const std::string& path) {
  return path.size() > 9 && path.compare(0, 9, "/usr/bin/") == 0 && path.find('/', 9) == std::string::npos;
}

const char* const kCommands[] = {
    "git status",
    "ls -la src | head -n 5",
    "npm test && npm run build",
    "sh -c 'git log --oneline | head'",
    "python3 -c 'print(1)'",
};

struct World {
  FsView fs;
  SafeBinRuntimePolicy safe_bins;
  std::vector<AllowlistEntry> allowlist;

  World() {
    fs.is_executable_file = [](const std::string& path) { return in_usr_bin(path); };
    fs.realpath = [](const std::string& path) -> std::optional<std::string> {
      if (in_usr_bin(path) || path == "/work/project") return path;
      return std::nullopt;
    };
    safe_bins = resolve_exec_safe_bin_runtime_policy(SafeBinLayer{}, SafeBinLayer{}, fs);
    for (int i = 0; i < 995; ++i) {
      AllowlistEntry e;
      switch (i % 3) {
        case 0: e.pattern = "/opt/tool-" + std::to_string(i) + "/bin/*"; break;
        case 1: e.pattern = "~/bin/tool-" + std::to_string(i); break;
        default: e.pattern = "tool-" + std::to_string(i) + "*"; break;
      }
      allowlist.push_back(e);
    }
    for (const char* p : {"/usr/bin/git", "ls", "/usr/bin/npm", "sh", "/usr/bin/python3"}) {
      AllowlistEntry e;
      e.pattern = p;
      allowlist.push_back(e);
    }
  }

  DecisionInputs inputs(const std::string& command) const {
    DecisionInputs in;
    in.command = command;
    in.security = ExecSecurity::kAllowlist;
    in.ask = ExecAsk::kOnMiss;
    in.ask_fallback = ExecSecurity::kDeny;
    in.evaluation.allowlist = &allowlist;
    in.evaluation.safe_bins = &safe_bins.policy;
    in.evaluation.trusted_dirs = &safe_bins.trusted_dirs;
    in.evaluation.resolve = ResolveContext{"/work/project", std::string("/usr/bin"), "/home/user", &fs};
    return in;
  }
};

const World& world() {
  static const World w;
  return w;
}

void BM_DecideGateway(benchmark::State& state) {
  const DecisionInputs in = world().inputs(kCommands[state.range(0)]);
  state.SetLabel(in.command + " -> " + std::string(to_string(decide_gateway(in).verdict)));
  for (auto _ : state) {
    Decision d = decide_gateway(in);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_DecideGateway)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

// Where a decision's time goes: one allowlist lookup of a resolved /usr/bin/git over the 1000
// entries, and the decision against a 5-entry allowlist holding only the matching entries.
void BM_MatchAllowlist1000(benchmark::State& state) {
  ExecutableResolution r;
  r.raw_executable = "git";
  r.resolved_path = "/usr/bin/git";
  r.resolved_real_path = "/usr/bin/git";
  r.executable_name = "git";
  const Argv argv = {"git", "status"};
  for (auto _ : state) benchmark::DoNotOptimize(match_allowlist(world().allowlist, &r, &argv, "/home/user"));
}
BENCHMARK(BM_MatchAllowlist1000)->Unit(benchmark::kMicrosecond);

void BM_DecideGatewayShortAllowlist(benchmark::State& state) {
  static const std::vector<AllowlistEntry> kShort(world().allowlist.end() - 5, world().allowlist.end());
  DecisionInputs in = world().inputs(kCommands[state.range(0)]);
  in.evaluation.allowlist = &kShort;
  state.SetLabel(in.command);
  for (auto _ : state) {
    Decision d = decide_gateway(in);
    benchmark::DoNotOptimize(d);
  }
}
BENCHMARK(BM_DecideGatewayShortAllowlist)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

void BM_ExplainAndPlan(benchmark::State& state) {
  const std::string command = kCommands[state.range(0)];
  state.SetLabel(command);
  for (auto _ : state) {
    AuthorizationPlan plan = plan_shell_authorization(command);
    benchmark::DoNotOptimize(plan);
  }
}
BENCHMARK(BM_ExplainAndPlan)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

void BM_Explain(benchmark::State& state) {
  const std::string command = kCommands[state.range(0)];
  state.SetLabel(command);
  for (auto _ : state) {
    ShellExplanation e = explain_shell_command(command);
    benchmark::DoNotOptimize(e);
  }
}
BENCHMARK(BM_Explain)->DenseRange(0, 4)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
