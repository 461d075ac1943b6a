// Non-interactive pagers and editors for commands under a restricted policy (see the header).

#include "env/interactive_tools.h"

#include <string_view>

namespace clawexec::env {

void apply_non_interactive_tools(EnvList& env) {
  for (std::string_view pager : {"PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "PSQL_PAGER"}) {
    set_var(env, pager, "cat");
  }
  set_var(env, "LESSSECURE", "1");
  for (std::string_view editor : {"EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR"}) set_var(env, editor, "false");
}

}  // namespace clawexec::env
