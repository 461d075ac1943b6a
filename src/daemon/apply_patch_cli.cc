// The CLI form of apply_patch. The configuration decides workspace containment
// (tools.exec.applyPatch.workspaceOnly) as for the MCP tool; `enabled` and `allowModels` are
// about which models see the tool and do not apply to an operator at the command line.

#include "daemon/apply_patch_cli.h"

#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <iterator>

#include "daemon/setup.h"
#include "json/json.h"
#include "patch/file_ops.h"
#include "patch/workspace.h"
#include "sys/sys.h"

namespace clawexec::daemon {

int run_apply_patch(const ApplyPatchCliOptions& options) {
  std::optional<Setup> setup = load_setup_reporting(options.agent_id, "apply-patch");
  if (!setup) return 1;
  std::string input((std::istreambuf_iterator<char>(std::cin)), std::istreambuf_iterator<char>());
  if (input.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::fprintf(stderr, "clawexec apply-patch: Provide a patch input.\n");
    return 1;
  }
  Result<std::string> here = sys::current_directory();
  if (!here.ok()) {
    std::fprintf(stderr, "clawexec apply-patch: %s\n", here.error().message.c_str());
    return 1;
  }
  patch::PatchOptions patch_options;
  patch_options.cwd = *here;
  if (options.workdir) {
    patch_options.cwd = !options.workdir->empty() && (*options.workdir)[0] == '/' ? *options.workdir : *here + "/" + *options.workdir;
    patch_options.cwd = patch::lexically_normal(patch_options.cwd);
    if (!sys::is_directory(patch_options.cwd)) {
      std::fprintf(stderr, "clawexec apply-patch: --workdir %s is not a directory\n", options.workdir->c_str());
      return 1;
    }
  }
  patch_options.home = setup->service.home_dir;
  patch_options.containment = setup->service.exec.apply_patch.workspace_only ? patch::Containment::kWorkspaceOnly
                                                                             : patch::Containment::kAnywhere;
  Result<patch::PatchSummary> applied = patch::apply_patch_to_workspace(input, patch_options);
  if (!applied.ok()) {
    std::fprintf(stderr, "%s\n", applied.error().message.c_str());
    return 1;
  }
  if (options.json) {
    auto strings = [](const std::vector<std::string>& v) {
      json::Array a;
      for (const std::string& s : v) a.emplace_back(s);
      return a;
    };
    json::Object summary{{"added", strings(applied->added)}, {"modified", strings(applied->modified)},
                         {"deleted", strings(applied->deleted)}};
    std::printf("%s\n", json::stringify(json::Object{{"summary", std::move(summary)}}, 2).c_str());
  } else {
    std::printf("%s\n", patch::summary_text(*applied).c_str());
  }
  return 0;
}

}  // namespace clawexec::daemon
