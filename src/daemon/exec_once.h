#pragma once
// `clawexec exec`: one command through the full exec pipeline, from the command line.

#include <optional>
#include <string>

namespace clawexec::daemon {

struct ExecOnceOptions {
  std::string command;
  std::optional<std::string> workdir;
  std::optional<double> timeout_seconds;
  bool pty = false;
  bool json = false;  // print the details JSON instead of the text
  std::string agent_id = "main";
};

/// Runs the command in the foreground and prints its result. Returns the command's exit code;
/// 124 after a timeout, 128+N after death by signal N, 1 when it could not run at all.
int run_exec_once(const ExecOnceOptions& options);

}  // namespace clawexec::daemon
