#include "exec/outcome.h"

#include <gtest/gtest.h>

namespace clawexec::exec {
namespace {

using session::ExitReason;

TEST(BuildExitOutcome, NonZeroExitIsStillCompleted) {
  // Conformance §8.2 #58 (first half) and #2.
  ExecOutcome o = build_exit_outcome({.reason = ExitReason::kExit, .exit_code = 1}, "done", 12, 30, true);
  EXPECT_TRUE(o.completed);
  EXPECT_EQ(o.exit_code, 1);
  EXPECT_EQ(o.aggregated, "done\n\n(Command exited with code 1)");
  EXPECT_EQ(foreground_text(o, false, ""), "done\n\n(Command exited with code 1)");
}

TEST(BuildExitOutcome, EmptyOutputWithNonZeroExitSaysNoOutput) {
  ExecOutcome o = build_exit_outcome({.reason = ExitReason::kExit, .exit_code = 3}, "", 1, 30, true);
  EXPECT_EQ(o.aggregated, "(no output)\n\n(Command exited with code 3)");
  ExecOutcome ok = build_exit_outcome({.reason = ExitReason::kExit, .exit_code = 0}, "", 1, 30, true);
  EXPECT_EQ(ok.aggregated, "");
  EXPECT_EQ(foreground_text(ok, false, ""), "(no output)");
}

TEST(BuildExitOutcome, TimeoutIsFailedWithGuidance) {
  // Conformance §8.2 #58 (second half) and #6.
  ExecOutcome o = build_exit_outcome({.reason = ExitReason::kOverallTimeout, .exit_signal = "SIGKILL"}, "", 1000, 30, true);
  EXPECT_FALSE(o.completed);
  EXPECT_EQ(to_string(o.failure_kind.value()), "overall-timeout");
  EXPECT_TRUE(o.timed_out);
  EXPECT_EQ(o.reason,
            "Command timed out after 30 seconds.\n\nThe command was terminated, but external side effects may "
            "already have completed. Verify the resulting state before retrying. Do not automatically rerun "
            "non-idempotent commands. Use a higher timeout only when the command is known to be safe to retry."
            "\n\nIf it should keep running, start it with exec background=true or yieldMs so it continues "
            "as a process session you can poll. Do not rely on shell backgrounding with a trailing &.");
  ExecOutcome fractional = build_exit_outcome({.reason = ExitReason::kOverallTimeout}, "partial", 1, 0.5, false);
  EXPECT_EQ(fractional.reason.rfind("partial\n\nCommand timed out after 0.5 seconds.\n\n", 0), 0u);
  EXPECT_EQ(fractional.reason.find("If it should keep running"), std::string::npos);
}

TEST(BuildExitOutcome, ShellFailuresTakePrecedence) {
  ExecOutcome missing = build_exit_outcome({.reason = ExitReason::kExit, .exit_code = 127}, "sh: x: not found", 1, 30, true);
  EXPECT_EQ(to_string(missing.failure_kind.value()), "shell-command-not-found");
  EXPECT_EQ(missing.reason, "sh: x: not found\n\nCommand not found");
  ExecOutcome denied = build_exit_outcome({.reason = ExitReason::kOverallTimeout, .exit_code = 126}, "", 1, 30, true);
  EXPECT_EQ(to_string(denied.failure_kind.value()), "shell-not-executable");
  EXPECT_EQ(denied.reason, "Command not executable (permission denied)");
}

TEST(BuildExitOutcome, SignalsAndCancellation) {
  ExecOutcome sig = build_exit_outcome({.reason = ExitReason::kSignal, .exit_signal = "SIGSEGV"}, "", 1, 30, true);
  EXPECT_EQ(to_string(sig.failure_kind.value()), "signal");
  EXPECT_EQ(sig.reason, "Command aborted by signal SIGSEGV");
  ExecOutcome cancel = build_exit_outcome({.reason = ExitReason::kManualCancel, .exit_code = 0}, "", 1, 30, true);
  EXPECT_EQ(to_string(cancel.failure_kind.value()), "aborted");
  EXPECT_EQ(cancel.reason, "Command aborted before exit code was captured");
}

TEST(ForegroundDetails, HaveTheReferenceFieldsInOrder) {
  ExecOutcome ok = build_exit_outcome({.reason = ExitReason::kExit, .exit_code = 0}, "hello", 5, 30, true);
  EXPECT_EQ(json::serialize(foreground_details(ok, "/tmp")),
            R"({"status":"completed","exitCode":0,"exitSignal":null,"exitReason":"exit","durationMs":5,)"
            R"("aggregated":"hello","noOutputTimedOut":false,"cwd":"/tmp"})");
  ExecOutcome bad = build_exit_outcome({.reason = ExitReason::kOverallTimeout, .exit_signal = "SIGTERM"}, "", 7, 1, true);
  EXPECT_EQ(json::serialize(foreground_details(bad, "/tmp")),
            R"({"status":"failed","exitCode":null,"exitSignal":"SIGTERM","failureKind":"overall-timeout",)"
            R"("exitReason":"overall-timeout","durationMs":7,"aggregated":"","timedOut":true,)"
            R"("noOutputTimedOut":false,"cwd":"/tmp"})");
  ExecOutcome err = build_runtime_error_outcome("Error: boom", "", 3);
  EXPECT_EQ(json::serialize(foreground_details(err, "   ")),
            R"({"status":"failed","exitCode":null,"exitSignal":null,"failureKind":"runtime-error",)"
            R"("durationMs":3,"aggregated":"","timedOut":false,"cwd":"   "})");
}

TEST(ForegroundText, PutsRetentionNoteThenWarningsFirst) {
  ExecOutcome ok = build_exit_outcome({.reason = ExitReason::kExit, .exit_code = 0}, "x", 1, 30, true);
  EXPECT_EQ(foreground_text(ok, true, warning_block({"Warning: a", "Warning: b"})),
            "[earlier output was discarded at the retention cap and cannot be recovered]\n\n"
            "Warning: a\nWarning: b\n\nx");
}

TEST(FailureKind, IsSpelledAsTheReferenceReportsIt) {
  EXPECT_EQ(to_string(FailureKind::kShellCommandNotFound), "shell-command-not-found");
  EXPECT_EQ(to_string(FailureKind::kShellNotExecutable), "shell-not-executable");
  EXPECT_EQ(to_string(FailureKind::kOverallTimeout), "overall-timeout");
  EXPECT_EQ(to_string(FailureKind::kNoOutputTimeout), "no-output-timeout");
  EXPECT_EQ(to_string(FailureKind::kSignal), "signal");
  EXPECT_EQ(to_string(FailureKind::kAborted), "aborted");
  EXPECT_EQ(to_string(FailureKind::kRuntimeError), "runtime-error");
  ExecOutcome runtime = build_runtime_error_outcome("boom", "", 1);
  EXPECT_EQ(json::serialize(foreground_details(runtime, "/w").at("failureKind")), "\"runtime-error\"");
}

}  // namespace
}  // namespace clawexec::exec
