#pragma once
// The tools' parameter schemas and the argument check an agent loop performs before a tool runs.
//
// One declarative ToolSpec per tool yields both the JSON Schema that tools/list advertises and
// the validator for tools/call. The validator reproduces the reference agent loop: it first
// coerces model-style values (numbers and booleans to strings, numeric strings to numbers,
// "true"/"false"/1/0 to booleans, a scalar to a one-element array) and then reports every
// remaining mismatch as `Validation failed for tool "<name>":\n  - <path>: <message>\n\n
// Received arguments:\n<the original arguments as 2-space JSON>`; the exception is an unknown
// `host` or `process` action, which gets the tool's own text naming the allowed values (what
// the tool throws when it is called directly, as OpenClaw's own MCP server does). Unknown
// extra properties are kept and are not errors.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"
#include "json/json.h"

namespace clawexec::tools {

enum class FieldType { kString, kNumber, kBoolean, kStringEnum, kStringArray, kStringRecord };
enum class Required { kNo, kYes };

struct FieldSpec {
  std::string_view name;
  FieldType type;
  std::string_view description;
  Required required = Required::kNo;
  std::vector<std::string_view> enum_values = {};
  std::optional<double> minimum = std::nullopt;
  /// kStringEnum only: the tool's own error for a string outside enum_values (it names the
  /// allowed values, which the agent loop's "must be equal to one of the allowed values" does
  /// not). When set, such a value fails validation with this text alone.
  std::string (*invalid_value_text)(std::string_view value) = nullptr;
};

struct ToolSpec {
  std::string_view name;
  std::string_view title;
  std::string_view description;
  std::vector<FieldSpec> fields;
};

const ToolSpec& exec_tool_spec();
const ToolSpec& process_tool_spec();
/// apply_patch (spec §6.1); served by mcp::Server when tools.exec.applyPatch allows it.
const ToolSpec& apply_patch_tool_spec();

/// The JSON Schema object for `spec`'s parameters.
json::Object input_schema(const ToolSpec& spec);

/// The process tool's text for an action it does not know (reference §2.1).
inline constexpr std::string_view kInvalidProcessActionText =
    "Invalid process action. Expected one of: list, poll, log, write, send-keys, submit, paste, kill, clear, remove";

/// Coerces and checks `arguments` (which may be any JSON value; absent = {}). Returns the
/// coerced object, or an Error (kInvalidArgument) whose message is the reference text: the
/// tool's own text for a string outside an enum that has one (FieldSpec::invalid_value_text;
/// the first such field wins), else the agent loop's `Validation failed ...` listing.
Result<json::Object> validate_arguments(const ToolSpec& spec, const json::Value& arguments);

}  // namespace clawexec::tools
