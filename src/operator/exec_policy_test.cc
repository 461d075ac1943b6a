// The exec-policy operations on a scratch state dir: presets, parsing in the reference's
// order, the mode/security/ask rule on the config side, the approvals defaults kept in step,
// and what happens when one side cannot be written.

#include "operator/exec_policy.h"

#include <filesystem>

#include "json/json.h"
#include "operator/approvals_edit.h"
#include "operator/operator_test_support.h"

namespace clawexec::operator_ops {
namespace {

namespace bj = boost::json;
using policy::ExecAsk;
using policy::ExecHost;
using policy::ExecSecurity;

class ExecPolicyTest : public testing::ScratchStateTest {
 protected:
  bj::value file(const std::string& path) { return json::parse(read(path)).value_or(bj::value(nullptr)); }
};

TEST(ExecPolicyPresets, TheThreePresetsSetAllFourFields) {
  ASSERT_EQ(exec_policy_presets().size(), 3u);
  auto cautious = exec_policy_preset("cautious");
  ASSERT_TRUE(cautious.ok());
  EXPECT_EQ(cautious->host, ExecHost::kGateway);
  EXPECT_EQ(cautious->security, ExecSecurity::kAllowlist);
  EXPECT_EQ(cautious->ask, ExecAsk::kOnMiss);
  EXPECT_EQ(cautious->ask_fallback, ExecSecurity::kDeny);
  for (const ExecPolicyPreset& preset : exec_policy_presets()) EXPECT_TRUE(exec_policy_preset(preset.name).ok());
}

TEST(ExecPolicyPresets, AnUnknownPresetIsAnInvalidArgumentNamingIt) {
  auto reckless = exec_policy_preset("reckless");
  ASSERT_FALSE(reckless.ok());
  EXPECT_EQ(reckless.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(reckless.error().message, "Unknown exec-policy preset: reckless (expected yolo, cautious or deny-all)");
}

TEST(ParsePolicyChange, ReadsEachFieldAndLabelsTheChange) {
  auto change = parse_policy_change({"sandbox", std::nullopt, "always", "allowlist"});
  ASSERT_TRUE(change.ok()) << change.error().message;
  EXPECT_EQ(change->host, ExecHost::kSandbox);
  EXPECT_FALSE(change->security.has_value());
  EXPECT_EQ(to_json(*change), (bj::object{{"host", "sandbox"}, {"ask", "always"}, {"askFallback", "allowlist"}}));
}

TEST(ParsePolicyChange, ErrorsComeInFieldOrderAndHostNodeIsRefused) {
  auto bad_host = parse_policy_change({"nowhere", "sometimes", std::nullopt, std::nullopt});
  ASSERT_FALSE(bad_host.ok());
  EXPECT_EQ(bad_host.error().message, "Invalid exec host: nowhere (expected auto, sandbox, gateway or node)");
  auto node = parse_policy_change({"node", "sometimes", std::nullopt, std::nullopt});
  ASSERT_FALSE(node.ok());
  EXPECT_EQ(node.error().code, ErrorCode::kRejected);
  EXPECT_EQ(node.error().message, kNodeNotLocalMessage);
  auto bad_ask = parse_policy_change({std::nullopt, std::nullopt, "sometimes", std::nullopt});
  ASSERT_FALSE(bad_ask.ok());
  EXPECT_EQ(bad_ask.error().code, ErrorCode::kInvalidArgument);
  EXPECT_EQ(bad_ask.error().message, "Invalid exec ask mode: sometimes (expected off, on-miss or always)");
  auto nothing = parse_policy_change({});
  ASSERT_FALSE(nothing.ok());
  EXPECT_EQ(nothing.error().code, ErrorCode::kInvalidArgument);
}

TEST_F(ExecPolicyTest, ShowWithNoFilesReportsTheDefaultScope) {
  auto shown = show_exec_policy(env_);
  ASSERT_TRUE(shown.ok()) << shown.error().message;
  EXPECT_EQ(shown->at("configPath"), bj::value(config_file()));
  EXPECT_EQ(shown->at("approvalsExists"), bj::value(false));
  const bj::object& scope = shown->at("effectivePolicy").at("scopes").at(0).as_object();
  EXPECT_EQ(scope.at("scopeLabel"), bj::value("tools.exec"));
  EXPECT_EQ(scope.at("runtimeApprovalsSource"), bj::value("local-file"));
  EXPECT_FALSE(scope.contains("allowedDecisions"));
}

TEST_F(ExecPolicyTest, APresetWritesTheModeToTheConfigAndTheDefaultsToTheApprovals) {
  auto update = apply_exec_policy(env_, *exec_policy_preset("deny-all"));
  ASSERT_TRUE(update.ok()) << update.error().message;
  bj::value config = file(config_file());
  EXPECT_EQ(config.at("tools").at("exec"), bj::value(bj::object{{"host", "gateway"}, {"mode", "deny"}}));
  bj::value defaults = file(approvals_file()).at("defaults");
  EXPECT_EQ(defaults.at("security"), bj::value("deny"));
  EXPECT_EQ(defaults.at("ask"), bj::value("off"));
  EXPECT_EQ(defaults.at("askFallback"), bj::value("deny"));
  EXPECT_EQ(update->config_changes,
            (std::vector<std::string>{"tools.exec.host: set to \"gateway\"", "tools.exec.mode: set to \"deny\""}));
  EXPECT_EQ(update->approvals_changes.size(), 3u);
  EXPECT_EQ(update->policy.at("approvalsExists"), bj::value(true));
  bj::object out = to_json(*update, "preset", "deny-all");
  EXPECT_EQ(out.begin()->key(), "preset");
  EXPECT_TRUE(out.contains("configChanges"));
  EXPECT_TRUE(out.contains("approvalsChanges"));

  auto again = apply_exec_policy(env_, *exec_policy_preset("deny-all"));
  ASSERT_TRUE(again.ok()) << again.error().message;
  EXPECT_TRUE(again->config_changes.empty());
  EXPECT_TRUE(again->approvals_changes.empty());
}

TEST_F(ExecPolicyTest, APairNoModeStandsForIsStoredAsSecurityAndAskWithoutMode) {
  write(config_file(), R"({"tools":{"exec":{"mode":"deny"}}})");
  auto update = apply_exec_policy(env_, {std::nullopt, ExecSecurity::kFull, ExecAsk::kAlways, std::nullopt});
  ASSERT_TRUE(update.ok()) << update.error().message;
  EXPECT_EQ(file(config_file()).at("tools").at("exec"), bj::value(bj::object{{"security", "full"}, {"ask", "always"}}));
  EXPECT_EQ(update->config_changes.front(),
            "tools.exec.mode: removed (was \"deny\") - mode cannot be combined with security/ask");
}

TEST_F(ExecPolicyTest, AConfiguredNodeHostIsRefusedAndNothingIsWritten) {
  write(config_file(), R"({"tools":{"exec":{"host":"node"}}})");
  auto update = apply_exec_policy(env_, {std::nullopt, ExecSecurity::kFull, std::nullopt, std::nullopt});
  ASSERT_FALSE(update.ok());
  EXPECT_EQ(update.error().code, ErrorCode::kRejected);
  EXPECT_EQ(update.error().message, kNodeNotLocalMessage);
  EXPECT_EQ(read(config_file()), R"({"tools":{"exec":{"host":"node"}}})");
  EXPECT_FALSE(exists(approvals_file()));
}

TEST_F(ExecPolicyTest, ACorruptApprovalsFileStopsTheChangeBeforeTheConfigIsWritten) {
  write(approvals_file(), "{ not json");
  auto update = apply_exec_policy(env_, *exec_policy_preset("yolo"));
  ASSERT_FALSE(update.ok());
  EXPECT_NE(update.error().message.find(approvals_file()), std::string::npos) << update.error().message;
  EXPECT_EQ(read(approvals_file()), "{ not json");
  EXPECT_FALSE(exists(config_file()));
}

TEST_F(ExecPolicyTest, AnUnreadableConfigIsAnErrorNamingIt) {
  write(config_file(), "{ broken");
  auto update = apply_exec_policy(env_, *exec_policy_preset("yolo"));
  ASSERT_FALSE(update.ok());
  EXPECT_EQ(update.error().message.rfind("read config " + config_file(), 0), 0u) << update.error().message;
  EXPECT_FALSE(exists(approvals_file()));
  EXPECT_FALSE(show_exec_policy(env_).ok());
}

TEST_F(ExecPolicyTest, WhenTheConfigCannotBeWrittenTheApprovalsDefaultsArePutBack) {
  ASSERT_TRUE(set_approvals(env_, R"({"defaults":{"security":"allowlist"}})").ok());
  const bj::value defaults_before = file(approvals_file()).at("defaults");
  // The config is a symlink: readable, but write_config_document refuses to replace it.
  write(root_ + "/real-config.json", "{}");
  std::filesystem::create_symlink(root_ + "/real-config.json", config_file());
  auto update = apply_exec_policy(env_, *exec_policy_preset("cautious"));
  ASSERT_FALSE(update.ok());
  EXPECT_EQ(update.error().message, "write config " + config_file() + ": refusing to replace a symlink");
  EXPECT_EQ(file(approvals_file()).at("defaults"), defaults_before);
  EXPECT_EQ(read(root_ + "/real-config.json"), "{}");
}

}  // namespace
}  // namespace clawexec::operator_ops
