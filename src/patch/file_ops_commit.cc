// Committing a planned patch. Writes come first, each through a temp file and rename so every
// file is either old or new; removals come last and are renames to a hidden name beside the
// file, so they too can be undone until everything has succeeded. If any step fails, the
// journal is replayed backwards: replaced files get their old bytes and permission bits back,
// created files and directories are removed, removed files are renamed back. A step of the
// replay that fails is added to the error, so the caller learns the tree is not as it was.

#include <set>

#include "base/strings.h"
#include "patch/file_ops_internal.h"
#include "sys/file_system.h"
#include "sys/sys.h"
#include "sys/whole_file.h"

namespace clawexec::patch::internal {
namespace {

std::string parent_of(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

struct Undo {
  enum class Kind { kRestoreBytes, kRemoveCreated, kRemoveDirectory, kRenameBack } kind;
  const FileSlot* slot = nullptr;
  std::string path;    // directory (kRemoveDirectory) or hidden name (kRenameBack)
};

class Journal {
 public:
  void push(Undo undo) { steps_.push_back(std::move(undo)); }
  // Undoes every step, newest first, and returns `error` (what made the commit fail), extended
  // with each step that could not be undone.
  Error roll_back(Error error) {
    std::vector<std::string> failed;
    for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
      Result<void> undone;
      switch (it->kind) {
        case Undo::Kind::kRestoreBytes:
          undone = sys::replace_file_atomically(it->slot->path, it->slot->original, it->slot->original_mode);
          break;
        case Undo::Kind::kRemoveCreated:
          undone = sys::unlink_path(it->slot->path);
          break;
        case Undo::Kind::kRemoveDirectory:
          undone = sys::remove_empty_directory(it->path);
          break;
        case Undo::Kind::kRenameBack:
          undone = sys::rename_path(it->path, it->slot->path);
          break;
      }
      if (!undone.ok()) failed.push_back(undone.error().message);
    }
    steps_.clear();
    if (!failed.empty()) {
      error.message += " (the rollback also failed, so some files may be left changed: " + join(failed, "; ") + ")";
    }
    return error;
  }
  // After success: the hidden copies of removed files go. The patch is applied by now, so a
  // copy that cannot be removed is left behind (a dot file beside the original) rather than
  // reported as a failure of the patch.
  void finish() {
    for (const Undo& step : steps_) {
      if (step.kind == Undo::Kind::kRenameBack) ignore_error(sys::unlink_path(step.path));
    }
  }

 private:
  std::vector<Undo> steps_;
};

bool unchanged(const FileSlot& slot) {
  if (slot.exists != slot.original_type.has_value()) return false;
  if (!slot.exists) return true;
  if (slot.pristine) return true;
  return slot.original_known() && slot.regular && slot.content == slot.original && slot.mode == slot.original_mode;
}

std::string hidden_name(const FileSlot& slot) {
  std::string dir = parent_of(slot.path);
  return dir + (dir == "/" ? "" : "/") + ".clawexec-patch-removed." + std::to_string(sys::random_below(0xffffffffu)) +
         "." + slot.path.substr(slot.path.rfind('/') + 1);
}

Result<void> write_one(const FileSlot& slot, Journal& journal, std::set<std::string>& dirs) {
  std::string dir = parent_of(slot.path);
  Result<std::vector<std::string>> created = sys::make_directories(dir);
  if (!created.ok()) return Error{created.error().code, created.error().sys_errno, "Failed to write " + slot.display + ": " + created.error().message};
  for (const std::string& d : *created) journal.push({Undo::Kind::kRemoveDirectory, nullptr, d});
  // Anything whose bytes we do not hold (not a regular file, unreadable, never read) is moved
  // aside first, so it can come back.
  bool replaces_other = slot.original_type.has_value() && !slot.original_known();
  if (replaces_other) {
    std::string hidden = hidden_name(slot);
    if (Result<void> r = sys::rename_path(slot.path, hidden); !r.ok()) {
      return Error{r.error().code, r.error().sys_errno, "Failed to write " + slot.display + ": " + r.error().message};
    }
    journal.push({Undo::Kind::kRenameBack, &slot, hidden});
  }
  Result<void> written = sys::replace_file_atomically(slot.path, slot.content, slot.mode);
  if (!written.ok()) {
    return Error{written.error().code, written.error().sys_errno, "Failed to write " + slot.display + ": " + written.error().message};
  }
  journal.push({slot.original_known() ? Undo::Kind::kRestoreBytes : Undo::Kind::kRemoveCreated, &slot, {}});
  dirs.insert(dir);
  return {};
}

}  // namespace

Result<void> commit(const std::vector<FileSlot>& slots) {
  Journal journal;
  std::set<std::string> dirs;
  for (const FileSlot& slot : slots) {
    if (!slot.exists || unchanged(slot)) continue;
    if (Result<void> r = write_one(slot, journal, dirs); !r.ok()) return journal.roll_back(std::move(r).error());
  }
  for (const FileSlot& slot : slots) {
    if (slot.exists || !slot.original_type) continue;
    std::string hidden = hidden_name(slot);
    if (Result<void> r = sys::rename_path(slot.path, hidden); !r.ok()) {
      return journal.roll_back(
          Error{r.error().code, r.error().sys_errno, "Failed to delete " + slot.display + ": " + r.error().message});
    }
    journal.push({Undo::Kind::kRenameBack, &slot, hidden});
    dirs.insert(parent_of(slot.path));
  }
  journal.finish();
  // Every file is in place by now and nothing can be undone any more: syncing the directories
  // makes the renames durable where the file system allows, and a failure changes nothing the
  // caller could act on.
  for (const std::string& dir : dirs) ignore_error(sys::sync_directory(dir));
  return {};
}

}  // namespace clawexec::patch::internal
