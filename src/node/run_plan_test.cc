#include "node/run_plan.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "hash/sha256.h"
#include "node/pipeline_runner.h"
#include "shell/word.h"

namespace clawexec::node {
namespace {

json::Object obj(std::string_view text) {
  std::optional<json::Value> v = json::parse(text);
  EXPECT_TRUE(v && v->is_object()) << text;
  return v && v->is_object() ? v->get_object() : json::Object();
}

std::string real(const std::string& p) {
  char buf[4096];
  return ::realpath(p.c_str(), buf) ? std::string(buf) : p;
}

PrepareContext full_off(const std::string& cwd) {
  PrepareContext c;
  c.process_cwd = cwd;
  c.path_env = "/usr/bin:/bin";
  return c;
}

TEST(FormatExecCommand, QuotesLikeOpenClaw) {
  EXPECT_EQ(shell::format_exec_command({"/bin/sh", "-lc", "ls -la"}), R"(/bin/sh -lc "ls -la")");
  EXPECT_EQ(shell::format_exec_command({"/bin/sh", "-lc", "pwd"}), "/bin/sh -lc pwd");
  EXPECT_EQ(shell::format_exec_command({"/usr/bin/uname", "-s"}), "/usr/bin/uname -s");
  EXPECT_EQ(shell::format_exec_command({"echo", "a\"b", ""}), R"(echo "a\"b" "")");
  // Backslashes are kept as they are (transcript, run-env-1).
  EXPECT_EQ(shell::format_exec_command({"/bin/sh", "-lc", R"(tr '\\0' a)"}), R"(/bin/sh -lc "tr '\\0' a")");
  // JavaScript's \s: Unicode white space quotes a word too (OpenClaw's node and gateway agree).
  EXPECT_EQ(shell::format_exec_command({"echo", "a\u00a0b", "c\u2028d", "\u00e9"}), "echo \"a\u00a0b\" \"c\u2028d\" \u00e9");
}

TEST(ResolveCommand, RawCommandMustBeTheTextOrThePayload) {
  auto ok1 = resolve_command(obj(R"({"command":["/bin/sh","-lc","echo hi"],"rawCommand":"echo hi"})"));
  ASSERT_TRUE(std::holds_alternative<CommandRequest>(ok1));
  EXPECT_EQ(std::get<CommandRequest>(ok1).shell_payload.value_or(""), "echo hi");
  auto ok2 = resolve_command(obj(R"({"command":["/bin/sh","-lc","echo hi"],"rawCommand":"/bin/sh -lc \"echo hi\""})"));
  ASSERT_TRUE(std::holds_alternative<CommandRequest>(ok2));
  auto bad = resolve_command(obj(R"({"command":["/bin/sh","-lc","echo hi"],"rawCommand":"rm -rf /"})"));
  ASSERT_TRUE(std::holds_alternative<InvokeError>(bad));
  EXPECT_EQ(std::get<InvokeError>(bad).code, "INVALID_REQUEST");
  EXPECT_EQ(std::get<InvokeError>(bad).message, "INVALID_REQUEST: rawCommand does not match command");
  auto none = resolve_command(obj(R"({"command":[]})"));
  ASSERT_TRUE(std::holds_alternative<InvokeError>(none));
  EXPECT_EQ(std::get<InvokeError>(none).message, "command required");
}

// Transcript conn 37 (S10): the prepare of the real exec tool with node policy full/off.
TEST(PreparePlan, ShellPayloadUnderFullOffHasTheReferenceShape) {
  std::string cwd = real(::testing::TempDir());
  auto r = prepare_plan(obj(R"({"command":["/bin/sh","-lc","uname -s && echo via-agent-exec"],"security":"full","ask":"off",
                                "rawCommand":"uname -s && echo via-agent-exec","agentId":"main","sessionKey":"agent:main:main"})"),
                        full_off(cwd));
  ASSERT_TRUE(std::holds_alternative<json::Object>(r)) << std::get<InvokeError>(r).message;
  json::Object expected = obj(R"({"plan":{"argv":["/bin/sh","-lc","uname -s && echo via-agent-exec"],"cwd":"CWD",
      "commandText":"/bin/sh -lc \"uname -s && echo via-agent-exec\"","commandPreview":"uname -s && echo via-agent-exec",
      "agentId":"main","sessionKey":"agent:main:main","policySnapshot":{"security":"full","ask":"off","askFallback":"deny",
      "autoAllowSkills":false,"allowlistRules":[]}},"execPolicy":{"security":"full","ask":"off"},
      "allowAlwaysCoverage":{"complete":false,"patterns":[]}})");
  expected["plan"].as_object()["cwd"] = cwd;
  EXPECT_EQ(json::serialize(std::get<json::Object>(r)), json::serialize(expected));
}

