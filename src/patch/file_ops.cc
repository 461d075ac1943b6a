// apply_patch's file side. The patch is first played against an in-memory picture of the
// files it names (FileSlot: what is on disk, what the patch has made of it so far), hunk by
// hunk in patch order, so later hunks see earlier ones (an Add after a Delete of the same path,
// a Move onto a path deleted before). Every reference error surfaces during this dry run,
// before any byte is written; only then does commit() touch the disk.

#include "patch/file_ops.h"

#include <algorithm>
#include <map>

#include "patch/file_ops_internal.h"
#include "patch/patch.h"
#include "sys/patch_fs.h"

namespace clawexec::patch {
namespace {

using internal::FileSlot;

class Plan {
 public:
  explicit Plan(const PatchOptions& options)
      : workspace_{options.root.empty() ? options.cwd : options.root, options.cwd, options.home, options.containment} {}

  Result<void> add(const Hunk& hunk) {
    FileSlot& slot = TRY(slot_for(hunk.path, AliasPolicy::kStrict));
    if (slot.exists) {
      return Error::rejected("Cannot create " + slot.display + ": the file already exists. Use \"*** Update File: " +
                             slot.display + "\" to change it, or delete it earlier in the same patch.");
    }
    slot.exists = slot.regular = true;
    slot.content = hunk.contents;
    slot.mode.reset();
    record(summary_.added, slot.display);
    return {};
  }

  Result<void> remove(const Hunk& hunk) {
    FileSlot& slot = TRY(slot_for(hunk.path, AliasPolicy::kUnlinkTarget));
    if (!slot.exists) return Error{ErrorCode::kNotFound, 0, "Failed to delete " + slot.display + ": the file does not exist"};
    if (slot.original_type == sys::FileType::kDirectory && !slot.regular) {
      return Error::rejected("Failed to delete " + slot.display + ": it is a directory, not a file");
    }
    slot.exists = slot.regular = false;
    record(summary_.deleted, slot.display);
    return {};
  }

  Result<void> update(const Hunk& hunk) {
    size_t source_index = TRY(index_for(hunk.path, AliasPolicy::kStrict));
    std::optional<size_t> dest_index;
    if (hunk.move_to) dest_index = TRY(index_for(*hunk.move_to, AliasPolicy::kStrict));
    FileSlot& source = slots_[source_index];
    if (!source.exists || !source.regular) {
      std::string why = source.read_error     ? *source.read_error
                        : !source.exists       ? "No such file or directory"
                        : source.original_type == sys::FileType::kDirectory ? "Is a directory"
                                                                             : "not a regular file";
      return Error{ErrorCode::kNotFound, 0, "Failed to read file to update " + source.path + ": " + why};
    }
    std::string updated = TRY(apply_chunks(source.content, hunk.chunks, source.display));
    if (dest_index && *dest_index != source_index) {
      FileSlot& dest = slots_[*dest_index];
      if (dest.exists) {
        return Error::rejected("Cannot create " + dest.display +
                               ": the file already exists. Delete it earlier in the same patch to replace it.");
      }
      unmark_noop(source.display);
      dest.exists = dest.regular = true;
      dest.content = std::move(updated);
      dest.mode = source.mode;
      source.exists = source.regular = false;
      record(summary_.modified, dest.display);
      return {};
    }
    if (same_content(source.content, updated)) {
      if (std::find(summary_.unchanged.begin(), summary_.unchanged.end(), source.display) == summary_.unchanged.end()) {
        summary_.unchanged.push_back(source.display);
      }
      return {};
    }
    unmark_noop(source.display);
    source.content = std::move(updated);
    record(summary_.modified, source.display);
    return {};
  }

  PatchSummary& summary() { return summary_; }
  const std::vector<FileSlot>& slots() const { return slots_; }

 private:
  static void record(std::vector<std::string>& bucket, const std::string& display) {
    if (std::find(bucket.begin(), bucket.end(), display) == bucket.end()) bucket.push_back(display);
  }
  void unmark_noop(const std::string& display) {
    auto& list = summary_.unchanged;
    list.erase(std::remove(list.begin(), list.end(), display), list.end());
  }

  Result<std::reference_wrapper<FileSlot>> slot_for(const std::string& raw, AliasPolicy policy) {
    size_t index = TRY(index_for(raw, policy));
    return std::ref(slots_[index]);
  }

  // The slot of the file `raw` names, loaded from disk the first time the patch mentions it.
  Result<size_t> index_for(const std::string& raw, AliasPolicy policy) {
    ResolvedPath resolved = TRY(resolve_patch_path(raw, workspace_, policy));
    auto found = by_path_.find(resolved.absolute);
    if (found != by_path_.end()) return found->second;
    FileSlot slot;
    slot.path = resolved.absolute;
    slot.display = resolved.display;
    std::optional<sys::FileInfo> info = TRY(sys::lstat_path(slot.path));
    if (info) {
      slot.original_type = info->type;
      slot.original_mode = info->mode;
      slot.exists = true;
      if (info->type == sys::FileType::kRegular) {
        Result<std::string> bytes = sys::read_whole_file(slot.path);
        if (bytes.ok()) {
          slot.original = slot.content = std::move(bytes.value());
          slot.regular = true;
          slot.mode = info->mode;
        } else {
          slot.read_error = bytes.error().message;
        }
      }
    }
    slots_.push_back(std::move(slot));
    by_path_[resolved.absolute] = slots_.size() - 1;
    return slots_.size() - 1;
  }

  Workspace workspace_;
  std::vector<FileSlot> slots_;
  std::map<std::string, size_t> by_path_;
  PatchSummary summary_;
};

}  // namespace

Result<PatchSummary> apply_patch_to_workspace(std::string_view input, const PatchOptions& options) {
  std::vector<Hunk> hunks = TRY(parse_patch(input));
  if (hunks.empty()) return Error::invalid("No files were modified.");
  Plan plan(options);
  for (const Hunk& hunk : hunks) {
    switch (hunk.kind) {
      case HunkKind::kAdd:
        TRY(plan.add(hunk));
        break;
      case HunkKind::kDelete:
        TRY(plan.remove(hunk));
        break;
      case HunkKind::kUpdate:
        TRY(plan.update(hunk));
        break;
    }
  }
  TRY(internal::commit(plan.slots()));
  PatchSummary summary = std::move(plan.summary());
  summary.all_noop = !summary.unchanged.empty() && summary.added.empty() && summary.modified.empty() &&
                     summary.deleted.empty();
  return summary;
}

std::string summary_text(const PatchSummary& summary) {
  if (summary.all_noop) {
    std::string out = "No changes made to ";
    for (size_t i = 0; i < summary.unchanged.size(); ++i) out += (i ? ", " : "") + summary.unchanged[i];
    return out + ".";
  }
  std::string out = "Success. Updated the following files:";
  for (const std::string& p : summary.added) out += "\nA " + p;
  for (const std::string& p : summary.modified) out += "\nM " + p;
  for (const std::string& p : summary.deleted) out += "\nD " + p;
  return out;
}

}  // namespace clawexec::patch
