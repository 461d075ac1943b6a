// Text side of the shell startup snapshot. A snapshot replays the user's aliases, functions
// and a few well-known tool variables (PATH, NVM_DIR, ...) in front of each command, so that
// commands behave as in the user's terminal without starting an interactive shell every time.
// What gets written is deliberately narrow: names that look secret never enter the capture,
// and if the alias/function text itself looks like it carries a credential, no snapshot is
// written at all (a half-filtered function would be worse than none).

#include "shellenv/snapshot_text.h"

#include "shell/word.h"

#include <algorithm>
#include <array>
#include <memory>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "base/strings.h"
#include "base/utf.h"
#include "env/shell_select.h"
#include "hash/sha256.h"
#include "shell/word.h"

namespace clawexec::shellenv {
namespace {

struct CodeDeleter {
  void operator()(pcre2_code* code) const { pcre2_code_free(code); }
};
using Code = std::unique_ptr<pcre2_code, CodeDeleter>;

// Byte-mode patterns (no UTF): rc files need not be valid UTF-8, and every pattern is ASCII.
Code compile(std::string_view pattern, uint32_t options) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  return Code(pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(), options, &error, &offset,
                            nullptr));
}

bool search(const Code& code, std::string_view text) {
  if (!code) return true;  // a pattern that failed to compile must not let secrets through
  std::unique_ptr<pcre2_match_data, void (*)(pcre2_match_data*)> data(
      pcre2_match_data_create_from_pattern(code.get(), nullptr), pcre2_match_data_free);
  int rc = pcre2_match(code.get(), reinterpret_cast<PCRE2_SPTR>(text.data()), text.size(), 0, 0, data.get(), nullptr);
  // A match, or an error such as a match limit: both count as a hit (fail closed).
  return rc != PCRE2_ERROR_NOMATCH;
}

const std::array<Code, 5>& secret_state_patterns() {
  static const std::array<Code, 5> patterns = {
      compile(R"(\b(authorization|api[_-]?key|access[_-]?token|refresh[_-]?token|secret|password|passwd|credential)\b\s*[:=])",
              PCRE2_CASELESS),
      compile(R"(\b[A-Z][A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIAL|API_KEY|ACCESS_KEY|SESSION)[A-Z0-9_]*\s*[:=])", 0),
      compile(R"(\b(GITHUB_TOKEN|OPENAI_API_KEY|ANTHROPIC_API_KEY|GOOGLE_API_KEY|GEMINI_API_KEY)\b)", 0),
      compile(R"(\b(ghp_|github_pat_|sk-[A-Za-z0-9]|xox[baprs]-|ya29\.|AIza[0-9A-Za-z_-]|AKIA[0-9A-Z]{16}))", 0),
      compile(R"(-----BEGIN [A-Z ]*PRIVATE KEY-----)", 0),
  };
  return patterns;
}

bool is_valid_env_name(std::string_view name) {
  if (name.empty()) return false;
  auto word = [](char c, bool first) {
    return c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (!first && c >= '0' && c <= '9');
  };
  for (size_t i = 0; i < name.size(); ++i) {
    if (!word(name[i], i == 0)) return false;
  }
  return true;
}

bool is_safe_name(std::string_view name) {
  const auto& names = snapshot_safe_env_names();
  return std::binary_search(names.begin(), names.end(), name);
}

// The trimmed text between the capture and env markers, without marker lines.
std::string shell_state_between(std::string_view output, size_t capture_at, size_t env_at) {
  std::string_view state = js_trim(output.substr(capture_at + kCaptureMarker.size(), env_at - capture_at - kCaptureMarker.size()));
  std::string out;
  for (std::string_view line : split(state, '\n')) {
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.find(kCaptureMarker) != std::string_view::npos || line.find(kEnvMarker) != std::string_view::npos) continue;
    if (!out.empty()) out += '\n';
    out += line;
  }
  return out;
}

}  // namespace

