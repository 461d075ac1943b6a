#include "tools/tool_catalog.h"

#include <algorithm>

#include "base/strings.h"
#include "tools/apply_patch_tool.h"
#include "tools/exec_tool.h"

namespace clawexec::tools {

bool apply_patch_available(const config::ApplyPatchSettings& settings, std::string_view model) {
  if (!settings.enabled) return false;
  if (!settings.allow_models || settings.allow_models->empty()) return true;
  std::string wanted = lower_trimmed(model);
  if (wanted.empty()) return false;
  return std::any_of(settings.allow_models->begin(), settings.allow_models->end(),
                     [&](const std::string& entry) { return lower_trimmed(entry) == wanted; });
}

std::vector<const ToolSpec*> offered_tools(const exec::ServiceConfig& config, std::string_view model) {
  std::vector<const ToolSpec*> tools{&exec_tool_spec(), &process_tool_spec()};
  if (apply_patch_available(config.exec.apply_patch, model)) tools.push_back(&apply_patch_tool_spec());
  return tools;
}

const ToolSpec* find_offered_tool(const exec::ServiceConfig& config, std::string_view model, std::string_view name) {
  for (const ToolSpec* spec : offered_tools(config, model)) {
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
