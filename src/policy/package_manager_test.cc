#include "policy/package_manager.h"

#include <gtest/gtest.h>

namespace clawexec::policy {
namespace {

using K = PackageManagerExecKind;

PackageManagerExec run(const Argv& argv) { return resolve_known_package_manager_exec_invocation(argv); }

void expect_unwrapped(const Argv& argv, const Argv& inner) {
  PackageManagerExec r = run(argv);
  EXPECT_EQ(r.kind, K::kUnwrapped) << argv[0] << " " << argv.size();
  EXPECT_EQ(r.inner_argv, inner);
}

TEST(PackageManager, ExecFormsUnwrapToTheInnerCommand) {
  expect_unwrapped({"pnpm", "-C", "dir", "exec", "--", "tsx"}, {"tsx"});
  expect_unwrapped({"npm", "--loglevel=silent", "exec", "--", "tsx"}, {"tsx"});
  expect_unwrapped({"npm", "x", "--", "tsx"}, {"tsx"});
  expect_unwrapped({"npm", "exec", "-y", "tsx", "a"}, {"tsx", "a"});
  expect_unwrapped({"npx", "-y", "cowsay"}, {"cowsay"});
  expect_unwrapped({"pnpm", "dlx", "-p", "a", "b"}, {"b"});
  expect_unwrapped({"pnpm", "node", "--", "x.js"}, {"node", "x.js"});
  expect_unwrapped({"pnpm", "--reporter", "silent", "exec", "--", "tsx", "./run.ts"},
                   {"tsx", "./run.ts"});
  expect_unwrapped({"yarn", "dlx", "-q", "create-x"}, {"create-x"});
  expect_unwrapped({"yarn", "--cwd", "x", "exec", "tsx"}, {"tsx"});
  expect_unwrapped({"/usr/local/bin/PNPM.cmd", "exec", "eslint"}, {"eslint"});
}

TEST(PackageManager, UnparseableExecLikeFormsAreUnsafe) {
  for (const Argv& argv : std::vector<Argv>{{"pnpm", "eslint", "."},
                                            {"yarn", "eslint", "."},
                                            {"yarn", "run", "eslint", "."},
                                            {"bunx", "--bogus", "x"},
                                            {"npm", "--unknown", "exec", "sh"},
                                            {"pnpm", "exec", "-c", "echo"},
                                            {"npm", "exec"},
                                            {"npx", "--", "tsx"}}) {
    EXPECT_EQ(run(argv).kind, K::kUnsafeExec) << argv[1];
  }
}

TEST(PackageManager, OtherSubcommandsAreNotExec) {
  for (const Argv& argv : std::vector<Argv>{{"pnpm", "install"},
                                            {"npm", "run", "test", "--", "x"},
                                            {"pnpm", "test", "--", "node"},
                                            {"yarn", "install"}}) {
    EXPECT_EQ(run(argv).kind, K::kNotExec) << argv[1];
  }
  EXPECT_EQ(run({"git", "status"}).kind, K::kNotPackageManager);
  EXPECT_EQ(run({}).kind, K::kNotPackageManager);
}

TEST(PackageManager, ContextOptionsAreDetected) {
  EXPECT_TRUE(has_known_package_manager_exec_context_options({"pnpm", "-C", "dir", "exec", "--", "tsx"}));
  EXPECT_TRUE(has_known_package_manager_exec_context_options({"pnpm", "dlx", "-p", "a", "b"}));
  EXPECT_TRUE(has_known_package_manager_exec_context_options({"yarn", "--cwd", "x", "exec", "tsx"}));
  EXPECT_TRUE(has_known_package_manager_exec_context_options({"npm", "--prefix", "p", "x", "tsx"}));
  EXPECT_FALSE(has_known_package_manager_exec_context_options({"npm", "--loglevel=silent", "exec", "--", "tsx"}));
  EXPECT_FALSE(has_known_package_manager_exec_context_options({"yarn", "dlx", "-q", "create-x"}));
}

TEST(PackageManager, AllowlistTargetFollowsNestedLayersAndRefusesShellPayloads) {
  EXPECT_EQ(resolve_package_manager_allowlist_target({"pnpm", "exec", "--", "tsx", "./run.ts"}),
            (Argv{"tsx", "./run.ts"}));
  EXPECT_EQ(resolve_package_manager_allowlist_target({"nice", "pnpm", "exec", "--", "npm", "x", "tsx"}),
            (Argv{"tsx"}));
  EXPECT_EQ(resolve_package_manager_allowlist_target({"pnpm", "exec", "sh", "-c", "id > marker"}),
            std::nullopt);
  EXPECT_EQ(resolve_package_manager_allowlist_target({"pnpm", "eslint", "."}), std::nullopt);
  EXPECT_EQ(resolve_package_manager_allowlist_target({"pnpm", "install"}), Argv{});
  EXPECT_EQ(resolve_package_manager_allowlist_target({"pnpm", "exec", "sudo", "tsx"}), std::nullopt);
  EXPECT_EQ(resolve_package_manager_allowlist_target({"pnpm", "-C", "d", "exec", "tsx"},
                                                     ContextOptions::kBlock),
            std::nullopt);
  EXPECT_EQ(resolve_package_manager_trust_target({"pnpm", "-C", "d", "exec", "tsx"}).kind,
            PackageManagerTargetKind::kPackageManager);
}

}  // namespace
}  // namespace clawexec::policy
