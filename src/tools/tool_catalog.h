#pragma once
// Which tools a client gets, and calling one by name: the one place a front end (the MCP
// server today, the gateway tomorrow) asks what to list and where a call goes. A front end
// validates the arguments (tools/tool_schema.h) and formats results; it knows nothing of the
// exec pipeline or the patch engine behind them.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "exec/service.h"
#include "tools/tool_result.h"
#include "tools/tool_schema.h"

namespace clawexec::tools {

/// tools.exec.applyPatch: enabled, and allowModels (when set) names `model` (case-insensitive)
/// or no model is known yet: a client may name its model per call (Codex does), and each call
/// is checked by apply_patch_refusal.
bool apply_patch_available(const config::ApplyPatchSettings& settings, std::string_view model);

/// Why an apply_patch call acting for `model` may not run (allowModels), if it may not. Like the
/// reference, an allow-list matches no unknown model.
std::optional<std::string> apply_patch_refusal(const config::ApplyPatchSettings& settings, std::string_view model);

/// Who is asking: the client's model (may be empty) and whether its session runs in a sandbox
/// (then tools.sandbox.tools filters too).
struct Audience {
  std::string model;
  bool sandboxed = false;
};

/// The tools `audience` is offered, in listing order: those the tool policy
/// (ServiceConfig::tools) allows, apply_patch only when tools.exec.applyPatch also allows it.
std::vector<const ToolSpec*> offered_tools(const exec::ServiceConfig& config, const Audience& audience);

/// The offered tool called `name`, or null.
const ToolSpec* find_offered_tool(const exec::ServiceConfig& config, const Audience& audience, std::string_view name);

/// The error for a call to `name` when it is not offered: "Unknown tool: <name>", followed for
/// one of ours by why (the policy key that denies it, or the applyPatch setting).
std::string unavailable_text(const exec::ServiceConfig& config, const Audience& audience, std::string_view name);

/// Whether the client can follow up on background runs (the process tool is offered): if not,
/// exec runs in the foreground and ignores yieldMs/background (with a warning).
bool continuation_available(const exec::ServiceConfig& config, bool sandboxed);

/// Runs `spec`'s tool with `args` (already checked by validate_arguments) for `client`.
void call_tool(exec::ExecService& service, const ToolSpec& spec, const json::Object& args,
               std::shared_ptr<exec::ClientSession> client, exec::CallOptions options, ToolDone done);

}  // namespace clawexec::tools
