#include "approvals/pending.h"

#include <gtest/gtest.h>

namespace clawexec::approvals {
namespace {

using policy::ApprovalDecision;

constexpr int64_t kT0 = 1'700'000'000'000;
const std::vector<ApprovalDecision> kAll = {ApprovalDecision::kAllowOnce, ApprovalDecision::kAllowAlways,
                                            ApprovalDecision::kDeny};

NewApproval make(std::string id, int64_t created = kT0, std::vector<ApprovalDecision> decisions = kAll) {
  NewApproval a;
  a.id = std::move(id);
  a.request = boost::json::object{{"command", "echo hi"}, {"host", "gateway"}};
  a.allowed_decisions = std::move(decisions);
  a.created_at_ms = created;
  a.expires_at_ms = created + kDefaultApprovalTimeoutMs;
  a.owner = "client-1";
  return a;
}

TEST(PendingApprovals, AddDerivesSlugAndKeepsTheRequest) {
  PendingApprovals reg;
  auto added = reg.add(make("3f2a9c1e-7b4d-4e8a-9c0f-112233445566"));
  ASSERT_TRUE(added.ok()) << added.error().message;
  EXPECT_EQ(added->slug, "3f2a9c1e");
  EXPECT_EQ(added->status, ApprovalStatus::kPending);
  EXPECT_EQ(added->owner, "client-1");
  EXPECT_EQ(added->request.at("command").as_string(), "echo hi");
  EXPECT_FALSE(added->decision.has_value());
}

TEST(PendingApprovals, OneAgentCannotBuryTheQueueInDecoys) {
  PendingApprovals reg;
  auto from = [](const std::string& agent, int n, int64_t created = kT0) {
    NewApproval a = make((agent.empty() ? "none" : agent) + "-" + std::to_string(n), created);
    if (!agent.empty()) a.request["agentId"] = agent;
    return a;
  };
  for (size_t i = 0; i < kMaxPendingPerAgent; ++i) ASSERT_TRUE(reg.add(from("spam", static_cast<int>(i))).ok());
  Result<PendingApproval> refused = reg.add(from("spam", 999));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().code, ErrorCode::kRejected);
  EXPECT_NE(refused.error().message.find("too many exec approvals waiting for agent spam (20)"), std::string::npos)
      << refused.error().message;
  // Another agent, and requests naming no agent, still get through.
  EXPECT_TRUE(reg.add(from("ops", 1)).ok());
  EXPECT_TRUE(reg.add(from("", 1)).ok());
  // Once one of the agent's requests is decided, or they expire, it may ask again.
  ASSERT_TRUE(reg.resolve("spam-0", ApprovalDecision::kDeny, kT0 + 1).ok());
  EXPECT_TRUE(reg.add(from("spam", 1000, kT0 + 2)).ok());
  EXPECT_FALSE(reg.add(from("spam", 1001, kT0 + 3)).ok());
  EXPECT_TRUE(reg.add(from("spam", 1002, kT0 + kDefaultApprovalTimeoutMs + 1)).ok()) << "the earlier ones expired";
}

TEST(PendingApprovals, AllowedDecisionsAreCanonicalAndAlwaysIncludeDeny) {
  PendingApprovals reg;
  auto a = reg.add(make("aaaaaaaa-0000-4000-8000-000000000001", kT0,
                        {ApprovalDecision::kAllowAlways, ApprovalDecision::kAllowOnce, ApprovalDecision::kAllowOnce}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->allowed_decisions, kAll);
  auto b = reg.add(make("bbbbbbbb-0000-4000-8000-000000000001", kT0, {}));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->allowed_decisions, std::vector<ApprovalDecision>{ApprovalDecision::kDeny});
}

TEST(PendingApprovals, AddRejectsReservedPluginIds) {
  PendingApprovals reg;
  auto r = reg.add(make("plugin:abc"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "approval ids starting with plugin: are reserved");
  EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(reg.size(), 0u);
}

TEST(PendingApprovals, AddRejectsAnIdThatIsAlreadyHeldEvenWhenSettled) {
  PendingApprovals reg;
  ASSERT_TRUE(reg.add(make("abc12345-x")).ok());
  auto dup = reg.add(make("abc12345-x"));
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().message, "approval id already pending");
  ASSERT_TRUE(reg.resolve("abc12345-x", ApprovalDecision::kDeny, kT0 + 1).ok());
  EXPECT_EQ(reg.add(make("abc12345-x")).error().message, "approval id already pending");
  reg.purge(kT0 + 1 + kResolvedGraceMs);
  EXPECT_TRUE(reg.add(make("abc12345-x")).ok());
}

TEST(PendingApprovals, AddRejectsMalformedIds) {
  PendingApprovals reg;
  for (std::string bad : {std::string(""), std::string("."), std::string(".."), std::string("has space"),
                          std::string("slash/id"), std::string(129, 'a')}) {
    auto r = reg.add(make(bad));
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().message.rfind("approval id must be 1-128 characters", 0), 0u) << bad;
  }
  EXPECT_TRUE(reg.add(make(std::string(128, 'a'))).ok());
  EXPECT_TRUE(reg.add(make("A.b_c:d-1")).ok());
}

