// Safe bins: configuration, profiles, argv validation, trusted directories and warnings
// (reference §5), for behaviour the conformance cases do not cover.

#include "policy/safe_bins.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <set>

namespace clawexec::policy {
namespace {

namespace json = boost::json;

bool valid(const std::string& bin, const std::vector<std::string>& args) {
  return validate_safe_bin_argv(args, *builtin_safe_bin_profiles().at(bin), bin);
}

SafeBinLayer layer(const char* text) { return safe_bin_layer_from_json(json::parse(text).as_object()); }

// Executable files and symlinks (path -> realpath) of an in-memory file system.
FsView fake_fs(std::set<std::string> executables, std::map<std::string, std::string> links = {}) {
  FsView fs;
  fs.is_executable_file = [executables, links](const std::string& path) {
    auto link = links.find(path);
    return executables.count(link == links.end() ? path : link->second) > 0;
  };
  fs.realpath = [links](const std::string& path) -> std::optional<std::string> {
    auto link = links.find(path);
    return link == links.end() ? path : link->second;
  };
  return fs;
}

TEST(SafeBinArgv, AcceptsTheSpecExamples) {
  EXPECT_TRUE(valid("head", {"-n", "1"}));
  EXPECT_TRUE(valid("cut", {"-s", "-f", "1"}));
  EXPECT_TRUE(valid("wc", {"-lw"}));
  EXPECT_TRUE(valid("uniq", {"-cf", "2"}));
  EXPECT_TRUE(valid("tr", {"-d", "abc"}));
  EXPECT_TRUE(valid("sort", {"--ke=1,1"}));
  EXPECT_TRUE(valid("grep", {"-e", "needle", "--", "-"}));
}

TEST(SafeBinArgv, RejectsTheSpecExamples) {
  EXPECT_FALSE(valid("tail", {"-fn", "1"}));
  EXPECT_FALSE(valid("sort", {"--f=1"}));
  EXPECT_FALSE(valid("wc", {"--lines=5"}));
  EXPECT_FALSE(valid("head", {"--bytes=${IFS}16"}));
  EXPECT_FALSE(valid("tr", {"${IFS}", "_"}));
  EXPECT_FALSE(valid("grep", {"-e", "needle", ".env"}));
}

TEST(SafeBinArgv, BuiltinsWithoutBooleanFlagsRejectThem) {
  EXPECT_FALSE(valid("grep", {"-i", "-e", "x"}));
  EXPECT_FALSE(valid("sort", {"-n"}));
  EXPECT_FALSE(valid("sort", {"-r"}));
}

TEST(SafeBinArgv, EnforcesPositionalLimits) {
  EXPECT_FALSE(valid("tr", {}));
  EXPECT_TRUE(valid("tr", {"a", "b"}));
  EXPECT_FALSE(valid("tr", {"a", "b", "c"}));
  EXPECT_TRUE(valid("tr", {"--", "-x"}));  // after "--" a dash word is a positional
}

TEST(SafeBinArgv, OptionValuesMustExistAndBeLiteral) {
  EXPECT_FALSE(valid("head", {"-n"}));
  EXPECT_FALSE(valid("head", {"-n", ""}));
  EXPECT_TRUE(valid("head", {"-n", "-"}));
  EXPECT_TRUE(valid("head", {"--lines="}));  // an empty inline value is a safe literal
  EXPECT_TRUE(valid("head", {"-n1x"}));      // the rest of the cluster is the value
  EXPECT_FALSE(valid("sort", {"-k", "$x"}));
  EXPECT_TRUE(valid("sort", {"--key=a$"}));  // "$" at the end expands nothing
  EXPECT_FALSE(valid("cut", {"-f", "~x"}));
}

TEST(SafeBinArgv, SemanticsAlwaysDenyJqAwkAndSedFamilies) {
  for (const char* name : {"jq", "/usr/bin/JQ", "awk", "gawk", "mawk", "nawk", "sed", "gsed.exe"}) {
    EXPECT_FALSE(validate_safe_bin_semantics(name)) << name;
  }
  EXPECT_TRUE(validate_safe_bin_semantics("grep"));
  EXPECT_TRUE(validate_safe_bin_semantics(""));
  EXPECT_FALSE(validate_safe_bin_argv(std::vector<std::string>{}, *builtin_safe_bin_profiles().at("jq"), "jq"));
}

TEST(SafeBinLiteral, RejectsGlobsExpansionsAndPaths) {
  for (const char* safe : {"", "-", "abc", "1,1", "a$", "$", "x=y", "http:x"}) {
    EXPECT_TRUE(is_safe_literal_token(safe)) << safe;
  }
  for (const char* unsafe : {"*.txt", "a?", "[ab]", "x]", "$HOME", "${IFS}", "$(id)", "$1", "$-",
                             "$#", "./f", "../f", "~", "/etc", " /etc", "C:\\x", "c:/x"}) {
    EXPECT_FALSE(is_safe_literal_token(unsafe)) << unsafe;
  }
}

TEST(ExecArgvToken, ClassifiesEveryShape) {
  EXPECT_EQ(parse_exec_argv_token("").kind, ArgvTokenKind::kEmpty);
  EXPECT_EQ(parse_exec_argv_token("--").kind, ArgvTokenKind::kTerminator);
  EXPECT_EQ(parse_exec_argv_token("-").kind, ArgvTokenKind::kStdin);
  EXPECT_EQ(parse_exec_argv_token("file").kind, ArgvTokenKind::kPositional);
  ExecArgvToken long_option = parse_exec_argv_token("--key=1=2");
  EXPECT_EQ(long_option.style, OptionStyle::kLong);
  EXPECT_EQ(long_option.flag, "--key");
  EXPECT_EQ(long_option.inline_value, std::optional<std::string_view>("1=2"));
  EXPECT_FALSE(parse_exec_argv_token("--key").inline_value.has_value());
  ExecArgvToken cluster = parse_exec_argv_token("-abc");
  EXPECT_EQ(cluster.style, OptionStyle::kShortCluster);
  EXPECT_EQ(short_cluster_flags(cluster), (std::vector<std::string>{"-a", "-b", "-c"}));
}

TEST(SafeBinLongFlags, ResolvesUniquePrefixesOnly) {
  const SafeBinProfile& sort = *builtin_safe_bin_profiles().at("sort");
  EXPECT_EQ(canonical_long_flag(sort, "--ke"), std::optional<std::string_view>("--key"));
  EXPECT_EQ(canonical_long_flag(sort, "--output"), std::optional<std::string_view>("--output"));
  EXPECT_FALSE(canonical_long_flag(sort, "--f").has_value());    // --field-separator/--files0-from
  EXPECT_FALSE(canonical_long_flag(sort, "--nope").has_value());
  EXPECT_FALSE(canonical_long_flag(sort, "--").has_value());
  EXPECT_FALSE(canonical_long_flag(sort, "-k").has_value());
  // Denied flags take part in the prefix map, so an abbreviation of one is denied.
  EXPECT_FALSE(valid("sort", {"--o=x"}));
}

TEST(SafeBinProfiles, CustomFixturesAreNormalised) {
  SafeBinProfiles profiles = parse_safe_bin_profiles(json::parse(R"({
      " MyTool ": {"minPositional": 2.9, "maxPositional": 1, "allowedValueFlags": [" -o ", "--out", "-o", ""],
                   "deniedFlags": ["--zap", "--Apple", "--apple"]},
      "neg": {"minPositional": -1, "maxPositional": -0.5},
      "  ": {}})").as_object());
  ASSERT_EQ(profiles.size(), 2u);
  const SafeBinProfile& tool = *profiles.at("mytool");
  EXPECT_EQ(tool.min_positional, 2);
  EXPECT_EQ(tool.max_positional, 2);  // raised to the minimum
  EXPECT_EQ(tool.allowed_value_flags, (std::vector<std::string>{"--out", "-o"}));
  EXPECT_EQ(tool.denied_flags, (std::vector<std::string>{"--apple", "--Apple", "--zap"}));
  EXPECT_TRUE(tool.allowed_boolean_flags.empty());
  const SafeBinProfile& neg = *profiles.at("neg");
  EXPECT_FALSE(neg.min_positional.has_value());
  EXPECT_EQ(neg.max_positional, 0);  // -0.5 truncates to 0, which is kept
}

TEST(SafeBinProfiles, CustomProfileReplacesBuiltinAndHasNoBooleanFlags) {
  SafeBinProfiles merged =
      merge_with_builtin_profiles(parse_safe_bin_profiles(json::parse(R"({"wc": {}})").as_object()));
  EXPECT_FALSE(validate_safe_bin_argv(std::vector<std::string>{"-l"}, *merged.at("wc"), "wc"));
  EXPECT_TRUE(validate_safe_bin_argv(std::vector<std::string>{"-l"}, *builtin_safe_bin_profiles().at("wc"), "wc"));
  EXPECT_EQ(merged.count("sort"), 1u);
}

TEST(SafeBinRuntimePolicy, ChoosesTheSafeBinList) {
  FsView fs = fake_fs({});
  auto bins = [&](const char* global, const char* local) {
    return resolve_exec_safe_bin_runtime_policy(layer(global), layer(local), fs).policy.safe_bins;
  };
  EXPECT_EQ(bins("{}", "{}"), (std::vector<std::string>{"cut", "head", "tail", "tr", "uniq", "wc"}));
  EXPECT_TRUE(bins(R"({"safeBins": null})", "{}").empty());
  EXPECT_TRUE(bins(R"({"safeBins": []})", "{}").empty());
  EXPECT_EQ(bins(R"({"safeBins": ["jq"]})", R"({"safeBins": [" Sort "]})"),
            std::vector<std::string>{"sort"});
  // local ?? global: a null agent list falls through to the global one.
  EXPECT_EQ(bins(R"({"safeBins": ["jq"]})", R"({"safeBins": null})"), std::vector<std::string>{"jq"});
  EXPECT_EQ(bins("{}", R"({"safeBins": null})").size(), 6u);
}

TEST(SafeBinRuntimePolicy, AgentProfilesReplaceGlobalOnesByName) {
  SafeBinRuntimePolicy runtime = resolve_exec_safe_bin_runtime_policy(
      layer(R"({"safeBins": ["mytool"], "safeBinProfiles": {"mytool": {"maxPositional": 5}, "other": {}}})"),
      layer(R"({"safeBinProfiles": {"MYTOOL": {"minPositional": 1}}})"), fake_fs({}));
  const SafeBinProfile& tool = *runtime.policy.profiles.at("mytool");
  EXPECT_EQ(tool.min_positional, 1);
  EXPECT_FALSE(tool.max_positional.has_value());
  EXPECT_EQ(runtime.policy.profiles.count("other"), 1u);
  EXPECT_TRUE(runtime.warnings.empty());
}

TEST(SafeBinRuntimePolicy, WarnsAboutUnprofiledAndInterpreterEntries) {
  SafeBinRuntimePolicy runtime = resolve_exec_safe_bin_runtime_policy(
      layer(R"({"safeBins": ["python3", "myfilter", "head"]})"), SafeBinLayer{}, fake_fs({}));
  EXPECT_EQ(runtime.unprofiled_safe_bins, (std::vector<std::string>{"myfilter", "python3"}));
  EXPECT_EQ(runtime.unprofiled_interpreter_safe_bins, std::vector<std::string>{"python3"});
  EXPECT_EQ(runtime.warnings,
            (std::vector<std::string>{
                "exec: ignoring unprofiled safeBins entries (myfilter, python3); use allowlist or define "
                "tools.exec.safeBinProfiles.<bin>",
                "exec: interpreter/runtime binaries in safeBins (python3) are unsafe without explicit "
                "hardened profiles; prefer allowlist entries"}));
}

TEST(TrustedSafeBinDirs, AddsRealDirectoriesOfSafeBinSymlinks) {
  FsView fs = fake_fs({"/opt/cellar/jq/1.7/bin/jq", "/opt/farm/head"},
                      {{"/opt/farm/jq", "/opt/cellar/jq/1.7/bin/jq"},
                       {"/opt/farm/wc", "/opt/cellar/wc/bin/wc"}});  // wc target not executable
  TrustedSafeBinDirs dirs = get_trusted_safe_bin_dirs(
      default_safe_bin_trusted_dirs(), {" /opt/farm/ ", ""}, {"jq", "wc", "head", "sub/jq"}, fs);
  EXPECT_EQ(dirs.dirs(), (std::vector<std::string>{"/bin", "/opt/cellar/jq/1.7/bin", "/opt/farm",
                                                   "/usr/bin"}));
}

TEST(TrustedSafeBinDirs, ComparesTheLexicallyResolvedParentCaseSensitively) {
  TrustedSafeBinDirs dirs({"/usr/bin"});
  EXPECT_TRUE(is_trusted_safe_bin_path("/usr/bin/jq", dirs));
  EXPECT_TRUE(is_trusted_safe_bin_path("/usr/local/../bin/../bin/jq", dirs));
  EXPECT_TRUE(is_trusted_safe_bin_path("/usr/lib/../bin/jq", dirs));
  EXPECT_FALSE(is_trusted_safe_bin_path("/USR/BIN/jq", dirs));
  EXPECT_FALSE(is_trusted_safe_bin_path("/usr/bin/sub/jq", dirs));
}

class SafeBinUsage : public ::testing::Test {
 protected:
  SafeBinUsage() {
    fs_ = fake_fs({"/usr/bin/head", "/usr/bin/wc"}, {{"/usr/local/bin/head", "/usr/bin/head"}});
    runtime_ = resolve_exec_safe_bin_runtime_policy(layer(R"({"safeBins": ["head", "myfilter"]})"),
                                                    SafeBinLayer{}, fs_);
  }
  bool usage(const Argv& argv, ExecutableResolution resolution) {
    return is_safe_bin_usage(argv, resolution, runtime_.policy, runtime_.trusted_dirs, fs_);
  }
  FsView fs_;
  SafeBinRuntimePolicy runtime_;
};

TEST_F(SafeBinUsage, NeedsAConfiguredProfiledNameInATrustedDirectory) {
  EXPECT_TRUE(usage({"head", "-n", "1"}, {"head", "/usr/bin/head", std::nullopt, "head"}));
  EXPECT_TRUE(usage({"HEAD", "-n", "1"}, {"HEAD", "/usr/bin/head", std::nullopt, "HEAD"}));
  EXPECT_FALSE(usage({"wc", "-l"}, {"wc", "/usr/bin/wc", std::nullopt, "wc"}));  // not configured
  EXPECT_FALSE(usage({"myfilter"}, {"myfilter", "/usr/bin/myfilter", std::nullopt, "myfilter"}));
  EXPECT_FALSE(usage({"head", "-n", "1"}, {"head", "/tmp/evil/head", std::nullopt, "head"}));
  EXPECT_FALSE(usage({"head", "-n", "1"}, {"head", std::nullopt, std::nullopt, "head"}));
  EXPECT_FALSE(usage({"head", "/etc/passwd"}, {"head", "/usr/bin/head", std::nullopt, "head"}));
}

TEST_F(SafeBinUsage, UsesTheRealPathOfTheResolvedExecutable) {
  // PATH found a symlink in /usr/local/bin; its target lives in trusted /usr/bin.
  EXPECT_TRUE(usage({"head"}, {"head", "/usr/local/bin/head", std::nullopt, "head"}));
  // An explicit resolved real path wins over the file system.
  EXPECT_FALSE(usage({"head"}, {"head", "/usr/bin/head", "/tmp/x/head", "head"}));
  // Unresolved path tokens are resolved against cwd.
  EXPECT_TRUE(is_safe_bin_usage({"../bin/head"}, {"../bin/head", std::nullopt, std::nullopt, "head"},
                                runtime_.policy, runtime_.trusted_dirs, fs_, "/usr/lib"));
}

TEST(SafeBinWarnings, WritableTrustedDirectories) {
  EXPECT_FALSE(writable_trusted_dir_warning("/opt/bin", 0755).has_value());
  EXPECT_EQ(writable_trusted_dir_warning("/opt/bin", 0775),
            "exec: safeBinTrustedDirs includes group-writable directory '/opt/bin'; remove trust or "
            "tighten permissions (for example chmod 755).");
  EXPECT_EQ(writable_trusted_dir_warning("/tmp", 0777),
            "exec: safeBinTrustedDirs includes world-writable directory '/tmp'; remove trust or tighten "
            "permissions (for example chmod 755).");
  EXPECT_EQ(explicit_trusted_dirs_to_check({" /opt/bin/ ", "/opt/x/../bin", "", "/a"}),
            (std::vector<std::string>{"/a", "/opt/bin"}));
}

TEST(SafeBinWarnings, InterpreterLikeNames) {
  for (const char* name : {"bash", "python3.12", "node20", "/usr/local/bin/node20", "PHP8.1", "perl5",
                           "C:\\Tools\\Python3.EXE", "cmd.exe", "pwsh"}) {
    EXPECT_TRUE(is_interpreter_like_safe_bin(name)) << name;
  }
  for (const char* name : {"jq", "myfilter", "python3.", "php8.1.2", "python3x", "ruby-3", ""}) {
    EXPECT_FALSE(is_interpreter_like_safe_bin(name)) << name;
  }
  EXPECT_EQ(list_interpreter_like_safe_bins({"zsh", "jq", "/bin/Bash"}),
            (std::vector<std::string>{"bash", "zsh"}));
}

TEST(SafeBinWarnings, RiskyConfiguredSafeBinsAreSortedAndUnique) {
  std::vector<RiskySafeBin> risky =
      list_risky_configured_safe_bins({"sed", "GAWK", "/usr/bin/jq", "jq.exe", "grep", " nawk "});
  ASSERT_EQ(risky.size(), 4u);
  EXPECT_EQ(risky[0].bin, "gawk");
  EXPECT_EQ(risky[1].bin, "jq");
  EXPECT_EQ(risky[2].bin, "nawk");
  EXPECT_EQ(risky[3].bin, "sed");
  EXPECT_EQ(risky[1].warning,
            "jq can read environment data and load jq code from modules or startup files, so prefer "
            "explicit allowlist entries or approval-gated runs instead of safeBins.");
  EXPECT_EQ(risky[0].warning, risky[2].warning);
  EXPECT_EQ(risky[3].warning,
            "sed scripts can execute commands and write files, so prefer explicit allowlist entries or "
            "approval-gated runs instead of safeBins.");
  EXPECT_EQ(risky[0].warning,
            "awk-family interpreters can execute commands, access ENVIRON, and write files, so prefer "
            "explicit allowlist entries or approval-gated runs instead of safeBins.");
}

}  // namespace
}  // namespace clawexec::policy
