#include "sys/process_ancestry.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "sys/sys.h"

extern char** environ;

namespace clawexec::sys {
namespace {

namespace fs = std::filesystem;

// A fake /proc: each process is a directory with stat, status and an exe symlink.
class FakeProc {
 public:
  FakeProc() {
    root_ = fs::temp_directory_path() / ("clawexec-fakeproc-" + std::to_string(::getpid()) + "-" +
                                         std::to_string(counter_++));
    fs::create_directories(root_ / "bin");
  }
  ~FakeProc() { fs::remove_all(root_); }

  /// A program file under the fake tree; returns its path.
  std::string program(const std::string& name) {
    fs::path p = root_ / "bin" / name;
    std::ofstream(p) << "#!/bin/true\n";
    return p.string();
  }

  void process(pid_t pid, pid_t ppid, const std::string& exe, uid_t uid = 4242, const std::string& comm = "x") {
    fs::path dir = root_ / std::to_string(pid);
    fs::create_directories(dir);
    std::ofstream(dir / "stat") << pid << " (" << comm << ") S " << ppid << " " << pid << " " << pid << " 0 -1\n";
    std::ofstream(dir / "status") << "Name:\t" << comm << "\nUmask:\t0022\nState:\tS (sleeping)\nUid:\t" << uid << "\t"
                                  << uid << "\t" << uid << "\t" << uid << "\nGid:\t0\t0\t0\t0\n";
    fs::remove(dir / "exe");
    fs::create_symlink(exe, dir / "exe");
  }

  void remove_stat(pid_t pid) { fs::remove(root_ / std::to_string(pid) / "stat"); }

  AncestryOptions options(ClawexecExecutables known = {{"clawexec", "clawexec-shim"}, {}}) const {
    return {root_.string(), std::move(known)};
  }

 private:
  static inline int counter_ = 0;
  fs::path root_;
};

TEST(FindSupervisingAncestor, FindsTheShimAboveADirectChild) {
  FakeProc proc;
  proc.process(1, 0, proc.program("init"));
  proc.process(100, 1, proc.program("clawexec"));
  proc.process(101, 100, proc.program("clawexec-shim"));
  proc.process(102, 101, proc.program("clawexec-shim"));
  proc.process(103, 102, proc.program("bash"));
  auto found = find_supervising_ancestor(103, nullptr, proc.options());
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->pid, 102);
  EXPECT_NE((*found)->executable.find("/clawexec-shim"), std::string::npos);
}

TEST(FindSupervisingAncestor, FindsTheShimAboveADoubleForkedDescendant) {
  FakeProc proc;
  proc.process(1, 0, proc.program("init"));
  proc.process(50, 1, proc.program("clawexec-shim"));
  // The daemon's own parents exited; the subreaper adopted it.
  proc.process(77, 50, proc.program("python3"), 4242, "python3) S 1 (");
  auto found = find_supervising_ancestor(77, nullptr, proc.options());
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->pid, 50);
}

TEST(FindSupervisingAncestor, AHumanShellHasNoSupervisor) {
  FakeProc proc;
  proc.process(1, 0, proc.program("systemd"));
  proc.process(300, 1, proc.program("sshd"));
  proc.process(301, 300, proc.program("bash"));
  proc.process(302, 301, proc.program("clawexec"));  // the operator CLI itself does not count
  auto found = find_supervising_ancestor(302, nullptr, proc.options());
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_FALSE(found->has_value());
}

TEST(FindSupervisingAncestor, AParentOutsideOurPidNamespaceEndsTheWalk) {
  FakeProc proc;
  proc.process(12, 0, proc.program("bash"));
  proc.process(13, 12, proc.program("clawexec"));
  auto found = find_supervising_ancestor(13, nullptr, proc.options());
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_FALSE(found->has_value());
}

TEST(FindSupervisingAncestor, ARenamedCopyIsRecognisedByDeviceAndInode) {
  FakeProc proc;
  const std::string renamed = proc.program("totally-not-a-shim");
  struct stat st {};
  ASSERT_EQ(::stat(renamed.c_str(), &st), 0);
  proc.process(1, 0, proc.program("init"));
  proc.process(20, 1, renamed);
  proc.process(21, 20, proc.program("sh"));
  ClawexecExecutables known;
  known.files.push_back({static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)});
  auto found = find_supervising_ancestor(21, nullptr, proc.options(known));
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->pid, 20);
  auto by_name_only = find_supervising_ancestor(21, nullptr, proc.options());
  ASSERT_TRUE(by_name_only.ok());
  EXPECT_FALSE(by_name_only->has_value());
}

TEST(FindSupervisingAncestor, TheNameOfADeletedShimStillCounts) {
  FakeProc proc;
  proc.process(1, 0, proc.program("init"));
  proc.process(40, 1, proc.program("clawexec-shim (deleted)"));
  proc.process(41, 40, proc.program("sh"));
  auto found = find_supervising_ancestor(41, nullptr, proc.options());
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->pid, 40);
}

