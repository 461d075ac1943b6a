#pragma once
// The approvals document (`exec-approvals.json`, reference spec §1.2-1.5): strict validation
// of what is on disk, normalisation, serialisation, hashing, and resolution for one agent.
//
// The document is kept as JSON (boost::json::object), not a struct: agents and allowlist
// entries may carry keys this version does not know, and the reference preserves them and
// their order when it rewrites the file. Typed views (policy::AllowlistEntry,
// policy::HostPolicyView) are derived on demand.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "policy/allowlist_match.h"
#include "policy/modes.h"

namespace clawexec::approvals {

/// A normalised document: {version:1, socket:{path?,token?}, defaults:{...}, agents:{...}}.
using Document = boost::json::object;

/// Produces a new random UUID (v4, lowercase, 36 characters) for allowlist entry ids.
using UuidGenerator = std::function<std::string()>;

inline constexpr std::string_view kDefaultAgentId = "main";
inline constexpr std::string_view kWildcardAgentId = "*";
inline constexpr std::string_view kLegacyDefaultAgentId = "default";
inline constexpr std::string_view kAllowAlwaysSource = "allow-always";

/// Formats 16 random bytes as a version-4 UUID (sets the version and variant bits).
std::string format_uuid_v4(const unsigned char (&bytes)[16]);

/// Strict load validation (§1.3). The error (kInvalidArgument) says where and what, e.g.
/// "agents.main.allowlist[0].argPattern: expected a string".
Result<void> validate_document(const boost::json::value& parsed);

/// Parses file text: JSON syntax, then validate_document, then normalize_document. An empty
/// text is an error ("empty file").
Result<Document> parse_document(std::string_view raw, const UuidGenerator& new_id);

/// Normalisation (§1.4) of any JSON value (a non-object counts as an empty document): socket
/// values trimmed (blank dropped), legacy agents.default merged into agents.main, bare-string
/// entries coerced, unusable entries dropped, missing ids generated, commandText stripped,
/// invalid policy enums removed.
Document normalize_document(const boost::json::value& raw, const UuidGenerator& new_id);

/// The document a missing file stands for: normalize({version:1, agents:{}}).
Document empty_document();

/// The fail-closed policy used for unreadable or invalid files:
/// defaults {security:deny, ask:off, askFallback:deny, autoAllowSkills:false}, no agents.
Document fail_closed_document();

/// JSON.stringify(doc, null, 2) + "\n".
std::string serialize_document(const Document& doc);

/// sha256 hex of the raw file text; "missing:" + sha256("") for a missing file.
std::string document_hash(const std::optional<std::string>& raw);

/// The allowlist entries of one agent key, typed (entries without a string pattern skipped).
std::vector<policy::AllowlistEntry> allowlist_entries(const Document& doc, std::string_view agent_key);

/// Converts one allowlist entry object (non-string fields are ignored).
std::optional<policy::AllowlistEntry> allowlist_entry_from_json(const boost::json::value& entry);

/// The entry as JSON, fields in the reference's order (id, pattern, source, argPattern, ...).
boost::json::object allowlist_entry_to_json(const policy::AllowlistEntry& entry);

// ---- Resolution for an agent (§1.5). ----

/// What the file says for `agent_id`: per-field value and source, following the raw-presence
/// rules (an explicit but invalid agent field masks the wildcard and falls back to defaults).
/// `raw` is the file as read (presence is judged on it); `normalized` its normalisation.
policy::HostPolicyView host_policy_view(const boost::json::value& raw, const Document& normalized,
                                        std::string_view agent_id);

struct ResolvedDefaults {
  policy::ExecSecurity security = policy::ExecSecurity::kFull;
  policy::ExecAsk ask = policy::ExecAsk::kOff;
  policy::ExecSecurity ask_fallback = policy::ExecSecurity::kDeny;
  bool auto_allow_skills = false;
};

struct ResolvedApprovals {
  std::string path;         // display path of the file
  std::string socket_path;  // "~" expanded
  std::string token;
  ResolvedDefaults defaults;
  policy::ApprovalsAgentPolicy agent;
  policy::HostPolicyView agent_sources;  // the file view (values and sources before fallbacks)
  std::vector<policy::AllowlistEntry> allowlist;  // wildcard entries first, then the agent's
  Document file;
};

struct ResolveContext {
  std::string display_path;         // ResolvedApprovals::path
  std::string default_socket_path;  // used when the file names none
  std::string home;                 // expands a leading "~" of socket.path
};

/// resolveExecApprovalsFromFile: normalises `raw` and resolves it for `agent_id` with the
/// overrides as fallbacks. The token is the file's socket.token (or "").
ResolvedApprovals resolve_from_file(const boost::json::value& raw, std::string_view agent_id,
                                    const policy::ApprovalsOverrides& overrides, const ResolveContext& context,
                                    const UuidGenerator& new_id);

/// Expands a leading "~" (alone or followed by '/' or '\\') to `home`.
std::string expand_home_prefix(std::string_view path, std::string_view home);

}  // namespace clawexec::approvals
