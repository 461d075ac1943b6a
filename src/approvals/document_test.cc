// The approvals document: validation, normalisation, resolution precedence and bookkeeping.

#include "approvals/document.h"

#include <gtest/gtest.h>

#include "approvals/bookkeeping.h"
#include "approvals/random.h"
#include "json/json.h"

namespace clawexec::approvals {
namespace {

namespace bj = boost::json;

std::string fixed_id() { return "fixed-id"; }

Result<void> validate(std::string_view text) { return validate_document(bj::parse(text)); }

TEST(ApprovalsValidation, RejectsEveryWrongTypeOrUnknownLiteral) {
  EXPECT_TRUE(validate(R"({"version":1})").ok());
  EXPECT_FALSE(validate(R"({"version":2})").ok());
  EXPECT_FALSE(validate(R"({"version":1,"defaults":{"ask":"Always"}})").ok());
  EXPECT_FALSE(validate(R"({"version":1,"defaults":{"security":"none"}})").ok());
  EXPECT_FALSE(validate(R"({"version":1,"defaults":{"autoAllowSkills":"yes"}})").ok());
  EXPECT_FALSE(validate(R"({"version":1,"socket":{"token":5}})").ok());
  EXPECT_FALSE(validate(R"({"version":1,"agents":[]})").ok());
  EXPECT_FALSE(validate(R"({"version":1,"agents":{"main":{"allowlist":["  "]}}})").ok());
  EXPECT_FALSE(validate(R"({"version":1,"agents":{"main":{"allowlist":[{"pattern":" "}]}}})").ok());
  EXPECT_FALSE(validate(R"({"version":1,"agents":{"main":{"allowlist":[{"pattern":"x","lastUsedAt":"1"}]}}})").ok());
  const auto r = validate(R"({"version":1,"agents":{"main":{"allowlist":[{"pattern":"x","argPattern":null}]}}})");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "agents.main.allowlist[0].argPattern: expected a string");
  EXPECT_TRUE(validate(R"({"version":1,"extra":true,"agents":{"main":{"custom":1,"allowlist":["ls",{"pattern":"x","note":1}]}}})").ok());
  EXPECT_FALSE(parse_document("", fixed_id).ok());
  EXPECT_FALSE(parse_document("{", fixed_id).ok());
}

TEST(ApprovalsNormalize, MergesLegacyDefaultIntoMainWithMainWinningAndDuplicatesDropped) {
  const Document doc = normalize_document(bj::parse(R"({"version":1,"agents":{
      "main":{"ask":"always","allowlist":[{"id":"a","pattern":"/bin/LS"}]},
      "default":{"ask":"off","security":"allowlist","allowlist":[{"pattern":"/bin/ls "},{"pattern":"/bin/cat"}]}}})"),
                                          fixed_id);
  const auto& agents = doc.at("agents").as_object();
  EXPECT_FALSE(agents.contains("default"));
  EXPECT_EQ(agents.at("main").at("ask"), "always");
  EXPECT_EQ(agents.at("main").at("security"), "allowlist");
  const auto entries = allowlist_entries(doc, "main");
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].pattern, "/bin/LS");
  EXPECT_EQ(entries[1].pattern, "/bin/cat");
  EXPECT_EQ(entries[1].id, "fixed-id");
}

TEST(ApprovalsNormalize, CoercesEntriesStripsCommandTextAndKeepsUnknownKeysInOrder) {
  const Document doc = normalize_document(
      bj::parse(R"({"version":1,"top":1,"socket":{"path":"  ","token":" t "},
                   "defaults":{"ask":" on-miss ","extra":1},
                   "agents":{"main":{"zeta":1,"ask":"bogus","allowlist":[" ls ","",{"pattern":"p","commandText":"x","custom":2}]},
                             "empty":{"allowlist":[""]}}})"),
      fixed_id);
  EXPECT_EQ(json::serialize(doc.at("socket")), R"({"token":"t"})");
  EXPECT_EQ(json::serialize(doc.at("defaults")), R"({"ask":"on-miss"})");
  EXPECT_FALSE(doc.contains("top"));
  EXPECT_EQ(json::serialize(doc.at("agents").at("main")),
            R"({"zeta":1,"allowlist":[{"pattern":"ls","id":"fixed-id"},{"pattern":"p","custom":2,"id":"fixed-id"}]})");
  EXPECT_EQ(json::serialize(doc.at("agents").at("empty")), "{}");
  EXPECT_EQ(serialize_document(empty_document()),
            "{\n  \"version\": 1,\n  \"socket\": {},\n  \"defaults\": {},\n  \"agents\": {}\n}\n");
}

