#include "sandbox/bwrap_args.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

namespace clawexec::sandbox {
namespace {

// A fake host: /bin and /lib are symlinks into /usr, everything in `existing` exists.
HostPaths fake_host(std::set<std::string> existing, std::map<std::string, std::string> links = {}) {
  links.emplace("/bin", "usr/bin");
  links.emplace("/lib", "usr/lib");
  existing.insert({"/usr", "/bin", "/lib", "/etc", "/etc/shadow", "/etc/ssh"});
  return {.symlink_target = [links](const std::string& p) -> std::optional<std::string> {
            auto it = links.find(p);
            if (it == links.end()) return std::nullopt;
            return it->second;
          },
          .exists = [existing](const std::string& p) { return existing.count(p) > 0; }};
}

// Index of the first occurrence of the consecutive words `seq` in `argv`, or -1.
long find_seq(const std::vector<std::string>& argv, const std::vector<std::string>& seq) {
  auto it = std::search(argv.begin(), argv.end(), seq.begin(), seq.end());
  return it == argv.end() ? -1 : it - argv.begin();
}

TEST(BwrapArgs, SystemReadOnlySecretsMaskedAllNamespaces) {
  SandboxLayout layout;
  layout.workspace_source = "/state/ws";
  std::vector<std::string> argv = bwrap_arguments(layout, fake_host({}), 3, {"/bin/cat"});
  for (const char* ns : {"--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net"}) {
    EXPECT_GE(find_seq(argv, {ns}), 0) << ns;
  }
  EXPECT_GE(find_seq(argv, {"--ro-bind", "/usr", "/usr"}), 0);
  EXPECT_GE(find_seq(argv, {"--symlink", "usr/bin", "/bin"}), 0);
  EXPECT_GE(find_seq(argv, {"--ro-bind", "/etc", "/etc"}), 0);
  EXPECT_GE(find_seq(argv, {"--ro-bind", "/dev/null", "/etc/shadow"}), 0);
  EXPECT_GE(find_seq(argv, {"--tmpfs", "/etc/ssh"}), 0);
  EXPECT_EQ(find_seq(argv, {"--ro-bind", "/", "/"}), -1) << "the host root must never be bound";
  EXPECT_EQ(find_seq(argv, {"--ro-bind", "/opt", "/opt"}), -1) << "absent directories are not bound";
  EXPECT_GE(find_seq(argv, {"--bind", "/state/ws", "/workspace"}), 0);
  EXPECT_GE(find_seq(argv, {"--info-fd", "3", "--", "/bin/cat"}), 0);
  EXPECT_EQ(argv.back(), "/bin/cat");
}

TEST(BwrapArgs, ProtectedWorkspaceFilesAreReboundReadOnlyAfterTheWorkspace) {
  SandboxLayout layout;
  layout.workspace_source = "/agent/ws";
  std::vector<std::string> argv =
      bwrap_arguments(layout, fake_host({"/agent/ws/.git/hooks", "/agent/ws/.bashrc", "/agent/ws/.git/config"},
                                        {{"/agent/ws/.bashrc", "/etc/passwd"}}),
                      3, {"/bin/cat"});
  long workspace = find_seq(argv, {"--bind", "/agent/ws", "/workspace"});
  long hooks = find_seq(argv, {"--ro-bind", "/agent/ws/.git/hooks", "/workspace/.git/hooks"});
  long config = find_seq(argv, {"--ro-bind", "/agent/ws/.git/config", "/workspace/.git/config"});
  ASSERT_GE(workspace, 0);
  EXPECT_GT(hooks, workspace);
  EXPECT_GT(config, workspace);
  // A symlinked rc file is covered by an empty file, never by its target.
  EXPECT_GE(find_seq(argv, {"--ro-bind", "/dev/null", "/workspace/.bashrc"}), 0);
  EXPECT_EQ(find_seq(argv, {"--ro-bind", "/etc/passwd", "/workspace/.bashrc"}), -1);
  // .profile does not exist: nothing is bound for it.
  EXPECT_EQ(find_seq(argv, {"--ro-bind", "/agent/ws/.profile", "/workspace/.profile"}), -1);

  layout.protect_git = false;
  argv = bwrap_arguments(layout, fake_host({"/agent/ws/.git/hooks"}), 3, {"/bin/cat"});
  EXPECT_EQ(find_seq(argv, {"--ro-bind", "/agent/ws/.git/hooks", "/workspace/.git/hooks"}), -1);
}

TEST(BwrapArgs, ReadOnlyWorkspaceAndAgentMountAndBinds) {
  SandboxLayout layout;
  layout.workspace_source = "/state/ws";
  layout.agent_source = "/home/u/project";
  layout.binds = {{"/data/in", "/in", true}, {"/data/out", "/out", false}};
  layout.ids = std::make_pair(1000u, 1000u);
  std::vector<std::string> argv = bwrap_arguments(layout, fake_host({}), 5, {"/bin/cat"});
  EXPECT_GE(find_seq(argv, {"--ro-bind", "/home/u/project", "/agent"}), 0);
  EXPECT_GE(find_seq(argv, {"--ro-bind", "/data/in", "/in"}), 0);
  EXPECT_GE(find_seq(argv, {"--bind", "/data/out", "/out"}), 0);
  EXPECT_GE(find_seq(argv, {"--uid", "1000", "--gid", "1000"}), 0);
  std::vector<std::string> writable = writable_paths(layout);
  EXPECT_NE(std::find(writable.begin(), writable.end(), "/out"), writable.end());
  EXPECT_EQ(std::find(writable.begin(), writable.end(), "/in"), writable.end());
  EXPECT_NE(std::find(writable.begin(), writable.end(), "/workspace"), writable.end());
  layout.workspace_read_only = true;
  writable = writable_paths(layout);
  EXPECT_EQ(std::find(writable.begin(), writable.end(), "/workspace"), writable.end());
}

}  // namespace
}  // namespace clawexec::sandbox
