// apply_patch's protected paths.
//
// Problem: with the workspace at $HOME (where MCP clients usually start a server), a patch can
// name ".openclaw/exec-approvals.json" and raise its own policy, replace the shim the next
// command is spawned through, or plant ~/.profile or .git/hooks/pre-commit for the server or
// git to run. The same file can be named many ways: relative or absolute, through "~", "..",
// a symlinked directory, a symlink as the last component, a hard link or a bind mount.
//
// Approach: the protected locations are collected once per patch as entries (a file, or a
// tree: the directory and everything below), each in its lexical and its real form, and the
// device/inode of those that exist. A target is refused when its lexical path, the real path
// of its parent joined with its name (the entry a rename replaces), or its own real path
// equals a protected file or lies in a protected tree; when any component is ".git"; when the
// target itself, or any directory above it, has the identity of a protected file or tree; or
// when it is a hard link to a file in the state directory. The git-directory shape check looks
// at the whole patch, so a bare repository cannot be assembled file by file in one patch.

#include "patch/protected_paths.h"

#include <algorithm>

#include "patch/workspace.h"
#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::patch {
namespace {

constexpr const char* kHomeStartupFiles[] = {
    ".profile", ".bash_profile", ".bash_login", ".bashrc", ".bash_logout", ".bash_aliases", ".zshenv",
    ".zprofile", ".zshrc",       ".zlogin",     ".zlogout", ".kshrc",      ".mkshrc",       ".inputrc",
    ".cshrc",    ".tcshrc",      ".login",      ".logout"};
constexpr const char* kZshStartupFiles[] = {".zshenv", ".zprofile", ".zshrc", ".zlogin", ".zlogout"};
constexpr size_t kMaxStateWalkEntries = 4096;
constexpr int kMaxStateWalkDepth = 6;

bool inside(const std::string& path, const std::string& dir) {
  if (dir == "/") return path.size() > 1 && path[0] == '/';
  return path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/';
}

std::string parent_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == 0 || slash == std::string::npos ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) { return path.substr(path.rfind('/') + 1); }

std::string join(const std::string& dir, const std::string& name) { return dir == "/" ? "/" + name : dir + "/" + name; }

bool has_git_component(const std::string& path) {
  size_t start = 0;
  while (start < path.size()) {
    size_t slash = path.find('/', start);
    size_t end = slash == std::string::npos ? path.size() : slash;
    if (path.compare(start, end - start, ".git") == 0 && end - start == 4) return true;
    start = end + 1;
  }
  return false;
}

bool exists_no_follow(const std::string& path) {
  Result<std::optional<sys::FileInfo>> info = sys::lstat_path(path);
  return info.ok() && info->has_value();
}

std::string allow_hint(std::string_view value) {
  return "; an operator can allow this with tools.exec.applyPatch.allowProtectedPaths: [\"" + std::string(value) +
         "\"]";
}

}  // namespace

ProtectedPaths::ProtectedPaths(const ProtectedPathInputs& in) : allowed_(in.allowed), state_dir_(in.state_dir) {
  // Never writable first, so their reason wins where entries overlap.
  if (!in.state_dir.empty()) add(in.state_dir, Kind::kTree, Reason::kStateDir);
  for (const std::string& dir : in.state_dirs) add(dir, Kind::kTree, Reason::kStateDir);
  if (!in.config_path.empty()) add(in.config_path, Kind::kFile, Reason::kConfigFile);
  for (const std::string& exe : in.executables) add(exe, Kind::kFile, Reason::kExecutable);
  for (const std::string& home : in.homes) {
    if (home.empty() || home == "/") continue;
    for (const char* name : kHomeStartupFiles) add(join(home, name), Kind::kFile, Reason::kShellStartup);
    add(join(home, ".bashrc.d"), Kind::kTree, Reason::kShellStartup);
    add(join(home, ".config/fish"), Kind::kTree, Reason::kShellStartup);
    add(join(home, ".gitconfig"), Kind::kFile, Reason::kGit);
    add(join(home, ".config/git"), Kind::kTree, Reason::kGit);
    add(join(home, ".ssh"), Kind::kTree, Reason::kSsh);
  }
  if (in.zdotdir) {
    for (const char* name : kZshStartupFiles) add(join(*in.zdotdir, name), Kind::kFile, Reason::kShellStartup);
  }
  if (in.xdg_config_home) {
    add(join(*in.xdg_config_home, "fish"), Kind::kTree, Reason::kShellStartup);
    add(join(*in.xdg_config_home, "git"), Kind::kTree, Reason::kGit);
  }
  if (in.bash_env) add(*in.bash_env, Kind::kFile, Reason::kShellStartup);
  if (in.env_file) add(*in.env_file, Kind::kFile, Reason::kShellStartup);
  if (in.git_config_global) add(*in.git_config_global, Kind::kFile, Reason::kGit);
}

