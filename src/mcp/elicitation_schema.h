#pragma once
// The requestedSchema of an approval's elicitation/create, in the dialect the negotiated MCP
// version defines. 2025-11-25 gives a titled single choice its own shape (`oneOf` of
// {const, title}, "TitledSingleSelectEnumSchema") and deprecates the older `enum` +
// `enumNames` pair, which 2025-06-18 clients still expect.

#include <string_view>

#include "exec/elicit_form.h"
#include "json/json.h"

namespace clawexec::mcp {

/// The first protocol version whose titled enums are `oneOf` of {const, title}.
inline constexpr std::string_view kTitledEnumOneOfVersion = "2025-11-25";

/// An object schema with the one required string property `form.field` (title, description,
/// the choices): `oneOf` [{const, title}] for `protocol_version` 2025-11-25 or later, else
/// `enum` [values] + `enumNames` [titles].
json::Object elicitation_schema(const exec::ElicitForm& form, std::string_view protocol_version);

}  // namespace clawexec::mcp
