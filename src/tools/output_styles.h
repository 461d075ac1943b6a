#pragma once
// Colour marks on the wire, for the operator's view of session output (the gateway's
// clawexec.sessions.log and clawexec.session.output): `styles: [[offset, "1;31"], ...]`, the
// offset in UTF-16 units of the text the marks travel with. The agent's results never carry
// them. Every mark's parameters are checked again here (digits and ';', bounded length), so a
// mark can only ever be an SGR whatever its origin.

#include <cstddef>
#include <span>

#include "json/json.h"
#include "session/style_marks.h"

namespace clawexec::tools {

/// The marks as [[offset + shift, params], ...]; a mark whose parameters are not SGR
/// parameters, or whose offset would go backwards, is left out.
json::Array styles_json(std::span<const session::TextStyle> styles, size_t shift = 0);

}  // namespace clawexec::tools
