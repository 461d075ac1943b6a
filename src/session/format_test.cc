#include "session/format.h"

#include <gtest/gtest.h>

#include <csignal>

#include "base/utf.h"

namespace clawexec::session {
namespace {

TEST(FormatDurationCompact, NonPositiveHasNoText) {
  EXPECT_EQ(format_duration_compact(0), std::nullopt);
  EXPECT_EQ(format_duration_compact(-5), std::nullopt);
}

TEST(FormatDurationCompact, BelowOneSecondIsMilliseconds) {
  EXPECT_EQ(format_duration_compact(1), "1ms");
  EXPECT_EQ(format_duration_compact(231), "231ms");
  EXPECT_EQ(format_duration_compact(999), "999ms");
}

TEST(FormatDurationCompact, RoundsToSecondsAndShowsTwoLargestNonZeroUnits) {
  EXPECT_EQ(format_duration_compact(1000), "1s");
  EXPECT_EQ(format_duration_compact(1031), "1s");
  EXPECT_EQ(format_duration_compact(1499), "1s");
  EXPECT_EQ(format_duration_compact(1500), "2s");
  EXPECT_EQ(format_duration_compact(59499), "59s");
  EXPECT_EQ(format_duration_compact(59500), "1m");
  EXPECT_EQ(format_duration_compact(65000), "1m5s");
  EXPECT_EQ(format_duration_compact(119999), "2m");
  EXPECT_EQ(format_duration_compact(3599499), "59m59s");
  EXPECT_EQ(format_duration_compact(3599500), "1h");
  EXPECT_EQ(format_duration_compact(3605000), "1h5s");  // zero minutes are skipped
  EXPECT_EQ(format_duration_compact(3720000), "1h2m");
  EXPECT_EQ(format_duration_compact(3723000), "1h2m");
  EXPECT_EQ(format_duration_compact(86399999), "1d");
  EXPECT_EQ(format_duration_compact(86401000), "1d1s");
  EXPECT_EQ(format_duration_compact(90061000), "1d1h");
  EXPECT_EQ(format_duration_compact(400LL * 86400000 + 5000), "400d5s");  // no years
  EXPECT_EQ(format_duration_compact(1'000'000'000'000), "11574d1h");
}

TEST(ExitLabel, SignalWinsOverCode) {
  EXPECT_EQ(exit_label(std::nullopt, "SIGTERM"), "signal SIGTERM");
  EXPECT_EQ(exit_label(0, "SIGKILL"), "signal SIGKILL");
  EXPECT_EQ(exit_label(3, ""), "code 3");
  EXPECT_EQ(exit_label(0, ""), "code 0");
  EXPECT_EQ(exit_label(-1, ""), "code -1");
  EXPECT_EQ(exit_label(std::nullopt, ""), "unknown exit code");
}

TEST(CompactNotifyOutput, CollapsesWhiteSpaceAndTrims) {
  EXPECT_EQ(compact_notify_output("done\n"), "done");
  EXPECT_EQ(compact_notify_output("  a \n\t b  "), "a b");
  EXPECT_EQ(compact_notify_output("line1\r\nline2\u00a0\u2003end"), "line1 line2 end");
  EXPECT_EQ(compact_notify_output("\u3000lead"), "lead");
  EXPECT_EQ(compact_notify_output(" \n "), "");
  EXPECT_EQ(compact_notify_output(""), "");
}

TEST(CompactNotifyOutput, LongerThan180UnitsKeeps179PlusEllipsis) {
  EXPECT_EQ(compact_notify_output(std::string(180, 'x')), std::string(180, 'x'));
  EXPECT_EQ(compact_notify_output(std::string(181, 'x')), std::string(179, 'x') + "\u2026");
  // A surrogate pair straddling unit 179 is left out whole.
  std::string text = std::string(178, 'a') + "\U0001F600b";
  EXPECT_EQ(compact_notify_output(text), std::string(178, 'a') + "\u2026");
}

TEST(CompactNotifyOutput, LooksOnlyAtTheLast400Units) {
  std::string text = std::string(500, 'y') + "\n\nTAIL END";
  std::string expected = std::string(179, 'y') + "\u2026";
  EXPECT_EQ(compact_notify_output(text), expected);
  std::string words;
  for (int i = 0; i < 100; ++i) words += "word ";
  std::string out = compact_notify_output(words);
  EXPECT_EQ(utf16_length(out), 180u);
  EXPECT_EQ(out.substr(0, 10), "word word ");
}

TEST(InputWaitHint, UsesCompactIdleDuration) {
  EXPECT_EQ(input_wait_hint(65000),
            "\n\nNo new output for 1m5s; this session may be waiting for input. Use process "
            "write, send-keys, submit, or paste to provide input.");
  EXPECT_EQ(input_wait_hint(0).substr(0, 24), "\n\nNo new output for 0ms;");
}

TEST(PollBackoff, EmptyPollsBackOffAndNewOutputResets) {  // §8.2 #43
  PollBackoff backoff;
  std::vector<uint32_t> got;
  for (int i = 0; i < 5; ++i) got.push_back(backoff.record(PollOutput::kNone));
  EXPECT_EQ(got, (std::vector<uint32_t>{5000, 10000, 30000, 60000, 60000}));
  EXPECT_EQ(backoff.record(PollOutput::kNew), 5000u);
}

TEST(PollBackoff, EmptyPollRightAfterOutputContinuesTheStreak) {
  // Verified against the running reference: output resets the streak to 0, so the next
  // empty poll is the second step of the schedule.
  PollBackoff backoff;
  EXPECT_EQ(backoff.record(PollOutput::kNew), 5000u);
  EXPECT_EQ(backoff.record(PollOutput::kNone), 10000u);
  EXPECT_EQ(backoff.record(PollOutput::kNone), 30000u);
  backoff.reset();
  EXPECT_EQ(backoff.record(PollOutput::kNone), 5000u);
}

TEST(SignalName, UsesNodeNames) {
  EXPECT_EQ(signal_name(SIGTERM), "SIGTERM");
  EXPECT_EQ(signal_name(SIGKILL), "SIGKILL");
  EXPECT_EQ(signal_name(SIGINT), "SIGINT");
  EXPECT_EQ(signal_name(SIGHUP), "SIGHUP");
  EXPECT_EQ(signal_name(SIGSEGV), "SIGSEGV");
  EXPECT_EQ(signal_name(SIGPIPE), "SIGPIPE");
  EXPECT_EQ(signal_name(SIGABRT), "SIGABRT");  // not SIGIOT
  EXPECT_EQ(signal_name(SIGIO), "SIGIO");      // not SIGPOLL
  EXPECT_EQ(signal_name(SIGSTKFLT), "SIGSTKFLT");
  EXPECT_EQ(signal_name(SIGPWR), "SIGPWR");
  EXPECT_EQ(signal_name(SIGSYS), "SIGSYS");
  EXPECT_EQ(signal_name(SIGWINCH), "SIGWINCH");
}

TEST(SignalName, UnnamedSignalsAreEmpty) {
  EXPECT_EQ(signal_name(0), "");
  EXPECT_EQ(signal_name(-1), "");
  EXPECT_EQ(signal_name(32), "");
  EXPECT_EQ(signal_name(SIGRTMIN), "");
  EXPECT_EQ(signal_name(64), "");
}

}  // namespace
}  // namespace clawexec::session
