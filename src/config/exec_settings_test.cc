#include "config/exec_settings.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <string>

namespace clawexec::config {
namespace {

namespace json = boost::json;
using Env = std::map<std::string, std::string, std::less<>>;

ConfigSources sources(std::optional<std::string> text, Env env = {}, std::string agent = "main") {
  ConfigSources s;
  s.file_text = std::move(text);
  s.env = env_from_map(std::move(env));
  s.agent_id = std::move(agent);
  return s;
}

LoadedConfig load(std::string text, Env env = {}, std::string agent = "main") {
  auto result = load_config(sources(std::move(text), std::move(env), std::move(agent)));
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.ok() ? *result : LoadedConfig{};
}

ExecSettings exec_of(std::string text, Env env = {}, std::string agent = "main") {
  LoadedConfig loaded = load(std::move(text), std::move(env), std::move(agent));
  EXPECT_TRUE(loaded.warnings.empty()) << loaded.warnings.front();
  return loaded.exec;
}

std::string load_error(std::string text, std::string agent = "main") {
  auto result = load_config(sources(std::move(text), {}, std::move(agent)));
  EXPECT_FALSE(result.ok());
  if (result.ok()) return "";
  EXPECT_EQ(result.error().code, ErrorCode::kInvalidArgument);
  return result.error().message;
}

TEST(ExecSettings, NoConfigFileMeansReferenceDefaults) {
  auto loaded = load_config(sources(std::nullopt));
  ASSERT_TRUE(loaded.ok());
  const ExecSettings& e = loaded->exec;
  EXPECT_EQ(e.host, ExecHost::kAuto);
  EXPECT_FALSE(e.mode || e.security || e.ask || e.node);
  EXPECT_EQ(e.default_timeout_seconds, 1800);
  EXPECT_EQ(e.background_ms, 10000);
  EXPECT_EQ(e.cleanup_ms, 1800000);
  EXPECT_EQ(e.max_live_sessions, 1024);
  EXPECT_TRUE(e.notify_on_exit);
  EXPECT_FALSE(e.notify_on_exit_empty_success);
  EXPECT_EQ(e.approval_running_notice_ms, 10000);
  EXPECT_TRUE(e.path_prepend.empty());
  EXPECT_FALSE(e.safe_bins || e.safe_bin_trusted_dirs || e.safe_bin_profiles || e.reviewer ||
               e.strict_inline_eval);
  EXPECT_FALSE(e.command_highlighting);
  EXPECT_TRUE(e.apply_patch.enabled);
  EXPECT_TRUE(e.apply_patch.workspace_only);
  EXPECT_FALSE(e.apply_patch.allow_models);
  EXPECT_EQ(e.max_output_chars, 200000);
  EXPECT_EQ(e.pending_max_output_chars, 30000);
  EXPECT_EQ(e.input_wait_idle_ms, 15000);
  EXPECT_TRUE(loaded->warnings.empty());
  EXPECT_EQ(loaded->document, json::value(json::object_kind));
}

TEST(ExecSettings, ReadsEveryGlobalKey) {
  ExecSettings e = exec_of(R"({
    tools: { exec: {
      host: 'node', node: 'build-box', timeoutSeconds: 600, backgroundMs: 2500, cleanupMs: 120000,
      notifyOnExit: false, notifyOnExitEmptySuccess: true, approvalRunningNoticeMs: 0,
      pathPrepend: ['/opt/bin'], safeBins: ['jq', 'wc'], safeBinTrustedDirs: ['/usr/local/bin'],
      safeBinProfiles: { jq: { minPositional: 0, maxPositional: 1, allowedValueFlags: ['-r'], deniedFlags: ['-f'] } },
      strictInlineEval: true, commandHighlighting: true, grantExpiryDays: 30,
      reviewer: { model: { primary: 'openai/gpt-5', fallbacks: [] }, thinking: 'low', fastMode: true, timeoutMs: 5000 },
      applyPatch: { enabled: false, workspaceOnly: false, allowModels: ['gpt-5'] },
      security: 'allowlist', ask: 'always',
    } } })");
  EXPECT_EQ(e.host, ExecHost::kNode);
  EXPECT_EQ(e.node, "build-box");
  EXPECT_EQ(e.default_timeout_seconds, 600);
  EXPECT_EQ(e.background_ms, 2500);
  EXPECT_EQ(e.cleanup_ms, 120000);
  EXPECT_FALSE(e.notify_on_exit);
  EXPECT_EQ(e.notify_on_exit_empty_success, true);
  EXPECT_EQ(e.approval_running_notice_ms, 0);
  EXPECT_EQ(e.path_prepend, std::vector<std::string>{"/opt/bin"});
  EXPECT_EQ(e.safe_bins, (std::vector<std::string>{"jq", "wc"}));
  EXPECT_EQ(e.safe_bin_trusted_dirs, std::vector<std::string>{"/usr/local/bin"});
  EXPECT_EQ(
      json::value(*e.safe_bin_profiles),
      json::parse(
          R"({"jq": {"minPositional": 0, "maxPositional": 1, "allowedValueFlags": ["-r"], "deniedFlags": ["-f"]}})"));
  EXPECT_EQ(e.strict_inline_eval, true);
  EXPECT_TRUE(e.command_highlighting);
  EXPECT_EQ(e.grant_expiry_days, 30);
  EXPECT_EQ(json::value(*e.reviewer), json::parse(R"({"model": {"primary": "openai/gpt-5", "fallbacks": []},
      "thinking": "low", "fastMode": true, "timeoutMs": 5000})"));
  EXPECT_FALSE(e.apply_patch.enabled);
  EXPECT_FALSE(e.apply_patch.workspace_only);
  EXPECT_EQ(e.apply_patch.allow_models, std::vector<std::string>{"gpt-5"});
  EXPECT_FALSE(e.mode);
  EXPECT_EQ(e.security, ExecSecurity::kAllowlist);
  EXPECT_EQ(e.ask, ExecAsk::kAlways);
}

TEST(ExecSettings, AgentSectionOverridesGlobalFieldByField) {
  ExecSettings e = exec_of(R"({
    tools: { exec: { host: 'gateway', timeoutSeconds: 600, node: 'a', notifyOnExit: false } },
    agents: { entries: { main: { tools: { exec: { timeoutSeconds: 60, node: 'b' } } },
                         other: { tools: { exec: { host: 'node' } } } } } })");
  EXPECT_EQ(e.host, ExecHost::kGateway);
  EXPECT_EQ(e.default_timeout_seconds, 60);
  EXPECT_EQ(e.node, "b");
  EXPECT_FALSE(e.notify_on_exit);
}

