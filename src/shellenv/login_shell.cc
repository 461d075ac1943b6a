// Pure helpers of the login-shell PATH probe. The probe asks the user's own login shell once
// for its environment, the way a terminal would start, so that gateway commands see the PATH
// a developer expects (version managers, ~/.local/bin, ...) while the server itself keeps the
// minimal PATH it was started with.

#include "shellenv/login_shell.h"

#include <algorithm>

#include "base/strings.h"
#include "base/utf.h"
#include "env/host_exec_env.h"

namespace clawexec::shellenv {
namespace {

constexpr int64_t kMaxTimerMs = 2147483647;  // the longest timer the reference can set

// Node's path.normalize(p) === p for an absolute POSIX path: no empty, "." or ".." segments
// and no trailing slash (except the root itself).
bool is_normalized_absolute(std::string_view p) {
  if (p.empty() || p[0] != '/') return false;
  if (p == "/") return true;
  if (p.back() == '/') return false;
  for (std::string_view segment : split(p.substr(1), '/')) {
    if (segment.empty() || segment == "." || segment == "..") return false;
  }
  return true;
}

}  // namespace

std::set<std::string> parse_etc_shells(std::string_view text) {
  std::set<std::string> shells;
  for (std::string_view line : split(text, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::string_view trimmed = js_trim(line);
    if (trimmed.empty() || trimmed[0] == '#' || trimmed[0] != '/') continue;
    shells.emplace(trimmed);
  }
  return shells;
}

std::string select_login_shell(const std::optional<std::string>& shell_env, const std::set<std::string>& etc_shells) {
  if (shell_env) {
    std::string shell(js_trim(*shell_env));
    if (!shell.empty() && is_normalized_absolute(shell) && etc_shells.count(shell)) return shell;
  }
  return std::string(kDefaultLoginShell);
}

std::vector<std::string> login_probe_argv(const std::string& shell) {
  return {shell, "-l", "-c", std::string(kLoginEnvCommand)};
}

env::EnvList login_probe_env(const env::EnvList& server_env, const std::string& home) {
  env::EnvList probe = env::filter_inherited_env(server_env);
  if (!js_trim(home).empty()) {
    env::set_var(probe, "HOME", std::string(js_trim(home)));
  } else {
    env::erase_var(probe, "HOME");
  }
  env::erase_var(probe, "ZDOTDIR");
  return probe;
}

env::EnvList parse_login_env(std::string_view output) {
  env::EnvList out;
  size_t frame = output.find('\0');
  if (frame == std::string_view::npos) return out;
  std::string_view rest = output.substr(frame + 1);
  for (std::string_view part : split(rest, '\0')) {
    size_t eq = part.find('=');
    if (eq == std::string_view::npos || eq == 0) continue;
    env::set_var(out, part.substr(0, eq), std::string(part.substr(eq + 1)));
  }
  return out;
}

std::optional<std::string> login_path_of(const env::EnvList& probed) {
  const std::string* path = env::find_var(probed, "PATH");
  if (!path) return std::nullopt;
  std::string_view trimmed = js_trim(*path);
  if (trimmed.empty()) return std::nullopt;
  return std::string(trimmed);
}

int64_t login_probe_timeout_ms(const std::optional<std::string>& value) {
  if (!value) return kDefaultLoginProbeTimeoutMs;
  std::string_view raw = js_trim(*value);
  if (!raw.empty() && raw.front() == '+') raw.remove_prefix(1);
  if (raw.empty() || raw.size() > 15) return kDefaultLoginProbeTimeoutMs;
  int64_t parsed = 0;
  for (char c : raw) {
    if (c < '0' || c > '9') return kDefaultLoginProbeTimeoutMs;
    parsed = parsed * 10 + (c - '0');
  }
  return std::min<int64_t>(parsed, kMaxTimerMs);
}

std::vector<std::string> login_startup_files(std::string_view home) {
  std::vector<std::string> files = {"/etc/profile", "/etc/profile.d", "/etc/bash.bashrc", "/etc/zsh/zshenv",
                                    "/etc/zsh/zprofile", "/etc/zsh/zlogin", "/etc/zshenv", "/etc/zprofile",
                                    "/etc/zlogin", "/etc/environment"};
  std::string h(home);
  while (h.size() > 1 && h.back() == '/') h.pop_back();
  if (!h.empty()) {
    for (const char* name : {".profile", ".bash_profile", ".bash_login", ".bashrc", ".zshenv", ".zprofile",
                             ".zlogin", ".zshrc"}) {
      files.push_back(h == "/" ? std::string("/") + name : h + "/" + name);
    }
  }
  return files;
}

}  // namespace clawexec::shellenv
