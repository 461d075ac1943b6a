#pragma once
// ToolResult: what a tool call answers, for any front end (MCP today, the gateway tomorrow).
// `text` is content[0].text, the whole answer the model reads; `details` the structured details
// (absent for the errors the reference "throws"); `is_error` marks failed results and thrown
// errors. The same shape as the exec pipeline's Reply, which a tool passes on unchanged.

#include <functional>

#include "exec/exec_start.h"

namespace clawexec::tools {

using ToolResult = exec::Reply;
using ToolDone = std::function<void(ToolResult)>;

}  // namespace clawexec::tools