TEST(ExecSettings, AgentIdIsMatchedAfterNormalisation) {
  const std::string text = R"({ agents: { entries: {
      Ops_Team: { tools: { exec: { host: 'sandbox' } } },
      'my-agent': { tools: { exec: { host: 'node' } } } } } })";
  EXPECT_EQ(exec_of(text, {}, " ops_TEAM ").host, ExecHost::kSandbox);
  EXPECT_EQ(exec_of(text, {}, "My Agent!").host, ExecHost::kNode);
  EXPECT_EQ(exec_of(text, {}, "main").host, ExecHost::kAuto);
  EXPECT_EQ(exec_of(text, {}, "").host, ExecHost::kAuto);  // "" = global settings only
}

TEST(ExecSettings, NormalizesAgentIdsLikeTheReference) {
  EXPECT_EQ(normalize_agent_id("Main"), "main");
  EXPECT_EQ(normalize_agent_id("  ops-1 "), "ops-1");
  EXPECT_EQ(normalize_agent_id("My Agent!"), "my-agent");
  EXPECT_EQ(normalize_agent_id("a-!b"), "a--b");
  EXPECT_EQ(normalize_agent_id("_x"), "_x");
  EXPECT_EQ(normalize_agent_id("--x--"), "x");
  EXPECT_EQ(normalize_agent_id("ünï"), "n");
  EXPECT_EQ(normalize_agent_id("!!!"), "main");
  EXPECT_EQ(normalize_agent_id(""), "main");
  EXPECT_EQ(normalize_agent_id(std::string(70, 'a')), std::string(64, 'a'));
}

