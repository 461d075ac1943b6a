#include "env/env_list.h"

#include <gtest/gtest.h>

namespace clawexec::env {
namespace {

TEST(EnvList, SetAppendsNewNamesInInsertionOrder) {
  EnvList env;
  set_var(env, "B", "2");
  set_var(env, "A", "1");
  set_var(env, "C", "3");
  EXPECT_EQ(env, (EnvList{{"B", "2"}, {"A", "1"}, {"C", "3"}}));
}

TEST(EnvList, ReassigningANameKeepsItsPositionAndTakesTheNewValue) {
  EnvList env{{"A", "1"}, {"B", "2"}, {"C", "3"}};
  set_var(env, "A", "changed");
  EXPECT_EQ(env, (EnvList{{"A", "changed"}, {"B", "2"}, {"C", "3"}}));
}

TEST(EnvList, NamesAreCaseSensitive) {
  EnvList env;
  set_var(env, "Path", "x");
  set_var(env, "PATH", "y");
  ASSERT_EQ(env.size(), 2u);
  ASSERT_NE(find_var(env, "Path"), nullptr);
  EXPECT_EQ(*find_var(env, "Path"), "x");
  EXPECT_EQ(*find_var(env, "PATH"), "y");
  EXPECT_EQ(find_var(env, "path"), nullptr);
}

TEST(EnvList, EraseRemovesOnlyThatNameAndReportsWhetherItWasThere) {
  EnvList env{{"A", "1"}, {"B", "2"}, {"C", "3"}};
  EXPECT_TRUE(erase_var(env, "B"));
  EXPECT_FALSE(erase_var(env, "B"));
  EXPECT_EQ(env, (EnvList{{"A", "1"}, {"C", "3"}}));
}

TEST(EnvList, AssignmentsAreNameEqualsValueInOrder) {
  EnvList env{{"A", "1"}, {"EMPTY", ""}, {"EQ", "a=b"}};
  EXPECT_EQ(to_assignments(env), (std::vector<std::string>{"A=1", "EMPTY=", "EQ=a=b"}));
}

TEST(EnvList, SortedNamesListNamesOnly) {
  EnvList env{{"ZED", "secret"}, {"ALPHA", "x"}, {"MID", ""}};
  EXPECT_EQ(sorted_names(env), (std::vector<std::string>{"ALPHA", "MID", "ZED"}));
  EXPECT_TRUE(sorted_names({}).empty());
}

}  // namespace
}  // namespace clawexec::env