TEST(FindSupervisingAncestor, AnAncestorWhoseExecutableIsUnreadableIsJudgedByItsName) {
  FakeProc proc;
  proc.process(1, 0, "/nonexistent/init", 0, "init");
  proc.process(45, 1, "/nonexistent/sshd", 0, "sshd");
  proc.process(46, 45, proc.program("bash"));
  auto human = find_supervising_ancestor(46, nullptr, proc.options());
  ASSERT_TRUE(human.ok()) << human.error().message;
  EXPECT_FALSE(human->has_value());
  proc.process(47, 1, "/nonexistent/clawexec-shim", 0, "clawexec-shim");
  proc.process(48, 47, proc.program("bash"), 4242, "clawexec");  // its own name does not matter
  auto command = find_supervising_ancestor(48, nullptr, proc.options());
  ASSERT_TRUE(command.ok()) << command.error().message;
  ASSERT_TRUE(command->has_value());
  EXPECT_EQ((*command)->pid, 47);
}

TEST(FindSupervisingAncestor, UnexaminableProcessesAreErrors) {
  FakeProc proc;
  proc.process(1, 0, proc.program("init"));
  proc.process(60, 1, proc.program("bash"));
  proc.process(61, 60, proc.program("sh"));
  EXPECT_FALSE(find_supervising_ancestor(0, nullptr, proc.options()).ok()) << "pid 0: another namespace";
  EXPECT_FALSE(find_supervising_ancestor(999, nullptr, proc.options()).ok()) << "no such process";
  proc.remove_stat(60);
  auto unreadable = find_supervising_ancestor(61, nullptr, proc.options());
  ASSERT_FALSE(unreadable.ok());
}

TEST(FindSupervisingAncestor, AMissingParentIsAnError) {
  FakeProc proc;
  proc.process(70, 69, proc.program("sh"));  // 69 does not exist and never will
  EXPECT_FALSE(find_supervising_ancestor(70, nullptr, proc.options()).ok());
}

// ---- the real process tree ----

struct Child {
  pid_t pid = -1;
  ~Child() {
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      int status = 0;
      ::waitpid(pid, &status, 0);
    }
  }
};

pid_t spawn(const std::string& program, std::vector<std::string> args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  if (::posix_spawn(&pid, program.c_str(), nullptr, nullptr, argv.data(), environ) != 0) return -1;
  return pid;
}

// The first child pid of `parent`, waiting for it to appear.
pid_t first_child(pid_t parent) {
  const std::string path = "/proc/" + std::to_string(parent) + "/task/" + std::to_string(parent) + "/children";
  for (int i = 0; i < 500; ++i) {
    std::ifstream in(path);
    pid_t child = 0;
    if (in >> child && child > 0) return child;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return -1;
}

TEST(FindSupervisingAncestorOnThisMachine, ThisTestIsNotUnderAClawexecCommand) {
  auto pidfd = pidfd_open(::getpid());
  ASSERT_TRUE(pidfd.ok());
  auto found = find_supervising_ancestor(::getpid(), &*pidfd, {"/proc", this_installation()});
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_FALSE(found->has_value()) << "run the unit tests outside clawexec: " << (*found)->executable;
}

TEST(FindSupervisingAncestorOnThisMachine, AChildOfAProgramNamedClawexecShimIsSupervised) {
  const fs::path dir = fs::temp_directory_path() / ("clawexec-realtree-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path shim = dir / "clawexec-shim";
  fs::copy_file("/bin/sh", shim, fs::copy_options::overwrite_existing);
  Child supervisor;
  supervisor.pid = spawn(shim.string(), {"clawexec-shim", "-c", "sleep 30; exit 0"});
  ASSERT_GT(supervisor.pid, 0);
  const pid_t command = first_child(supervisor.pid);
  ASSERT_GT(command, 0);
  auto pidfd = pidfd_open(command);
  ASSERT_TRUE(pidfd.ok());
  auto found = find_supervising_ancestor(command, &*pidfd, {"/proc", this_installation()});
  ASSERT_TRUE(found.ok()) << found.error().message;
  ASSERT_TRUE(found->has_value());
  EXPECT_EQ((*found)->pid, supervisor.pid);
  EXPECT_EQ((*found)->executable, shim.string());
  ::kill(command, SIGKILL);
  fs::remove_all(dir);
}

TEST(FindSupervisingAncestorOnThisMachine, AProcessThatHasExitedIsAnError) {
  Child gone;
  gone.pid = spawn("/bin/true", {"true"});
  ASSERT_GT(gone.pid, 0);
  auto pidfd = pidfd_open(gone.pid);
  ASSERT_TRUE(pidfd.ok());
  int status = 0;
  ASSERT_EQ(::waitpid(gone.pid, &status, 0), gone.pid);
  const pid_t pid = gone.pid;
  gone.pid = -1;
  EXPECT_FALSE(find_supervising_ancestor(pid, &*pidfd, {"/proc", this_installation()}).ok());
}

TEST(PeerCredentials, ASocketPairNamesThisProcess) {
  auto pair = make_stream_pair();
  ASSERT_TRUE(pair.ok());
  auto cred = peer_credentials(pair->first.get());
  ASSERT_TRUE(cred.ok()) << cred.error().message;
  EXPECT_EQ(cred->pid, ::getpid());
  EXPECT_EQ(cred->uid, ::getuid());
  auto pidfd = peer_pidfd(pair->first.get());
  ASSERT_TRUE(pidfd.ok()) << pidfd.error().message;
  ASSERT_TRUE(pidfd->has_value()) << "this kernel offers SO_PEERPIDFD";
  auto found = find_supervising_ancestor(cred->pid, &**pidfd, {"/proc", this_installation()});
  ASSERT_TRUE(found.ok()) << found.error().message;
  EXPECT_FALSE(found->has_value());
}

}  // namespace
}  // namespace clawexec::sys
