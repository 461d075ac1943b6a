#pragma once
// What an inline approval asks a client's user (MCP elicitation), as data: the message and one
// required single-choice field. The protocol adapter turns it into the JSON Schema the
// negotiated MCP version expects (mcp/elicitation_schema.h), so the pipeline knows nothing of
// schema dialects.

#include <string>
#include <vector>

namespace clawexec::exec {

/// One offered answer: the value the client sends back and the label its user reads.
struct ElicitChoice {
  std::string value;
  std::string title;
};

struct ElicitForm {
  std::string message;
  std::string field;  // the one property of the requested object ("decision")
  std::string title;
  std::string description;
  std::vector<ElicitChoice> choices;
};

}  // namespace clawexec::exec