TEST(ApprovalsResolve, ExplicitInvalidAgentValueMasksTheWildcard) {
  const bj::value raw = bj::parse(R"({"version":1,"defaults":{"ask":"on-miss"},
      "agents":{"*":{"ask":"always","security":"allowlist","allowlist":[{"pattern":"/w"}]},
                "runner":{"ask":"Always","allowlist":[{"pattern":"/r"}]}}})");
  const ResolvedApprovals r = resolve_from_file(raw, "runner", {}, {"disp", "/s.sock", "/h"}, fixed_id);
  EXPECT_EQ(r.agent.ask, policy::ExecAsk::kOnMiss);
  EXPECT_EQ(r.agent_sources.ask_source, "defaults.ask");
  EXPECT_EQ(r.agent.security, policy::ExecSecurity::kAllowlist);
  EXPECT_EQ(r.agent_sources.security_source, "agents.*.security");
  EXPECT_EQ(r.agent_sources.ask_fallback_source, std::nullopt);
  ASSERT_EQ(r.allowlist.size(), 2u);
  EXPECT_EQ(r.allowlist[0].pattern, "/w");  // wildcard entries first
  EXPECT_EQ(r.socket_path, "/s.sock");
  EXPECT_EQ(r.token, "");
}

TEST(ApprovalsBookkeeping, RecordUseStampsMatchingEntriesInAgentAndWildcard) {
  Document doc = normalize_document(bj::parse(R"({"version":1,"agents":{
      "*":{"allowlist":[{"id":"w","pattern":"/bin/ls"}]},
      "main":{"allowlist":[{"id":"m","pattern":"/bin/ls"},{"id":"o","pattern":"/bin/cat"}]}}})"),
                                    fixed_id);
  policy::AllowlistEntry match;
  match.pattern = "/bin/ls";
  EXPECT_TRUE(record_allowlist_use(doc, "main", {match}, {"ls -la", "/usr/bin/ls", 42}, fixed_id));
  EXPECT_EQ(doc.at("agents").at("*").at("allowlist").at(0).at("lastUsedAt"), 42);
  const auto& entry = doc.at("agents").at("main").at("allowlist").at(0);
  EXPECT_EQ(entry.at("lastUsedCommand"), "ls -la");
  EXPECT_EQ(entry.at("lastResolvedPath"), "/usr/bin/ls");
  EXPECT_FALSE(doc.at("agents").at("main").at("allowlist").at(1).as_object().contains("lastUsedAt"));
  policy::AllowlistEntry other;
  other.pattern = "/bin/nope";
  EXPECT_FALSE(record_allowlist_use(doc, "main", {other}, {"x", std::nullopt, 1}, fixed_id));
}

