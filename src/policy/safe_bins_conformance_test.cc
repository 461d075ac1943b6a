// Runs the reference's safe-bin conformance cases (validateSafeBinArgv, longFlagPrefixMap,
// isSafeBinUsage, isInterpreterLikeSafeBin, resolveExecSafeBinRuntimePolicy,
// getTrustedSafeBinDirs, isTrustedSafeBinPath, parseExecArgvToken) through our code. The file
// system is an in-memory fake: every path is its own realpath and /bin/<bin>, /usr/bin/<bin>
// exist as executables for the bins a case names.

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "policy/conformance_cases.h"
#include "policy/safe_bins.h"

namespace clawexec::policy {
namespace {

namespace json = boost::json;
using testing::case_id;
using testing::load_cases;

std::vector<std::string> strings_of(const json::value& value) {
  std::vector<std::string> out;
  for (const json::value& entry : value.as_array()) out.emplace_back(entry.as_string());
  return out;
}

std::string str(const json::object& c, const char* key) {
  return std::string(c.at(key).as_string());
}

// A file system where the given paths are executable files and every path is canonical.
FsView fake_fs(std::set<std::string> executables) {
  FsView fs;
  fs.is_executable_file = [executables](const std::string& path) {
    return executables.count(path) > 0;
  };
  fs.realpath = [](const std::string& path) -> std::optional<std::string> { return path; };
  return fs;
}

std::string basename_of(const std::string& path) {
  size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

const std::map<std::string, std::string> kInapplicable = {
    {"oc-0159", "platform win32: safe bins are disabled on Windows; clawexec runs on Linux only"},
};

json::value run_validate(const json::object& c) {
  const SafeBinProfiles& profiles = builtin_safe_bin_profiles();
  auto profile = profiles.find(str(c, "profile"));
  EXPECT_NE(profile, profiles.end()) << case_id(c);
  std::vector<std::string> args = strings_of(c.at("args"));
  std::string bin = c.contains("binName") ? str(c, "binName") : "";
  return validate_safe_bin_argv(args, *profile->second, bin);
}

json::value run_long_flag(const json::object& c) {
  const SafeBinProfile& profile = *builtin_safe_bin_profiles().at(str(c, "profile"));
  std::optional<std::string_view> flag = canonical_long_flag(profile, str(c, "input"));
  return flag ? json::value(json::string(*flag)) : json::value(nullptr);
}

json::value run_usage(const json::object& c) {
  Argv argv = strings_of(c.at("argv"));
  std::vector<std::string> bins = strings_of(c.at("safeBins"));
  std::set<std::string> executables;
  for (const std::string& bin : bins) {
    executables.insert("/bin/" + bin);
    executables.insert("/usr/bin/" + bin);
  }
  FsView fs = fake_fs(executables);
  SafeBinLayer layer;
  layer.safe_bins = bins;
  SafeBinRuntimePolicy runtime = resolve_exec_safe_bin_runtime_policy(SafeBinLayer{}, layer, fs);
  ExecutableResolution resolution;
  resolution.raw_executable = argv.at(0);
  resolution.resolved_path = str(c, "resolvedPath");
  resolution.executable_name =
      c.contains("executableName") ? str(c, "executableName") : basename_of(*resolution.resolved_path);
  return is_safe_bin_usage(argv, resolution, runtime.policy, runtime.trusted_dirs, fs);
}

json::value run_interpreter_like(const json::object& c) {
  return is_interpreter_like_safe_bin(str(c, "input"));
}

SafeBinLayer layer_of(const json::object& input, const char* key) {
  const json::value* value = input.if_contains(key);
  return value ? safe_bin_layer_from_json(value->as_object()) : SafeBinLayer{};
}

json::value run_runtime_policy(const json::object& c) {
  const json::object& input = c.at("input").as_object();
  SafeBinRuntimePolicy runtime = resolve_exec_safe_bin_runtime_policy(
      layer_of(input, "global"), layer_of(input, "local"), fake_fs({}));
  // Only the keys the case asserts.
  json::object out;
  const json::object& expect = c.at("expect").as_object();
  if (expect.contains("safeBins")) {
    json::array bins;
    for (const std::string& bin : runtime.policy.safe_bins) bins.emplace_back(bin);
    out["safeBins"] = bins;
  }
  json::object has;
  if (const json::value* probe = expect.if_contains("trustedSafeBinDirs.has")) {
    for (const auto& member : probe->as_object()) {
      has[member.key()] = runtime.trusted_dirs.contains(member.key());
    }
    out["trustedSafeBinDirs.has"] = has;
  }
  return out;
}

json::value run_trusted_dirs(const json::object& c) {
  TrustedSafeBinDirs dirs =
      get_trusted_safe_bin_dirs(default_safe_bin_trusted_dirs(), {}, {}, fake_fs({}));
  json::object has;
  for (const auto& member : c.at("expect").at("has").as_object()) {
    has[member.key()] = dirs.contains(member.key());
  }
  return json::object{{"has", has}};
}

json::value run_trusted_path(const json::object& c) {
  const json::object& input = c.at("input").as_object();
  TrustedSafeBinDirs dirs(strings_of(input.at("trustedDirs")));
  return is_trusted_safe_bin_path(std::string(input.at("resolvedPath").as_string()), dirs);
}

const char* kind_name(ArgvTokenKind kind) {
  switch (kind) {
    case ArgvTokenKind::kEmpty: return "empty";
    case ArgvTokenKind::kTerminator: return "terminator";
    case ArgvTokenKind::kStdin: return "stdin";
    case ArgvTokenKind::kPositional: return "positional";
    case ArgvTokenKind::kOption: return "option";
  }
  return "?";
}

json::value run_token(const json::object& c) {
  std::string input = str(c, "input");
  return json::object{{"kind", kind_name(parse_exec_argv_token(input).kind)}};
}

using Runner = json::value (*)(const json::object&);

const std::map<std::string, Runner> kRunners = {
    {"validateSafeBinArgv", run_validate},
    {"longFlagPrefixMap", run_long_flag},
    {"isSafeBinUsage", run_usage},
    {"isInterpreterLikeSafeBin", run_interpreter_like},
    {"resolveExecSafeBinRuntimePolicy", run_runtime_policy},
    {"getTrustedSafeBinDirs", run_trusted_dirs},
    {"isTrustedSafeBinPath", run_trusted_path},
    {"parseExecArgvToken", run_token},
};

TEST(SafeBinsConformance, EveryReferenceCaseMatches) {
  std::set<std::string> fns;
  for (const auto& [fn, runner] : kRunners) fns.insert(fn);
  std::map<std::string, int> ran;
  int inapplicable = 0;
  for (const json::object& c : load_cases(fns)) {
    std::string fn = str(c, "fn");
    if (kInapplicable.count(case_id(c))) {
      ++inapplicable;
      continue;
    }
    json::value actual = kRunners.at(fn)(c);
    EXPECT_EQ(actual, c.at("expect")) << case_id(c) << " (" << fn << ")";
    ++ran[fn];
  }
  EXPECT_EQ(inapplicable, 1);
  EXPECT_EQ(ran["validateSafeBinArgv"], 59);
  EXPECT_EQ(ran["longFlagPrefixMap"], 1);
  EXPECT_EQ(ran["isSafeBinUsage"], 27);  // + oc-0159 (win32), listed above
  EXPECT_EQ(ran["isInterpreterLikeSafeBin"], 8);
  EXPECT_EQ(ran["resolveExecSafeBinRuntimePolicy"], 2);
  EXPECT_EQ(ran["getTrustedSafeBinDirs"], 1);
  EXPECT_EQ(ran["isTrustedSafeBinPath"], 2);
  EXPECT_EQ(ran["parseExecArgvToken"], 1);
}

}  // namespace
}  // namespace clawexec::policy