const std::vector<std::string_view>& snapshot_safe_env_names() {
  static const std::vector<std::string_view> names = {
      "ASDF_DIR",      "BUN_INSTALL",         "CARGO_HOME", "CDPATH",    "GOENV_ROOT", "GOPATH",     "GOROOT",
      "HOMEBREW_CELLAR", "HOMEBREW_PREFIX", "HOMEBREW_REPOSITORY", "INFOPATH", "MANPATH", "NVM_DIR", "PATH",
      "PNPM_HOME",     "PYENV_ROOT",          "RBENV_ROOT", "RUSTUP_HOME", "VOLTA_HOME"};
  return names;
}

bool is_secret_env_name(std::string_view name) {
  std::string lower = ascii_lower(name);
  for (std::string_view word : {"secret", "token", "password", "passwd", "credential", "cookie", "session", "auth", "key"}) {
    if (lower.find(word) != std::string::npos) return true;
  }
  return false;
}

bool contains_secret_shell_state(std::string_view text) {
  for (const Code& pattern : secret_state_patterns()) {
    if (search(pattern, text)) return true;
  }
  return false;
}

bool snapshot_disabled_by(const std::optional<std::string>& switch_value) {
  if (!switch_value) return false;
  std::string value = lower_trimmed(*switch_value);
  return value == "0" || value == "false" || value == "no" || value == "off";
}

bool snapshot_supported(std::string_view shell, const std::vector<std::string>& shell_args) {
  std::string_view name = env::posix_basename(shell);
  return (name == "bash" || name == "zsh") && std::find(shell_args.begin(), shell_args.end(), "-c") != shell_args.end();
}

std::vector<std::string> capture_shell_args(std::string_view shell) {
  if (env::posix_basename(shell) == "zsh") return {"-f", "-i", "-c"};
  return {"-i", "-c"};
}


std::string capture_command(std::string_view shell, const std::string& output_path) {
  bool zsh = env::posix_basename(shell) == "zsh";
  std::string out = "{\n";
  // An interactive bash has read ~/.bashrc already; zsh runs with -f and reads .zshrc here.
  out += zsh ? "if [ -r \"${ZDOTDIR:-$HOME}/.zshrc\" ]; then . \"${ZDOTDIR:-$HOME}/.zshrc\"; fi\n" : ":\n";
  out += "printf '\\n%s\\n' " + shell::single_quote(kCaptureMarker) + "\n";
  out += zsh ? "alias -L 2>/dev/null || true\n" : "alias 2>/dev/null || true\n";
  out += "(typeset -f 2>/dev/null || declare -f 2>/dev/null || true)\n";
  out += "printf '\\n%s\\n' " + shell::single_quote(kEnvMarker) + "\n";
  out += "env -0\n";
  out += "} > " + shell::single_quote(output_path);
  return out;
}

env::EnvList capture_env(const env::EnvList& base, const std::string& home) {
  env::EnvList out;
  for (const auto& [key, value] : base) {
    bool wanted = is_safe_name(key) || key == "HOME" || key == "SHELL" || key == "USERPROFILE" || key == "ZDOTDIR" ||
                  key == "OPENCLAW_SHELL";
    if (wanted && !is_secret_env_name(key)) out.emplace_back(key, value);
  }
  env::set_var(out, "HOME", home);
  env::set_var(out, "OPENCLAW_SHELL", "exec");
  return out;
}

