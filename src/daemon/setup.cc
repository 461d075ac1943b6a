// Startup configuration. The config file is optional (defaults apply without one); an invalid
// one is a startup error, because running with a half-understood policy would be worse.

#include "daemon/setup.h"

#include "daemon/exec_reviewer.h"

#include <signal.h>

#include <cstdio>

#include "approvals/cache.h"
#include "approvals/paths.h"
#include "approvals/system_fs.h"
#include "config/paths.h"
#include "daemon/sandbox_setup.h"
#include "env/env_list.h"
#include "policy/safe_bins.h"
#include "proc/spawn.h"
#include "sys/sys.h"

extern char** environ;

namespace clawexec::daemon {
namespace {

env::EnvList process_environment() {
  env::EnvList out;
  for (char** e = environ; e && *e; ++e) {
    std::string_view entry(*e);
    size_t eq = entry.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    env::set_var(out, entry.substr(0, eq), std::string(entry.substr(eq + 1)));
  }
  return out;
}

}  // namespace

void prepare_process() {
  ::signal(SIGPIPE, SIG_IGN);
  ignore_error(sys::raise_open_file_limit());
}

Result<Setup> load_setup(const std::string& agent_id) {
  Setup setup;
  config::PathContext paths = config::process_path_context();
  setup.config_path = config::resolve_config_path(paths);
  std::optional<std::string> text = TRY(config::read_config_file(setup.config_path));
  config::ConfigSources sources;
  sources.file_text = std::move(text);
  sources.origin = setup.config_path;
  sources.agent_id = agent_id;
  sources.env = config::process_env();
  config::LoadedConfig loaded = TRY(config::load_config(sources));
  setup.warnings = std::move(loaded.warnings);
  setup.service.exec = std::move(loaded.exec);
  setup.mcp = TRY(config::read_mcp_settings(loaded.document, sources.env, setup.config_path));
  setup.gateway = TRY(config::read_gateway_settings(loaded.document, sources.env, setup.config_path));
  if (loaded.document.is_object()) {
    Result<config::ToolPolicy> tools = config::read_tool_policy(loaded.document.get_object(), agent_id);
    if (!tools.ok()) return Error::invalid(setup.config_path + ": " + tools.error().message);
    setup.service.tools = std::move(tools).value();
    Result<config::ElevatedSettings> elevated = config::read_elevated_settings(loaded.document.get_object(), agent_id);
    if (!elevated.ok()) return Error::invalid(setup.config_path + ": " + elevated.error().message);
    setup.service.elevated = std::move(elevated).value();
    for (const std::string& w : setup.service.tools.warnings()) setup.warnings.push_back(w);
  }
  setup.service.shim_path = TRY(proc::locate_shim());
  {
    Result<std::shared_ptr<const exec::SandboxRuntime>> sandbox =
        load_sandbox_runtime(loaded.document, agent_id.empty() ? std::string("main") : agent_id,
                             config::resolve_state_dir(paths), config::resolve_home_dir(paths), setup.warnings);
    if (!sandbox.ok()) return Error::invalid(setup.config_path + ": " + sandbox.error().message);
    setup.service.sandbox = std::move(sandbox).value();
  }
  setup.service.inherited_env = process_environment();
  setup.service.state_dir = config::resolve_state_dir(paths);
  setup.service.home_dir = config::resolve_home_dir(paths);
  setup.service.config_path = setup.config_path;
  setup.service.agent_id = agent_id.empty() ? std::string("main") : agent_id;
  setup.service.approvals_paths = approvals::resolve_approvals_paths(paths);
  setup.service.reviewer = resolve_reviewer(setup.service.exec, loaded.document, setup.service.agent_id, sources.env,
                                            setup.config_path);
  setup.service.model_completer = model_completer();
  setup.service.approvals_cache = std::make_shared<approvals::ApprovalsCache>(setup.service.approvals_paths);
  if (const char* t = std::getenv("CLAWEXEC_APPROVAL_TIMEOUT_MS"); t && *t) {
    char* end = nullptr;
    long long ms = std::strtoll(t, &end, 10);
    if (end && *end == '\0' && ms > 0) setup.service.approval_timeout_ms = ms;
  }
  if (const char* t = std::getenv("CLAWEXEC_ELICITATION_INSTANT_CANCEL_MS"); t && *t) {
    char* end = nullptr;
    long long ms = std::strtoll(t, &end, 10);
    if (end && *end == '\0' && ms >= 0) setup.service.elicitation_instant_cancel_ms = ms;
  }
  if (const char* t = std::getenv("CLAWEXEC_NODE_RESUME_GRACE_MS"); t && *t) {
    char* end = nullptr;
    long long ms = std::strtoll(t, &end, 10);
    if (end && *end == '\0' && ms > 0) setup.service.node_resume_grace_ms = ms;
  }
  if (const char* t = std::getenv("CLAWEXEC_TEST_ANALYSIS_DELAY_MS"); t && *t) {
    char* end = nullptr;
    long long ms = std::strtoll(t, &end, 10);
    if (end && *end == '\0' && ms > 0) setup.service.analysis_delay_ms = ms;
  }
  // The reference logs these when it builds the safe-bin policy: unprofiled and interpreter
  // safe bins are never auto-allowed, which an operator should hear about once, at startup.
  policy::SafeBinLayer layer;
  layer.safe_bins = setup.service.exec.safe_bins;
  layer.trusted_dirs = setup.service.exec.safe_bin_trusted_dirs.value_or(std::vector<std::string>{});
  layer.profiles = setup.service.exec.safe_bin_profiles;
  for (std::string& w : policy::resolve_exec_safe_bin_runtime_policy(layer, {}, approvals::system_fs_view()).warnings) {
    setup.warnings.push_back(std::move(w));
  }
  if (const char* ptmx = std::getenv("CLAWEXEC_PTMX"); ptmx && *ptmx) setup.service.ptmx = ptmx;
  return setup;
}

std::optional<Setup> load_setup_reporting(const std::string& agent_id, std::string_view command) {
  Result<Setup> setup = load_setup(agent_id);
  std::string prefix = "clawexec " + std::string(command) + ": ";
  if (!setup.ok()) {
    std::fprintf(stderr, "%s%s\n", prefix.c_str(), setup.error().message.c_str());
    return std::nullopt;
  }
  for (const std::string& w : setup->warnings) std::fprintf(stderr, "%swarning: %s\n", prefix.c_str(), w.c_str());
  return std::move(setup).value();
}

}  // namespace clawexec::daemon
