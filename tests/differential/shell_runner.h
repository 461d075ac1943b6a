#pragma once
// Running a command line in a real shell and reading back which argv each stub program got.

#include <string>
#include <vector>

namespace clawexec::differential {

using Argv = std::vector<std::string>;

struct ShellRun {
  int status = -1;            // the shell's exit status (128 + signal when killed)
  std::vector<Argv> records;  // argv of every stub run (argv[0] as its basename), in log order
  bool timed_out = false;
};

/// A scratch world: a stub directory holding `p` and `q` (copies of the argv stub), an empty
/// working directory and a home directory. Removed on destruction.
class World {
 public:
  explicit World(const std::string& stub_binary);
  ~World();
  World(const World&) = delete;
  World& operator=(const World&) = delete;

  const std::string& stub_dir() const { return stub_dir_; }
  const std::string& work_dir() const { return work_dir_; }
  const std::string& home() const { return home_; }
  std::string path_env() const { return stub_dir_ + ":/usr/bin:/bin"; }

  /// Runs `shell_argv + {command}` in the working directory with a fixed environment
  /// (PATH, HOME, LANG=C.UTF-8, ARGV_LOG), stdin from /dev/null, output discarded.
  ShellRun run(const std::vector<std::string>& shell_argv, const std::string& command) const;

 private:
  std::string root_, stub_dir_, work_dir_, home_, log_;
};

}  // namespace clawexec::differential