TEST(ExecSettings, ModeLayersAsAPolicy) {
  ExecSettings mode_only = exec_of("{tools: {exec: {mode: 'auto'}}}");
  EXPECT_EQ(mode_only.mode, ExecMode::kAuto);
  EXPECT_EQ(mode_only.security, ExecSecurity::kAllowlist);
  EXPECT_EQ(mode_only.ask, ExecAsk::kOnMiss);

  // An agent security without mode drops the inherited mode but keeps the inherited ask.
  ExecSettings legacy_over_mode = exec_of(R"({tools: {exec: {mode: 'ask'}},
      agents: {entries: {main: {tools: {exec: {security: 'full'}}}}}})");
  EXPECT_FALSE(legacy_over_mode.mode);
  EXPECT_EQ(legacy_over_mode.security, ExecSecurity::kFull);
  EXPECT_EQ(legacy_over_mode.ask, ExecAsk::kOnMiss);

  // An agent mode replaces the whole inherited policy.
  ExecSettings mode_over_legacy = exec_of(R"({tools: {exec: {security: 'allowlist', ask: 'always'}},
      agents: {entries: {main: {tools: {exec: {mode: 'full'}}}}}})");
  EXPECT_EQ(mode_over_legacy.mode, ExecMode::kFull);
  EXPECT_EQ(mode_over_legacy.security, ExecSecurity::kFull);
  EXPECT_EQ(mode_over_legacy.ask, ExecAsk::kOff);

  ExecSettings deny = exec_of("{tools: {exec: {mode: 'deny'}}}");
  EXPECT_EQ(deny.security, ExecSecurity::kDeny);
  EXPECT_EQ(deny.ask, ExecAsk::kOff);
}

TEST(ExecSettings, ModeTogetherWithSecurityOrAskIsAnError) {
  EXPECT_EQ(
      load_error("{tools: {exec: {mode: 'ask', ask: 'off'}}}"),
      "tools.exec.mode: cannot be combined with security or ask in the same exec object; keep either mode or "
      "the legacy security/ask pair");
}

TEST(ExecSettings, AgentApplyPatchObjectReplacesTheGlobalOne) {
  ExecSettings e = exec_of(R"({tools: {exec: {applyPatch: {enabled: false, allowModels: ['x']}}},
      agents: {entries: {main: {tools: {exec: {applyPatch: {workspaceOnly: false}}}}}}})");
  EXPECT_TRUE(e.apply_patch.enabled);  // not inherited from the global object
  EXPECT_FALSE(e.apply_patch.workspace_only);
  EXPECT_FALSE(e.apply_patch.allow_models);
}

TEST(ExecSettings, ApplyPatchAllowProtectedPathsIsAStrictListPerAgent) {
  EXPECT_TRUE(exec_of("{}").apply_patch.allow_protected_paths.empty());
  ExecSettings e = exec_of(R"({tools: {exec: {applyPatch: {allowProtectedPaths: ['git', 'shell-startup', 'ssh']}}}})");
  EXPECT_EQ(e.apply_patch.allow_protected_paths,
            (std::vector<PatchPathClass>{PatchPathClass::kGit, PatchPathClass::kShellStartup, PatchPathClass::kSsh}));
  ExecSettings agent = exec_of(R"({tools: {exec: {applyPatch: {allowProtectedPaths: ['git']}}},
      agents: {entries: {main: {tools: {exec: {applyPatch: {allowProtectedPaths: []}}}}}}})");
  EXPECT_TRUE(agent.apply_patch.allow_protected_paths.empty());
  EXPECT_EQ(load_error("{tools: {exec: {applyPatch: {allowProtectedPaths: ['git', 'state']}}}}"),
            "tools.exec.applyPatch.allowProtectedPaths[1]: expected one of \"shell-startup\", \"git\", \"ssh\", got "
            "\"state\"");
  EXPECT_EQ(load_error("{tools: {exec: {applyPatch: {allowProtectedPaths: 'git'}}}}"),
            "tools.exec.applyPatch.allowProtectedPaths: expected an array of strings, got \"git\"");
}

