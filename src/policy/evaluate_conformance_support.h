#pragma once
// Test support for the evaluation-layer conformance tests (evaluate_conformance_*_test.cc):
// an in-memory file system standing in for the reference harness's temp directories, and the
// evaluation context a case describes.
//
// Conventions (the reference harness creates stub executables in temp dirs and sets PATH):
// * placeholders map to fixed fake directories: <dir> -> /fake/dir, <bin> -> /fake/bin,
//   <tmp> -> /fake/tmp, <home> -> /fake/home, <marker> -> /fake/dir/marker;
// * the stubs: every name of kStubNames is an executable file in /fake/dir, /fake/bin,
//   /usr/bin and /bin (so cases whose PATH is a real system path find them there too), plus
//   any path a case names explicitly (resolvedPath, "files");
// * realpath is the identity unless the case gives resolvedRealPath;
// * cwd = /fake/dir, home = /fake/home, PATH = /fake/dir unless the case has env.PATH
//   (placeholders mapped);
// * "<resolved /bin/sh>" = the real path `sh` resolves to in the case's context.

#include <boost/json.hpp>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "policy/conformance_cases.h"
#include "policy/evaluate.h"
#include "policy/exec_resolution.h"
#include "policy/render.h"
#include "shell/word.h"
#include "policy/safe_bins.h"

namespace clawexec::policy::testing {

namespace bj = boost::json;

inline constexpr const char* kFakeDir = "/fake/dir";
inline constexpr const char* kFakeBin = "/fake/bin";
inline constexpr const char* kFakeHome = "/fake/home";

inline const std::set<std::string>& stub_names() {
  static const std::set<std::string> names = {
      "awk", "bash", "benign", "busybox", "caffeinate", "dash", "echo", "env", "eslint", "flock",
      "git", "gog", "head", "id", "nice", "node", "npm", "npx", "openclaw-ok", "pnpm", "python3",
      "rg", "sandbox-exec", "sh", "sudo", "touch", "tsx", "whoami", "yarn", "zsh"};
  return names;
}

inline std::string str(const bj::value& v) { return std::string(v.as_string()); }

inline std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (size_t pos = 0; (pos = s.find(from, pos)) != std::string::npos; pos += to.size()) s.replace(pos, from.size(), to);
  return s;
}

/// Placeholders of a case string mapped to the fake paths.
inline std::string sub(std::string s) {
  s = replace_all(std::move(s), "<marker>", std::string(kFakeDir) + "/marker");
  s = replace_all(std::move(s), "<dir>", kFakeDir);
  s = replace_all(std::move(s), "<bin>", kFakeBin);
  s = replace_all(std::move(s), "<tmp>", "/fake/tmp");
  s = replace_all(std::move(s), "<home>", kFakeHome);
  return s;
}

inline Argv argv_of(const bj::value& v) {
  Argv out;
  for (const bj::value& x : v.as_array()) out.push_back(sub(str(x)));
  return out;
}

inline const bj::value* find_key(const bj::object& o, std::string_view key) {
  auto it = o.find(key);
  return it == o.end() ? nullptr : &it->value();
}

class FakeFs {
 public:
  FakeFs() {
    view_.is_executable_file = [this](const std::string& p) { return is_executable(p); };
    view_.realpath = [this](const std::string& p) -> std::optional<std::string> {
      if (auto it = real_.find(p); it != real_.end()) return it->second;
      if (p.empty() || p[0] != '/') return std::nullopt;
      return p;
    };
  }
  FakeFs(const FakeFs&) = delete;
  FakeFs& operator=(const FakeFs&) = delete;

  void add_executable(const std::string& path) { extra_.insert(path); }
  void set_realpath(const std::string& path, const std::string& real) { real_[path] = real; }
  const FsView& view() const { return view_; }

 private:
  bool is_executable(const std::string& p) const {
    if (extra_.count(p)) return true;
    size_t slash = p.rfind('/');
    if (slash == std::string::npos) return false;
    std::string dir = p.substr(0, slash), name = p.substr(slash + 1);
    static const std::set<std::string> dirs = {kFakeDir, kFakeBin, "/usr/bin", "/bin"};
    return dirs.count(dir) && stub_names().count(name);
  }
  std::set<std::string> extra_;
  std::map<std::string, std::string> real_;
  FsView view_;
};

