// Building apply_patch's options from the service configuration. The protected paths are
// what this server depends on: its state directory (and the default ~/.openclaw), its config
// file, its own executable and the shim (where it is and every place it would be looked for
// next to the executable), plus the shell and git locations its environment points at.

#include "tools/apply_patch_options.h"

#include <algorithm>

#include "env/env_list.h"
#include "proc/spawn.h"
#include "sys/sys.h"

namespace clawexec::tools {
namespace {

std::optional<std::string> absolute_var(const env::EnvList& env, std::string_view name) {
  const std::string* value = env::find_var(env, name);
  if (!value || value->empty() || (*value)[0] != '/') return std::nullopt;
  return *value;
}

void add_unique(std::vector<std::string>& list, std::string value) {
  if (value.empty() || std::find(list.begin(), list.end(), value) != list.end()) return;
  list.push_back(std::move(value));
}

}  // namespace

patch::PatchOptions apply_patch_options(const exec::ServiceConfig& config, std::string cwd) {
  patch::PatchOptions options;
  options.cwd = std::move(cwd);
  options.home = config.home_dir;
  options.containment =
      config.exec.apply_patch.workspace_only ? patch::Containment::kWorkspaceOnly : patch::Containment::kAnywhere;

  patch::ProtectedPathInputs& p = options.protection;
  add_unique(p.homes, config.home_dir);
  if (std::optional<std::string> home = absolute_var(config.inherited_env, "HOME")) add_unique(p.homes, *home);
  p.state_dir = config.state_dir.empty() ? config.approvals_paths.state_dir : config.state_dir;
  add_unique(p.state_dirs, config.approvals_paths.state_dir);
  for (const std::string& home : p.homes) {
    if (home != "/") add_unique(p.state_dirs, home + "/.openclaw");
  }
  p.config_path = config.config_path;
  add_unique(p.executables, config.shim_path);
  if (Result<std::string> self = sys::self_executable(); self.ok()) {
    add_unique(p.executables, *self);
    for (std::string& path : proc::shim_search_paths(*self)) add_unique(p.executables, std::move(path));
  }
  p.zdotdir = absolute_var(config.inherited_env, "ZDOTDIR");
  p.xdg_config_home = absolute_var(config.inherited_env, "XDG_CONFIG_HOME");
  p.bash_env = absolute_var(config.inherited_env, "BASH_ENV");
  p.env_file = absolute_var(config.inherited_env, "ENV");
  p.git_config_global = absolute_var(config.inherited_env, "GIT_CONFIG_GLOBAL");
  p.allowed = config.exec.apply_patch.allow_protected_paths;
  return options;
}

}  // namespace clawexec::tools
