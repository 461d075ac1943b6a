#include "tools/tool_catalog.h"

#include <algorithm>

#include "base/strings.h"
#include "tools/apply_patch_tool.h"
#include "tools/exec_tool.h"

namespace clawexec::tools {

namespace {

bool model_allowed(const std::vector<std::string>& allow_models, std::string_view model) {
  std::string wanted = lower_trimmed(model);
  return std::any_of(allow_models.begin(), allow_models.end(),
                     [&](const std::string& entry) { return lower_trimmed(entry) == wanted; });
}

}  // namespace

bool apply_patch_available(const config::ApplyPatchSettings& settings, std::string_view model) {
  if (!settings.enabled) return false;
  if (!settings.allow_models || settings.allow_models->empty()) return true;
  return lower_trimmed(model).empty() || model_allowed(*settings.allow_models, model);
}

std::optional<std::string> apply_patch_refusal(const config::ApplyPatchSettings& settings, std::string_view model) {
  if (!settings.allow_models || settings.allow_models->empty()) return std::nullopt;
  if (lower_trimmed(model).empty()) {
    return std::string(
        "apply_patch is not available: tools.exec.applyPatch.allowModels is set and this call names no model "
        "(initialize params.model or params._meta.model, tools/call _meta[\"x-codex-turn-metadata\"].model, "
        "or clawexec serve --model).");
  }
  if (!model_allowed(*settings.allow_models, model)) {
    return "apply_patch is not available to model \"" + std::string(model) +
           "\": tools.exec.applyPatch.allowModels does not list it.";
  }
  return std::nullopt;
}

std::vector<const ToolSpec*> offered_tools(const exec::ServiceConfig& config, const Audience& audience) {
  std::vector<const ToolSpec*> tools;
  for (const ToolSpec* spec : {&exec_tool_spec(), &process_tool_spec(), &apply_patch_tool_spec()}) {
    if (!config.tools.allows(spec->name, audience.sandboxed)) continue;
    if (spec == &apply_patch_tool_spec() && !apply_patch_available(config.exec.apply_patch, audience.model)) continue;
    tools.push_back(spec);
  }
  return tools;
}

std::string unavailable_text(const exec::ServiceConfig& config, const Audience& audience, std::string_view name) {
  const std::string& model = audience.model;
  std::string unknown = "Unknown tool: " + std::string(name);
  bool ours = false;
  for (const ToolSpec* spec : {&exec_tool_spec(), &process_tool_spec(), &apply_patch_tool_spec()}) {
    ours = ours || spec->name == name;
  }
  if (!ours) return unknown;
  if (std::optional<std::string> key = config.tools.denied_by(name, audience.sandboxed)) {
    return unknown + " (not offered to this agent: the tool policy denies it, " + *key + ")";
  }
  if (!config.exec.apply_patch.enabled) return unknown + " (tools.exec.applyPatch.enabled is false)";
  return unknown + " (tools.exec.applyPatch.allowModels does not name this client's model: " +
         (model.empty() ? std::string("none was given") : std::string(model)) + ")";
}

bool continuation_available(const exec::ServiceConfig& config, bool sandboxed) {
  return config.tools.allows("process", sandboxed);
}

const ToolSpec* find_offered_tool(const exec::ServiceConfig& config, const Audience& audience, std::string_view name) {
  for (const ToolSpec* spec : offered_tools(config, audience)) {
    if (spec->name == name) return spec;
  }
  return nullptr;
}

void call_tool(exec::ExecService& service, const ToolSpec& spec, const json::Object& args,
               std::shared_ptr<exec::ClientSession> client, exec::CallOptions options, ToolDone done) {
  if (&spec == &apply_patch_tool_spec()) return run_apply_patch_tool(service, args, std::move(done));
  if (&spec == &process_tool_spec()) {
    return run_process_tool(service, *client, args, std::move(options.cancel), std::move(done));
  }
  run_exec_tool(service, std::move(client), args, std::move(options), std::move(done));
}

}  // namespace clawexec::tools
