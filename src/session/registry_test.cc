#include "session/registry.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace clawexec::session {
namespace {

uint32_t counter_random(uint32_t bound) {
  static uint32_t n = 0;
  return (n++ * 7919u) % bound;
}

std::shared_ptr<Session> start(Registry& r, int64_t now, bool background, int64_t cleanup_ms = 60'000) {
  std::shared_ptr<Session> s = r.create({}, now);
  s->cleanup_ms = cleanup_ms;
  if (background) r.mark_backgrounded(*s);
  return s;
}

ExitRecord code(int c) { return ExitRecord{.status = TerminalStatus::kCompleted, .exit_code = c, .exit_reason = ExitReason::kExit}; }

TEST(Registry, LiveCountIsPerScopeAndIncludesHiddenRunsUntilTheyExit) {
  Registry r(counter_random);
  auto a1 = start(r, 1000, true);
  a1->scope_key = "a";
  auto a2 = start(r, 1000, false);
  a2->scope_key = "a";
  auto b1 = start(r, 1000, true);
  b1->scope_key = "b";
  EXPECT_EQ(r.live_count("a"), 2u);
  EXPECT_EQ(r.live_count("b"), 1u);
  EXPECT_EQ(r.live_count("c"), 0u);
  r.remove(a1->id);
  EXPECT_EQ(r.live_count("a"), 2u) << "a removed session still runs";
  r.mark_exited(*a1, code(0), 2000);
  r.mark_exited(*a2, code(0), 2000);
  EXPECT_EQ(r.live_count("a"), 0u);
}

TEST(Registry, AUniqueIdPrefixWithinTheScopeNamesItsSession) {
  Registry r([](uint32_t) { return 0u; });  // every id has the same base: "<a>-<n>", "<a>-<n>-2", ...
  auto first = start(r, 1000, true);
  auto second = start(r, 1000, true);
  first->scope_key = second->scope_key = "a";
  ASSERT_EQ(second->id, first->id + "-2");
  EXPECT_EQ(r.resolve_id(first->id, "a").value(), first->id) << "an exact id wins over longer ones";
  EXPECT_EQ(r.resolve_id(first->id + "-", "a").value(), second->id);
  r.mark_exited(*second, code(0), 2000);  // retained finished sessions count too
  EXPECT_EQ(r.resolve_id(first->id + "-", "a").value(), second->id);

  std::string prefix = first->id.substr(0, first->id.size() - 1);  // ends inside a word
  Result<std::string> ambiguous = r.resolve_id(prefix, "a");
  ASSERT_FALSE(ambiguous.ok());
  EXPECT_EQ(ambiguous.error().message, "Session id prefix \"" + prefix + "\" is ambiguous: it starts 2 sessions (" +
                                           first->id + ", " + second->id + "). Use the full session id.");
  // Another scope's sessions are neither found nor candidates; no match gives the text back.
  auto other = start(r, 1000, true);
  other->scope_key = "b";
  EXPECT_EQ(r.resolve_id(other->id, "a").value(), other->id);
  EXPECT_EQ(r.resolve_id(prefix, "b").value(), other->id);
  EXPECT_EQ(r.resolve_id("zzz", "a").value(), "zzz");
  // The id of a session that is gone never names the session whose id continues it with '-'.
  r.remove(first->id);
  EXPECT_EQ(r.resolve_id(first->id, "a").value(), first->id);
  EXPECT_EQ(r.resolve_id(prefix, "a").value(), second->id);
}

TEST(Registry, ForegroundRunsAreForgottenWhenTheyExit) {
  // Conformance §8.2 #57.
  Registry r(counter_random);
  auto fg = start(r, 1000, false);
  EXPECT_TRUE(r.running(fg->id));
  EXPECT_TRUE(r.list().empty()) << "foreground sessions are invisible";
  r.mark_exited(*fg, code(0), 2000);
  EXPECT_FALSE(r.running(fg->id));
  EXPECT_FALSE(r.finished(fg->id));

  auto bg = start(r, 1000, true);
  r.mark_exited(*bg, code(0), 2000);
  ASSERT_TRUE(r.finished(bg->id));
  EXPECT_EQ(r.finished(bg->id)->ended_at, 2000);
  EXPECT_TRUE(r.finished(bg->id)->output.sealed());
}

TEST(Registry, ListsNewestStartFirstWithTiesByRegistrationOrder) {
  Registry r(counter_random);
  auto a = start(r, 1000, true);
  auto b = start(r, 1000, true);
  auto c = start(r, 3000, true);
  auto hidden = start(r, 5000, false);
  r.mark_exited(*a, code(0), 4000);
  std::vector<std::shared_ptr<Session>> l = r.list();
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l[0], c);
  EXPECT_EQ(l[1], b);
  EXPECT_EQ(l[2], a);
}