std::optional<SnapshotFile> build_snapshot_file(std::string_view output) {
  size_t capture_at = output.find(kCaptureMarker);
  size_t env_at = output.find(kEnvMarker);
  if (capture_at == std::string_view::npos || env_at == std::string_view::npos || env_at <= capture_at) {
    return std::nullopt;
  }
  std::string state = shell_state_between(output, capture_at, env_at);
  if (contains_secret_shell_state(state)) return std::nullopt;
  // The exported environment: NAME=value entries separated by NULs after the env marker line.
  std::string_view rest = output.substr(env_at + kEnvMarker.size());
  if (!rest.empty() && rest.front() == '\n') rest.remove_prefix(1);
  env::EnvList exported;
  for (std::string_view part : split(rest, '\0')) {
    size_t eq = part.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view name = part.substr(0, eq);
    std::string_view value = part.substr(eq + 1);
    // A value that itself looks like a credential is left out (the variable then keeps the
    // command's own value); the rest of the snapshot stays usable.
    if (is_valid_env_name(name) && is_safe_name(name) && !is_secret_env_name(name) &&
        !contains_secret_shell_state(value)) {
      env::set_var(exported, name, std::string(value));
    }
  }
  std::sort(exported.begin(), exported.end());
  SnapshotFile file;
  file.text =
      "# OpenClaw exec shell snapshot. Generated; do not edit.\n"
      "if [ -n \"${BASH_VERSION:-}\" ]; then shopt -s expand_aliases 2>/dev/null || true; fi\n"
      "unalias -a 2>/dev/null || true\n";
  if (!js_trim(state).empty()) file.text += state + "\n";
  for (const auto& [name, value] : exported) {
    file.text += "export " + name + "=" + shell::single_quote(value) + "\n";
    if (name == "PATH") file.exported_path = value;
  }
  return file;
}

std::string restore_script(const env::EnvList& exec_env, const env::EnvList& baseline) {
  std::string out;
  for (std::string_view name : snapshot_safe_env_names()) {
    if (name == "PATH") continue;
    const std::string* now = env::find_var(exec_env, name);
    const std::string* before = env::find_var(baseline, name);
    if ((now == nullptr) == (before == nullptr) && (now == nullptr || *now == *before)) continue;
    if (!out.empty()) out += '\n';
    out += now ? "export " + std::string(name) + "=" + shell::single_quote(*now) : "unset " + std::string(name);
  }
  return out;
}

std::string wrap_with_snapshot(const std::string& command, const std::string& snapshot_path, const std::string& restore) {
  std::string quoted = shell::single_quote(snapshot_path);
  std::string out = "if [ -r " + quoted + " ]; then . " + quoted + "; fi\n";
  if (!js_trim(restore).empty()) out += restore + "\n";
  out += "eval " + shell::single_quote(command);
  return out;
}

std::vector<std::string> snapshot_startup_files(std::string_view shell, std::string_view home, std::string_view zdotdir) {
  std::string h(home);
  while (h.size() > 1 && h.back() == '/') h.pop_back();
  if (env::posix_basename(shell) == "zsh") {
    std::string dir = js_trim(zdotdir).empty() ? h : std::string(js_trim(zdotdir));
    return {"/etc/zsh/zshrc", "/etc/zshrc", env::posix_join(dir, ".zshrc")};
  }
  return {"/etc/bash.bashrc", env::posix_join(h, ".bashrc")};
}

std::string snapshot_key(const std::string& shell, const std::vector<std::string>& shell_args, const std::string& home,
                         const std::string& state_dir, const env::EnvList& capture_environment,
                         const std::vector<StartupFileState>& startup, std::string_view lane) {
  boost::json::object key;
  key["version"] = kSnapshotVersion;
  key["lane"] = lane;
  key["shell"] = shell;
  boost::json::array args;
  for (const std::string& a : shell_args) args.emplace_back(a);
  key["shellArgs"] = std::move(args);
  key["home"] = home;
  key["stateDir"] = state_dir;
  boost::json::array safe_env;
  for (std::string_view name : snapshot_safe_env_names()) {
    const std::string* value = env::find_var(capture_environment, name);
    boost::json::array pair{boost::json::string(name)};
    if (value) {
      pair.emplace_back(boost::json::string(*value));
    } else {
      pair.emplace_back(nullptr);
    }
    safe_env.emplace_back(std::move(pair));
  }
  key["env"] = std::move(safe_env);
  boost::json::array files;
  for (const StartupFileState& f : startup) {
    files.emplace_back(boost::json::array{boost::json::string(f.path), boost::json::string(f.fingerprint)});
  }
  key["startup"] = std::move(files);
  return hash::sha256_hex(boost::json::serialize(key));
}

}  // namespace clawexec::shellenv