/// Everything an evaluation of one case needs; not copyable (the context points into it).
struct CaseWorld {
  FakeFs fs;
  std::vector<AllowlistEntry> allowlist;
  SafeBinPolicy safe_bins;
  TrustedSafeBinDirs trusted_dirs{default_safe_bin_trusted_dirs()};
  EvaluationContext ctx;

  explicit CaseWorld(const bj::object& c) {
    ctx.allowlist = &allowlist;
    ctx.safe_bins = &safe_bins;
    ctx.trusted_dirs = &trusted_dirs;
    ctx.resolve.cwd = kFakeDir;
    ctx.resolve.home = kFakeHome;
    ctx.resolve.path_env = std::string(kFakeDir);
    ctx.resolve.fs = &fs.view();
    if (const bj::value* env = find_key(c, "env")) {
      if (const bj::value* path = find_key(env->as_object(), "PATH")) ctx.resolve.path_env = sub(str(*path));
    }
    if (const bj::value* files = find_key(c, "files"); files && files->is_array()) {
      for (const bj::value& f : files->as_array()) fs.add_executable(sub(str(f)));
    }
    safe_bins.profiles = builtin_safe_bin_profiles();
    const bj::object* input = find_key(c, "input") && find_key(c, "input")->is_object() ? &c.at("input").as_object() : nullptr;
    for (const bj::object* o : {&c, input}) {
      if (!o) continue;
      if (const bj::value* bins = find_key(*o, "safeBins")) {
        for (const bj::value& b : bins->as_array()) safe_bins.safe_bins.push_back(str(b));
      }
      if (const bj::value* dirs = find_key(*o, "trustedSafeBinDirs")) {
        std::vector<std::string> list;
        for (const bj::value& d : dirs->as_array()) list.push_back(str(d));
        trusted_dirs = TrustedSafeBinDirs(list);
      }
      if (const bj::value* list = find_key(*o, "allowlist")) set_allowlist(*list);
    }
  }
  CaseWorld(const CaseWorld&) = delete;
  CaseWorld& operator=(const CaseWorld&) = delete;

  /// The allowlist from the case's entries ({pattern, source?}) or plain pattern strings.
  void set_allowlist(const bj::value& list) {
    allowlist.clear();
    for (const bj::value& e : list.as_array()) {
      AllowlistEntry entry;
      if (e.is_string()) {
        entry.pattern = resolve_pattern(str(e));
      } else {
        entry.pattern = resolve_pattern(str(e.as_object().at("pattern")));
        if (const bj::value* s = find_key(e.as_object(), "source")) entry.source = str(*s);
      }
      allowlist.push_back(std::move(entry));
    }
  }
  void add_pattern(const std::string& pattern, std::optional<std::string> source = std::nullopt) {
    AllowlistEntry entry;
    entry.pattern = pattern;
    entry.source = std::move(source);
    allowlist.push_back(std::move(entry));
  }

  std::string resolve_pattern(const std::string& raw) const {
    const std::string prefix = "<resolved ";
    if (raw.starts_with(prefix) && raw.ends_with(">")) {
      std::string bin = raw.substr(prefix.size(), raw.size() - prefix.size() - 1);
      std::string name = bin.substr(bin.rfind('/') + 1);
      std::optional<std::string> path = resolve_executable_path(name, ctx.resolve);
      std::optional<std::string> real = path ? fs.view().realpath(*path) : std::nullopt;
      return real.value_or(path.value_or(bin));
    }
    return sub(raw);
  }
};

/// Shell-quotes argv into a command line (tokens that need no quoting stay bare).
inline std::string join_argv_for_shell(const Argv& argv) {
  std::string out;
  for (const std::string& a : argv) {
    if (!out.empty()) out += ' ';
    out += shell::quote_if_needed(a);
  }
  return out;
}

}  // namespace clawexec::policy::testing