TEST(PendingApprovals, ListIsSortedByCreationAndSkipsSettledAndOverdue) {
  PendingApprovals reg;
  ASSERT_TRUE(reg.add(make("cccccccc-1", kT0 + 30)).ok());
  ASSERT_TRUE(reg.add(make("aaaaaaaa-1", kT0 + 10)).ok());
  ASSERT_TRUE(reg.add(make("bbbbbbbb-1", kT0 + 20)).ok());
  ASSERT_TRUE(reg.add(make("dddddddd-1", kT0 - kDefaultApprovalTimeoutMs)).ok());  // overdue at kT0+40
  ASSERT_TRUE(reg.resolve("bbbbbbbb", ApprovalDecision::kAllowOnce, kT0 + 40).ok());
  auto listed = reg.list(kT0 + 40);
  ASSERT_EQ(listed.size(), 2u);
  EXPECT_EQ(listed[0].id, "aaaaaaaa-1");
  EXPECT_EQ(listed[1].id, "cccccccc-1");
}

TEST(PendingApprovals, FindByExactIdSlugOrCaseInsensitivePrefix) {
  PendingApprovals reg;
  const std::string id = "3f2a9c1e-7b4d-4e8a-9c0f-112233445566";
  ASSERT_TRUE(reg.add(make(id)).ok());
  EXPECT_EQ(reg.find(id, kT0)->id, id);
  EXPECT_EQ(reg.find("  " + id + "\n", kT0)->id, id);
  EXPECT_EQ(reg.find("3f2a9c1e", kT0)->id, id);
  EXPECT_EQ(reg.find("3F2A9C1E-7B", kT0)->id, id);
  EXPECT_EQ(reg.find("3", kT0)->id, id);
}

TEST(PendingApprovals, FindReportsUnknownAndAmbiguous) {
  PendingApprovals reg;
  ASSERT_TRUE(reg.add(make("abc11111-1")).ok());
  ASSERT_TRUE(reg.add(make("abc22222-1")).ok());
  auto amb = reg.find("abc", kT0);
  ASSERT_FALSE(amb.ok());
  EXPECT_EQ(amb.error().message, "ambiguous approval id prefix; use the full id");
  EXPECT_EQ(amb.error().code, ErrorCode::kInvalidArgument);
  auto none = reg.find("zzz", kT0);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "unknown or expired approval id");
  EXPECT_EQ(none.error().code, ErrorCode::kNotFound);
  EXPECT_EQ(reg.find("", kT0).error().message, "unknown or expired approval id");
  EXPECT_EQ(reg.find("   ", kT0).error().message, "unknown or expired approval id");
  EXPECT_EQ(reg.find("abc1", kT0)->id, "abc11111-1");
}

TEST(PendingApprovals, SettledRecordsDoNotMakePrefixesAmbiguousForPendingLookups) {
  PendingApprovals reg;
  ASSERT_TRUE(reg.add(make("abc11111-1")).ok());
  ASSERT_TRUE(reg.add(make("abc22222-1")).ok());
  ASSERT_TRUE(reg.resolve("abc1", ApprovalDecision::kDeny, kT0 + 5).ok());
  EXPECT_EQ(reg.find("abc", kT0 + 6)->id, "abc22222-1");
  EXPECT_FALSE(reg.find("abc", kT0 + 6, LookupScope::kIncludeSettled).ok());
}

TEST(PendingApprovals, ResolveSettlesAndKeepsTheRecordForTheGracePeriod) {
  PendingApprovals reg;
  ASSERT_TRUE(reg.add(make("abc12345-aaaa")).ok());
  auto r = reg.resolve("ABC12345", ApprovalDecision::kAllowAlways, kT0 + 100);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->status, ApprovalStatus::kResolved);
  EXPECT_EQ(r->decision, ApprovalDecision::kAllowAlways);
  EXPECT_EQ(r->settled_at_ms, kT0 + 100);
  // No longer pending: a second resolve fails, and the exact id is final.
  EXPECT_EQ(reg.resolve("abc12345-aaaa", ApprovalDecision::kDeny, kT0 + 101).error().message,
            "unknown or expired approval id");
  EXPECT_TRUE(reg.list(kT0 + 101).empty());
  // Late lookups still see the outcome until the grace period ends.
  auto late = reg.find("abc12345-aaaa", kT0 + 100 + kResolvedGraceMs - 1, LookupScope::kIncludeSettled);
  ASSERT_TRUE(late.ok());
  EXPECT_EQ(late->status, ApprovalStatus::kResolved);
  EXPECT_EQ(late->decision, ApprovalDecision::kAllowAlways);
  reg.purge(kT0 + 100 + kResolvedGraceMs - 1);
  EXPECT_EQ(reg.size(), 1u);
  reg.purge(kT0 + 100 + kResolvedGraceMs);
  EXPECT_EQ(reg.size(), 0u);
  EXPECT_FALSE(reg.find("abc12345-aaaa", kT0 + 100 + kResolvedGraceMs, LookupScope::kIncludeSettled).ok());
}

