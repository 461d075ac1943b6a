#pragma once
// The one apply_patch tool: what the MCP tool and `clawexec apply-patch` both run. The patch
// text, applied against the workspace under the configuration's containment and protected
// paths (tools/apply_patch_options.h), as a tool result: the summary text and
// details {summary: {added, modified, deleted}}, or the thrown error.

#include <string>

#include "exec/service.h"
#include "tools/tool_result.h"

namespace clawexec::tools {

/// Applies `input` with relative paths starting at `cwd` (absolute). Blocking (reads, writes and
/// fsyncs files): call it off the io thread.
ToolResult apply_patch_now(const exec::ServiceConfig& config, const std::string& input, const std::string& cwd);

/// The MCP tool: `args` already checked against apply_patch_tool_spec(); runs on the service's
/// background thread and calls `done` on its io thread.
void run_apply_patch_tool(exec::ExecService& service, const json::Object& args, ToolDone done);

}  // namespace clawexec::tools
