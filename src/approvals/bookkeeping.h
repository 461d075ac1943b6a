#pragma once
// Allowlist bookkeeping on a document (§1.7), as pure edits for ApprovalsStore::update:
// recording that entries were used, adding (or upgrading) an entry, removing entries.
// Each returns whether it changed the document.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "approvals/document.h"
#include "policy/allowlist_match.h"

namespace clawexec::approvals {

/// JSON.stringify([pattern, argPattern ?? null]): how entries are recognised across edits.
std::string allowlist_match_key(std::string_view pattern, const std::optional<std::string>& arg_pattern);

struct RecordedUse {
  std::string command;                       // the raw command text
  std::optional<std::string> resolved_path;  // the first segment's resolved trust path
  int64_t now_ms = 0;
};

/// For every entry of `agent_id` and of "*" (only "*" when agent_id is "*") whose match key
/// equals one of `matches`: sets lastUsedAt, lastUsedCommand, lastResolvedPath (removed when
/// nullopt) and a missing id. No matches: no change.
bool record_allowlist_use(Document& doc, std::string_view agent_id, const std::vector<policy::AllowlistEntry>& matches,
                          const RecordedUse& use, const UuidGenerator& new_id);

struct NewAllowlistEntry {
  std::string pattern;                     // trimmed; blank -> no change
  std::optional<std::string> arg_pattern;  // "" counts as none
  std::optional<std::string> source;       // e.g. "allow-always"
};

/// Always writes to agents.<agent_id> (never "*" unless asked). An entry with the same pattern
/// and argPattern is left alone when the new source is unset or equal; otherwise its source is
/// upgraded and lastUsedAt set. A new entry is appended as {id, pattern, argPattern?, source?,
/// lastUsedAt}.
bool add_allowlist_entry(Document& doc, std::string_view agent_id, const NewAllowlistEntry& entry, int64_t now_ms,
                         const UuidGenerator& new_id);

/// Which entries to remove: by id, or by exact pattern (trimmed) plus argPattern (nullopt
/// matches only entries without one).
struct AllowlistSelector {
  std::optional<std::string> id;
  std::optional<std::string> pattern;
  std::optional<std::string> arg_pattern;
};

/// Removes the selected entries of agents.<agent_id> only; an emptied allowlist is removed,
/// and so is an agent left with no keys at all. Returns how many entries were removed.
size_t remove_allowlist_entries(Document& doc, std::string_view agent_id, const AllowlistSelector& selector);

}  // namespace clawexec::approvals
