#pragma once
// How an exec request ends inside the service: at a started run, or at a reply given instead of
// one. The service stops there; racing the run against a yield window, and the texts of a
// foreground or backgrounded result, belong to the caller (tools/exec_call.h for the tool, the
// CLI waits for the exit).

#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "json/json.h"

namespace clawexec::exec {

class Run;

/// What the caller reads instead of a run: `text` (what the model reads), `details` (absent
/// for the errors the reference throws), `is_error`. Refusals (bad values, guards, policy), an
/// unusable working directory, a denial, and the approval-pending answer (not an error: the
/// command runs once approved, in the background).
struct Reply {
  std::string text;
  std::optional<json::Object> details;
  bool is_error = false;

  static Reply thrown(std::string message) { return {std::move(message), std::nullopt, true}; }
};

/// A command that was spawned (its pid arrives through Run::on_started).
struct StartedRun {
  std::shared_ptr<Run> run;
  /// 0 = move to the background at once; -1 = stay in the foreground; else the yield window.
  int64_t yield_ms = -1;
  /// Warnings to show before the result text (PTY fallback, ignored options, policy notes).
  std::vector<std::string> warnings;
  /// The node host it runs on (exec host=node, streamed): results start with "Node: <id>".
  std::string node_id;
};

using ExecStart = std::variant<StartedRun, Reply>;
using ExecStartDone = std::function<void(ExecStart)>;

}  // namespace clawexec::exec