TEST(ExecSettings, SafeBinProfilesMergeByNormalisedNameWithAgentWinning) {
  ExecSettings e = exec_of(R"({tools: {exec: {safeBinProfiles: {' JQ ': {minPositional: 1}, wc: {}}}},
      agents: {entries: {main: {tools: {exec: {safeBinProfiles: {jq: {maxPositional: 2}}}}}}}})");
  EXPECT_EQ(json::value(*e.safe_bin_profiles), json::parse(R"({"jq": {"maxPositional": 2}, "wc": {}})"));
}

TEST(ExecSettings, PathPrependIsTrimmedDedupedAndReplacedByTheAgentList) {
  EXPECT_EQ(
      exec_of("{tools: {exec: {pathPrepend: [' /a ', '', '  ', '/b', '/a', '\\u00a0/b']}}}").path_prepend,
      (std::vector<std::string>{"/a", "/b"}));
  EXPECT_EQ(exec_of(R"({tools: {exec: {pathPrepend: ['/g']}},
      agents: {entries: {main: {tools: {exec: {pathPrepend: ['/x']}}}}}})")
                .path_prepend,
            std::vector<std::string>{"/x"});
}

TEST(ExecSettings, ClampsTimingsToTheReferenceBounds) {
  EXPECT_EQ(exec_of("{tools: {exec: {backgroundMs: 5}}}").background_ms, 10);
  EXPECT_EQ(exec_of("{tools: {exec: {backgroundMs: 999999}}}").background_ms, 120000);
  EXPECT_EQ(exec_of("{tools: {exec: {cleanupMs: 1000}}}").cleanup_ms, 60000);
  EXPECT_EQ(exec_of("{tools: {exec: {cleanupMs: 99999999}}}").cleanup_ms, 10800000);
  EXPECT_EQ(exec_of("{tools: {exec: {timeoutSeconds: 1e1}}}").default_timeout_seconds,
            10);  // 1e1 is an integer in JS
}

TEST(ExecSettings, ConfigBackgroundAndCleanupWinOverTheEnvironment) {
  Env env = {{"OPENCLAW_BASH_YIELD_MS", "50"}, {"OPENCLAW_BASH_JOB_TTL_MS", "70000"}};
  ExecSettings from_config = exec_of("{tools: {exec: {backgroundMs: 1000, cleanupMs: 90000}}}", env);
  EXPECT_EQ(from_config.background_ms, 1000);
  EXPECT_EQ(from_config.cleanup_ms, 90000);
  ExecSettings from_env = exec_of("{}", env);
  EXPECT_EQ(from_env.background_ms, 50);
  EXPECT_EQ(from_env.cleanup_ms, 70000);
  ExecSettings agent_config =
      exec_of("{agents: {entries: {main: {tools: {exec: {backgroundMs: 700}}}}}}", env);
  EXPECT_EQ(agent_config.background_ms, 700);
}

TEST(ExecSettings, EnvironmentOverridesUseLegacyNamesOnlyWhenThePrimaryIsUnsetOrEmpty) {
  EXPECT_EQ(exec_of("{}", {{"PI_BASH_YIELD_MS", "40"}}).background_ms, 40);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_YIELD_MS", ""}, {"PI_BASH_YIELD_MS", "40"}}).background_ms, 40);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_YIELD_MS", "abc"}, {"PI_BASH_YIELD_MS", "40"}}).background_ms,
            10000);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_YIELD_MS", "1"}}).background_ms, 10);
  EXPECT_EQ(exec_of("{}", {{"PI_BASH_JOB_TTL_MS", "1"}}).cleanup_ms, 60000);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_JOB_TTL_MS", "1.5"}}).cleanup_ms, 1800000);
}

