#include "sys/sys.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <set>

namespace clawexec::sys {
namespace {

TEST(Sys, PipeEndsAreConnectedAndCloseOnExec) {
  Result<Pipe> p = make_pipe();
  ASSERT_TRUE(p.ok()) << p.error().message;
  ASSERT_TRUE(write_all(p->write_end.get(), "abc").ok());
  char buf[8] = {};
  ASSERT_EQ(::read(p->read_end.get(), buf, sizeof buf), 3);
  EXPECT_STREQ(buf, "abc");
}

TEST(Sys, RandomBelowStaysInRangeAndCoversIt) {
  std::set<uint32_t> seen;
  for (int i = 0; i < 2000; ++i) {
    uint32_t v = random_below(7);
    ASSERT_LT(v, 7u);
    seen.insert(v);
  }
  EXPECT_EQ(seen.size(), 7u);
}

TEST(Sys, RealPathErrorNamesThePath) {
  Result<std::string> r = real_path("/definitely/not/here");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "realpath /definitely/not/here: No such file or directory");
  EXPECT_EQ(r.error().code, ErrorCode::kNotFound);
}

TEST(Sys, OpenPtyGivesASlaveDevice) {
  Result<Pty> pty = open_pty("/dev/ptmx", 120, 30);
  ASSERT_TRUE(pty.ok()) << pty.error().message;
  EXPECT_EQ(pty->slave_path.rfind("/dev/pts/", 0), 0u);
}

TEST(Sys, OpenPtyOnAMissingDeviceFailsWithItsPath) {
  Result<Pty> pty = open_pty("/nonexistent/ptmx", 120, 30);
  ASSERT_FALSE(pty.ok());
  EXPECT_EQ(pty.error().message, "open /nonexistent/ptmx: No such file or directory");
}

TEST(Sys, SignalToAVanishedProcessIsNotAnError) {
  pid_t pid = ::fork();
  if (pid == 0) ::_exit(0);
  ASSERT_TRUE(reap(pid).ok());
  EXPECT_TRUE(send_signal(pid, SIGTERM).ok());
}

}  // namespace
}  // namespace clawexec::sys

namespace clawexec::sys {
namespace {

TEST(Sys, ReadFileIfExistsTreatsMissingAsAbsentAndNamesOtherFailures) {
  Result<std::optional<std::string>> missing = read_file_if_exists("/nonexistent/x.json", "read x");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
  Result<std::optional<std::string>> dir = read_file_if_exists("/tmp", "read config file /tmp");
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.error().message, "read config file /tmp: Is a directory");
  Result<std::optional<std::string>> self = read_file_if_exists("/proc/self/comm", "read comm");
  ASSERT_TRUE(self.ok());
  EXPECT_EQ(**self, "sys_test\n");
}

}  // namespace
}  // namespace clawexec::sys

namespace clawexec::sys {
namespace {

TEST(Sys, CanonicalizeExistingPrefixResolvesAsFarAsThePathExists) {
  EXPECT_EQ(canonicalize_existing_prefix("/tmp/../tmp"), real_path("/tmp").value());
  EXPECT_EQ(canonicalize_existing_prefix("/tmp/../tmp/no/such/file"), real_path("/tmp").value() + "/no/such/file");
  EXPECT_EQ(canonicalize_existing_prefix("/no-such-root-dir/x"), "/no-such-root-dir/x");
}

}  // namespace
}  // namespace clawexec::sys
