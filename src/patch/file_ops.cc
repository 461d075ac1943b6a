// apply_patch's file side. The patch is first played against an in-memory picture of the
// files it names (FileSlot: what is on disk, what the patch has made of it so far), hunk by
// hunk in patch order, so later hunks see earlier ones (an Add after a Delete of the same path,
// a Move onto a path deleted before). Every reference error surfaces during this dry run,
// before any byte is written; only then does commit() touch the disk. Every path is checked
// against the protected paths when the patch first names it, the whole patch against git
// directory shapes once planned. A file is read only when a hunk updates it, after fstat has
// shown it fits the per-file and total limits.

#include "patch/file_ops.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "patch/file_ops_internal.h"
#include "patch/patch.h"
#include "sys/whole_file.h"

namespace clawexec::patch {
namespace {

using internal::FileSlot;

// Line breaks as apply_chunks counts them (LF, CRLF and lone CR), plus a final unterminated line.
size_t count_lines(std::string_view text) {
  size_t lines = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == text.size() || text[i + 1] != '\n'))) ++lines;
  }
  return lines + (!text.empty() && text.back() != '\n' && text.back() != '\r' ? 1 : 0);
}

class Plan {
 public:
  explicit Plan(const PatchOptions& options)
      : workspace_{options.root.empty() ? options.cwd : options.root, options.cwd, options.home, options.containment},
        guard_(options.protection),
        limits_(options.limits) {}

  Result<void> add(const Hunk& hunk) {
    FileSlot& slot = TRY(slot_for(hunk.path, AliasPolicy::kStrict));
    if (slot.exists) {
      return Error::rejected("Cannot create " + slot.display + ": the file already exists. Use \"*** Update File: " +
                             slot.display + "\" to change it, or delete it earlier in the same patch.");
    }
    slot.exists = slot.regular = true;
    slot.content = hunk.contents;
    slot.mode.reset();
    slot.pristine = false;
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
    slot.pristine = false;
    record(summary_.deleted, slot.display);
    return {};
  }

