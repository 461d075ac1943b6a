// PATH merging as the reference does it (mergePathPrepend/removePathPrepend): a PATH is a list of
// ':'-separated entries; blank entries are dropped and only the first copy of an entry is kept,
// so merging the same prepend twice is idempotent and never grows the variable.

#include "env/path_prepend.h"

#include <set>

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::env {
namespace {

// Appends the trimmed, non-empty entries of `path` not seen before.
void append_entries(std::string_view path, std::vector<std::string>& out, std::set<std::string>& seen) {
  size_t start = 0;
  while (start <= path.size()) {
    size_t end = path.find(':', start);
    if (end == std::string_view::npos) end = path.size();
    std::string entry(js_trim(path.substr(start, end - start)));
    if (!entry.empty() && seen.insert(entry).second) out.push_back(std::move(entry));
    start = end + 1;
  }
}

std::string join_entries(const std::vector<std::string>& entries) { return join(entries, ":"); }

}  // namespace

std::string find_path_key(const EnvList& env) {
  if (find_var(env, "PATH")) return "PATH";
  for (const auto& [key, value] : env) {
    if (ascii_upper(key) == "PATH") return key;
  }
  return "PATH";
}

std::vector<std::string> path_entries(std::string_view path) {
  std::vector<std::string> out;
  std::set<std::string> seen;
  append_entries(path, out, seen);
  return out;
}

std::string merge_path_prepend(std::string_view existing, const std::vector<std::string>& prepend) {
  if (prepend.empty()) return std::string(existing);
  std::vector<std::string> out;
  std::set<std::string> seen;
  for (const std::string& entry : prepend) append_entries(entry, out, seen);
  append_entries(existing, out, seen);
  return join_entries(out);
}

std::string remove_path_prepend(std::string_view existing, const std::vector<std::string>& prepend) {
  std::set<std::string> removed;
  for (const std::string& entry : prepend) {
    std::string trimmed(js_trim(entry));
    if (!trimmed.empty()) removed.insert(trimmed);
  }
  std::vector<std::string> kept;
  size_t start = 0;
  while (start <= existing.size()) {
    size_t end = existing.find(':', start);
    if (end == std::string_view::npos) end = existing.size();
    std::string entry(js_trim(existing.substr(start, end - start)));
    if (!entry.empty() && !removed.count(entry)) kept.push_back(std::move(entry));
    start = end + 1;
  }
  return join_entries(kept);
}

void apply_path_prepend(EnvList& env, const std::vector<std::string>& prepend, PathRequirement requirement) {
  if (prepend.empty()) return;
  std::string key = find_path_key(env);
  const std::string* current = find_var(env, key);
  if (requirement == PathRequirement::kExisting && (!current || current->empty())) return;
  std::string merged = merge_path_prepend(current ? *current : std::string(), prepend);
  if (!merged.empty()) set_var(env, key, std::move(merged));
}

std::string wrap_command_with_path_prepend(const std::string& command, EnvList& env,
                                           const std::vector<std::string>& prepend) {
  if (prepend.empty()) return command;
  std::string key = find_path_key(env);
  if (const std::string* current = find_var(env, key); current && !current->empty()) {
    set_var(env, key, remove_path_prepend(*current, prepend));
  }
  set_var(env, kPrependPathKey, join_entries(prepend));
  return "export PATH=\"${OPENCLAW_PREPEND_PATH}${PATH:+:$PATH}\"; unset OPENCLAW_PREPEND_PATH; " + command;
}

std::vector<std::string> expand_home_in_entries(const std::vector<std::string>& entries, std::string_view home) {
  std::vector<std::string> out;
  out.reserve(entries.size());
  for (const std::string& entry : entries) {
    if (!home.empty() && (entry == "~" || entry.rfind("~/", 0) == 0)) {
      std::string expanded(home);
      while (expanded.size() > 1 && expanded.back() == '/') expanded.pop_back();
      out.push_back(expanded + entry.substr(1));
    } else {
      out.push_back(entry);
    }
  }
  return out;
}

}  // namespace clawexec::env
