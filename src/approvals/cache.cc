#include "approvals/cache.h"

#include "approvals/random.h"
#include "approvals/store.h"
#include "sys/file_system.h"

namespace clawexec::approvals {
namespace {

std::string file_identity(const std::string& path) {
  Result<std::optional<sys::FileInfo>> info = sys::lstat_path(path);
  if (!info.ok()) return "error";
  if (!info.value()) return "missing";
  const sys::FileInfo& f = **info;
  return std::to_string(static_cast<int>(f.type)) + ":" + std::to_string(f.dev) + ":" + std::to_string(f.ino) + ":" +
         std::to_string(f.size) + ":" + std::to_string(f.mtime_ns) + ":" + std::to_string(f.ctime_ns);
}

std::string overrides_key(std::string_view agent, const policy::ApprovalsOverrides& o) {
  std::string key(agent);
  key += '|' + (o.security ? std::string(config::to_string(*o.security)) : std::string("-"));
  key += '|' + (o.ask ? std::string(config::to_string(*o.ask)) : std::string("-"));
  key += '|' + (o.ask_fallback ? std::string(config::to_string(*o.ask_fallback)) : std::string("-"));
  key += '|' + (o.auto_allow_skills ? std::string(*o.auto_allow_skills ? "1" : "0") : std::string("-"));
  return key;
}

}  // namespace

ApprovalsCache::ApprovalsCache(ApprovalsPaths paths) : paths_(std::move(paths)) {}

std::string ApprovalsCache::identity() const {
  std::string id = file_identity(paths_.file);
  if (paths_.legacy_file) id += "|" + file_identity(*paths_.legacy_file);
  return id;
}

std::shared_ptr<const ResolvedApprovals> ApprovalsCache::resolve(std::string_view agent_id,
                                                                 const policy::ApprovalsOverrides& overrides) {
  std::string now = identity();
  std::string key = overrides_key(agent_id, overrides);
  std::lock_guard lock(mutex_);
  if (now != identity_ || now == "error") {
    resolved_.clear();
    identity_ = now;
  }
  if (auto it = resolved_.find(key); it != resolved_.end()) return it->second;
  ApprovalsStore store(paths_);
  boost::json::value raw(store.load());
  auto resolved = std::make_shared<const ResolvedApprovals>(
      resolve_from_file(raw, agent_id, overrides, store.resolve_context(), [] { return random_uuid(); }));
  resolved_.emplace(std::move(key), resolved);
  return resolved;
}

}  // namespace clawexec::approvals
