#include "env/host_exec_env.h"

#include <gtest/gtest.h>

namespace clawexec::env {
namespace {

// The rejection message of build_host_exec_env, or "" when it succeeds.
std::string rejection(const EnvList& overrides, const HostEnvOptions& options = {}) {
  Result<EnvList> result = build_host_exec_env({{"PATH", "/usr/bin"}}, overrides, options);
  if (result.ok()) return "";
  EXPECT_EQ(result.error().code, ErrorCode::kRejected);
  return result.error().message;
}

EnvList built(const EnvList& inherited, const EnvList& overrides, const HostEnvOptions& options = {}) {
  Result<EnvList> result = build_host_exec_env(inherited, overrides, options);
  EXPECT_TRUE(result.ok()) << result.error().message;
  return result.ok() ? result.value() : EnvList{};
}

std::string value_of(const EnvList& env, std::string_view key) {
  const std::string* value = find_var(env, key);
  return value ? *value : "<unset>";
}

// --- §8.2 conformance cases 19-25 ---

TEST(HostExecEnv, Spec19PathOverrideIsForbidden) {
  EXPECT_EQ(rejection({{"PATH", "/explicit/bin"}}),
            "Security Violation: Custom 'PATH' variable is forbidden during host execution.");
}

TEST(HostExecEnv, Spec20LoaderVariableIsForbidden) {
  EXPECT_EQ(rejection({{"LD_DEBUG", "1"}}),
            "Security Violation: Environment variable 'LD_DEBUG' is forbidden during host execution.");
}

TEST(HostExecEnv, Spec21SeveralBlockedKeysAreListedSorted) {
  EXPECT_EQ(rejection({{"HTTPS_PROXY", "http://p:8080"}, {"NODE_TLS_REJECT_UNAUTHORIZED", "0"}}),
            "Security Violation: blocked override keys: HTTPS_PROXY, NODE_TLS_REJECT_UNAUTHORIZED.");
}

TEST(HostExecEnv, Spec22OverrideOnlyKeyIsForbidden) {
  EXPECT_EQ(rejection({{"CLASSPATH", "/tmp/x"}}),
            "Security Violation: Environment variable 'CLASSPATH' is forbidden during host execution.");
}

TEST(HostExecEnv, Spec23NonPortableKeyIsInvalid) {
  EXPECT_EQ(rejection({{"BAD-KEY", "1"}}),
            "Security Violation: invalid non-portable override keys: BAD-KEY.");
}

TEST(HostExecEnv, Spec24PathWithInvalidKeyListsBoth) {
  EXPECT_EQ(rejection({{"PATH", "/x"}, {"A-B", "1"}}),
            "Security Violation: Custom 'PATH' variable is forbidden during host execution "
            "(blocked override keys: PATH; invalid non-portable override keys: A-B).");
}

TEST(HostExecEnv, Spec25InheritedSslKeyLogFileIsNotPassedOn) {
  EnvList env = built({{"SSLKEYLOGFILE", "/tmp/k.log"}, {"USER", "me"}}, {});
  EXPECT_EQ(find_var(env, "SSLKEYLOGFILE"), nullptr);
  EXPECT_EQ(value_of(env, "USER"), "me");
}

// --- message variants ---

TEST(HostExecEnvMessages, SingleBlockedKeyIsReportedUpperCased) {
  EXPECT_EQ(rejection({{"node_options", "--require x"}}),
            "Security Violation: Environment variable 'NODE_OPTIONS' is forbidden during host execution.");
}

TEST(HostExecEnvMessages, LowerCasePathCountsAsPath) {
  EXPECT_EQ(rejection({{"Path", "/x"}}),
            "Security Violation: Custom 'PATH' variable is forbidden during host execution.");
}

TEST(HostExecEnvMessages, PathWithOtherBlockedKeysListsThemAll) {
  EXPECT_EQ(rejection({{"PATH", "/x"}, {"HOME", "/tmp"}}),
            "Security Violation: Custom 'PATH' variable is forbidden during host execution "
            "(blocked override keys: HOME, PATH).");
}

TEST(HostExecEnvMessages, BlockedAndInvalidWithoutPath) {
  EXPECT_EQ(rejection({{"ZDOTDIR", "/z"}, {"x.y", "1"}, {"EDITOR", "vi"}}),
            "Security Violation: blocked override keys: EDITOR, ZDOTDIR; "
            "invalid non-portable override keys: x.y.");
}

TEST(HostExecEnvMessages, SeveralInvalidKeysOnly) {
  EXPECT_EQ(rejection({{"b-b", "1"}, {"9A", "1"}, {"A B", "1"}}),
            "Security Violation: invalid non-portable override keys: 9A, \"A B\", b-b.");
}

TEST(HostExecEnvMessages, KeysDifferingOnlyInCaseAreReportedOnce) {
  EXPECT_EQ(rejection({{"home", "/a"}, {"HOME", "/b"}, {" Home ", "/c"}}),
            "Security Violation: Environment variable 'HOME' is forbidden during host execution.");
}

TEST(HostExecEnvMessages, InvalidKeysAreTrimmedButKeepTheirCase) {
  EXPECT_EQ(rejection({{"  bad-Key ", "1"}}),
            "Security Violation: invalid non-portable override keys: bad-Key.");
}

// Where the reference prints a key as is (and a blank one as nothing at all), keys that would
// not be visible as written are quoted and escaped (host_env_policy.h visible_key).
TEST(HostExecEnvMessages, BlankKeyIsReportedAsGivenInQuotes) {
  EXPECT_EQ(rejection({{"  ", "1"}}), "Security Violation: invalid non-portable override keys: \"  \".");
  EXPECT_EQ(rejection({{"  bad key ", "1"}}), "Security Violation: invalid non-portable override keys: \"bad key\".");
}

TEST(HostExecEnvMessages, InvalidKeysSortInUtf16Order) {
  // U+FFFF sorts after an astral character in UTF-16 (0xD83D...), before it in UTF-8 bytes.
  EXPECT_EQ(rejection({{"\xEF\xBF\xBF", "1"}, {"\xF0\x9F\x98\x80", "1"}}),
            "Security Violation: invalid non-portable override keys: \"\\xF0\\x9F\\x98\\x80\", \"\\xEF\\xBF\\xBF\".");
}

TEST(HostExecEnvMessages, CargoTargetLinkerOverrideIsBlocked) {
  EXPECT_EQ(rejection({{"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER", "/tmp/evil"}}),
            "Security Violation: Environment variable 'CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER' "
            "is forbidden during host execution.");
}

TEST(HostExecEnvMessages, PrefixRulesApplyToOverrides) {
  EXPECT_EQ(rejection({{"DYLD_INSERT_LIBRARIES", "x"}, {"BASH_FUNC_ls%%", "() { :; }"},
                       {"GIT_CONFIG_COUNT", "1"}, {"NPM_CONFIG_REGISTRY", "x"},
                       {"CARGO_REGISTRIES_X_INDEX", "x"}, {"TF_VAR_x", "1"}, {"BASH_FUNC_x", "1"}}),
            "Security Violation: blocked override keys: BASH_FUNC_X, CARGO_REGISTRIES_X_INDEX, DYLD_INSERT_LIBRARIES, "
            "GIT_CONFIG_COUNT, NPM_CONFIG_REGISTRY, TF_VAR_X; invalid non-portable override keys: "
            "BASH_FUNC_ls%%.");
}

TEST(HostExecEnvMessages, DetailsHelperMatchesTheNodeHostWording) {
  EXPECT_EQ(override_rejection_details({"A", "B"}, {"c-d"}),
            "blocked override keys: A, B; invalid non-portable override keys: c-d");
  EXPECT_EQ(override_rejection_details({}, {"c-d"}), "invalid non-portable override keys: c-d");
}

// --- overrides that are accepted ---

TEST(HostExecEnvOverrides, PlainOverridesAreAppliedAndMarkerIsSet) {
  EnvList env = built({{"TERM", "dumb"}}, {{"FOO", "bar"}, {"TERM", "xterm"}});
  EXPECT_EQ(env, (EnvList{{"TERM", "xterm"}, {"FOO", "bar"}, {"OPENCLAW_CLI", "1"}}));
}

TEST(HostExecEnvOverrides, KeysAreTrimmedAndKeepTheirCase) {
  EnvList env = built({}, {{"  Foo_1 ", "x"}});
  EXPECT_EQ(value_of(env, "Foo_1"), "x");
}

TEST(HostExecEnvOverrides, KeysThatAreNoEnvironmentNamesAreRefusedByName) {
  EXPECT_EQ(rejection({{"ProgramFiles(x86)", "C:\\Program Files (x86)"}}),
            "Security Violation: invalid non-portable override keys: ProgramFiles(x86).");
  EXPECT_EQ(rejection({{"ls()", "() { id; }"}}), "Security Violation: invalid non-portable override keys: ls().");
  EXPECT_EQ(rejection({{"", "x"}}), "Security Violation: invalid non-portable override keys: \"\".");
  EXPECT_EQ(rejection({{"A=B", "x"}}), "Security Violation: invalid non-portable override keys: A=B.");
  EXPECT_EQ(rejection({{std::string("A\0B", 3), "x"}}),
            "Security Violation: invalid non-portable override keys: \"A\\x00B\".");
  EXPECT_EQ(rejection({{"9LIVES", "x"}, {"a b", "y"}}),
            "Security Violation: invalid non-portable override keys: 9LIVES, \"a b\".");
}

TEST(HostExecEnvOverrides, GitTraceAndPerllibOverridesAreRefused) {
  EXPECT_EQ(rejection({{"GIT_TRACE", "/tmp/x"}}),
            "Security Violation: Environment variable 'GIT_TRACE' is forbidden during host execution.");
  EXPECT_EQ(rejection({{"git_trace2_event", "/tmp/x"}}),
            "Security Violation: Environment variable 'GIT_TRACE2_EVENT' is forbidden during host execution.");
  EXPECT_EQ(rejection({{"PERLLIB", "/tmp"}, {"PYTHONWARNINGS", "ignore::evil.W"}}),
            "Security Violation: blocked override keys: PERLLIB, PYTHONWARNINGS.");
}

TEST(HostExecEnvOverrides, InheritedPerllibIsDroppedAndTheOperatorsLessIsKept) {
  EnvList env = built({{"PERLLIB", "/x"}, {"LESS", "-R"}, {"GIT_TRACE", "/tmp/trace"}}, {});
  EXPECT_EQ(value_of(env, "PERLLIB"), "<unset>");
  EXPECT_EQ(value_of(env, "LESS"), "-R");
  EXPECT_EQ(value_of(env, "GIT_TRACE"), "/tmp/trace");
}

TEST(HostExecEnvOverrides, MarkerCannotBeOverridden) {
  EnvList env = built({}, {{"OPENCLAW_CLI", "0"}});
  EXPECT_EQ(env, (EnvList{{"OPENCLAW_CLI", "1"}}));
}

TEST(HostExecEnvOverrides, NoPagerRequestsAreAcceptedAsEmpty) {
  EnvList env = built({{"PAGER", "less"}}, {{"PAGER", "cat"}, {"git_pager", ""}});
  EXPECT_EQ(value_of(env, "PAGER"), "");
  EXPECT_EQ(value_of(env, "git_pager"), "");
}

TEST(HostExecEnvOverrides, OtherPagerValuesAreBlocked) {
  EXPECT_EQ(rejection({{"PAGER", "less"}}),
            "Security Violation: Environment variable 'PAGER' is forbidden during host execution.");
  EXPECT_EQ(rejection({{"GIT_PAGER", " cat"}}),
            "Security Violation: Environment variable 'GIT_PAGER' is forbidden during host execution.");
  EXPECT_EQ(rejection({{"MANPAGER", "cat"}}),
            "Security Violation: Environment variable 'MANPAGER' is forbidden during host execution.");
}

TEST(HostExecEnvOverrides, PathMayBeAllowedExplicitly) {
  HostEnvOptions options;
  options.path_overrides = PathOverrides::kAllow;
  EXPECT_EQ(value_of(built({{"PATH", "/usr/bin"}}, {{"PATH", "/x"}}, options), "PATH"), "/x");
}

TEST(HostExecEnvOverrides, ReviewReportsAcceptedAndRejectedSeparately) {
  OverrideReview review = review_overrides({{"B", "2"}, {"HOME", "/h"}, {"a-b", "1"}, {"A", "1"}});
  EXPECT_EQ(review.accepted, (EnvList{{"B", "2"}, {"A", "1"}}));
  EXPECT_EQ(review.blocked_keys, std::vector<std::string>{"HOME"});
  EXPECT_EQ(review.invalid_keys, std::vector<std::string>{"a-b"});
  EXPECT_TRUE(review.has_rejections());
}

TEST(HostExecEnvOverrides, SanitizeStillReturnsTheAcceptedPartOnRejection) {
  SanitizedHostEnv result = sanitize_host_exec_env({{"USER", "me"}}, {{"FOO", "1"}, {"PATH", "/x"}});
  EXPECT_EQ(result.env, (EnvList{{"USER", "me"}, {"FOO", "1"}, {"OPENCLAW_CLI", "1"}}));
  EXPECT_EQ(result.blocked_keys, std::vector<std::string>{"PATH"});
  EXPECT_TRUE(result.invalid_keys.empty());
}

// --- inherited environment ---

TEST(HostExecEnvInherited, DangerousNamesAreRemovedAndOrderIsKept) {
  EnvList inherited{{"USER", "me"},        {"NODE_OPTIONS", "--x"}, {"HOME", "/home/me"},
                    {"LD_PRELOAD", "x.so"}, {"EDITOR", "vi"},        {"GITHUB_TOKEN", "t"},
                    {"SHELL", "/bin/zsh"},  {"HTTPS_PROXY", "p"},    {"TERM", "xterm"},
                    {"AWS_SECRET_ACCESS_KEY", "s"}, {"BASH_FUNC_f%%", "() { :; }"}};
  EXPECT_EQ(filter_inherited_env(inherited),
            (EnvList{{"USER", "me"}, {"HOME", "/home/me"}, {"HTTPS_PROXY", "p"}, {"TERM", "xterm"}}));
}

TEST(HostExecEnvInherited, KeysAreTrimmedAndBlankKeysDropped) {
  EXPECT_EQ(filter_inherited_env({{" FOO ", "1"}, {"  ", "x"}, {"", "y"}, {" ld_audit", "z"}}),
            (EnvList{{"FOO", "1"}}));
}

TEST(HostExecEnvInherited, GitAllowProtocolIsReducedToDefaultProtocols) {
  auto reduced = [](std::string value) {
    return value_of(filter_inherited_env({{"GIT_ALLOW_PROTOCOL", std::move(value)}}), "GIT_ALLOW_PROTOCOL");
  };
  EXPECT_EQ(reduced("git:file:ext:https"), "git:https");
  EXPECT_EQ(reduced(" ssh "), "ssh");
  EXPECT_EQ(reduced("http:GIT"), "http");
  EXPECT_EQ(reduced("file:ext"), "");
  EXPECT_EQ(reduced(""), "");
}

TEST(HostExecEnvInherited, PermissiveGitProtocolFromUserBecomesZero) {
  auto value = [](std::string v) {
    return value_of(filter_inherited_env({{"GIT_PROTOCOL_FROM_USER", std::move(v)}}), "GIT_PROTOCOL_FROM_USER");
  };
  for (const char* permissive : {"1", "2", "+1", "-7", "true", " YES ", "On"}) {
    EXPECT_EQ(value(permissive), "0") << permissive;
  }
  for (const char* kept : {"0", "00", "-0", "off", "false", "1.0", "x", ""}) {
    EXPECT_EQ(value(kept), kept) << kept;
  }
}

TEST(HostExecEnvInherited, GitProtocolKeysAreNotSettableAsOverrides) {
  EXPECT_EQ(rejection({{"GIT_ALLOW_PROTOCOL", "git"}, {"GIT_PROTOCOL_FROM_USER", "0"}}),
            "Security Violation: blocked override keys: GIT_ALLOW_PROTOCOL, GIT_PROTOCOL_FROM_USER.");
}

TEST(HostExecEnvInherited, OverridesReplaceInPlaceAndNewKeysFollow) {
  EnvList env = built({{"A", "1"}, {"B", "2"}, {"OPENCLAW_CLI", "x"}, {"C", "3"}},
                      {{"D", "4"}, {"B", "two"}, {"b", "lower"}});
  EXPECT_EQ(env, (EnvList{{"A", "1"}, {"B", "two"}, {"OPENCLAW_CLI", "1"}, {"C", "3"},
                          {"D", "4"}, {"b", "lower"}}));
}

TEST(HostExecEnvInherited, WhitespaceVariantsOfOneKeyMergeAtTheFirstPosition) {
  EXPECT_EQ(filter_inherited_env({{"X", "1"}, {"Y", "2"}, {" X", "3"}}),
            (EnvList{{"X", "3"}, {"Y", "2"}}));
}

// --- withheld keys ---

TEST(HostExecEnvWithheld, WithheldKeysAreDroppedWhenInheritedAndRejectedAsOverrides) {
  HostEnvOptions options;
  options.withheld_keys = {" openai_api_key ", "PAGER"};
  EXPECT_EQ(filter_inherited_env({{"OPENAI_API_KEY", "sk"}, {"USER", "me"}}, options),
            (EnvList{{"USER", "me"}}));
  EXPECT_EQ(rejection({{"OpenAI_Api_Key", "sk"}}, options),
            "Security Violation: Environment variable 'OPENAI_API_KEY' is forbidden during host execution.");
  EXPECT_EQ(rejection({{"PAGER", "cat"}}, options),
            "Security Violation: Environment variable 'PAGER' is forbidden during host execution.");
}

// --- node-host shell-wrapper filter ---

TEST(ShellWrapperOverrides, KeepsOnlyTerminalAndLocaleVariables) {
  EnvList filtered = filter_shell_wrapper_overrides({{"TERM", "xterm-256color"}, {"FOO", "1"},
                                                     {"LC_TIME", "C"}, {"HOME", "/x"},
                                                     {" LANG ", "C.UTF-8"}, {"NO_COLOR", "1"},
                                                     {"OPENCLAW_SUBAGENT_EXEC", "1"}, {"PATH", "/x"}});
  EXPECT_EQ(filtered, (EnvList{{"TERM", "xterm-256color"}, {"LC_TIME", "C"}, {"LANG", "C.UTF-8"},
                               {"NO_COLOR", "1"}, {"OPENCLAW_SUBAGENT_EXEC", "1"}}));
}

TEST(ShellWrapperOverrides, NoPagerRequestBecomesEmptyOtherPagersAreDropped) {
  EXPECT_EQ(filter_shell_wrapper_overrides({{"PAGER", "cat"}, {"GIT_PAGER", "less"}}),
            (EnvList{{"PAGER", ""}}));
}

TEST(ShellWrapperOverrides, NonPortableKeysAreDropped) {
  EXPECT_TRUE(filter_shell_wrapper_overrides({{"LC_X(1)", "C"}, {"TE-RM", "x"}}).empty());
}

TEST(ShellWrapperOverrides, WithheldPagerIsDropped) {
  HostEnvOptions options;
  options.withheld_keys = {"pager"};
  EXPECT_TRUE(filter_shell_wrapper_overrides({{"PAGER", "cat"}}, options).empty());
}

}  // namespace
}  // namespace clawexec::env