TEST(Registry, KeepsAtMostFiftyFinishedSessionsEvictingTheOldestFinished) {
  Registry r(counter_random);
  std::vector<std::string> ids;
  for (int i = 0; i < 51; ++i) {
    auto s = start(r, 1000 + i, true);
    ids.push_back(s->id);
    r.mark_exited(*s, code(0), 2000 + i);
  }
  EXPECT_EQ(r.finished_count(), 50u);
  EXPECT_FALSE(r.finished(ids[0]));
  EXPECT_TRUE(r.finished(ids[1]));
  EXPECT_TRUE(r.finished(ids[50]));
}

TEST(Registry, CapsRetainedOutputButAlwaysKeepsTheNewest) {
  Registry r(counter_random);
  auto first = start(r, 1000, true);
  first->output.append(Stream::kStdout, std::string(150'000, 'a'));
  r.mark_exited(*first, code(0), 2000);
  std::vector<std::shared_ptr<Session>> more;
  for (int i = 0; i < 13; ++i) {
    auto s = start(r, 1100 + i, true);
    s->output.append(Stream::kStdout, std::string(150'000, 'b'));
    r.mark_exited(*s, code(0), 2100 + i);
    more.push_back(s);
  }
  // 14 x 150 000 = 2 100 000 > 2 000 000: the oldest finished goes.
  EXPECT_FALSE(r.finished(first->id));
  EXPECT_TRUE(r.finished(more.front()->id));

  Registry alone(counter_random);
  auto big = start(alone, 1000, true);
  OutputBuffer& out = big->output;
  for (int i = 0; i < 11; ++i) out.append(Stream::kStdout, std::string(200'000, 'x'));
  EXPECT_EQ(out.aggregated_chars(), 200'000u);
  alone.mark_exited(*big, code(0), 2000);
  EXPECT_TRUE(alone.finished(big->id)) << "a single finished session is kept even above the cap";
}

TEST(Registry, FinishedSessionsExpireAfterTheirCleanupTime) {
  Registry r(counter_random);
  auto s = start(r, 1000, true, 60'000);
  r.mark_exited(*s, code(0), 2000);
  EXPECT_EQ(r.next_expiry(), 62'000);
  r.sweep(61'999);
  EXPECT_TRUE(r.finished(s->id));
  r.sweep(62'000);
  EXPECT_FALSE(r.finished(s->id));
  EXPECT_FALSE(r.next_expiry());
}

TEST(Registry, RemovedRunningSessionKeepsItsIdReservedUntilExit) {
  Registry r(counter_random);
  auto s = start(r, 1000, true);
  r.remove(s->id);
  EXPECT_FALSE(r.running(s->id));
  EXPECT_TRUE(r.is_taken(s->id));
  r.mark_exited(*s, code(0), 2000);
  EXPECT_FALSE(r.finished(s->id)) << "a removed session is not resurrected by its exit";
  EXPECT_FALSE(r.is_taken(s->id));
}

TEST(Registry, IdsAreUniqueAdjectiveNounSlugs) {
  Registry r(counter_random);
  std::set<std::string> seen;
  for (int i = 0; i < 200; ++i) {
    auto s = start(r, 1000, false);
    EXPECT_TRUE(seen.insert(s->id).second) << s->id;
    EXPECT_NE(s->id.find('-'), std::string::npos);
  }
}

TEST(ExitReason, IsSpelledAsTheReferenceRecordsIt) {
  EXPECT_EQ(to_string(ExitReason::kExit), "exit");
  EXPECT_EQ(to_string(ExitReason::kSignal), "signal");
  EXPECT_EQ(to_string(ExitReason::kOverallTimeout), "overall-timeout");
  EXPECT_EQ(to_string(ExitReason::kNoOutputTimeout), "no-output-timeout");
  EXPECT_EQ(to_string(ExitReason::kManualCancel), "manual-cancel");
  EXPECT_TRUE((ExitRecord{.exit_reason = ExitReason::kNoOutputTimeout}.timed_out()));
  EXPECT_FALSE((ExitRecord{.exit_reason = ExitReason::kManualCancel}.timed_out()));
  EXPECT_FALSE(ExitRecord{}.timed_out());
}

}  // namespace
}  // namespace clawexec::session
