#pragma once
// What apply_patch must never write, and what it writes only when an operator allows it.
//
// Never (no setting opens these): clawexec's state directory (exec approvals, socket and lock,
// shell snapshots, tokens), the config file, and clawexec's own executables (the server and
// the shim every command is spawned through). By default, until the operator allows the
// class with tools.exec.applyPatch.allowProtectedPaths: shell startup files ("shell-startup"),
// git configuration, hooks and git directories ("git"), and ~/.ssh ("ssh"): the server, git
// or ssh would run what the agent wrote there.
//
// A target is compared however it is spelled: its lexical path, the real path of its parent
// (what a rename replaces), and its own real path (a symlink as the final component) are each
// matched against the protected paths in both their lexical and real forms, and the device and
// inode of the target and of every ancestor directory are matched against those of the
// protected files and directories (hard links, bind mounts).

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/result.h"
#include "config/exec_settings.h"

namespace clawexec::patch {

/// What the server knows about itself and its environment. Empty fields protect nothing.
struct ProtectedPathInputs {
  std::vector<std::string> homes;        // home directories: the server's and its $HOME
  std::string state_dir;                 // the active state directory
  std::vector<std::string> state_dirs;   // others that are OpenClaw state (e.g. ~/.openclaw)
  std::string config_path;               // $OPENCLAW_CONFIG_PATH or <state>/openclaw.json
  std::vector<std::string> executables;  // /proc/self/exe, the shim, where the shim is looked for
  // From the server's environment, when set: where zsh, fish and git look instead of HOME, and
  // the files non-interactive bash and sh source.
  std::optional<std::string> zdotdir;
  std::optional<std::string> xdg_config_home;
  std::optional<std::string> bash_env;
  std::optional<std::string> env_file;
  std::optional<std::string> git_config_global;
  std::vector<config::PatchPathClass> allowed;  // tools.exec.applyPatch.allowProtectedPaths
};

/// The protected locations, captured once per patch (identities change when files are
/// replaced), and the checks apply_patch runs on every path it will write, move or delete.
class ProtectedPaths {
 public:
  explicit ProtectedPaths(const ProtectedPathInputs& inputs);

  /// Refuses (Error::rejected, "apply_patch: refusing to write <display>: <why>") when the
  /// lexically normal absolute path `absolute` is, or reaches, a protected location.
  Result<void> check(const std::string& absolute, const std::string& display);

  /// Refuses a write that lies inside, or would complete, a directory git treats as a git
  /// directory (HEAD beside objects, refs or commondir), counting the paths `writes` (absolute,
  /// display) of the whole patch as present. Such a directory needs no ".git" in its name: git
  /// finds a bare repository in the working directory and runs its hooks and config commands.
  Result<void> check_git_directories(const std::vector<std::pair<std::string, std::string>>& writes);

 private:
  enum class Kind { kTree, kFile };
  enum class Reason { kStateDir, kConfigFile, kExecutable, kShellStartup, kGit, kSsh };
  struct Entry {
    std::string path;       // lexically normal
    std::string real;       // canonical (as far as it exists)
    Kind kind = Kind::kFile;
    Reason reason = Reason::kStateDir;
  };
  using Identity = std::pair<uint64_t, uint64_t>;  // (st_dev, st_ino)

  void add(const std::string& path, Kind kind, Reason reason);
  bool allowed(Reason reason) const;
  std::optional<Reason> match_path(const std::string& path, const Entry** entry) const;
  Result<void> check_identities(const std::string& absolute, const std::string& parent_real,
                                const std::string& display);
  bool hard_link_of_state_file(const Identity& id);
  const std::string& real_parent(const std::string& parent);
  Error refusal(const std::string& display, const std::string& resolved, Reason reason, const std::string& where) const;

  std::vector<Entry> entries_;
  std::map<Identity, size_t> file_ids_;  // identity -> entries_ index
  std::map<Identity, size_t> tree_ids_;
  std::vector<config::PatchPathClass> allowed_;
  std::string state_dir_;
  std::optional<std::set<Identity>> state_file_ids_;  // filled on the first hard-linked target
  bool state_walk_complete_ = true;
  std::map<std::string, std::string> real_parents_;
};

}  // namespace clawexec::patch
