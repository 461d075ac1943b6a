#pragma once
// Reading the raw OpenClaw config document the way the reference's security audit and doctor
// read it (spec §10): the agent roster in either representation (`agents.entries.<id>` or
// `agents.list[]`), the configured safe-bin names, trusted directories and profile names of
// one `tools.exec` object. The audit and doctor work on the parsed document itself (not on
// config::ExecSettings) because they report on every scope, not on one resolved agent.

#include <boost/json/object.hpp>
#include <boost/json/value.hpp>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace clawexec::policy {

/// One configured agent of the roster.
struct ConfiguredAgent {
  std::string id;                      // the entries key, or the list entry's "id" ("" if none)
  bool has_string_id = false;          // list entries without a string id are skipped by most checks
  const boost::json::object* entry = nullptr;  // never null
  /// Where the doctor reports it: "agents.entries.<key>.tools.exec" or "agents.list.<index>.tools.exec".
  std::string doctor_scope_path;
};

/// listAgentEntries: `agents.entries` (an object, in key order) when the key is present and
/// not null, else `agents.list` (an array; non-object items skipped); otherwise none.
std::vector<ConfiguredAgent> list_configured_agents(const boost::json::value& config);

/// True when the document has an `agents.entries` or `agents.list` key (even an empty one).
bool has_agent_roster(const boost::json::value& config);

/// tryResolveDefaultAgentId: the one entry marked `default: true` (unless agents.ownership is
/// "explicit"), else the sole agent, else "main" when there is no roster at all; nullopt when
/// ambiguous. The id is normalised like config::normalize_agent_id.
std::optional<std::string> try_resolve_default_agent_id(const boost::json::value& config);

/// An object member or nullptr (also when `value` is not an object or the member is not one).
const boost::json::object* object_member(const boost::json::value* value, std::string_view key);
const boost::json::object* object_member(const boost::json::object* object, std::string_view key);

/// `tools.exec` of the document (nullptr when missing or not an object).
const boost::json::object* global_exec_section(const boost::json::value& config);
/// `tools.exec` of an agent entry.
const boost::json::object* agent_exec_section(const ConfiguredAgent& agent);

/// normalizeConfiguredSafeBins: string entries trimmed and lower-cased, blanks dropped,
/// de-duplicated and sorted. A non-array is empty.
std::vector<std::string> normalize_configured_safe_bins(const boost::json::value* entries);

/// normalizeConfiguredTrustedSafeBinDirs: string entries trimmed, blanks dropped, first
/// occurrence kept. A non-array is empty.
std::vector<std::string> normalize_configured_trusted_dirs(const boost::json::value* entries);

/// The names of the user-configured profiles of a scope: global `safeBinProfiles` keys merged
/// with the agent's (keys trimmed and lower-cased, blanks dropped). `local` may be null.
std::set<std::string, std::less<>> merged_profile_names(const boost::json::object* global,
                                                        const boost::json::object* local);

/// The log sanitiser the reference applies to doctor lines: ANSI escape sequences and the
/// control characters U+0000-U+001F and U+007F-U+009F removed.
std::string sanitize_for_log(std::string_view text);

}  // namespace clawexec::policy
