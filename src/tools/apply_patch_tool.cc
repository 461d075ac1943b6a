#include "tools/apply_patch_tool.h"

#include <boost/asio/post.hpp>

#include "patch/file_ops.h"
#include "sys/sys.h"
#include "tools/apply_patch_options.h"
#include "tools/tool_args.h"

namespace clawexec::tools {
namespace {

json::Array strings(const std::vector<std::string>& v) {
  json::Array a;
  for (const std::string& s : v) a.emplace_back(s);
  return a;
}

}  // namespace

ToolResult apply_patch_now(const exec::ServiceConfig& config, const std::string& input, const std::string& cwd) {
  if (input.find_first_not_of(" \t\r\n") == std::string::npos) return ToolResult::thrown("Provide a patch input.");
  Result<patch::PatchSummary> applied = patch::apply_patch_to_workspace(input, apply_patch_options(config, cwd));
  if (!applied.ok()) return ToolResult::thrown(applied.error().message);
  const patch::PatchSummary& s = *applied;
  json::Object summary{{"added", strings(s.added)}, {"modified", strings(s.modified)}, {"deleted", strings(s.deleted)}};
  return ToolResult{patch::summary_text(s), json::Object{{"summary", std::move(summary)}}, false};
}

void run_apply_patch_tool(exec::ExecService& service, const json::Object& args, ToolDone done) {
  std::string input = string_arg(args, "input").value_or("");
  if (input.find_first_not_of(" \t\r\n") == std::string::npos) return done(ToolResult::thrown("Provide a patch input."));
  const exec::ServiceConfig& config = service.config();
  std::string cwd = config.default_cwd.empty() ? sys::current_directory().value_or(std::string("/")) : config.default_cwd;
  boost::asio::io_context& io = service.io();
  service.post_background([&config, &io, input = std::move(input), cwd = std::move(cwd), done = std::move(done)]() mutable {
    ToolResult result = apply_patch_now(config, input, cwd);
    boost::asio::post(io, [done = std::move(done), result = std::move(result)]() mutable { done(std::move(result)); });
  });
}

}  // namespace clawexec::tools