TEST(PreparePlan, AllowlistPolicyRefusesAShellPayloadWithTheReferenceText) {
  PrepareContext c = full_off("/");
  c.policy.security = "allowlist";
  c.policy.ask = "on-miss";
  auto r = prepare_plan(obj(R"({"command":["/bin/sh","-lc","id -u && echo approved-run"],"rawCommand":"id -u && echo approved-run",
                                "cwd":"/tmp","agentId":"main","sessionKey":"agent:main:main"})"),
                        c);
  ASSERT_TRUE(std::holds_alternative<InvokeError>(r));
  EXPECT_EQ(std::get<InvokeError>(r).code, "INVALID_REQUEST");
  EXPECT_EQ(std::get<InvokeError>(r).message.rfind("SYSTEM_RUN_DENIED: approval cannot safely bind this interpreter/runtime command\nNo approval request was created", 0), 0u);
}

// Transcript S7: an absolute executable binds with mutableFileOperand (argvIndex 0) and sha256.
TEST(PreparePlan, BoundExecutableIsPinnedAndHashed) {
  PrepareContext c = full_off("/");
  c.policy.security = "allowlist";
  c.policy.ask = "on-miss";
  c.policy.allowlist_rules.push_back(json::Object{{"pattern", "/usr/bin/uname"}});
  auto r = prepare_plan(obj(R"({"command":["id","-u"],"cwd":"/tmp","agentId":"main","sessionKey":"agent:main:main"})"), c);
  ASSERT_TRUE(std::holds_alternative<json::Object>(r)) << std::get<InvokeError>(r).message;
  const json::Object& plan = std::get<json::Object>(r).at("plan").as_object();
  std::vector<std::string> keys;
  for (const auto& kv : plan) keys.emplace_back(kv.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"argv", "cwd", "commandText", "commandPreview", "agentId", "sessionKey", "mutableFileOperand",
                                            "policySnapshot"}));
  std::string id_path = real("/usr/bin/id");
  EXPECT_EQ(plan.at("argv").as_array().at(0).as_string(), id_path);
  EXPECT_EQ(json::string_member(plan, "commandText"), id_path + " -u");
  EXPECT_TRUE(plan.at("commandPreview").is_null());
  EXPECT_EQ(json::string_member(plan, "cwd"), real("/tmp"));
  const json::Object& operand = plan.at("mutableFileOperand").as_object();
  EXPECT_EQ(json::integer_member(operand, "argvIndex"), 0);
  EXPECT_EQ(json::string_member(operand, "path"), id_path);
  EXPECT_EQ(json::string_member(operand, "sha256").size(), 64u);
  EXPECT_EQ(json::serialize(plan.at("policySnapshot")),
            R"({"security":"allowlist","ask":"on-miss","askFallback":"deny","autoAllowSkills":false,"allowlistRules":[{"pattern":"/usr/bin/uname"}]})");
}

TEST(PreparePlan, ADenyPolicyReturnsItsSnapshotInsteadOfABindingError) {
  PrepareContext c = full_off("/");
  c.policy.security = "deny";
  auto r = prepare_plan(obj(R"({"command":["/bin/sh","-lc","echo hi"],"security":"full","ask":"off"})"), c);
  ASSERT_TRUE(std::holds_alternative<json::Object>(r)) << std::get<InvokeError>(r).message;
  const json::Object& plan = std::get<json::Object>(r).at("plan").as_object();
  EXPECT_EQ(json::string_member(plan.at("policySnapshot").as_object(), "security"), "deny");
  EXPECT_EQ(json::string_member(std::get<json::Object>(r).at("execPolicy").as_object(), "security"), "deny");
}

TEST(PreparePlan, AMissingCwdIsRefused) {
  auto r = prepare_plan(obj(R"({"command":["/bin/sh","-lc","pwd"],"security":"full","ask":"off","cwd":"/nonexistent-dir-xyz"})"), full_off("/"));
  ASSERT_TRUE(std::holds_alternative<InvokeError>(r));
  EXPECT_EQ(std::get<InvokeError>(r).message, "SYSTEM_RUN_DENIED: working directory does not exist or is inaccessible");
}

