// How long the exec pipeline's analysis takes for a command at the size limit (issue 10 #13b):
// the control-command guards, the live-state sqlite3 guard, the policy gate (decision under
// security=allowlist ask=on-miss askFallback=deny strictInlineEval, a small allowlist) and the
// script preflight, each timed on its own for several worst-case shapes of exec::kMaxCommandBytes
// bytes. These all run on the io thread, so their sum is how long one such call stalls every
// other call. Prints one line per shape and stage (best of five runs, milliseconds).
//
// Usage: command_size_bench [bytes]   (default: exec::kMaxCommandBytes)

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "approvals/cache.h"
#include "exec/exec_planning.h"
#include "exec/policy_gate.h"
#include "exec/script_preflight.h"
#include "exec/service.h"
#include "shell/control_guard.h"

namespace {

using namespace clawexec;
namespace fs = std::filesystem;

std::string repeat_to(const std::string& unit, size_t bytes, const std::string& head = "") {
  std::string out = head;
  while (out.size() + unit.size() <= bytes) out += unit;
  return out;
}

struct Shape {
  const char* name;
  std::string command;
};

std::vector<Shape> shapes(size_t n) {
  return {
      {"one long word", "ls " + std::string(n - 3, 'a')},
      {"many words", repeat_to(" a", n, "ls")},
      {"many ; segments", repeat_to("ls;", n)},
      {"long pipeline", repeat_to("cat|", n, "ls|") + "cat"},
      {"&& chain of git", repeat_to("git status&&", n) + "ls"},
      {"quoted words", repeat_to(" 'a b'", n, "ls")},
      {"$( ) nesting", repeat_to("$(", 5 + 2 * ((n - 5) / 3), "echo ") + std::string((n - 5) / 3, ')')},
      {"bash -c payloads", repeat_to("bash -c 'ls';", n)},
      {"python3 scripts", repeat_to("python3 s.py;", n)},
      {"sqlite3 operands", repeat_to("sqlite3 x.db;", n)},
      {"env assignments", repeat_to("A=1 ", n - 3) + "ls"},
  };
}

double best_ms(const std::function<void()>& work) {
  double best = 1e18;
  for (int i = 0; i < 5; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    work();
    std::chrono::duration<double, std::milli> d = std::chrono::steady_clock::now() - t0;
    best = std::min(best, d.count());
  }
  return best;
}

}  // namespace

int main(int argc, char** argv) {
  size_t bytes = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : exec::kMaxCommandBytes;
  fs::path root = fs::temp_directory_path() / ("clawexec-size-bench-" + std::to_string(::getpid()));
  fs::create_directories(root / "state");
  fs::create_directories(root / "work");
  std::ofstream(root / "work" / "s.py") << "print('hello')\n";
  std::ofstream(root / "state" / "exec-approvals.json")
      << R"({"version":1,"agents":{"main":{"allowlist":[{"pattern":"/usr/bin/git"},{"pattern":"/usr/bin/ls"},)"
      << R"({"pattern":"/usr/bin/cat"},{"pattern":"/usr/bin/python3*"}]}}})";

  exec::ServiceConfig config;
  config.exec.security = config::ExecSecurity::kAllowlist;
  config.exec.ask = config::ExecAsk::kOnMiss;
  config.exec.strict_inline_eval = true;
  config.state_dir = (root / "state").string();
  config.home_dir = root.string();
  config.approvals_paths.home = root.string();
  config.approvals_paths.state_dir = config.state_dir;
  config.approvals_paths.file = config.state_dir + "/exec-approvals.json";
  config.approvals_paths.lock = config.approvals_paths.file + ".lock";
  config.approvals_paths.socket = config.state_dir + "/exec-approvals.sock";
  config.approvals_paths.display = config.approvals_paths.file;
  config.approvals_paths.transcript = config.approvals_paths.file;
  config.approvals_cache = std::make_shared<approvals::ApprovalsCache>(config.approvals_paths);
  const std::string workdir = (root / "work").string();
  const std::string path_env = "/usr/local/bin:/usr/bin:/bin";
  shell::StateDbContext state{.state_dir = config.state_dir, .home_dir = root.string(), .workdir = workdir,
                              .canonicalize = [](const std::string& p) { return p; }};
  json::Object args;

  std::printf("command size: %zu bytes\n", bytes);
  std::printf("%-18s %10s %10s %10s %10s %10s  %s\n", "shape", "control", "state-db", "gate", "preflight", "total",
              "gate verdict");
  for (const Shape& shape : shapes(bytes)) {
    const std::string& command = shape.command;
    std::string verdict;
    double control = best_ms([&] { (void)shell::check_control_commands(command); });
    double state_db = best_ms([&] { (void)shell::check_state_db_access(command, state); });
    double gate = best_ms([&] {
      Result<exec::GateOutcome> g = exec::gateway_policy_gate(config, args, command, workdir, path_env,
                                                              exec::ApprovalRoute::kNone);
      verdict = g.ok() ? "allow" : g.error().message.substr(0, 40);
    });
    double preflight = best_ms([&] { (void)exec::run_script_preflight(command, workdir); });
    for (char& c : verdict) {
      if (c == '\n') c = ' ';
    }
    std::printf("%-18s %10.2f %10.2f %10.2f %10.2f %10.2f  %s\n", shape.name, control, state_db, gate, preflight,
                control + state_db + gate + preflight, verdict.c_str());
  }
  fs::remove_all(root);
  return 0;
}
