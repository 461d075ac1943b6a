// The CLI form of apply_patch. The configuration decides workspace containment
// (tools.exec.applyPatch.workspaceOnly) and the protected paths as for the MCP tool (one
// builder, mcp/apply_patch_options.h); `enabled` and `allowModels` are about which models see
// the tool and do not apply to an operator at the command line. Stdin is read in blocks and
// never beyond the patch size limit.

#include "daemon/apply_patch_cli.h"

#include <unistd.h>

#include <cstdio>

#include "daemon/setup.h"
#include "json/json.h"
#include "mcp/apply_patch_options.h"
#include "patch/file_ops.h"
#include "patch/workspace.h"
#include "sys/sys.h"
#include "sys/whole_file.h"

namespace clawexec::daemon {

int run_apply_patch(const ApplyPatchCliOptions& options) {
  std::optional<Setup> setup = load_setup_reporting(options.agent_id, "apply-patch");
  if (!setup) return 1;
  const size_t max_patch = patch::PatchLimits{}.max_patch_bytes;
  Result<std::string> read = sys::read_fd_at_most(STDIN_FILENO, max_patch, "stdin");
  if (!read.ok()) {
    std::fprintf(stderr, "clawexec apply-patch: %s\n", read.error().message.c_str());
    return 1;
  }
  std::string input = std::move(read.value());
  if (input.size() > max_patch) {
    std::fprintf(stderr, "clawexec apply-patch: the patch on stdin is over apply_patch's limit of %s\n",
                 patch::describe_size(max_patch).c_str());
    return 1;
  }
  if (input.find_first_not_of(" \t\r\n") == std::string::npos) {
    std::fprintf(stderr, "clawexec apply-patch: Provide a patch input.\n");
    return 1;
  }
  Result<std::string> here = sys::current_directory();
  if (!here.ok()) {
    std::fprintf(stderr, "clawexec apply-patch: %s\n", here.error().message.c_str());
    return 1;
  }
  std::string cwd = *here;
  if (options.workdir) {
    cwd = patch::lexically_normal(!options.workdir->empty() && (*options.workdir)[0] == '/' ? *options.workdir
                                                                                            : *here + "/" + *options.workdir);
    if (!sys::is_directory(cwd)) {
      std::fprintf(stderr, "clawexec apply-patch: --workdir %s is not a directory\n", options.workdir->c_str());
      return 1;
    }
  }
  patch::PatchOptions patch_options = mcp::apply_patch_options(setup->service, cwd);
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
