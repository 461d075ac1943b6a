// State directory and config path resolution (rules in paths.h). Everything is computed
// lexically from the injected PathContext; only process_path_context() touches the process
// (getcwd, getpwuid_r).

#include "config/paths.h"

#include <pwd.h>
#include <unistd.h>

#include <vector>

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::config {
namespace {

constexpr std::string_view kStateDirName = ".openclaw";
constexpr std::string_view kConfigFileName = "openclaw.json";

// The reference's normalizeHomeDirValue: trimmed, and "undefined"/"null" mean unset.
std::optional<std::string> home_value(const std::optional<std::string>& raw) {
  if (!raw) return std::nullopt;
  std::string_view trimmed = js_trim(*raw);
  if (trimmed.empty() || trimmed == "undefined" || trimmed == "null") return std::nullopt;
  return std::string(trimmed);
}

std::optional<std::string> env_value(const PathContext& context, std::string_view name) {
  if (!context.env) return std::nullopt;
  return context.env(name);
}

std::optional<std::string> raw_os_home(const PathContext& context) {
  if (auto home = home_value(env_value(context, "HOME"))) return home;
  if (auto home = home_value(env_value(context, "USERPROFILE"))) return home;
  return home_value(context.os_home);
}

bool starts_with_home_tilde(std::string_view s) {
  return !s.empty() && s[0] == '~' && (s.size() == 1 || s[1] == '/');
}

// "~" or "~/..." -> home + rest; anything else unchanged; then resolved against cwd.
std::string expand_and_resolve(const PathContext& context, std::string_view value, std::string_view home) {
  std::string expanded(value);
  if (starts_with_home_tilde(value)) expanded = std::string(home) + std::string(value.substr(1));
  return resolve_path(context.cwd, expanded);
}

}  // namespace

std::string resolve_path(std::string_view base, std::string_view path) {
  std::string joined =
      !path.empty() && path[0] == '/' ? std::string(path) : std::string(base) + "/" + std::string(path);
  std::vector<std::string_view> segments;
  for (std::string_view segment : split(joined, '/')) {
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (!segments.empty()) segments.pop_back();
      continue;
    }
    segments.push_back(segment);
  }
  std::string out;
  for (std::string_view segment : segments) {
    out += '/';
    out += segment;
  }
  return out.empty() ? "/" : out;
}

PathContext process_path_context() {
  PathContext context;
  context.env = process_env();
  std::vector<char> buf(4096);
  if (getcwd(buf.data(), buf.size()) != nullptr) context.cwd = buf.data();
  if (context.cwd.empty()) context.cwd = "/";
  struct passwd entry {};
  struct passwd* found = nullptr;
  std::vector<char> pwbuf(16384);
  if (getpwuid_r(getuid(), &entry, pwbuf.data(), pwbuf.size(), &found) == 0 && found != nullptr &&
      found->pw_dir != nullptr) {
    context.os_home = found->pw_dir;
  }
  return context;
}

std::string resolve_home_dir(const PathContext& context) {
  if (auto explicit_home = home_value(env_value(context, "OPENCLAW_HOME"))) {
    if (starts_with_home_tilde(*explicit_home)) {
      if (auto os_home = raw_os_home(context)) return expand_and_resolve(context, *explicit_home, *os_home);
      // An unexpandable "~" falls through to the working directory, as in the reference.
    } else {
      return resolve_path(context.cwd, *explicit_home);
    }
  } else if (auto os_home = raw_os_home(context)) {
    return resolve_path(context.cwd, *os_home);
  }
  return resolve_path(context.cwd, ".");
}

std::string resolve_state_dir(const PathContext& context) {
  std::optional<std::string> raw = env_value(context, "OPENCLAW_STATE_DIR");
  std::string_view override_dir = raw ? js_trim(*raw) : std::string_view();
  if (!override_dir.empty()) return expand_and_resolve(context, override_dir, resolve_home_dir(context));
  return resolve_path(resolve_home_dir(context), kStateDirName);
}

std::string resolve_config_path(const PathContext& context) {
  std::optional<std::string> raw = env_value(context, "OPENCLAW_CONFIG_PATH");
  std::string_view override_path = raw ? js_trim(*raw) : std::string_view();
  if (!override_path.empty()) return expand_and_resolve(context, override_path, resolve_home_dir(context));
  return resolve_path(resolve_state_dir(context), kConfigFileName);
}

}  // namespace clawexec::config