namespace clawexec::env {
namespace {

// A server filters its environment once and builds every call's environment over that: the
// result must be exactly what filtering on every call gives, rejections included.
TEST(HostExecEnvOverFiltered, MatchesFilteringOnEveryCall) {
  EnvList inherited{{"PATH", "/usr/bin"},
                    {" HOME ", "/h"},
                    {"LD_PRELOAD", "/x.so"},
                    {"BASH_ENV", "/evil"},
                    {"GIT_ALLOW_PROTOCOL", "file:ext:https"},
                    {"GIT_PROTOCOL_FROM_USER", "1"},
                    {"SECRET_TOKEN", "s"},
                    {"LANG", "C.UTF-8"}};
  std::vector<EnvList> overrides{{},
                                 {{"LANG", "de_DE.UTF-8"}, {"FOO", "bar"}},
                                 {{"PATH", "/tmp"}},
                                 {{"LD_PRELOAD", "/y.so"}},
                                 {{"bad-key", "x"}}};
  for (const HostEnvOptions& options : {HostEnvOptions{}, HostEnvOptions{.withheld_keys = {"SECRET_TOKEN", "LANG"}}}) {
    EnvList filtered = filter_inherited_env(inherited);
    for (const EnvList& o : overrides) {
      Result<EnvList> every_call = build_host_exec_env(inherited, o, options);
      Result<EnvList> once = build_host_exec_env_over_filtered(filtered, o, options);
      ASSERT_EQ(every_call.ok(), once.ok());
      if (every_call.ok()) {
        EXPECT_EQ(every_call.value(), once.value());
      } else {
        EXPECT_EQ(every_call.error().message, once.error().message);
      }
    }
  }
}

}  // namespace
}  // namespace clawexec::env
