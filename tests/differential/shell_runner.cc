// The differential test's shell runner: posix_spawn of bash or dash with the command, a
// deadline, and the stub log parsed back into argv records.

#include "shell_runner.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

extern char** environ;

namespace clawexec::differential {
namespace {

std::vector<Argv> parse_log(const std::string& text) {
  std::vector<Argv> records;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] != 'R') throw std::runtime_error("corrupt stub log");
    ++i;
    Argv argv;
    while (i < text.size() && text[i] != '\n') {
      size_t length = std::stoul(text.substr(i, 8), nullptr, 16);
      argv.push_back(text.substr(i + 8, length));
      i += 8 + length;
    }
    ++i;  // the record's "\n"
    records.push_back(std::move(argv));
  }
  return records;
}

}  // namespace

World::World(const std::string& stub_binary) {
  std::string pattern = (std::filesystem::temp_directory_path() / "clawexec-diff-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  root_ = pattern;
  stub_dir_ = root_ + "/bin";
  work_dir_ = root_ + "/work";
  home_ = root_ + "/home";
  log_ = root_ + "/argv.log";
  for (const std::string& d : {stub_dir_, work_dir_, home_}) std::filesystem::create_directory(d);
  for (const char* name : {"p", "q"}) {
    std::filesystem::copy_file(stub_binary, stub_dir_ + "/" + name);
    std::filesystem::permissions(stub_dir_ + "/" + name, std::filesystem::perms::owner_all);
  }
}

World::~World() {
  std::error_code ignored;
  std::filesystem::remove_all(root_, ignored);
}

ShellRun World::run(const std::vector<std::string>& shell_argv, const std::string& command) const {
  ::unlink(log_.c_str());
  std::vector<std::string> args = shell_argv;
  args.push_back(command);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env = {"PATH=" + path_env(), "HOME=" + home_, "LANG=C.UTF-8", "ARGV_LOG=" + log_};
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addchdir_np(&actions, work_dir_.c_str());
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) throw std::runtime_error("posix_spawn " + args[0] + " failed");

  ShellRun out;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int status = 0;
  while (true) {
    pid_t done = ::waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(-pid, SIGKILL);
      ::waitpid(pid, &status, 0);
      out.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
  ::kill(-pid, SIGKILL);  // nothing of the command outlives it
  out.status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  std::ifstream log(log_, std::ios::binary);
  std::stringstream text;
  text << log.rdbuf();
  out.records = parse_log(text.str());
  return out;
}

}  // namespace clawexec::differential
