// Approval forms as MCP elicitation schemas, per protocol version: see elicitation_schema.h.
// Protocol versions are ISO dates, so "this version or later" is a string comparison.

#include "mcp/elicitation_schema.h"

namespace clawexec::mcp {

json::Object elicitation_schema(const exec::ElicitForm& form, std::string_view protocol_version) {
  json::Object field{{"type", "string"}, {"title", form.title}, {"description", form.description}};
  if (protocol_version >= kTitledEnumOneOfVersion) {
    json::Array one_of;
    for (const exec::ElicitChoice& c : form.choices) one_of.push_back(json::Object{{"const", c.value}, {"title", c.title}});
    field["oneOf"] = std::move(one_of);
  } else {
    json::Array values;
    json::Array names;
    for (const exec::ElicitChoice& c : form.choices) {
      values.emplace_back(c.value);
      names.emplace_back(c.title);
    }
    field["enum"] = std::move(values);
    field["enumNames"] = std::move(names);
  }
  return json::Object{{"type", "object"},
                      {"properties", json::Object{{form.field, std::move(field)}}},
                      {"required", json::Array{json::Value(std::string_view(form.field))}}};
}

}  // namespace clawexec::mcp