TEST(ApprovalsBookkeeping, AddIsANoOpForDuplicatesAndUpgradesTheSource) {
  Document doc = empty_document();
  EXPECT_FALSE(add_allowlist_entry(doc, "main", {"   ", std::nullopt, std::nullopt}, 1, fixed_id));
  EXPECT_TRUE(add_allowlist_entry(doc, "main", {" /bin/ls ", std::string(""), std::nullopt}, 1, fixed_id));
  EXPECT_EQ(json::serialize(doc.at("agents").at("main")),
            R"({"allowlist":[{"id":"fixed-id","pattern":"/bin/ls","lastUsedAt":1}]})");
  EXPECT_FALSE(add_allowlist_entry(doc, "main", {"/bin/ls", std::nullopt, std::nullopt}, 2, fixed_id));
  EXPECT_TRUE(add_allowlist_entry(doc, "main", {"/bin/ls", std::nullopt, std::string("allow-always")}, 3, fixed_id));
  EXPECT_FALSE(add_allowlist_entry(doc, "main", {"/bin/ls", std::nullopt, std::string("allow-always")}, 4, fixed_id));
  const auto entries = allowlist_entries(doc, "main");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].source, "allow-always");
  EXPECT_EQ(entries[0].last_used_at, 3);
  EXPECT_TRUE(add_allowlist_entry(doc, "main", {"/bin/ls", std::string("^-l$"), std::nullopt}, 5, fixed_id));
  EXPECT_EQ(allowlist_entries(doc, "main").size(), 2u);
}

TEST(ApprovalsBookkeeping, RemoveByPatternAndArgPatternOrById) {
  Document doc = normalize_document(bj::parse(R"({"version":1,"agents":{"main":{"ask":"off","allowlist":[
      {"id":"1","pattern":"/bin/ls"},{"id":"2","pattern":"/bin/ls","argPattern":"^-l$"},{"id":"3","pattern":"/bin/cat"}]}}})"),
                                    fixed_id);
  EXPECT_EQ(remove_allowlist_entries(doc, "main", {std::nullopt, std::string(" /bin/ls "), std::nullopt}), 1u);
  EXPECT_EQ(remove_allowlist_entries(doc, "main", {std::string("3"), std::nullopt, std::nullopt}), 1u);
  EXPECT_EQ(remove_allowlist_entries(doc, "main", {std::string("nope"), std::nullopt, std::nullopt}), 0u);
  auto entries = allowlist_entries(doc, "main");
  ASSERT_EQ(entries.size(), 1u);
  EXPECT_EQ(entries[0].id, "2");
  EXPECT_EQ(remove_allowlist_entries(doc, "main", {std::nullopt, std::string("/bin/ls"), std::string("^-l$")}), 1u);
  EXPECT_FALSE(doc.at("agents").at("main").as_object().contains("allowlist"));
  EXPECT_EQ(allowlist_match_key("/bin/ls", std::nullopt), R"(["/bin/ls",null])");
}

TEST(ApprovalsRandom, UuidsAreVersion4) {
  const std::string id = random_uuid();
  ASSERT_EQ(id.size(), 36u);
  EXPECT_EQ(id[14], '4');
  EXPECT_NE(id, random_uuid());
}

TEST(ApprovalsRandom, UuidsAreFormattedEightFourFourFourTwelveWithVersionAndVariantBits) {
  const unsigned char bytes[16] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0xf6, 0x07,
                                   0xc8, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0xff};
  EXPECT_EQ(format_uuid_v4(bytes), "00010203-0405-4607-8809-0a0b0c0d0eff");
}

}  // namespace
}  // namespace clawexec::approvals

namespace clawexec::approvals {
namespace {

// Found by fuzz_approvals_document: a lastUsedAt beyond int64 was cast (undefined behaviour).
TEST(ApprovalsEntries, LastUsedAtOutsideTheInt64RangeIsIgnoredNotCast) {
  for (const char* raw : {R"({"pattern":"ls","lastUsedAt":1.5e19})", R"({"pattern":"ls","lastUsedAt":-0.5e82})"}) {
    std::optional<policy::AllowlistEntry> entry = allowlist_entry_from_json(boost::json::parse(raw));
    ASSERT_TRUE(entry.has_value()) << raw;
    EXPECT_FALSE(entry->last_used_at.has_value()) << raw;
  }
  std::optional<policy::AllowlistEntry> ok = allowlist_entry_from_json(boost::json::parse(R"({"pattern":"ls","lastUsedAt":1796013024883})"));
  ASSERT_TRUE(ok.has_value());
  EXPECT_EQ(ok->last_used_at, 1796013024883);
}

}  // namespace
}  // namespace clawexec::approvals