  Result<void> update(const Hunk& hunk) {
    size_t source_index = TRY(index_for(hunk.path, AliasPolicy::kStrict));
    std::optional<size_t> dest_index;
    if (hunk.move_to) dest_index = TRY(index_for(*hunk.move_to, AliasPolicy::kStrict));
    FileSlot& source = slots_[source_index];
    load(source);
    if (!source.exists || !source.regular) {
      std::string why = source.read_error     ? *source.read_error
                        : !source.exists       ? "No such file or directory"
                        : source.original_type == sys::FileType::kDirectory ? "Is a directory"
                                                                             : "not a regular file";
      return Error{ErrorCode::kNotFound, 0, "Failed to read file to update " + source.path + ": " + why};
    }
    const std::string& current = source.pristine ? source.original : source.content;
    std::string updated = TRY(apply_chunks(current, hunk.chunks, source.display));
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
      dest.pristine = source.pristine = false;
      source.exists = source.regular = false;
      record(summary_.modified, dest.display);
      return {};
    }
    if (same_content(current, updated)) {
      if (std::find(summary_.unchanged.begin(), summary_.unchanged.end(), source.display) == summary_.unchanged.end()) {
        summary_.unchanged.push_back(source.display);
      }
      return {};
    }
    unmark_noop(source.display);
    source.content = std::move(updated);
    source.pristine = false;
    record(summary_.modified, source.display);
    return {};
  }

  // After every hunk: the git-directory check over the whole patch, and the size of what would
  // be written.
  Result<void> check_before_commit() {
    std::vector<std::pair<std::string, std::string>> paths;
    for (const FileSlot& slot : slots_) paths.emplace_back(slot.path, slot.display);
    TRY(guard_.check_git_directories(paths));
    uint64_t total = bytes_read_;
    for (const FileSlot& slot : slots_) {
      if (slot.pristine || !slot.exists) continue;
      if (slot.content.size() > limits_.max_file_bytes) {
        return Error::rejected("apply_patch: refusing to write " + slot.display + ": its new content would be " +
                               describe_size(slot.content.size()) + ", over apply_patch's per-file limit of " +
                               describe_size(limits_.max_file_bytes));
      }
      total += slot.content.size();
    }
    if (total > limits_.max_total_bytes) {
      return Error::rejected("apply_patch: refusing this patch: the files it reads and writes add up to " +
                             describe_size(total) + ", over apply_patch's limit of " +
                             describe_size(limits_.max_total_bytes) + " per patch; split it into smaller patches");
    }
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

  // The slot of the file `raw` names, set up from lstat the first time the patch mentions it.
  Result<size_t> index_for(const std::string& raw, AliasPolicy policy) {
    ResolvedPath resolved = TRY(resolve_patch_path(raw, workspace_, policy));
    auto found = by_path_.find(resolved.absolute);
    if (found != by_path_.end()) return found->second;
    TRY(guard_.check(resolved.absolute, resolved.display));
    FileSlot slot;
    slot.path = resolved.absolute;
    slot.display = resolved.display;
    std::optional<sys::FileInfo> info = TRY(sys::lstat_path(slot.path));
    if (info) {
      slot.original_type = info->type;
      slot.original_mode = info->mode;
      slot.exists = true;
      if (info->type == sys::FileType::kRegular) {
        slot.regular = true;
        slot.mode = info->mode;
      }
    }
    slots_.push_back(std::move(slot));
    by_path_[resolved.absolute] = slots_.size() - 1;
    return slots_.size() - 1;
  }

  // Reads a regular file the first time a hunk updates it, within the limits; a failure is
  // kept as the slot's read error (reported by the update).
  void load(FileSlot& slot) {
    if (slot.loaded || !slot.pristine || !slot.regular || slot.original_type != sys::FileType::kRegular) return;
    slot.loaded = true;
    size_t budget = limits_.max_total_bytes > bytes_read_ ? limits_.max_total_bytes - bytes_read_ : 0;
    size_t cap = std::min(limits_.max_file_bytes, budget);
    Result<sys::BoundedFile> read = sys::read_regular_file_at_most(slot.path, cap);
    if (read.ok() && read->bytes && count_lines(*read->bytes) > limits_.max_file_lines) {
      slot.regular = false;
      slot.read_error = "it has " + std::to_string(count_lines(*read->bytes)) +
                        " lines, over apply_patch's per-file limit of " + std::to_string(limits_.max_file_lines) +
                        " lines";
      return;
    }
    if (read.ok() && read->bytes) {
      bytes_read_ += read->bytes->size();
      slot.original = std::move(*read->bytes);  // `content` stays empty while the slot is pristine
      return;
    }
    slot.regular = false;
    if (!read.ok()) {
      slot.read_error = read.error().message;
    } else if (read->size > limits_.max_file_bytes) {
      slot.read_error = "it is " + describe_size(read->size) + ", over apply_patch's per-file limit of " +
                        describe_size(limits_.max_file_bytes);
    } else {
      slot.read_error = "it is " + describe_size(read->size) + ", and with the files read before it this patch " +
                        "would hold more than apply_patch's limit of " + describe_size(limits_.max_total_bytes) +
                        " per patch; split it into smaller patches";
    }
  }

  Workspace workspace_;
  ProtectedPaths guard_;
  PatchLimits limits_;
  uint64_t bytes_read_ = 0;
  std::vector<FileSlot> slots_;
  std::map<std::string, size_t> by_path_;
  PatchSummary summary_;
};

}  // namespace

Result<PatchSummary> apply_patch_to_workspace(std::string_view input, const PatchOptions& options) {
  if (input.size() > options.limits.max_patch_bytes) {
    return Error::invalid("apply_patch: the patch is " + describe_size(input.size()) +
                          ", over apply_patch's limit of " + describe_size(options.limits.max_patch_bytes) +
                          "; split it into smaller patches");
  }
  if (size_t lines = count_lines(input); lines > options.limits.max_patch_lines) {
    return Error::invalid("apply_patch: the patch has " + std::to_string(lines) + " lines, over apply_patch's limit of " +
                          std::to_string(options.limits.max_patch_lines) + " lines; split it into smaller patches");
  }
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
  TRY(plan.check_before_commit());
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

std::string describe_size(uint64_t bytes) {
  char buf[64];
  constexpr uint64_t kKiB = 1024, kMiB = kKiB * 1024, kGiB = kMiB * 1024;
  auto scaled = [&](uint64_t unit, const char* name) {
    if (bytes % unit == 0) {
      std::snprintf(buf, sizeof buf, "%llu %s", static_cast<unsigned long long>(bytes / unit), name);
    } else {
      std::snprintf(buf, sizeof buf, "%.1f %s", static_cast<double>(bytes) / static_cast<double>(unit), name);
    }
    return std::string(buf) + " (" + std::to_string(bytes) + " bytes)";
  };
  if (bytes >= kGiB) return scaled(kGiB, "GiB");
  if (bytes >= kMiB) return scaled(kMiB, "MiB");
  if (bytes >= kKiB) return scaled(kKiB, "KiB");
  return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
}

}  // namespace clawexec::patch