TEST(ExecSettings, OutputCapsComeFromTheEnvironmentAndAreClamped) {
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_MAX_OUTPUT_CHARS", "5000"}}).max_output_chars, 5000);
  EXPECT_EQ(exec_of("{}", {{"PI_BASH_MAX_OUTPUT_CHARS", "10"}}).max_output_chars, 1000);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_MAX_OUTPUT_CHARS", "900000"}}).max_output_chars, 200000);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_MAX_OUTPUT_CHARS", "0x100"}}).max_output_chars, 200000);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS", "2000"}}).pending_max_output_chars,
            2000);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS", "-5"}}).pending_max_output_chars, 1000);
  // The pending cap never exceeds the aggregate cap.
  ExecSettings capped = exec_of(
      "{}", {{"OPENCLAW_BASH_MAX_OUTPUT_CHARS", "4000"}, {"OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS", "9000"}});
  EXPECT_EQ(capped.pending_max_output_chars, 4000);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_BASH_MAX_OUTPUT_CHARS", "4000"}}).pending_max_output_chars, 4000);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", " 2500 "}}).input_wait_idle_ms, 2500);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", "5"}}).input_wait_idle_ms, 1000);
  EXPECT_EQ(exec_of("{}", {{"OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS", "9999999"}}).input_wait_idle_ms, 600000);
}

TEST(ExecSettings, MaxLiveSessionsIsAPositiveIntegerAndTheAgentsValueWins) {
  EXPECT_EQ(exec_of("{tools: {exec: {maxLiveSessions: 3}}}").max_live_sessions, 3);
  EXPECT_EQ(exec_of(R"({tools: {exec: {maxLiveSessions: 3}},
                       agents: {entries: {main: {tools: {exec: {maxLiveSessions: 7}}}}}})")
                .max_live_sessions,
            7);
  EXPECT_EQ(load_error("{tools: {exec: {maxLiveSessions: 0}}}"),
            "tools.exec.maxLiveSessions: expected a positive integer, got 0");
  EXPECT_EQ(load_error("{tools: {exec: {maxLiveSessions: '10'}}}"),
            "tools.exec.maxLiveSessions: expected a number, got \"10\"");
}

TEST(ExecSettings, InvalidValuesAreErrorsNamingTheKeyPath) {
  EXPECT_EQ(load_error("{tools: {exec: {timeoutSeconds: 'abc'}}}"),
            "tools.exec.timeoutSeconds: expected a number, got \"abc\"");
  EXPECT_EQ(load_error("{tools: {exec: {timeoutSeconds: 0}}}"),
            "tools.exec.timeoutSeconds: expected a positive integer, got 0");
  EXPECT_EQ(load_error("{tools: {exec: {backgroundMs: 1.5}}}"),
            "tools.exec.backgroundMs: expected a positive integer, got 1.5");
  EXPECT_EQ(load_error("{tools: {exec: {cleanupMs: Infinity}}}"),
            "tools.exec.cleanupMs: expected a positive integer, got Infinity");
  EXPECT_EQ(load_error("{tools: {exec: {backgroundMs: 9007199254740992}}}"),
            "tools.exec.backgroundMs: expected a positive integer, got 9007199254740992");
  EXPECT_EQ(load_error("{tools: {exec: {approvalRunningNoticeMs: -1}}}"),
            "tools.exec.approvalRunningNoticeMs: expected a non-negative integer, got -1");
  EXPECT_EQ(load_error("{tools: {exec: {grantExpiryDays: 3651}}}"),
            "tools.exec.grantExpiryDays: expected an integer from 1 to 3650, got 3651");
  EXPECT_EQ(load_error("{tools: {exec: {host: 'local'}}}"),
            "tools.exec.host: expected one of \"auto\", \"sandbox\", \"gateway\", \"node\", got \"local\"");
  EXPECT_EQ(load_error("{tools: {exec: {ask: null}}}"),
            "tools.exec.ask: expected one of \"off\", \"on-miss\", \"always\", got null");
  EXPECT_EQ(load_error("{tools: {exec: {notifyOnExit: 'yes'}}}"),
            "tools.exec.notifyOnExit: expected true or false, got \"yes\"");
  EXPECT_EQ(load_error("{tools: {exec: {node: 7}}}"), "tools.exec.node: expected a string, got 7");
  EXPECT_EQ(load_error("{tools: {exec: {pathPrepend: '/bin'}}}"),
            "tools.exec.pathPrepend: expected an array of strings, got \"/bin\"");
  EXPECT_EQ(load_error("{tools: {exec: {safeBins: ['jq', 1]}}}"),
            "tools.exec.safeBins[1]: expected a string, got 1");
  EXPECT_EQ(load_error("{tools: {exec: {applyPatch: {enabled: 1}}}}"),
            "tools.exec.applyPatch.enabled: expected true or false, got 1");
  EXPECT_EQ(load_error("{tools: {exec: {safeBinProfiles: {jq: {minPositional: 1.5}}}}}"),
            "tools.exec.safeBinProfiles.jq.minPositional: expected a non-negative integer, got 1.5");
  EXPECT_EQ(
      load_error("{tools: {exec: {reviewer: {thinking: 'huge'}}}}"),
      "tools.exec.reviewer.thinking: expected one of \"minimal\", \"low\", \"medium\", \"high\", \"xhigh\", "
      "\"max\", got \"huge\"");
  EXPECT_EQ(load_error("{tools: {exec: {reviewer: {model: []}}}}"),
            "tools.exec.reviewer.model: expected a model name or an object, got an array");
  EXPECT_EQ(load_error("{tools: {exec: {timeoutSeconds: '" + std::string(100, 'x') + "'}}}"),
            "tools.exec.timeoutSeconds: expected a number, got \"" + std::string(60, 'x') + "\"...");
}

