#pragma once
// The exec tool's JSON arguments (already schema-checked and coerced) as an exec::ExecRequest.
// Argument repair happens here: models sometimes leave a broken XML tool-call suffix
// ("</arg_value>>") on string arguments, which is cut off before the pipeline reads them.

#include "exec/exec_request.h"
#include "json/json.h"

namespace clawexec::tools {

exec::ExecRequest exec_request_from_args(const json::Object& args);

/// `value` without a trailing "</arg_value>" followed by at least one more '>'.
std::string strip_xml_artifact(std::string value);

}  // namespace clawexec::tools
