#include "env/path_prepend.h"

#include <gtest/gtest.h>

namespace clawexec::env {
namespace {

// §8.2 case 27.
TEST(PathKey, PrefersExactPathThenAnyCaseThenDefault) {
  EXPECT_EQ(find_path_key({{"Path", "x"}}), "Path");
  EXPECT_EQ(find_path_key({{"Path", "b"}, {"PATH", "a"}}), "PATH");
  EXPECT_EQ(find_path_key({}), "PATH");
}

TEST(PathPrepend, AppliesUnderTheExistingKeyCasing) {
  EnvList env{{"Path", "/usr/bin"}};
  apply_path_prepend(env, {"/custom/bin"});
  EXPECT_EQ(env, (EnvList{{"Path", "/custom/bin:/usr/bin"}}));
}

TEST(PathPrepend, RequireExistingLeavesAnEnvWithoutPathAlone) {
  EnvList env{{"HOME", "/h"}};
  apply_path_prepend(env, {"/custom/bin"}, PathRequirement::kExisting);
  EXPECT_EQ(env, (EnvList{{"HOME", "/h"}}));
  apply_path_prepend(env, {"/custom/bin"});
  EXPECT_EQ(*find_var(env, "PATH"), "/custom/bin");
}

// §8.2 case 26: the login shell's entries come first, existing ones follow, no duplicates.
TEST(PathPrepend, MergeKeepsFirstOccurrenceAndDropsBlanks) {
  EXPECT_EQ(merge_path_prepend("/usr/bin", {"/custom/bin", "/opt/bin"}), "/custom/bin:/opt/bin:/usr/bin");
  EXPECT_EQ(merge_path_prepend("/usr/bin: :/opt/bin::/bin", {" /opt/bin ", "/usr/bin"}), "/opt/bin:/usr/bin:/bin");
  EXPECT_EQ(merge_path_prepend("/a:/a", {}), "/a:/a") << "nothing to prepend leaves PATH as it is";
}

TEST(PathPrepend, MergeIsIdempotent) {
  std::string once = merge_path_prepend("/usr/bin:/bin", {"/x", "/y"});
  EXPECT_EQ(merge_path_prepend(once, {"/x", "/y"}), once);
}

TEST(PathPrepend, RemoveTakesOutEveryCopy) {
  EXPECT_EQ(remove_path_prepend("/x:/usr/bin:/x:/bin", {"/x"}), "/usr/bin:/bin");
  EXPECT_EQ(remove_path_prepend("/usr/bin", {"/x"}), "/usr/bin");
}

TEST(PathEntries, SplitsTrimsAndDeduplicates) {
  EXPECT_EQ(path_entries(" /a :/b::/a"), (std::vector<std::string>{"/a", "/b"}));
  EXPECT_TRUE(path_entries("").empty());
}

TEST(PathPrependWrapper, MovesTheEntriesIntoTheShellPrologue) {
  EnvList env{{"PATH", "/opt/tools:/usr/bin:/bin"}};
  std::string wrapped = wrap_command_with_path_prepend("echo $PATH", env, {"/opt/tools", "/home/u/bin"});
  EXPECT_EQ(wrapped,
            "export PATH=\"${OPENCLAW_PREPEND_PATH}${PATH:+:$PATH}\"; unset OPENCLAW_PREPEND_PATH; echo $PATH");
  EXPECT_EQ(*find_var(env, "PATH"), "/usr/bin:/bin");
  EXPECT_EQ(*find_var(env, kPrependPathKey), "/opt/tools:/home/u/bin");
}

TEST(PathPrependWrapper, NothingConfiguredMeansNoWrapping) {
  EnvList env{{"PATH", "/usr/bin"}};
  EXPECT_EQ(wrap_command_with_path_prepend("true", env, {}), "true");
  EXPECT_EQ(env, (EnvList{{"PATH", "/usr/bin"}}));
}

TEST(PathPrependHome, ExpandsOnlyALeadingTilde) {
  EXPECT_EQ(expand_home_in_entries({"~/bin", "~", "/a/~/b", "~other/bin"}, "/home/u/"),
            (std::vector<std::string>{"/home/u/bin", "/home/u", "/a/~/b", "~other/bin"}));
  EXPECT_EQ(expand_home_in_entries({"~/bin"}, ""), std::vector<std::string>{"~/bin"});
}

}  // namespace
}  // namespace clawexec::env