TEST(ExecSettings, ReportsEveryErrorIncludingOtherAgentsSections) {
  EXPECT_EQ(load_error(R"({tools: {exec: {host: 1, cleanupMs: -5}},
      agents: {entries: {ops: {tools: {exec: {timeoutSeconds: 'soon'}}}}}})"),
            "tools.exec.host: expected one of \"auto\", \"sandbox\", \"gateway\", \"node\", got 1\n"
            "tools.exec.cleanupMs: expected a positive integer, got -5\n"
            "agents.entries.ops.tools.exec.timeoutSeconds: expected a number, got \"soon\"");
}

TEST(ExecSettings, KeyPathsQuoteOnlyUnusualKeys) {
  EXPECT_EQ(load_error("{agents: {entries: {'1ops': {tools: {exec: {host: 2}}}}}}", ""),
            "agents.entries.1ops.tools.exec.host: expected one of \"auto\", \"sandbox\", \"gateway\", "
            "\"node\", got 2");
  EXPECT_EQ(load_error("{agents: {entries: {'my agent': {tools: {exec: {node: []}}}}}}", ""),
            "agents.entries[\"my agent\"].tools.exec.node: expected a string, got an array");
}

TEST(ExecSettings, ContainersOnTheWayToExecMustBeObjects) {
  EXPECT_EQ(load_error("[]"), "expected an object at the top level, got an array");
  EXPECT_EQ(load_error("{tools: 5}"), "tools: expected an object, got 5");
  EXPECT_EQ(load_error("{tools: {exec: 'on'}}"), "tools.exec: expected an object, got \"on\"");
  EXPECT_EQ(load_error("{agents: {entries: []}}"), "agents.entries: expected an object, got an array");
  EXPECT_EQ(load_error("{agents: {entries: {main: {tools: {exec: true}}}}}"),
            "agents.entries.main.tools.exec: expected an object, got true");
}

TEST(ExecSettings, UnknownExecKeysAreIgnoredWithAWarningNamingThePath) {
  auto loaded = load_config(sources(R"({tools: {exec: {
      fooBar: 1, 'a.b': 2, applyPatch: {extra: true, enabled: false},
      reviewer: {model: {primary: 'm', x: 1}}, safeBinProfiles: {jq: {color: 'red'}}}},
      agents: {entries: {main: {tools: {exec: {zzz: 0, timeoutSeconds: 5}}}}}})"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_EQ(loaded->warnings, (std::vector<std::string>{
                                  "tools.exec.fooBar: unknown key, ignored",
                                  "tools.exec[\"a.b\"]: unknown key, ignored",
                                  "tools.exec.applyPatch.extra: unknown key, ignored",
                                  "tools.exec.reviewer.model.x: unknown key, ignored",
                                  "tools.exec.safeBinProfiles.jq.color: unknown key, ignored",
                                  "agents.entries.main.tools.exec.zzz: unknown key, ignored",
                              }));
  EXPECT_FALSE(loaded->exec.apply_patch.enabled);
  EXPECT_EQ(loaded->exec.default_timeout_seconds, 5);
  EXPECT_EQ(json::value(*loaded->exec.reviewer), json::parse(R"({"model": {"primary": "m"}})"));
  EXPECT_EQ(json::value(*loaded->exec.safe_bin_profiles), json::parse(R"({"jq": {}})"));
}

