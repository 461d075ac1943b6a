#pragma once
// apply_patch against a directory tree (spec §6.4, §6.5), all or nothing: every file's new
// content is computed in memory first, and files are written only when every hunk of every
// file applies and no path is protected (protected_paths.h); a failure while writing puts back
// what was already changed. Sizes are capped (PatchLimits) so a patch cannot exhaust memory.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "patch/protected_paths.h"
#include "patch/workspace.h"

namespace clawexec::patch {

/// What one patch may read and write. A file over max_file_bytes is refused before it is read
/// (its size comes from fstat), and so is a result over it; max_total_bytes caps the bytes of
/// all files read plus all files written, which is what the patch holds in memory. Matching
/// costs about 100 bytes per line on top of the text, hence the line limits (a 64 MiB file of
/// empty lines would otherwise need gigabytes).
struct PatchLimits {
  static constexpr size_t kMiB = size_t{1} << 20;
  size_t max_patch_bytes = 64 * kMiB;  // the patch text
  size_t max_patch_lines = 1'000'000;
  size_t max_file_bytes = 64 * kMiB;
  size_t max_file_lines = 4'000'000;  // of a file a hunk updates
  size_t max_total_bytes = 256 * kMiB;
};

struct PatchOptions {
  std::string cwd;   // absolute; the workspace directory relative paths start from
  std::string root;  // absolute boundary; empty = cwd
  std::string home;  // for "~"
  Containment containment = Containment::kWorkspaceOnly;
  ProtectedPathInputs protection;  // what must not be written (whatever the containment)
  PatchLimits limits;
};

struct PatchSummary {
  std::vector<std::string> added;     // display paths, each once, in patch order
  std::vector<std::string> modified;  // for moves, the destination
  std::vector<std::string> deleted;
  std::vector<std::string> unchanged;  // updates whose result equals the file (no-ops)
  bool all_noop = false;               // nothing changed and at least one update was a no-op
};

/// Parses `input` and applies it. Errors carry the reference's messages (and name the file).
Result<PatchSummary> apply_patch_to_workspace(std::string_view input, const PatchOptions& options);

/// The tool's text: "Success. Updated the following files:\nA x\nM y\nD z", or for an
/// all-no-op patch "No changes made to a, b.".
std::string summary_text(const PatchSummary& summary);

/// "512 MiB (536870912 bytes)", "3.5 KiB (3584 bytes)", "12 bytes": a size for messages.
std::string describe_size(uint64_t bytes);

}  // namespace clawexec::patch
