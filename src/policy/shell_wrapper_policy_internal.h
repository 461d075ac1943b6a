#pragma once
// Helpers shared by the shell_wrapper_policy*.cc files (not a public interface).

#include <optional>
#include <string>

#include "policy/shell_wrapper_policy.h"

namespace clawexec::policy::detail {

bool has_fish_init_command_option(const Argv& argv);
bool has_fish_attached_command_option(const Argv& argv);
bool has_nushell_login_or_interactive_startup(const Argv& argv);

}  // namespace clawexec::policy::detail