TEST(ExecSettings, EveryKeyOfTheReferenceSchemaIsAcceptedWithoutWarning) {
  auto loaded = load_config(sources(R"({tools: {exec: {
      host: 'auto', mode: 'full', node: 'n', pathPrepend: [], safeBins: [], strictInlineEval: false,
      commandHighlighting: false, grantExpiryDays: 1, safeBinTrustedDirs: [], safeBinProfiles: {},
      reviewer: {model: 'm', thinking: 'max', fastMode: false, timeoutMs: 1}, backgroundMs: 1,
      approvalRunningNoticeMs: 0, timeoutSeconds: 1, cleanupMs: 1, notifyOnExit: true,
      notifyOnExitEmptySuccess: false, applyPatch: {enabled: true, workspaceOnly: true, allowModels: []}}}})"));
  ASSERT_TRUE(loaded.ok()) << loaded.error().message;
  EXPECT_TRUE(loaded->warnings.empty()) << loaded->warnings.front();
  auto legacy = load_config(sources("{tools: {exec: {security: 'deny', ask: 'on-miss'}}}"));
  ASSERT_TRUE(legacy.ok());
  EXPECT_TRUE(legacy->warnings.empty());
}

TEST(ExecSettings, OtherSectionsAreNotOurBusiness) {
  LoadedConfig loaded = load(R"({gateway: {port: 'not validated'}, models: [1, 2],
      tools: {web: {search: 'anything'}, elevated: 5, exec: {host: 'gateway'}},
      agents: {defaults: {sandbox: {mode: 'all'}}, entries: {main: {name: 7, tools: {fs: 'x'}}}}})");
  EXPECT_TRUE(loaded.warnings.empty());
  EXPECT_EQ(loaded.exec.host, ExecHost::kGateway);
  EXPECT_EQ(loaded.document.at("gateway").at("port"), json::value("not validated"));  // kept for others
}

TEST(ExecSettings, MessagesArePrefixedWithTheOrigin) {
  ConfigSources s = sources("{tools: {exec: {host: 'x', bad: 1}}}");
  s.origin = "/home/u/.openclaw/openclaw.json";
  auto result = load_config(s);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(
      result.error().message,
      "/home/u/.openclaw/openclaw.json: tools.exec.host: expected one of \"auto\", \"sandbox\", \"gateway\", "
      "\"node\", got \"x\"");
  s.file_text = "{tools: {exec: {bad: 1}}}";
  auto warned = load_config(s);
  ASSERT_TRUE(warned.ok());
  EXPECT_EQ(warned->warnings, std::vector<std::string>{
                                  "/home/u/.openclaw/openclaw.json: tools.exec.bad: unknown key, ignored"});
  s.file_text = "{\n  tools: {exec: {host: 'x'}\n";
  auto broken = load_config(s);
  ASSERT_FALSE(broken.ok());
  EXPECT_EQ(
      broken.error().message,
      "/home/u/.openclaw/openclaw.json: JSON5 parse error at 3:1: expected ',' or '}' after object member");
}

TEST(ExecSettings, EmptyFileIsAParseErrorNotDefaults) {
  EXPECT_EQ(load_error(""), "JSON5 parse error at 1:1: expected a value");
}

TEST(ExecSettings, EnumSpellingsRoundTrip) {
  EXPECT_EQ(to_string(ExecHost::kGateway), "gateway");
  EXPECT_EQ(to_string(ExecMode::kAllowlist), "allowlist");
  EXPECT_EQ(to_string(ExecSecurity::kFull), "full");
  EXPECT_EQ(to_string(ExecAsk::kOnMiss), "on-miss");
  EXPECT_EQ(exec_of("{tools: {exec: {host: 'sandbox'}}}").host, ExecHost::kSandbox);
}

}  // namespace
}  // namespace clawexec::config
