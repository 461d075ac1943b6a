// clawexec.mcp.* and CLAWEXEC_MCP_*: see mcp_settings.h.

#include "config/mcp_settings.h"

#include "base/strings.h"
#include "config/exec_layer.h"

namespace clawexec::config {
namespace {

const boost::json::value* member(const boost::json::value* v, std::string_view key) {
  if (!v || !v->is_object()) return nullptr;
  return v->get_object().if_contains(key);
}

std::optional<Elicitation> elicitation_from(std::string_view text) {
  std::string value = ascii_lower(trim_ascii(text));
  if (value == "elicit") return Elicitation::kElicit;
  if (value == "off") return Elicitation::kOff;
  return std::nullopt;
}

Result<void> read_elicitation(const boost::json::value* section, const EnvLookup& env, const std::string& origin,
                              McpSettings& out) {
  if (const boost::json::value* v = member(section, "elicitation")) {
    std::optional<Elicitation> e = v->is_string() ? elicitation_from(std::string_view(v->get_string())) : std::nullopt;
    if (!e) {
      std::string message = "clawexec.mcp.elicitation: expected \"elicit\" or \"off\", got " + detail::describe_value(*v);
      return Error::invalid(origin.empty() ? message : origin + ": " + message);
    }
    out.elicitation = *e;
  }
  std::optional<std::string> raw = env ? env(kElicitationEnv) : std::nullopt;
  if (raw && !trim_ascii(*raw).empty()) {
    std::optional<Elicitation> e = elicitation_from(*raw);
    if (!e) {
      return Error::invalid(std::string(kElicitationEnv) + ": expected \"elicit\" or \"off\", got \"" + *raw + "\"");
    }
    out.elicitation = *e;
  }
  return {};
}

}  // namespace

Result<McpSettings> read_mcp_settings(const boost::json::value& document, const EnvLookup& env,
                                      const std::string& origin) {
  McpSettings out;
  const boost::json::value* section = member(member(&document, "clawexec"), "mcp");
  if (const boost::json::value* v = member(section, "structuredContent")) {
    if (!v->is_bool()) {
      std::string message = "clawexec.mcp.structuredContent: expected true or false, got " + detail::describe_value(*v);
      return Error::invalid(origin.empty() ? message : origin + ": " + message);
    }
    out.structured_content = v->get_bool();
  }
  std::optional<std::string> raw = env ? env(kStructuredContentEnv) : std::nullopt;
  if (raw && !trim_ascii(*raw).empty()) {
    std::string value = ascii_lower(trim_ascii(*raw));
    if (value == "1" || value == "true" || value == "yes" || value == "on") {
      out.structured_content = true;
    } else if (value == "0" || value == "false" || value == "no" || value == "off") {
      out.structured_content = false;
    } else {
      return Error::invalid(std::string(kStructuredContentEnv) + ": expected 1/true/yes/on or 0/false/no/off, got \"" +
                            *raw + "\"");
    }
  }
  TRY(read_elicitation(section, env, origin, out));
  return out;
}

}  // namespace clawexec::config