TEST(EnvOverrides, BlockedKeysRefuseTheRunWithTheReferenceText) {
  auto r = check_env_overrides(obj(R"({"env":{"FOO":"bar","LD_PRELOAD":"/tmp/x.so"}})"), true);
  ASSERT_TRUE(std::holds_alternative<InvokeError>(r));
  EXPECT_EQ(std::get<InvokeError>(r).code, "INVALID_REQUEST");
  EXPECT_EQ(std::get<InvokeError>(r).message, "SYSTEM_RUN_DENIED: environment override rejected (blocked override keys: LD_PRELOAD)");
  auto lower = check_env_overrides(obj(R"({"env":{"ld_preload":"/tmp/x.so"}})"), false);
  ASSERT_TRUE(std::holds_alternative<InvokeError>(lower)) << "names are compared case-insensitively";
  auto path = check_env_overrides(obj(R"({"env":{"PATH":"/evil"}})"), false);
  ASSERT_TRUE(std::holds_alternative<InvokeError>(path));
  auto odd = check_env_overrides(obj(R"({"env":{"A B":"x"}})"), false);
  ASSERT_TRUE(std::holds_alternative<InvokeError>(odd));
  EXPECT_NE(std::get<InvokeError>(odd).message.find("invalid non-portable override keys"), std::string::npos);
}

TEST(EnvOverrides, ShellWrappersKeepOnlyTheirAllowlist) {
  auto wrapped = check_env_overrides(obj(R"({"env":{"FOO":"bar","LANG":"C.UTF-8"}})"), true);
  ASSERT_TRUE(std::holds_alternative<env::EnvList>(wrapped));
  EXPECT_EQ(std::get<env::EnvList>(wrapped), (env::EnvList{{"LANG", "C.UTF-8"}}));
  auto direct = check_env_overrides(obj(R"({"env":{"FOO":"bar"}})"), false);
  EXPECT_EQ(std::get<env::EnvList>(direct), (env::EnvList{{"FOO", "bar"}}));
}

class PlanBindingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = ::testing::TempDir() + "node_plan_XXXXXX";
    ASSERT_NE(::mkdtemp(pattern.data()), nullptr);
    dir_ = real(pattern);
    tool_ = dir_ + "/tool";
    { std::ofstream(tool_) << "#!/bin/sh\necho one\n"; }
    ::chmod(tool_.c_str(), 0755);
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }
  json::Object prepared() {
    PrepareContext c = full_off(dir_);
    c.policy.security = "allowlist";
    auto r = prepare_plan(obj(R"({"command":["./tool","x"],"agentId":"main","sessionKey":"s"})"), c);
    EXPECT_TRUE(std::holds_alternative<json::Object>(r));
    return std::get<json::Object>(r).at("plan").as_object();
  }
  json::Object run_params(const json::Object& plan) {
    return json::Object{{"command", plan.at("argv")},
                        {"rawCommand", plan.at("commandText")},
                        {"systemRunPlan", plan},
                        {"cwd", plan.at("cwd")},
                        {"agentId", "main"},
                        {"sessionKey", "s"}};
  }
  std::string dir_, tool_;
};

TEST_F(PlanBindingTest, TheRunOfThePreparedPlanPasses) {
  json::Object plan = prepared();
  json::Object params = run_params(plan);
  CommandRequest cmd = std::get<CommandRequest>(resolve_command(params));
  EXPECT_FALSE(check_plan_binding(params, cmd).has_value());
}

TEST_F(PlanBindingTest, AnotherArgvCwdOrSessionThanThePlanIsRefused) {
  json::Object plan = prepared();
  json::Object other_argv = run_params(plan);
  other_argv["command"] = json::Array{json::Value(tool_), json::Value("y")};
  other_argv.erase("rawCommand");
  EXPECT_TRUE(check_plan_binding(other_argv, std::get<CommandRequest>(resolve_command(other_argv))).has_value());
  json::Object other_cwd = run_params(plan);
  other_cwd["cwd"] = "/";
  EXPECT_TRUE(check_plan_binding(other_cwd, std::get<CommandRequest>(resolve_command(other_cwd))).has_value());
  json::Object other_session = run_params(plan);
  other_session["sessionKey"] = "agent:other:main";
  EXPECT_TRUE(check_plan_binding(other_session, std::get<CommandRequest>(resolve_command(other_session))).has_value());
}