void ProtectedPaths::add(const std::string& path, Kind kind, Reason reason) {
  if (path.empty() || path[0] != '/') return;  // relative values from the environment mean nothing here
  if (allowed(reason)) return;
  Entry entry{lexically_normal(path), "", kind, reason};
  entry.real = sys::canonicalize_existing_prefix(entry.path);
  entries_.push_back(entry);
  Result<std::optional<sys::FileInfo>> info = sys::stat_path(entry.path);
  if (info.ok() && info->has_value()) {
    Identity id{(*info)->dev, (*info)->ino};
    auto& ids = kind == Kind::kTree && (*info)->type == sys::FileType::kDirectory ? tree_ids_ : file_ids_;
    ids.emplace(id, entries_.size() - 1);
  }
}

bool ProtectedPaths::allowed(Reason reason) const {
  auto is_allowed = [&](config::PatchPathClass c) {
    return std::find(allowed_.begin(), allowed_.end(), c) != allowed_.end();
  };
  switch (reason) {
    case Reason::kStateDir:
    case Reason::kConfigFile:
    case Reason::kExecutable:
      return false;
    case Reason::kShellStartup:
      return is_allowed(config::PatchPathClass::kShellStartup);
    case Reason::kGit:
      return is_allowed(config::PatchPathClass::kGit);
    case Reason::kSsh:
      return is_allowed(config::PatchPathClass::kSsh);
  }
  return false;
}

std::optional<ProtectedPaths::Reason> ProtectedPaths::match_path(const std::string& path, const Entry** entry) const {
  for (const Entry& e : entries_) {
    for (const std::string* form : {&e.path, &e.real}) {
      if (path == *form || (e.kind == Kind::kTree && inside(path, *form))) {
        *entry = &e;
        return e.reason;
      }
    }
  }
  if (!allowed(Reason::kGit) && has_git_component(path)) {
    *entry = nullptr;
    return Reason::kGit;
  }
  return std::nullopt;
}

const std::string& ProtectedPaths::real_parent(const std::string& parent) {
  auto found = real_parents_.find(parent);
  if (found != real_parents_.end()) return found->second;
  return real_parents_.emplace(parent, sys::canonicalize_existing_prefix(parent)).first->second;
}

Error ProtectedPaths::refusal(const std::string& display, const std::string& resolved, Reason reason,
                              const std::string& where) const {
  std::string why;
  switch (reason) {
    case Reason::kStateDir:
      why = "it is in clawexec's state directory " + where +
            " (exec approvals, config, snapshots), which apply_patch never writes";
      break;
    case Reason::kConfigFile:
      why = "it is clawexec's config file " + where + ", which apply_patch never writes";
      break;
    case Reason::kExecutable:
      why = "it is clawexec's executable " + where +
            " (the server, or the shim it runs every command through), which apply_patch never writes";
      break;
    case Reason::kShellStartup:
      why = "it is a shell startup file, run by the shells the server starts" + allow_hint("shell-startup");
      break;
    case Reason::kGit:
      why = where.empty() ? "it is in a .git directory (or is a .git file), from which git runs hooks and config "
                            "commands" + allow_hint("git")
                          : "it is git configuration (" + where + "), from which git runs commands" + allow_hint("git");
      break;
    case Reason::kSsh:
      why = "it is in ~/.ssh (keys, authorized_keys, and the config ssh and git run commands from)" + allow_hint("ssh");
      break;
  }
  std::string shown = display;
  if (!resolved.empty() && resolved != display) shown += " (resolves to " + resolved + ")";
  return Error::rejected("apply_patch: refusing to write " + shown + ": " + why);
}

bool ProtectedPaths::hard_link_of_state_file(const Identity& id) {
  if (!state_file_ids_) {
    state_file_ids_.emplace();
    std::vector<std::pair<std::string, int>> pending;
    for (const Entry& e : entries_) {
      if (e.reason == Reason::kStateDir) pending.emplace_back(e.real, 0);
    }
    size_t seen = 0;
    while (!pending.empty()) {
      auto [dir, depth] = pending.back();
      pending.pop_back();
      Result<std::vector<std::string>> names = sys::list_directory(dir);
      if (!names.ok()) continue;
      for (const std::string& name : *names) {
        if (++seen > kMaxStateWalkEntries) {
          state_walk_complete_ = false;
          pending.clear();
          break;
        }
        std::string path = join(dir, name);
        Result<std::optional<sys::FileInfo>> info = sys::lstat_path(path);
        if (!info.ok() || !info->has_value()) continue;
        if ((*info)->type == sys::FileType::kRegular) state_file_ids_->insert({(*info)->dev, (*info)->ino});
        if ((*info)->type == sys::FileType::kDirectory) {
          if (depth + 1 < kMaxStateWalkDepth) {
            pending.emplace_back(path, depth + 1);
          } else {
            state_walk_complete_ = false;
          }
        }
      }
    }
  }
  return state_file_ids_->count(id) > 0 || !state_walk_complete_;
}

