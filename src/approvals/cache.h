#pragma once
// Resolutions of the approvals document, reused while the file is unchanged.
//
// Every exec on the gateway consults the document (twice: once for the security floor, once
// for the host context). Parsing and normalising a document with a large allowlist costs far
// more than the decision itself, so resolutions are kept per (agent, fallbacks) and dropped as
// soon as the file's identity (device, inode, size, mtime, ctime) or the legacy file's changes.
// The store writes by rename, so every write it makes is seen; an in-place edit changes mtime.

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "approvals/document.h"
#include "approvals/paths.h"

namespace clawexec::approvals {

class ApprovalsCache {
 public:
  explicit ApprovalsCache(ApprovalsPaths paths);

  /// resolve_from_file on the store's current document (fail-closed when unreadable).
  std::shared_ptr<const ResolvedApprovals> resolve(std::string_view agent_id, const policy::ApprovalsOverrides& overrides);

 private:
  std::string identity() const;

  ApprovalsPaths paths_;
  std::mutex mutex_;
  std::string identity_;
  std::map<std::string, std::shared_ptr<const ResolvedApprovals>, std::less<>> resolved_;
};

}  // namespace clawexec::approvals
