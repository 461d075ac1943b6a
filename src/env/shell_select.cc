// POSIX shell selection for host commands.
//
// Problem: the reference runs commands through the user's login shell when it is a usable
// POSIX-style shell, avoids fish (its syntax is not POSIX), and falls back to sh/bash found on
// PATH. Which file ends up in argv[0] depends on Node's path helpers (basename ignoring
// trailing slashes, join normalising the PATH entry), so those are reproduced here.
//
// Approach: a few small pure functions; file-system questions go through the injected
// is_executable callback.

#include "env/shell_select.h"

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::env {
namespace {

bool is_non_interactive_shell(std::string_view shell_path) {
  std::string_view base = posix_basename(shell_path);
  return base == "false" || base == "nologin";
}

ShellConfig make_config(std::string shell) {
  std::vector<std::string> args = posix_shell_args(shell);
  return ShellConfig{std::move(shell), std::move(args)};
}

}  // namespace

std::string_view posix_basename(std::string_view path) {
  size_t end = path.size();
  while (end > 0 && path[end - 1] == '/') --end;
  if (end == 0) return {};
  size_t slash = path.rfind('/', end - 1);
  size_t start = slash == std::string_view::npos ? 0 : slash + 1;
  return path.substr(start, end - start);
}

std::string posix_join(std::string_view dir, std::string_view name) {
  std::string joined;
  joined.append(dir).append(1, '/').append(name);
  bool absolute = joined.front() == '/';
  bool trailing_slash = joined.back() == '/';
  std::vector<std::string_view> segments;
  for (std::string_view segment : split(joined, '/')) {
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (!segments.empty() && segments.back() != "..") {
        segments.pop_back();
      } else if (!absolute) {
        segments.push_back(segment);  // a relative path may climb above its start
      }
      continue;
    }
    segments.push_back(segment);
  }
  std::string out = absolute ? "/" : "";
  for (size_t i = 0; i < segments.size(); ++i) {
    if (i) out += '/';
    out += segments[i];
  }
  if (segments.empty()) return absolute ? "/" : (trailing_slash ? "./" : ".");
  if (trailing_slash) out += '/';
  return out;
}

std::vector<std::string> posix_shell_args(std::string_view shell_path) {
  std::string_view base = posix_basename(shell_path);
  if (base == "bash") return {"--noprofile", "--norc", "-c"};
  if (base == "zsh") return {"-f", "-c"};
  if (base == "fish") return {"--no-config", "-c"};
  return {"-c"};
}

std::optional<std::string> find_executable_on_path(std::string_view name, std::string_view path_env,
                                                   const IsExecutable& is_executable) {
  for (std::string_view entry : split(path_env, ':')) {
    if (entry.empty()) continue;
    std::string candidate = posix_join(entry, name);
    if (is_executable && is_executable(candidate)) return candidate;
  }
  return std::nullopt;
}

ShellConfig select_posix_shell(const ShellSelectionInput& input) {
  std::optional<std::string> env_shell;
  if (input.shell_env) {
    std::string_view trimmed = js_trim(*input.shell_env);
    if (!trimmed.empty() && !is_non_interactive_shell(trimmed)) env_shell = std::string(trimmed);
  }
  auto on_path = [&](std::string_view name) {
    return find_executable_on_path(name, input.path_env, input.is_executable);
  };
  if (env_shell && posix_basename(*env_shell) == "fish") {
    if (auto bash = on_path("bash")) return make_config(std::move(*bash));
    if (auto sh = on_path("sh")) return make_config(std::move(*sh));
  }
  if (env_shell) return make_config(std::move(*env_shell));
  if (auto sh = on_path("sh")) return make_config(std::move(*sh));
  if (auto bash = on_path("bash")) return make_config(std::move(*bash));
  return make_config("sh");
}

}  // namespace clawexec::env
