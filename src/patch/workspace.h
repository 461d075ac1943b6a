#pragma once
// Where an apply_patch path points (spec §6.4): the path as the model wrote it is resolved
// against the workspace (the server's working directory) with the reference's input rules - a
// leading "@" is a model artefact unless a file literally named "@..." exists, "~" is the home
// directory, absolute paths are taken as they are - and, when the workspace is the boundary,
// checked so that nothing outside the root is reached, neither lexically ("..", an absolute
// path) nor through a symlinked directory, a symlinked final component or a hard link.

#include <string>
#include <string_view>

#include "base/result.h"

namespace clawexec::patch {

enum class Containment { kWorkspaceOnly, kAnywhere };

/// What the final path component may be. Deleting a symlink or a hard link removes only that
/// directory entry, so a deletion may name one (even one pointing outside the root).
enum class AliasPolicy { kStrict, kUnlinkTarget };

struct Workspace {
  std::string root;  // absolute; the boundary
  std::string cwd;   // absolute; relative paths start here (normally the root)
  std::string home;  // absolute; "~" expansion and the "~" shortening of messages
  Containment containment = Containment::kWorkspaceOnly;
};

struct ResolvedPath {
  std::string absolute;  // lexically normal absolute path (the root's spelling when inside it)
  std::string display;   // relative to cwd when inside it, else absolute; basename if == cwd
};

/// Resolves one patch path. Errors (kRejected) use the reference's texts:
///   Path escapes sandbox root (<root, ~-shortened>): <path>
///   Symlink escapes sandbox root (<root>): <symlink>
///   Path alias under sandbox root: <relative symlink>   (a symlink that stays inside)
///   Hardlinked path is not allowed under sandbox root (<root>): <path>
Result<ResolvedPath> resolve_patch_path(std::string_view raw, const Workspace& workspace, AliasPolicy policy);

/// "/a/./b/../c" -> "/a/c" (no file-system access; ".." at "/" stays at "/").
std::string lexically_normal(std::string_view absolute);

/// The display form of `absolute` for `cwd` (see ResolvedPath::display).
std::string display_path(const std::string& absolute, const std::string& cwd);

/// `path` with a leading `home` replaced by "~".
std::string shorten_home(const std::string& path, const std::string& home);

}  // namespace clawexec::patch
