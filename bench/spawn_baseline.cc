// Baseline for the exec round-trip budget: the cheapest way to run a command and learn that it
// ended, with no server, no JSON and no reaper in between. Each iteration posix_spawn()s the
// given argv (e.g. `sh -c true`) and waitpid()s for it; the program prints the latency
// distribution as one JSON object so bench/run.sh can put it beside the MCP figures.
//
// With --fd3-socketpair the child gets one end of a fresh AF_UNIX SOCK_SEQPACKET pair as fd 3,
// which is how clawexec-shim receives its control socket: `spawn_baseline --fd3-socketpair --
// clawexec-shim pipes /bin/sh sh -c true` times the reaper layer alone, without the server.
//
// Usage: spawn_baseline [--iterations N] [--warmup N] [--fd3-socketpair] -- program [args...]

#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.h"

extern char** environ;

namespace clawexec {
namespace {

struct Options {
  int iterations = 500;
  int warmup = 20;
  bool fd3_socketpair = false;
  std::vector<char*> argv;
};

bool parse_options(int argc, char** argv, Options& options) {
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (arg == "--fd3-socketpair") {
      options.fd3_socketpair = true;
      continue;
    }
    if (i + 1 >= argc) return false;
    if (arg == "--iterations") {
      options.iterations = std::atoi(argv[++i]);
    } else if (arg == "--warmup") {
      options.warmup = std::atoi(argv[++i]);
    } else {
      return false;
    }
  }
  for (; i < argc; ++i) options.argv.push_back(argv[i]);
  options.argv.push_back(nullptr);
  return options.argv.size() > 1 && options.iterations > 0;
}

// One spawn + wait; returns the wall time in milliseconds, or a negative value on failure.
double run_once(const Options& options) {
  auto start = std::chrono::steady_clock::now();
  int sockets[2] = {-1, -1};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (options.fd3_socketpair) {
    if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sockets) != 0) return -1;
    posix_spawn_file_actions_adddup2(&actions, sockets[1], 3);
  }
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, options.argv[0], &actions, nullptr, options.argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (sockets[1] >= 0) close(sockets[1]);
  if (rc != 0) {
    std::fprintf(stderr, "spawn %s: %s\n", options.argv[0], std::strerror(rc));
    return -1;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  if (sockets[0] >= 0) close(sockets[0]);  // the child's reports are not needed
  auto end = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::milli>(end - start).count();
}

}  // namespace
}  // namespace clawexec

int main(int argc, char** argv) {
  using namespace clawexec;
  Options options;
  if (!parse_options(argc, argv, options)) {
    std::fprintf(stderr, "usage: spawn_baseline [--iterations N] [--warmup N] [--fd3-socketpair] -- program [args...]\n");
    return 2;
  }
  for (int i = 0; i < options.warmup; ++i) {
    if (run_once(options) < 0) return 1;
  }
  std::vector<double> samples;
  samples.reserve(static_cast<size_t>(options.iterations));
  for (int i = 0; i < options.iterations; ++i) {
    double ms = run_once(options);
    if (ms < 0) return 1;
    samples.push_back(ms);
  }
  double sum = 0;
  for (double s : samples) sum += s;
  std::sort(samples.begin(), samples.end());
  std::string command = bench::join_argv(options.argv.data());
  std::printf(
      "{\"command\":\"%s\",\"iterations\":%d,\"p50_ms\":%.4f,\"p90_ms\":%.4f,\"p99_ms\":%.4f,"
      "\"mean_ms\":%.4f,\"min_ms\":%.4f}\n",
      bench::json_escape(command).c_str(), options.iterations, bench::percentile(samples, 0.5),
      bench::percentile(samples, 0.9), bench::percentile(samples, 0.99),
      sum / static_cast<double>(samples.size()), samples.front());
  return 0;
}
