// Patch path resolution. The lexical part (prefix rules, "~", joining with cwd, ".." folding)
// is string work; the boundary part walks the path's existing components below the root with
// lstat, because a symlink or hard link can make a lexically contained path reach elsewhere.
// A path that names no file yet is checked as far as it exists: the missing tail is created
// by us later, as real directories, so it cannot alias anything.

#include "patch/workspace.h"

#include <vector>

#include "base/strings.h"
#include "shell/lexical_path.h"
#include "sys/file_system.h"
#include "sys/sys.h"

namespace clawexec::patch {
namespace {

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

bool inside(const std::string& path, const std::string& dir) {
  if (dir == "/") return path.size() > 1 && path[0] == '/';
  return path.size() > dir.size() && starts_with(path, dir) && path[dir.size()] == '/';
}

bool exists_no_follow(const std::string& path) {
  Result<std::optional<sys::FileInfo>> info = sys::lstat_path(path);
  return info.ok() && info->has_value();
}

bool is_file_url(std::string_view s) {
  if (s.size() < 7) return false;
  std::string head(s.substr(0, 7));
  for (char& c : head) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c);
  return head == "file://";
}

// A leading "@" is kept only when "./@..." (or its first segment) exists under cwd.
std::string keep_literal_at(std::string_view raw, const std::string& cwd) {
  if (!starts_with(raw, "@")) return std::string(raw);
  std::string_view rest = raw.substr(1);
  if (rest.empty() || rest == "~" || starts_with(rest, "~/") || is_file_url(rest) || starts_with(rest, "/")) {
    return std::string(raw);
  }
  std::string literal = "./" + std::string(raw);
  size_t slash = raw.find('/');
  bool found = exists_no_follow(cwd + "/" + std::string(raw)) ||
               (slash != std::string_view::npos && exists_no_follow(cwd + "/" + std::string(raw.substr(0, slash))));
  return found ? literal : std::string(raw);
}

// One "@" reference prefix is consumed, then "~" expands.
std::string expand(const std::string& path, const std::string& home) {
  std::string p = path;
  if (starts_with(p, "@")) {
    p = p.substr(1);
    if (starts_with(p, "@")) p = "./" + p;
  }
  if (p == "~") return home;
  if (starts_with(p, "~/")) return home + p.substr(1);
  return p;
}

Error escapes(const std::string& root_shown, std::string_view raw) {
  return Error::rejected("Path escapes sandbox root (" + root_shown + "): " + std::string(raw));
}

// Walks `relative` below `root`, rejecting symlinks (and a hard-linked final file).
Result<void> check_aliases(const std::string& root, const std::string& root_canonical, const std::string& relative,
                           const std::string& root_shown, AliasPolicy policy) {
  std::vector<std::string_view> segments = split(relative, '/');
  std::string cursor = root;
  for (size_t i = 0; i < segments.size(); ++i) {
    cursor += "/";
    cursor += segments[i];
    bool final = i + 1 == segments.size();
    std::optional<sys::FileInfo> info = TRY(sys::lstat_path(cursor));
    if (!info) return {};  // the rest does not exist yet
    if (info->type == sys::FileType::kSymlink) {
      if (final && policy == AliasPolicy::kUnlinkTarget) return {};
      std::string target = sys::canonicalize_existing_prefix(cursor);
      if (target != root_canonical && !inside(target, root_canonical)) {
        return Error::rejected("Symlink escapes sandbox root (" + root_shown + "): " + cursor);
      }
      return Error::rejected("Path alias under sandbox root: " + display_path(cursor, root));
    }
    if (final && policy == AliasPolicy::kStrict && info->type == sys::FileType::kRegular && info->nlink > 1) {
      return Error::rejected("Hardlinked path is not allowed under sandbox root (" + root_shown + "): " + cursor);
    }
  }
  return {};
}

}  // namespace

std::string lexically_normal(std::string_view absolute) { return shell::resolve_lexically("/", absolute); }

std::string display_path(const std::string& absolute, const std::string& cwd) {
  std::string base = lexically_normal(cwd);
  if (absolute == base) {
    size_t slash = absolute.rfind('/');
    return absolute.substr(slash + 1);
  }
  if (!inside(absolute, base)) return absolute;
  return absolute.substr(base == "/" ? 1 : base.size() + 1);
}

std::string shorten_home(const std::string& path, const std::string& home) {
  if (home.empty() || home == "/") return path;
  if (path == home) return "~";
  if (inside(path, home)) return "~" + path.substr(home.size());
  return path;
}

Result<ResolvedPath> resolve_patch_path(std::string_view raw, const Workspace& workspace, AliasPolicy policy) {
  const std::string cwd = lexically_normal(workspace.cwd);
  std::string expanded = expand(keep_literal_at(raw, cwd), workspace.home);
  std::string absolute = lexically_normal(starts_with(expanded, "/") ? expanded : cwd + "/" + expanded);
  if (workspace.containment == Containment::kAnywhere) return ResolvedPath{absolute, display_path(absolute, cwd)};

  const std::string root = lexically_normal(workspace.root);
  const std::string root_canonical = sys::canonicalize_existing_prefix(root);
  const std::string root_shown = shorten_home(root_canonical, workspace.home);
  // An absolute path spelled through the root's canonical location means the same place.
  if (root_canonical != root && !inside(absolute, root) && inside(absolute, root_canonical)) {
    absolute = root + absolute.substr(root_canonical.size());
  }
  if (!inside(absolute, root)) return escapes(root_shown, raw);
  TRY(check_aliases(root, root_canonical, absolute.substr(root == "/" ? 1 : root.size() + 1), root_shown, policy));
  return ResolvedPath{absolute, display_path(absolute, cwd)};
}

}  // namespace clawexec::patch
