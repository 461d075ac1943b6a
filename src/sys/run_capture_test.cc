#include "sys/run_capture.h"

#include <gtest/gtest.h>
#include <signal.h>

#include <chrono>

namespace clawexec::sys {
namespace {

TEST(RunCapture, KeepsStdoutAndStderrAndTheExitCode) {
  Result<CapturedRun> r = run_and_capture("/bin/sh", {"sh", "-c", "echo out; echo err >&2; exit 3"}, {}, 5000);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->output, "out\nerr\n");
  EXPECT_FALSE(r->timed_out);
}

TEST(RunCapture, ReportsTheKillingSignal) {
  Result<CapturedRun> r = run_and_capture("/bin/sh", {"sh", "-c", "kill -TERM $$"}, {}, 5000);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_FALSE(r->exit_code.has_value());
  EXPECT_EQ(r->signal, SIGTERM);
}

TEST(RunCapture, CapsTheOutputKept) {
  Result<CapturedRun> r = run_and_capture("/bin/sh", {"sh", "-c", "echo 0123456789"}, {}, 5000, 4);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->output, "0123");
  EXPECT_EQ(r->exit_code, 0);
}

TEST(RunCapture, KillsTheGroupAtTheTimeLimit) {
  auto start = std::chrono::steady_clock::now();
  // The background sleep holds the pipe open too: only the group kill ends the wait.
  Result<CapturedRun> r = run_and_capture("/bin/sh", {"sh", "-c", "sleep 30 & sleep 30"}, {}, 100);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->signal, SIGKILL);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(RunCapture, AMissingProgramIsAnErrorNamingIt) {
  Result<CapturedRun> r = run_and_capture("/no/such/program", {"x"}, {}, 1000);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "spawn /no/such/program: No such file or directory");
}

}  // namespace
}  // namespace clawexec::sys