TEST(PendingApprovals, ResolveRefusesADecisionThatIsNotOffered) {
  PendingApprovals reg;
  ASSERT_TRUE(reg.add(make("abc12345-bbbb", kT0, {ApprovalDecision::kAllowOnce})).ok());
  auto r = reg.resolve("abc12345", ApprovalDecision::kAllowAlways, kT0 + 1);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "allow-always is unavailable for this command");
  EXPECT_EQ(r.error().code, ErrorCode::kRejected);
  EXPECT_EQ(reg.find("abc12345", kT0 + 2)->status, ApprovalStatus::kPending);
  EXPECT_TRUE(reg.resolve("abc12345", ApprovalDecision::kDeny, kT0 + 3).ok());
}

TEST(PendingApprovals, AnOverdueRecordCannotBeResolvedEvenBeforeExpireRuns) {
  PendingApprovals reg;
  ASSERT_TRUE(reg.add(make("abc12345-cccc")).ok());
  int64_t deadline = kT0 + kDefaultApprovalTimeoutMs;
  EXPECT_TRUE(reg.find("abc12345", deadline - 1).ok());
  auto r = reg.resolve("abc12345", ApprovalDecision::kAllowOnce, deadline);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "unknown or expired approval id");
  auto seen = reg.find("abc12345-cccc", deadline, LookupScope::kIncludeSettled);
  ASSERT_TRUE(seen.ok());
  EXPECT_EQ(seen->status, ApprovalStatus::kExpired);
  EXPECT_FALSE(seen->decision.has_value());
}

TEST(PendingApprovals, ExpireReturnsOverdueRecordsOnceOldestFirst) {
  PendingApprovals reg;
  NewApproval late = make("bbbbbbbb-1", kT0 + 10);
  late.expires_at_ms = kT0 + 1000;
  NewApproval early = make("aaaaaaaa-1", kT0);
  early.expires_at_ms = kT0 + 1000;
  NewApproval alive = make("cccccccc-1", kT0);
  ASSERT_TRUE(reg.add(late).ok());
  ASSERT_TRUE(reg.add(early).ok());
  ASSERT_TRUE(reg.add(alive).ok());
  EXPECT_TRUE(reg.expire(kT0 + 999).empty());
  auto expired = reg.expire(kT0 + 1000);
  ASSERT_EQ(expired.size(), 2u);
  EXPECT_EQ(expired[0].id, "aaaaaaaa-1");
  EXPECT_EQ(expired[1].id, "bbbbbbbb-1");
  EXPECT_EQ(expired[0].status, ApprovalStatus::kExpired);
  EXPECT_EQ(expired[0].settled_at_ms, kT0 + 1000);
  EXPECT_TRUE(reg.expire(kT0 + 2000).empty());
  ASSERT_EQ(reg.list(kT0 + 2000).size(), 1u);
  reg.purge(kT0 + 1000 + kResolvedGraceMs);
  EXPECT_EQ(reg.size(), 1u);
  EXPECT_EQ(reg.list(kT0 + 2000)[0].id, "cccccccc-1");
}

TEST(PendingApprovals, RemoveForgetsByExactIdOnly) {
  PendingApprovals reg;
  ASSERT_TRUE(reg.add(make("abc12345-dddd")).ok());
  EXPECT_FALSE(reg.remove("abc12345"));
  EXPECT_TRUE(reg.remove("abc12345-dddd"));
  EXPECT_FALSE(reg.remove("abc12345-dddd"));
  EXPECT_EQ(reg.size(), 0u);
}

TEST(PendingApprovals, StatusNames) {
  EXPECT_EQ(to_string(ApprovalStatus::kPending), "pending");
  EXPECT_EQ(to_string(ApprovalStatus::kResolved), "resolved");
  EXPECT_EQ(to_string(ApprovalStatus::kExpired), "expired");
  EXPECT_EQ(approval_slug("abc"), "abc");
}

}  // namespace
}  // namespace clawexec::approvals
