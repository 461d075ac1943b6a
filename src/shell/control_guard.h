#pragma once
// The exec tool's control-command guards (reference spec §3.9): shell commands that exec must
// refuse before anything runs, because they would act on OpenClaw itself.
//
// * `/approve <id> allow-once|allow-always|always|deny` — approvals must go through the
//   approval handler, never through a shell.
// * `openclaw channels login` / `openclaw channel login` (also through pnpm, npm, yarn, npx,
//   bunx) — interactive, belongs in a terminal on the gateway host.
// * `clawexec approvals ...`, `clawexec exec-policy ...`, `clawexec config set ...`,
//   `clawexec doctor --fix` (and OpenClaw's own CLI the same way) — approvals and policy
//   changes must come from a human, never from the agent's own commands (clawexec only: the
//   reference has no such guard).
// * (gateway host only) `sqlite3` opening a database inside the active state directory.
// * A command too complex to inspect completely (the explanation work limit).
//
// Every command the line could run is checked: commands in lists, pipelines, compound
// commands, substitutions and function bodies, behind env/command/builtin/exec/sudo/doas
// carriers and leading NAME=value words, and inside shell-wrapper payloads (bash -c '...',
// env -S '...'). A line the reference cannot parse is checked line by line, as it does.
//
// Where we knowingly differ from the reference, we refuse more, never less: for valid bash
// that tree-sitter-bash rejects ("cmd <<EOF; next", "for x do ...") and for the commands
// before a syntax error, we check the commands we did find in addition to the line-by-line
// view; we do not reproduce tree-sitter-bash misreadings that hide commands (after a pipeline
// of three or more commands, later lines ending in a redirection are merged into its last
// command); and nesting deeper than the parser follows is refused with the work-limit
// message. One misreading we do not reproduce goes the other way: tree-sitter-bash splits
// "$VAR\x" into two words, so the reference sees "$OPENCLAW_STATE_DIR" in
// "sqlite3 $OPENCLAW_STATE_DIR\x" (bash opens "<state dir>x", outside the directory).

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace clawexec::shell {

/// What the state-database guard needs to know. All paths are compared lexically (see
/// lexical_path.h) unless `canonicalize` is set.
struct StateDbContext {
  /// The active state directory ($OPENCLAW_STATE_DIR or ~/.openclaw), absolute (a relative
  /// one is taken relative to `workdir`). Empty: the guard does nothing. Also what
  /// "$OPENCLAW_STATE_DIR" in an operand expands to.
  std::string state_dir;
  /// The home directory that "~" and "$HOME" in an operand expand to.
  std::string home_dir;
  /// The command's working directory, absolute; relative operands resolve against it.
  /// Empty: the guard does nothing (the reference only runs it once a workdir is known).
  std::string workdir;
  /// Optional seam for the file system: maps an absolute, lexically normalised path to its
  /// canonical form (the reference uses the realpath of the longest existing ancestor plus
  /// the remaining segments). Applied to the state directory and to every operand; when
  /// unset, symlinks are not seen through and a caller should pass a realpath'ed state_dir.
  std::function<std::string(const std::string&)> canonicalize;
};

enum class UnsafeShellCommand {
  kNone,
  kApprove,             // a /approve command
  kChannelLogin,        // openclaw channels login
  kOperatorCli,         // clawexec approvals / exec-policy / config set / doctor --fix
  kLiveStateSqlite,     // sqlite3 on a database under the state directory
  kIncompleteAnalysis,  // the explanation work limit was exceeded
};

/// Classifies a command line (the reference's detectUnsafeExecControlShellCommand). The
/// sqlite3 rule is evaluated only when `state_db` is given. Pure.
UnsafeShellCommand detect_unsafe_shell_command(std::string_view command,
                                               const StateDbContext* state_db = nullptr);

/// The exec tool's check before running `command` on any host: /approve, channel login, the
/// operator CLI and the work limit. Error code kRejected with the reference's message.
Result<void> check_control_commands(std::string_view command);

/// The additional gateway-host check: sqlite3 on the live state database (and the work
/// limit). Error code kRejected with the reference's message.
Result<void> check_state_db_access(std::string_view command, const StateDbContext& context);

/// Both guards over one analysis of `command` (the exec pipeline runs the control check, then,
/// once the working directory is known, the state-database check: the line is explained and
/// expanded into candidates once, not twice). The same verdicts as the two functions above.
class CommandGuards {
 public:
  explicit CommandGuards(std::string_view command);
  Result<void> check_control_commands() const;
  Result<void> check_state_db_access(const StateDbContext& context) const;

  /// The candidates every rule tests (internal to the guards).
  struct Candidates {
    bool incomplete = false;               // the explanation work limit was exceeded
    std::vector<std::string> control;      // joined commands for the /approve and login matchers
    std::vector<std::vector<std::string>> argvs;  // argvs for the operator-CLI and sqlite3 rules
  };

 private:
  Candidates candidates_;
};

}  // namespace clawexec::shell
