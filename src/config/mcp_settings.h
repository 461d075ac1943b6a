#pragma once
// clawexec's own MCP server settings, kept out of OpenClaw's sections: the config file's
// `clawexec.mcp.*` and the CLAWEXEC_MCP_* environment variables: whether every client gets
// `structuredContent` in tool results (docs/tools.md "What the model sees"), and whether
// approvals are asked through the client's elicitation at all (docs/approvals.md "Approvals
// inside MCP clients").
//
// Approach: read from the already-parsed document; an invalid value is an error naming its
// key (or variable), like the exec sections. A set environment variable wins over the file
// (it is what an MCP client's server entry can set per launch).

#include <boost/json/value.hpp>
#include <string>

#include "base/result.h"
#include "config/env_lookup.h"

namespace clawexec::config {

inline constexpr std::string_view kStructuredContentEnv = "CLAWEXEC_MCP_STRUCTURED_CONTENT";
inline constexpr std::string_view kElicitationEnv = "CLAWEXEC_MCP_ELICITATION";

/// clawexec.mcp.elicitation / CLAWEXEC_MCP_ELICITATION: "elicit" asks approvals through the
/// client's elicitation when it declares the capability; "off" never does (every approval
/// takes the pending-approval path, as for a client without the capability).
enum class Elicitation { kElicit, kOff };

struct McpSettings {
  /// clawexec.mcp.structuredContent / CLAWEXEC_MCP_STRUCTURED_CONTENT: every client gets
  /// `structuredContent` = details, even one that did not ask for it.
  bool structured_content = false;
  Elicitation elicitation = Elicitation::kElicit;
};

/// Reads `clawexec.mcp` from `document` (the whole config file; other keys are ignored) and
/// the environment. `origin` prefixes file errors ("<file>: clawexec.mcp.structuredContent:
/// expected true or false, got \"yes\""). The variable takes 1/true/yes/on or 0/false/no/off
/// (any case); empty counts as unset. `elicitation` takes "elicit" or "off" (any case) in
/// both places.
Result<McpSettings> read_mcp_settings(const boost::json::value& document, const EnvLookup& env,
                                      const std::string& origin);

}  // namespace clawexec::config
