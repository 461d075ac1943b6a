// Baseline for the output-throughput budgets: how fast a command's output can be collected
// when nothing but a read() loop sits between the command and /dev/null. Each iteration
// spawns `/bin/sh -c COMMAND` with stdout and stderr on either a pipe or the slave side of a
// fresh pseudo-terminal (new session, controlling terminal, 120x30 like the server's PTYs),
// reads the other end in 256 KiB chunks (the server's read size) until end of file (EIO for
// a PTY once every slave descriptor is closed), then reaps the shell. Prints one JSON object:
// bytes read and the median/min wall time, and the throughput those imply.
//
// Usage: stream_baseline --mode pipe|pty [--iterations N] -- COMMAND

#include <fcntl.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.h"

extern char** environ;

namespace clawexec {
namespace {

enum class Mode { kPipe, kPty };

struct Options {
  Mode mode = Mode::kPipe;
  int iterations = 5;
  std::string command;
};

struct Sample {
  double seconds = 0;
  size_t bytes = 0;
};

bool parse_options(int argc, char** argv, Options& options) {
  int i = 1;
  for (; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--") {
      ++i;
      break;
    }
    if (i + 1 >= argc) return false;
    std::string value = argv[++i];
    if (arg == "--mode" && (value == "pipe" || value == "pty")) {
      options.mode = value == "pty" ? Mode::kPty : Mode::kPipe;
    } else if (arg == "--iterations") {
      options.iterations = std::atoi(value.c_str());
    } else {
      return false;
    }
  }
  for (; i < argc; ++i) {
    if (!options.command.empty()) options.command += ' ';
    options.command += argv[i];
  }
  return !options.command.empty() && options.iterations > 0;
}

// Opens a PTY pair: returns the master descriptor and the slave's path, or -1.
int open_pty(std::string& slave_path) {
  int master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) return -1;
  char name[128];
  if (ptsname_r(master, name, sizeof name) != 0) return -1;
  slave_path = name;
  winsize size{};
  size.ws_col = 120;
  size.ws_row = 30;
  ioctl(master, TIOCSWINSZ, &size);
  return master;
}

// Spawns the shell with its output on the pipe's write end or the PTY slave; returns the
// descriptor to read from (or -1) and stores the child's pid.
int start_command(const Options& options, pid_t& pid) {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  posix_spawn_file_actions_init(&actions);
  posix_spawnattr_init(&attr);
  int read_fd = -1;
  int pipe_fds[2] = {-1, -1};
  std::string slave_path;
  if (options.mode == Mode::kPipe) {
    if (pipe2(pipe_fds, O_CLOEXEC) != 0) return -1;
    read_fd = pipe_fds[0];
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipe_fds[1], 2);
  } else {
    read_fd = open_pty(slave_path);
    if (read_fd < 0) return -1;
    // Opening the slave after setsid() makes it the child's controlling terminal.
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSID);
    posix_spawn_file_actions_addopen(&actions, 0, slave_path.c_str(), O_RDWR, 0);
    posix_spawn_file_actions_adddup2(&actions, 0, 1);
    posix_spawn_file_actions_adddup2(&actions, 0, 2);
  }
  const char* shell_argv[] = {"/bin/sh", "-c", options.command.c_str(), nullptr};
  int rc = posix_spawn(&pid, "/bin/sh", &actions, &attr, const_cast<char**>(shell_argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (pipe_fds[1] >= 0) close(pipe_fds[1]);
  if (rc != 0) {
    std::fprintf(stderr, "spawn /bin/sh: %s\n", std::strerror(rc));
    close(read_fd);
    return -1;
  }
  return read_fd;
}

bool run_once(const Options& options, Sample& sample) {
  static std::vector<char> buffer(256 * 1024);
  auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int fd = start_command(options, pid);
  if (fd < 0) return false;
  size_t total = 0;
  while (true) {
    ssize_t n = read(fd, buffer.data(), buffer.size());
    if (n > 0) {
      total += static_cast<size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    break;  // 0 (pipe EOF) or EIO (PTY: no slave left)
  }
  close(fd);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  auto end = std::chrono::steady_clock::now();
  sample.seconds = std::chrono::duration<double>(end - start).count();
  sample.bytes = total;
  return true;
}

}  // namespace
}  // namespace clawexec

int main(int argc, char** argv) {
  using namespace clawexec;
  Options options;
  if (!parse_options(argc, argv, options)) {
    std::fprintf(stderr, "usage: stream_baseline --mode pipe|pty [--iterations N] -- COMMAND\n");
    return 2;
  }
  std::vector<double> seconds;
  size_t bytes = 0;
  for (int i = 0; i < options.iterations; ++i) {
    Sample sample;
    if (!run_once(options, sample)) return 1;
    seconds.push_back(sample.seconds);
    bytes = sample.bytes;
  }
  std::sort(seconds.begin(), seconds.end());
  double median = bench::percentile(seconds, 0.5);
  constexpr double kMiB = 1024.0 * 1024.0;
  std::printf(
      "{\"mode\":\"%s\",\"command\":\"%s\",\"iterations\":%d,\"bytes\":%zu,\"median_s\":%.4f,"
      "\"min_s\":%.4f,\"median_mib_per_s\":%.1f}\n",
      options.mode == Mode::kPty ? "pty" : "pipe", bench::json_escape(options.command).c_str(),
      options.iterations, bytes, median, seconds.front(),
      static_cast<double>(bytes) / kMiB / median);
  return 0;
}
