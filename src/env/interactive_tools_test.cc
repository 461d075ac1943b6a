#include "env/interactive_tools.h"

#include <gtest/gtest.h>

namespace clawexec::env {
namespace {

TEST(NonInteractiveTools, PagersAreCatLessIsSecureAndEditorsRefuse) {
  EnvList env = {{"PAGER", "less"}, {"EDITOR", "vim"}, {"HOME", "/h"}};
  apply_non_interactive_tools(env);
  for (const char* name : {"PAGER", "GIT_PAGER", "MANPAGER", "SYSTEMD_PAGER", "PSQL_PAGER"}) {
    ASSERT_NE(find_var(env, name), nullptr) << name;
    EXPECT_EQ(*find_var(env, name), "cat") << name;
  }
  EXPECT_EQ(*find_var(env, "LESSSECURE"), "1");
  for (const char* name : {"EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR"}) EXPECT_EQ(*find_var(env, name), "false");
  EXPECT_EQ(*find_var(env, "HOME"), "/h");
}

}  // namespace
}  // namespace clawexec::env
