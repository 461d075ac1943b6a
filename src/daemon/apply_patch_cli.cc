// The CLI form of apply_patch: the same tool as the MCP one (tools/apply_patch_tool.h), so
// workspace containment (tools.exec.applyPatch.workspaceOnly), the protected paths, the texts
// and the summary are the same; `enabled` and `allowModels` are about which models see the tool
// and do not apply to an operator at the command line. Stdin is read in blocks and never beyond
// the patch size limit.

#include "daemon/apply_patch_cli.h"

#include <unistd.h>

#include <cstdio>

#include "daemon/setup.h"
#include "json/json.h"
#include "patch/file_ops.h"
#include "patch/workspace.h"
#include "sys/sys.h"
#include "sys/whole_file.h"
#include "tools/apply_patch_tool.h"

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
  tools::ToolResult applied = tools::apply_patch_now(setup->service, input, cwd);
  if (applied.is_error) {
    std::fprintf(stderr, "%s\n", applied.text.c_str());
    return 1;
  }
  if (options.json && applied.details) {
    std::printf("%s\n", json::stringify(*applied.details, 2).c_str());
  } else {
    std::printf("%s\n", applied.text.c_str());
  }
  return 0;
}

}  // namespace clawexec::daemon
