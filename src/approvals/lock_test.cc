// The approvals lock across real processes: a lock left by a SIGKILLed owner is recovered, a
// live owner's lock never is (whether its pid is visible or only its flock), and breakers
// racing on the same stale lock never let two processes in at once.

#include "approvals/lock.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <functional>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace clawexec::approvals {
namespace {

namespace fs = std::filesystem;

class LockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/clawexec-approvals-lock-XXXXXX";
    dir_ = ::mkdtemp(tmpl);
    lock_ = dir_ + "/exec-approvals.json.lock";
  }
  void TearDown() override {
    for (pid_t pid : children_) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
    }
    fs::remove_all(dir_);
  }

  std::string read_lock() const {
    std::ifstream in(lock_);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  }

  // A child that runs `body` and is killed when the test ends; `ready` is written when it
  // has done what it must before the test goes on.
  pid_t child(const std::function<void(int ready_fd)>& body) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      body(fds[1]);
      ::_exit(0);
    }
    ::close(fds[1]);
    char byte = 0;
    EXPECT_EQ(::read(fds[0], &byte, 1), 1) << "the child did not get ready";
    ::close(fds[0]);
    children_.push_back(pid);
    return pid;
  }

  void reap(pid_t pid) {
    ::waitpid(pid, nullptr, 0);
    std::erase(children_, pid);
  }

  static LockOptions quick(int retries = 2) {
    LockOptions options;
    options.retries = retries;
    options.retry_delay_ms = 1;
    return options;
  }
  // Breakers that dawdle between deciding to remove a crashed owner's file and removing it:
  // the window in which a careless breaker would remove a new owner's lock instead.
  static LockOptions dawdling() {
    LockOptions options = quick(10000);
    options.before_break = [] { ::usleep(3000); };
    return options;
  }

  std::string dir_;
  std::string lock_;
  std::vector<pid_t> children_;
};

TEST_F(LockTest, ALockLeftByASigkilledOwnerIsRecovered) {
  const pid_t owner = child([&](int ready) {
    auto held = ApprovalsLock::acquire(lock_, quick());
    if (!held.ok()) ::_exit(1);
    (void)!::write(ready, "x", 1);
    ::raise(SIGKILL);  // dies holding it: no release, no cleanup
  });
  reap(owner);
  ASSERT_TRUE(fs::exists(lock_));
  EXPECT_NE(read_lock().find("\"pid\": " + std::to_string(owner)), std::string::npos);
  auto taken = ApprovalsLock::acquire(lock_, quick(0));
  ASSERT_TRUE(taken.ok()) << taken.error().message;
  EXPECT_NE(read_lock().find("\"pid\": " + std::to_string(::getpid())), std::string::npos);
  taken->release();
  EXPECT_FALSE(fs::exists(lock_));
}

TEST_F(LockTest, ALiveOwnersLockIsNeverBroken) {
  const pid_t owner = child([&](int ready) {
    auto held = ApprovalsLock::acquire(lock_, quick());
    if (!held.ok()) ::_exit(1);
    (void)!::write(ready, "x", 1);
    ::pause();
  });
  const std::string before = read_lock();
  auto busy = ApprovalsLock::acquire(lock_, quick(3));
  ASSERT_FALSE(busy.ok());
  EXPECT_EQ(busy.error().message, "Exec approvals are locked: " + lock_);
  EXPECT_EQ(read_lock(), before);
  ::kill(owner, SIGKILL);
  reap(owner);
  EXPECT_TRUE(ApprovalsLock::acquire(lock_, quick(0)).ok()) << "recovered once the owner is gone";
}

TEST_F(LockTest, ADeadPidWhoseFileIsStillFlockedIsNotBroken) {
  // The owner's pid means nothing here (another pid namespace), but it holds the flock.
  const pid_t gone = child([](int ready) { (void)!::write(ready, "x", 1); });
  reap(gone);
  std::ofstream(lock_) << "{\n  \"pid\": " << gone << ",\n  \"nonce\": \"elsewhere\"\n}\n";
  const pid_t holder = child([&](int ready) {
    int fd = ::open(lock_.c_str(), O_RDONLY);
    if (fd < 0 || ::flock(fd, LOCK_EX) != 0) ::_exit(1);
    (void)!::write(ready, "x", 1);
    ::pause();
  });
  auto busy = ApprovalsLock::acquire(lock_, quick(3));
  ASSERT_FALSE(busy.ok());
  EXPECT_EQ(busy.error().message, "Exec approvals are locked: " + lock_);
  EXPECT_NE(read_lock().find("elsewhere"), std::string::npos);
  ::kill(holder, SIGKILL);
  reap(holder);
  EXPECT_TRUE(ApprovalsLock::acquire(lock_, quick(0)).ok());
}

TEST_F(LockTest, ALockBeingWrittenIsWaitedForNotBroken) {
  std::ofstream(lock_) << "{";
  auto busy = ApprovalsLock::acquire(lock_, quick(2));
  ASSERT_FALSE(busy.ok());
  EXPECT_EQ(read_lock(), "{");
}

TEST_F(LockTest, RacingBreakersOfAStaleLockNeverLetTwoProcessesIn) {
  const pid_t gone = child([](int ready) { (void)!::write(ready, "x", 1); });
  reap(gone);
  std::ofstream(lock_) << "{\n  \"pid\": " << gone << ",\n  \"nonce\": \"crashed\"\n}\n";
  const std::string inside = dir_ + "/inside";
  constexpr int kProcesses = 4;
  constexpr int kRounds = 25;
  std::vector<pid_t> racers;
  for (int p = 0; p < kProcesses; ++p) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      for (int round = 0; round < kRounds; ++round) {
        {
          auto held = ApprovalsLock::acquire(lock_, dawdling());
          if (!held.ok()) ::_exit(2);
          int marker = ::open(inside.c_str(), O_CREAT | O_EXCL | O_WRONLY, 0600);
          if (marker < 0) ::_exit(3);  // someone else is inside: mutual exclusion broken
          ::close(marker);
          ::usleep(200);
          ::unlink(inside.c_str());
        }
        // Now and then a holder crashes inside and leaves its lock file behind.
        if (round % 7 == 3) {
          const pid_t crasher = ::fork();
          if (crasher == 0) {
            auto held = ApprovalsLock::acquire(lock_, quick(10000));
            if (held.ok()) ::raise(SIGKILL);
            ::_exit(2);
          }
          int status = 0;
          ::waitpid(crasher, &status, 0);
          if (!WIFSIGNALED(status)) ::_exit(4);
        }
      }
      ::_exit(0);
    }
    racers.push_back(pid);
  }
  for (pid_t pid : racers) {
    int status = 0;
    ::waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status)) << "racer killed";
    EXPECT_EQ(WEXITSTATUS(status), 0) << "2: could not lock, 3: two holders at once, 4: crasher did not lock";
  }
  EXPECT_FALSE(fs::exists(inside));
}

}  // namespace
}  // namespace clawexec::approvals
