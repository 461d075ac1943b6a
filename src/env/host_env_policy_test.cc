#include "env/host_env_policy.h"

#include <gtest/gtest.h>

namespace clawexec::env {
namespace {

// Spot checks from each list of the reference policy (2026.9.6).

TEST(HostEnvPolicy, BlockedEverywhereNamesAreDangerousInBothDirections) {
  for (const char* key : {"NODE_OPTIONS", "PYTHONPATH", "BASH_ENV", "ENV", "GIT_EXTERNAL_DIFF",
                          "CC", "SHELL", "IFS", "SSLKEYLOGFILE", "_JAVA_OPTIONS", "GLIBC_TUNABLES",
                          "LUA_INIT_5_4", "HOSTALIASES", "TCLLIBPATH", "CARGO_BUILD_RUSTC"}) {
    EXPECT_TRUE(is_dangerous_host_env_key(key)) << key;
    EXPECT_TRUE(is_dangerous_override_key(key)) << key;
    EXPECT_TRUE(is_dangerous_inherited_key(key)) << key;
  }
}

TEST(HostEnvPolicy, OverrideOnlyNamesAreBlockedAsOverridesAndDroppedWhenInherited) {
  for (const char* key : {"CLASSPATH", "EDITOR", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY",
                          "GIT_SSH_COMMAND", "LESSOPEN", "PROMPT_COMMAND", "PIP_INDEX_URL",
                          "GOPROXY", "ANSIBLE_LIBRARY", "DATABASE_URL", "CARGO_HOME"}) {
    EXPECT_FALSE(is_dangerous_host_env_key(key)) << key;
    EXPECT_TRUE(is_dangerous_override_only_key(key)) << key;
    EXPECT_TRUE(is_dangerous_override_key(key)) << key;
    EXPECT_TRUE(is_dangerous_inherited_key(key)) << key;
  }
}

TEST(HostEnvPolicy, AllowedInheritedNamesAreBlockedAsOverridesButKeptWhenInherited) {
  for (const char* key : {"HOME", "HTTPS_PROXY", "NO_PROXY", "PAGER", "GIT_PAGER", "SSH_AUTH_SOCK",
                          "KUBECONFIG", "XDG_RUNTIME_DIR", "ZDOTDIR", "RUSTUP_HOME",
                          "NODE_TLS_REJECT_UNAUTHORIZED", "DOCKER_HOST"}) {
    EXPECT_TRUE(is_dangerous_override_key(key)) << key;
    EXPECT_FALSE(is_dangerous_inherited_key(key)) << key;
  }
}

TEST(HostEnvPolicy, NamesOnBothListsStayBlockedWhenInherited) {
  for (const char* key : {"GIT_DIR", "MAKEFLAGS", "HGRCPATH", "RUSTC_WRAPPER", "GIT_SSL_NO_VERIFY"}) {
    EXPECT_TRUE(is_dangerous_host_env_key(key)) << key;
    EXPECT_TRUE(is_dangerous_override_only_key(key)) << key;
    EXPECT_TRUE(is_dangerous_inherited_key(key)) << key;
  }
}

TEST(HostEnvPolicy, LoaderAndBashFunctionPrefixesAreBlockedEverywhere) {
  for (const char* key : {"LD_PRELOAD", "LD_LIBRARY_PATH", "LD_", "DYLD_INSERT_LIBRARIES",
                          "BASH_FUNC_foo%%", "ld_debug"}) {
    EXPECT_TRUE(is_dangerous_host_env_key(key)) << key;
    EXPECT_TRUE(is_dangerous_inherited_key(key)) << key;
  }
  EXPECT_FALSE(is_dangerous_host_env_key("LD"));
  EXPECT_FALSE(is_dangerous_host_env_key("OLD_PWD"));
  EXPECT_FALSE(is_dangerous_host_env_key("BASH_FUNC"));
}

TEST(HostEnvPolicy, ConfigInjectionPrefixesAreBlockedOnlyAsOverrides) {
  for (const char* key : {"GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "NPM_CONFIG_REGISTRY",
                          "CARGO_REGISTRIES_CRATES_IO_INDEX", "TF_VAR_region", "npm_config_cache"}) {
    EXPECT_TRUE(is_dangerous_override_only_key(key)) << key;
    EXPECT_FALSE(is_dangerous_inherited_key(key)) << key;
  }
  EXPECT_TRUE(is_dangerous_override_key("GIT_CONFIG")) << "listed by name (issue 10)";
  EXPECT_FALSE(is_dangerous_override_key("TF_VARS"));
}

// ---- Additions beyond the reference (issue 10 #12); reasons in host_env_policy.cc. ----

TEST(HostEnvPolicyAdditions, PerllibPlatlibdirAndCdpathAreBlockedEverywhere) {
  for (const char* key : {"PERLLIB", "PYTHONPLATLIBDIR", "CDPATH", "perllib"}) {
    EXPECT_TRUE(is_dangerous_host_env_key(key)) << key;
    EXPECT_TRUE(is_dangerous_override_key(key)) << key;
    EXPECT_TRUE(is_dangerous_inherited_key(key)) << key;
  }
}

TEST(HostEnvPolicyAdditions, GitTraceInAllItsFormsIsBlockedPerCall) {
  for (const char* key : {"GIT_TRACE", "GIT_TRACE2", "GIT_TRACE2_EVENT", "GIT_TRACE2_PERF", "GIT_TRACE_PACKET",
                          "GIT_TRACE_SETUP", "GIT_TRACE_PERFORMANCE", "GIT_TRACE_CURL", "git_trace"}) {
    EXPECT_TRUE(is_dangerous_override_only_key(key)) << key;
    EXPECT_FALSE(is_dangerous_inherited_key(key)) << key << ": the operator's own tracing stays";
  }
  EXPECT_FALSE(is_dangerous_override_key("GIT_TRAC"));
}

TEST(HostEnvPolicyAdditions, GitConfigFilesAndSshKnobsAreBlockedPerCall) {
  for (const char* key : {"GIT_CONFIG", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG_NOSYSTEM",
                          "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_1", "GIT_CONFIG_VALUE_1", "GIT_CONFIG_PARAMETERS",
                          "GIT_SSH_VARIANT", "SSH_ASKPASS_REQUIRE"}) {
    EXPECT_TRUE(is_dangerous_override_key(key)) << key;
  }
}

TEST(HostEnvPolicyAdditions, InterpreterAndLibraryKnobsAreBlockedPerCall) {
  for (const char* key : {"PYTHONINSPECT", "PYTHONWARNINGS", "PYTHONPYCACHEPREFIX", "LOCPATH", "RESOLV_HOST_CONF",
                          "OPENSSL_MODULES", "BASH_XTRACEFD", "GLOBIGNORE", "DOTNET_ROOT", "DOTNET_gcServer",
                          "COMPlus_EnableEventPipe", "CORECLR_ENABLE_PROFILING"}) {
    EXPECT_TRUE(is_dangerous_override_only_key(key)) << key;
    EXPECT_TRUE(is_dangerous_override_key(key)) << key;
  }
}

TEST(HostEnvPolicyAdditions, LessOptionsKeyBindingsAndHistoryAreBlockedPerCall) {
  for (const char* key : {"LESS", "LESSKEY", "LESSKEYIN", "LESSKEY_SYSTEM", "LESSKEYIN_SYSTEM", "LESSEDIT",
                          "LESSHISTFILE", "LESSOPEN", "LESSCLOSE"}) {
    EXPECT_TRUE(is_dangerous_override_key(key)) << key;
  }
  EXPECT_FALSE(is_dangerous_override_key("LESS_TERMCAP_md")) << "colours only";
}

TEST(HostEnvPolicyAdditions, TheOperatorsOwnValuesOfSomeAreStillInherited) {
  for (const char* key : {"LESS", "LESSHISTFILE", "PYTHONWARNINGS", "PYTHONPYCACHEPREFIX", "LOCPATH", "GIT_CONFIG",
                          "GIT_SSH_VARIANT", "OPENSSL_MODULES"}) {
    EXPECT_FALSE(is_dangerous_inherited_key(key)) << key;
  }
  for (const char* key : {"PYTHONINSPECT", "GLOBIGNORE", "BASH_XTRACEFD", "LESSKEY", "LESSEDIT", "SSH_ASKPASS_REQUIRE",
                          "RESOLV_HOST_CONF"}) {
    EXPECT_TRUE(is_dangerous_inherited_key(key)) << key;
  }
}

TEST(HostEnvPolicyAdditions, ReviewedNamesAlreadyCoveredStayCovered) {
  for (const char* key : {"PERL5LIB", "PERL5OPT", "PYTHONSTARTUP", "PYTHONHOME", "PYTHONPATH", "JAVA_TOOL_OPTIONS",
                          "_JAVA_OPTIONS", "NODE_OPTIONS", "NODE_PATH", "RUBYOPT", "RUBYLIB", "GCONV_PATH",
                          "HOSTALIASES", "OPENSSL_CONF", "ENV", "BASH_ENV", "ZDOTDIR", "PROMPT_COMMAND", "SHELLOPTS",
                          "BASHOPTS", "IFS", "PS4", "HOME", "EDITOR", "VISUAL", "PAGER", "GIT_PAGER", "GIT_EDITOR",
                          "GIT_SSH", "GIT_SSH_COMMAND", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_EXTERNAL_DIFF",
                          "GIT_EXEC_PATH", "MANPAGER", "LD_AUDIT", "BASH_FUNC_ls%%", "DOTNET_STARTUP_HOOKS",
                          "SSL_CERT_FILE", "SSL_CERT_DIR"}) {
    EXPECT_TRUE(is_dangerous_override_key(key)) << key;
  }
  EXPECT_FALSE(is_dangerous_override_key("TMPDIR")) << "programs only create their own files there";
}

TEST(HostEnvPolicy, CargoTargetLinkerAndRunnerAreBlockedAsOverrides) {
  EXPECT_TRUE(is_dangerous_override_only_key("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER"));
  EXPECT_TRUE(is_dangerous_override_only_key("cargo_target_aarch64_apple_darwin_runner"));
  EXPECT_TRUE(is_dangerous_override_only_key("CARGO_TARGET___RUNNER"));
  EXPECT_FALSE(is_dangerous_override_only_key("CARGO_TARGET__LINKER"));  // needs a target part
  EXPECT_FALSE(is_dangerous_override_only_key("CARGO_TARGET_LINKER"));
  EXPECT_FALSE(is_dangerous_override_only_key("CARGO_TARGET_X_LINKERS"));
  EXPECT_FALSE(is_dangerous_override_only_key("CARGO_TARGET_DIR"));
  EXPECT_FALSE(is_dangerous_inherited_key("CARGO_TARGET_X_LINKER"));
}

TEST(HostEnvPolicy, MatchingIgnoresCaseAndSurroundingWhiteSpace) {
  EXPECT_TRUE(is_dangerous_host_env_key("node_options"));
  EXPECT_TRUE(is_dangerous_host_env_key("  Node_Options\t"));
  EXPECT_TRUE(is_dangerous_override_key("\xC2\xA0" "home"));  // U+00A0 is JavaScript white space
  EXPECT_FALSE(is_dangerous_host_env_key(""));
  EXPECT_FALSE(is_dangerous_host_env_key("   "));
}

TEST(HostEnvPolicy, MatchFormUpperCasesLikeJavaScriptWhereTheResultIsAscii) {
  EXPECT_EQ(match_form("gIt_dir"), "GIT_DIR");
  EXPECT_EQ(match_form("\xC5\xBFHELL"), "SHELL");        // long s
  EXPECT_EQ(match_form("\xC4\xB1" "fs"), "IFS");          // dotless i
  EXPECT_EQ(match_form("\xC3\x9F"), "SS");                // sharp s
  EXPECT_EQ(match_form("\xEF\xAC\x86"), "ST");            // st ligature
  EXPECT_EQ(match_form("caf\xC3\xA9"), "CAF\xC3\xA9");    // other non-ASCII kept
  EXPECT_TRUE(is_dangerous_inherited_key("\xC5\xBFHELL"));
  EXPECT_TRUE(is_dangerous_inherited_key("\xC4\xB1" "FS"));
}

TEST(HostEnvPolicy, UnlistedNamesAreNotDangerous) {
  for (const char* key : {"FOO", "TERM", "LANG", "USER", "PATH", "OPENCLAW_CLI", "MY_TOKEN"}) {
    EXPECT_FALSE(is_dangerous_override_key(key)) << key;
    EXPECT_FALSE(is_dangerous_inherited_key(key)) << key;
  }
}

TEST(HostEnvKeys, PortableKeysAreLettersDigitsAndUnderscoreNotStartingWithADigit) {
  EXPECT_TRUE(is_portable_env_key("FOO"));
  EXPECT_TRUE(is_portable_env_key("_foo9"));
  EXPECT_FALSE(is_portable_env_key("9FOO"));
  EXPECT_FALSE(is_portable_env_key("BAD-KEY"));
  EXPECT_FALSE(is_portable_env_key("ProgramFiles(x86)"));
  EXPECT_FALSE(is_portable_env_key(""));
  EXPECT_FALSE(is_portable_env_key("caf\xC3\xA9"));
}

TEST(HostEnvKeys, OverrideKeysArePortableAndTrimmed) {
  EXPECT_EQ(normalize_override_key("FOO"), "FOO");
  EXPECT_EQ(normalize_override_key("ProgramFiles(x86)"), std::nullopt) << "no Windows form on a POSIX server";
  EXPECT_EQ(normalize_override_key("ls()"), std::nullopt);
  EXPECT_EQ(normalize_override_key("1A"), std::nullopt);
  EXPECT_EQ(normalize_override_key(std::string_view("A\0B", 3)), std::nullopt);
  EXPECT_EQ(normalize_override_key(""), std::nullopt);
  EXPECT_EQ(normalize_override_key("  Foo_1 \n"), "Foo_1");
  EXPECT_EQ(normalize_override_key("BAD-KEY"), std::nullopt);
  EXPECT_EQ(normalize_override_key("(x86)"), std::nullopt);
  EXPECT_EQ(normalize_override_key("A B"), std::nullopt);
  EXPECT_EQ(normalize_override_key("A=B"), std::nullopt);
  EXPECT_EQ(normalize_override_key("   "), std::nullopt);
}

TEST(HostEnvKeys, VisibleKeyQuotesAndEscapesWhatCouldNotBeSeen) {
  EXPECT_EQ(visible_key("BAD-KEY"), "BAD-KEY");
  EXPECT_EQ(visible_key("ls()"), "ls()");
  EXPECT_EQ(visible_key(""), "\"\"");
  EXPECT_EQ(visible_key("A B"), "\"A B\"");
  EXPECT_EQ(visible_key(std::string_view("A\0B", 3)), "\"A\\x00B\"");
  EXPECT_EQ(visible_key("a\"b\\"), "a\"b\\") << "printable: as is";
  EXPECT_EQ(visible_key("x\n\""), "\"x\\x0A\\\"\"");
  EXPECT_EQ(visible_key("caf\xC3\xA9"), "\"caf\\xC3\\xA9\"");
}

TEST(HostEnvKeys, ShellWrapperAllowsTerminalAndLocaleNamesOnly) {
  for (const char* key : {"TERM", "LANG", "LC_ALL", "LC_CTYPE", "LC_MESSAGES", "COLORTERM",
                          "NO_COLOR", "FORCE_COLOR", "OPENCLAW_SUBAGENT_EXEC", "LC_TIME", "lc_numeric",
                          " TERM "}) {
    EXPECT_TRUE(is_shell_wrapper_allowed_key(key)) << key;
  }
  for (const char* key : {"FOO", "PAGER", "LC", "LC-X", "LANGUAGE", "PATH", "HOME"}) {
    EXPECT_FALSE(is_shell_wrapper_allowed_key(key)) << key;
  }
}

}  // namespace
}  // namespace clawexec::env