TEST_F(PlanBindingTest, AnExecutableChangedSincePrepareIsRefused) {
  json::Object plan = prepared();
  { std::ofstream(tool_) << "#!/bin/sh\necho two\n"; }
  json::Object params = run_params(plan);
  std::optional<InvokeError> e = check_plan_binding(params, std::get<CommandRequest>(resolve_command(params)));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->code, "SYSTEM_RUN_DENIED");
}

TEST(PlanBinding, AnApprovedRunWithoutItsPlanIsRefused) {
  json::Object params = obj(R"({"command":["/usr/bin/id"],"approved":true,"approvalDecision":"allow-once"})");
  std::optional<InvokeError> e = check_plan_binding(params, std::get<CommandRequest>(resolve_command(params)));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message, "explicit approval requires matching systemRunPlan");
  json::Object plain = obj(R"({"command":["/usr/bin/id"],"approved":false})");
  EXPECT_FALSE(check_plan_binding(plain, std::get<CommandRequest>(resolve_command(plain))).has_value());
}

TEST(RunResult, CapsEachStreamAt200000BytesKeepingTheHead) {
  RunResult r;
  r.exit_code = 0;
  r.stdout_text = std::string(250000, 'a');
  cap_outputs(r);
  EXPECT_EQ(r.stdout_text, std::string(200000, 'a') + "\n... (truncated)");
  RunResult both;
  both.stdout_text = std::string(200001, 'a');
  both.stderr_text = "err";
  cap_outputs(both);
  EXPECT_EQ(both.stdout_text.size(), 200000u);
  EXPECT_EQ(both.stderr_text, "err\n... (truncated)");
  RunResult small;
  small.stdout_text = "x";
  cap_outputs(small);
  EXPECT_EQ(small.stdout_text, "x");
}

TEST(RunResult, JsonAndFinishedEventMatchTheTranscript) {
  RunResult r;
  r.exit_code = 3;
  r.stdout_text = "hello-from-node\nLinux\n";
  r.stderr_text = "err\n";
  EXPECT_EQ(json::serialize(run_result_json(r)),
            R"({"exitCode":3,"timedOut":false,"success":false,"stdout":"hello-from-node\nLinux\n","stderr":"err\n","error":null})");
  EXPECT_EQ(json::serialize(exec_finished_payload("agent:main:main", "run-probe-1", R"(/bin/sh -lc "x")", r, false)),
            R"({"sessionKey":"agent:main:main","runId":"run-probe-1","host":"node","command":"/bin/sh -lc \"x\"","exitCode":3,"timedOut":false,"success":false,"output":"hello-from-node\nLinux\n\nerr","suppressNotifyOnExit":false})");
  RunResult bad_cwd;
  bad_cwd.error = missing_cwd_error("/nonexistent-dir");
  EXPECT_EQ(json::serialize(run_result_json(bad_cwd)),
            R"J({"timedOut":false,"success":false,"stdout":"","stderr":"","error":"node exec working directory does not exist on the node host: /nonexistent-dir (os reported: Command failed during launch or output capture (ENOENT))"})J");
  RunResult timeout;
  timeout.exit_code = 124;
  timeout.timed_out = true;
  timeout.stdout_text = "start\n";
  EXPECT_EQ(json::serialize(run_result_json(timeout)),
            R"({"exitCode":124,"timedOut":true,"success":false,"stdout":"start\n","stderr":"","error":null})");
}

TEST(RunResult, FinishedEventKeepsTheLast20000CharactersOfOutput) {
  RunResult r;
  r.exit_code = 0;
  r.stdout_text = std::string(30000, 'a') + "END";
  std::string output = json::string_member(exec_finished_payload("s", "r", "c", r, false), "output");
  EXPECT_EQ(output.rfind("... (truncated) ", 0), 0u);
  EXPECT_EQ(output.size(), 20000u + std::string("... (truncated) ").size());
  EXPECT_EQ(output.substr(output.size() - 3), "END");
}

}  // namespace
}  // namespace clawexec::node

namespace clawexec::node {
namespace {

TEST(QuoteArgv, EveryWordIsSingleQuotedAndQuotesSurvive) {
  EXPECT_EQ(quote_argv({"/usr/bin/printf", "%s", "a b", "c'd", "$(id)"}), R"('/usr/bin/printf' '%s' 'a b' 'c'\''d' '$(id)')");
  EXPECT_EQ(quote_argv({""}), "''");
}

}  // namespace
}  // namespace clawexec::node
