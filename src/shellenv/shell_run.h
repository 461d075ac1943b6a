#pragma once
// Running a short helper shell (the login-shell probe, a snapshot capture or check) under the
// same supervisor as commands, so it can never outlive the server, with a time limit and a cap
// on the output kept. Everything happens on the io_context thread; nothing blocks.

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "env/env_list.h"
#include "proc/spawner.h"

namespace clawexec::shellenv {

struct ShellRunSpec {
  std::vector<std::string> argv;  // argv[0] is the shell's absolute path
  env::EnvList env;
  std::string cwd;
  int64_t timeout_ms = 0;  // 0: no limit
  size_t max_output_bytes = 0;  // 0: output is not kept
  std::shared_ptr<const proc::SandboxJoin> sandbox;  // run inside this sandbox (null: on the host)
};

struct ShellRunResult {
  std::optional<int> exit_code;  // set when the shell exited normally
  std::string output;            // stdout and stderr merged, raw bytes
  bool timed_out = false;
  bool output_overflow = false;
  std::string error;  // why it could not run, when it could not
  bool succeeded() const { return exit_code == 0 && !timed_out && !output_overflow && error.empty(); }
};

/// Runs `spec` and calls `done` once on the io thread. A run over its time limit or output cap
/// is killed (its whole tree) and reported at once.
void run_shell(boost::asio::io_context& io, proc::Spawner& spawner, const ShellRunSpec& spec,
               std::function<void(ShellRunResult)> done);

}  // namespace clawexec::shellenv