Result<void> ProtectedPaths::check_identities(const std::string& absolute, const std::string& parent_real,
                                              const std::string& display) {
  for (bool follow : {false, true}) {
    Result<std::optional<sys::FileInfo>> info = follow ? sys::stat_path(absolute) : sys::lstat_path(absolute);
    if (!info.ok() || !info->has_value()) continue;
    Identity id{(*info)->dev, (*info)->ino};
    for (const auto* ids : {&file_ids_, &tree_ids_}) {
      if (auto hit = ids->find(id); hit != ids->end()) {
        const Entry& e = entries_[hit->second];
        return refusal(display, e.real, e.reason, e.real);
      }
    }
    if ((*info)->type == sys::FileType::kRegular && (*info)->nlink > 1 && !state_dir_.empty() &&
        hard_link_of_state_file(id)) {
      return Error::rejected("apply_patch: refusing to write " + display + ": it is a hard link (" +
                             std::to_string((*info)->nlink) + " links) " +
                             (state_walk_complete_ ? "to a file in" : "that may be a file in (too many files to check)") +
                             " clawexec's state directory " + state_dir_ + ", which apply_patch never writes");
    }
  }
  for (std::string dir = parent_real;; dir = parent_of(dir)) {
    Result<std::optional<sys::FileInfo>> info = sys::stat_path(dir);
    if (info.ok() && info->has_value()) {
      if (auto hit = tree_ids_.find({(*info)->dev, (*info)->ino}); hit != tree_ids_.end()) {
        const Entry& e = entries_[hit->second];
        return refusal(display, dir, e.reason, e.real);
      }
    }
    if (dir == "/") break;
  }
  return {};
}

Result<void> ProtectedPaths::check(const std::string& absolute, const std::string& display) {
  const std::string parent_real = real_parent(parent_of(absolute));
  const std::string via_parent = join(parent_real, base_of(absolute));
  std::string final_real = via_parent;
  Result<std::optional<sys::FileInfo>> link = sys::lstat_path(via_parent);
  if (link.ok() && link->has_value() && (*link)->type == sys::FileType::kSymlink) {
    // Where the link points, even when that does not exist yet.
    Result<std::string> target = sys::read_symlink(via_parent);
    if (target.ok() && !target->empty()) {
      std::string pointed = (*target)[0] == '/' ? *target : join(parent_real, *target);
      final_real = sys::canonicalize_existing_prefix(lexically_normal(pointed));
    }
  }
  const std::string* forms[] = {&absolute, &via_parent, &final_real};
  for (const std::string* form : forms) {
    const Entry* entry = nullptr;
    if (std::optional<Reason> reason = match_path(*form, &entry)) {
      std::string where = entry ? entry->path : std::string();
      return refusal(display, *form == absolute ? std::string() : *form, *reason, where);
    }
  }
  return check_identities(absolute, parent_real, display);
}

Result<void> ProtectedPaths::check_git_directories(const std::vector<std::pair<std::string, std::string>>& writes) {
  if (allowed(Reason::kGit)) return {};
  std::set<std::string> planned;  // every written path and its ancestors
  for (const auto& write : writes) {
    for (std::string p = write.first; planned.insert(p).second && p != "/"; p = parent_of(p)) {
    }
  }
  std::map<std::string, bool> memo;
  auto has = [&](const std::string& dir, const char* name) {
    std::string path = join(dir, name);
    return planned.count(path) > 0 || exists_no_follow(path);
  };
  auto git_directory = [&](const std::string& dir) {
    auto found = memo.find(dir);
    if (found != memo.end()) return found->second;
    bool shaped = has(dir, "HEAD") && (has(dir, "objects") || has(dir, "refs") || has(dir, "commondir"));
    memo.emplace(dir, shaped);
    return shaped;
  };
  for (const auto& [absolute, display] : writes) {
    const std::string via_parent = join(real_parent(parent_of(absolute)), base_of(absolute));
    for (const std::string* form : {&absolute, &via_parent}) {
      for (std::string dir = parent_of(*form);; dir = parent_of(dir)) {
        if (git_directory(dir)) {
          return Error::rejected("apply_patch: refusing to write " + display + ": it is in " + dir +
                                 ", which git treats as a git directory (HEAD beside objects, refs or commondir) and "
                                 "runs hooks and config commands from" + allow_hint("git"));
        }
        if (dir == "/") break;
      }
    }
  }
  return {};
}

}  // namespace clawexec::patch
