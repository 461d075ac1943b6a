#pragma once
// Internal to file_ops*.cc: the in-memory picture of every file a patch touches (as found on
// disk, and as the patch leaves it), and the commit step that makes the disk match it.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/result.h"
#include "sys/file_system.h"

namespace clawexec::patch::internal {

struct FileSlot {
  std::string path;     // absolute
  std::string display;  // for messages
  // On disk before the patch.
  std::optional<sys::FileType> original_type;  // nullopt: nothing there
  std::string original;                        // bytes of a regular file
  uint32_t original_mode = 0;
  std::optional<std::string> read_error;  // a regular file that could not be read
  // After the patch (so far).
  bool exists = false;
  bool regular = false;
  std::string content;
  std::optional<uint32_t> mode;  // nullopt: a new file (0666 less the umask)
  bool loaded = false;   // `original` holds the file's bytes (read on the first update)
  bool pristine = true;  // no hunk has changed this slot yet

  /// The original bytes are at hand, so a rollback can rewrite them.
  bool original_known() const { return original_type == sys::FileType::kRegular && loaded && !read_error; }
};

/// Makes the disk match every slot's final state: writes (temp file + fsync + rename, parents
/// created) in slot order, then removals; on any failure, everything done so far is undone and
/// the failure is returned.
Result<void> commit(const std::vector<FileSlot>& slots);

}  // namespace clawexec::patch::internal
