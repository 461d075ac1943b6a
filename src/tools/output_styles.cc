// Colour marks as JSON for the operator's view (see output_styles.h).

#include "tools/output_styles.h"

#include "term/ansi_stripper.h"

namespace clawexec::tools {

json::Array styles_json(std::span<const session::TextStyle> styles, size_t shift) {
  json::Array out;
  size_t last = 0;
  for (const session::TextStyle& s : styles) {
    if (!term::is_sgr_params(s.params) || s.offset < last) continue;
    last = s.offset;
    out.emplace_back(json::Array{static_cast<uint64_t>(s.offset + shift), boost::json::string_view(s.params)});
  }
  return out;
}

}  // namespace clawexec::tools
