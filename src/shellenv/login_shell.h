#pragma once
// The login-shell PATH probe's pure parts (spec §3.5): which shell to ask, with which
// environment and command, how to read its answer, which startup files decide it, and the
// probe's time limit.
//
// Pure: the server environment, /etc/shells text and home directory are passed in.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "env/env_list.h"

namespace clawexec::shellenv {

/// The shell that is asked when $SHELL is unusable.
inline constexpr std::string_view kDefaultLoginShell = "/bin/sh";
/// What the login shell runs: a NUL frame marker, then its environment NUL-separated.
inline constexpr std::string_view kLoginEnvCommand = "printf '\\0'; env -0";
/// The probe's output limit; beyond it the probe counts as failed.
inline constexpr size_t kLoginProbeMaxBytes = 2 * 1024 * 1024;
inline constexpr int64_t kDefaultLoginProbeTimeoutMs = 15'000;

/// The absolute, non-comment lines of /etc/shells.
std::set<std::string> parse_etc_shells(std::string_view text);

/// $SHELL (trimmed) when it is absolute, already normalised ("/a/../b" and "//" are not) and
/// listed in /etc/shells; otherwise /bin/sh.
std::string select_login_shell(const std::optional<std::string>& shell_env, const std::set<std::string>& etc_shells);

/// argv of the probe: {shell, "-l", "-c", kLoginEnvCommand}.
std::vector<std::string> login_probe_argv(const std::string& shell);

/// The probe's environment: the server's environment filtered like a host command's inherited
/// environment (§3.2), HOME set to `home` (removed when blank), ZDOTDIR removed.
env::EnvList login_probe_env(const env::EnvList& server_env, const std::string& home);

/// The variables the probe printed: everything after the first NUL, split on NUL into
/// NAME=value (entries without a name are skipped). Empty when there is no NUL at all.
env::EnvList parse_login_env(std::string_view output);

/// The probe's PATH (trimmed), nullopt when absent or blank.
std::optional<std::string> login_path_of(const env::EnvList& probed);

/// OPENCLAW_SHELL_ENV_TIMEOUT_MS: a strict non-negative decimal integer (optional "+"), at most
/// 2^31-1, else the 15 s default.
/// 0 means no limit, as in the reference.
int64_t login_probe_timeout_ms(const std::optional<std::string>& value);

/// The files whose change means the login shell may answer differently: the system and user
/// startup files bash, zsh and sh read as login shells (bash's ~/.bashrc included, since the
/// usual ~/.profile sources it). Absolute paths, `home` without a trailing slash.
std::vector<std::string> login_startup_files(std::string_view home);

}  // namespace clawexec::shellenv
