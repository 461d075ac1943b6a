#pragma once
// The shell startup snapshot's pure parts (spec §3.7): which shells get one, the capture
// script and its environment, turning the capture into a sourceable file (or refusing to, when
// anything secret-looking would be written), the per-command wrapping, and the cache key.
//
// Pure: environments, paths and file identities are passed in.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "env/env_list.h"

namespace clawexec::shellenv {

inline constexpr std::string_view kSnapshotSwitchKey = "OPENCLAW_EXEC_SHELL_SNAPSHOT";
inline constexpr std::string_view kCaptureMarker = "__OPENCLAW_SHELL_SNAPSHOT_CAPTURE__";
inline constexpr std::string_view kEnvMarker = "__OPENCLAW_SHELL_SNAPSHOT_ENV__";
inline constexpr int kSnapshotVersion = 1;

/// The environment names a snapshot may export (sorted).
const std::vector<std::string_view>& snapshot_safe_env_names();

/// Whether a name looks like it holds a secret (secret, token, password, passwd, credential,
/// cookie, session, auth, key; any case). Such names never enter a capture or a snapshot.
bool is_secret_env_name(std::string_view name);

/// Whether alias/function text looks like it carries a secret (assignments to secret-looking
/// names, well-known token variables, token prefixes such as ghp_ or AKIA…, private keys).
bool contains_secret_shell_state(std::string_view text);

/// OPENCLAW_EXEC_SHELL_SNAPSHOT set to 0/false/no/off (trimmed, any case) in the server's env.
bool snapshot_disabled_by(const std::optional<std::string>& switch_value);

/// Snapshots exist for bash and zsh run with "-c" among their arguments.
bool snapshot_supported(std::string_view shell, const std::vector<std::string>& shell_args);

/// The capture shell's arguments: bash "-i -c", zsh "-f -i -c".
std::vector<std::string> capture_shell_args(std::string_view shell);

/// The capture command: (zsh) source .zshrc, print the capture marker, the aliases, the
/// functions, the env marker, then the exported environment NUL-separated, all into
/// `output_path`.
std::string capture_command(std::string_view shell, const std::string& output_path);

/// The capture's environment: of `base`, only PATH, HOME, SHELL, USERPROFILE, ZDOTDIR,
/// OPENCLAW_SHELL and the safe names, minus secret-looking names; HOME set to `home`,
/// OPENCLAW_SHELL=exec.
env::EnvList capture_env(const env::EnvList& base, const std::string& home);

/// The snapshot file built from a capture's output, or nullopt when the markers are missing or
/// the aliases/functions contain anything secret-looking (then no snapshot may exist at all).
/// Exports are limited to the safe names; a value that looks like a credential is left out.
/// `exported_path` receives the PATH the snapshot exports, when it does.
struct SnapshotFile {
  std::string text;
  std::optional<std::string> exported_path;
};
std::optional<SnapshotFile> build_snapshot_file(std::string_view capture_output);

/// `export K='v'` / `unset K` for each safe name other than PATH whose value in `exec_env`
/// differs from `baseline` (the capture's environment), so the call's own environment wins
/// over what the snapshot exports. PATH is left to the snapshot: host commands cannot set it
/// per call, and the configured pathPrepend is applied after the snapshot.
std::string restore_script(const env::EnvList& exec_env, const env::EnvList& baseline);

/// The command as run with a snapshot: source it if readable, the restore lines, then
/// `eval '<command>'`.
std::string wrap_with_snapshot(const std::string& command, const std::string& snapshot_path,
                               const std::string& restore);

/// A startup file as the cache key sees it: its path and content fingerprint
/// (StartupFingerprints::of: a hash of its bytes, or "absent").
struct StartupFileState {
  std::string path;
  std::string fingerprint;
};

/// The files an interactive bash or a zsh reading .zshrc sources: /etc/bash.bashrc and
/// ~/.bashrc, or /etc/zsh/zshrc and ${ZDOTDIR:-~}/.zshrc.
std::vector<std::string> snapshot_startup_files(std::string_view shell, std::string_view home,
                                                std::string_view zdotdir);

/// The snapshot's cache key: sha256 of the shell, its arguments, home, state dir, the safe
/// environment of the capture, the startup files' fingerprints and the cache lane (`lane`:
/// "start-up" for snapshots strict calls may use, "rerun" for those made for full-policy
/// calls), so the two never share a file.
std::string snapshot_key(const std::string& shell, const std::vector<std::string>& shell_args,
                         const std::string& home, const std::string& state_dir, const env::EnvList& capture_environment,
                         const std::vector<StartupFileState>& startup, std::string_view lane);

}  // namespace clawexec::shellenv
