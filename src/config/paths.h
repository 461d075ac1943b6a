#pragma once
// Where OpenClaw-compatible state lives: the state directory ($OPENCLAW_STATE_DIR, else
// <home>/.openclaw) and the config file ($OPENCLAW_CONFIG_PATH, else <state>/openclaw.json).
//
// Reference rules reproduced: override values are trimmed and ignored when blank; a leading
// "~" (alone or followed by '/') expands to the home directory; relative paths resolve
// against the working directory and every result is normalised like Node's path.resolve.
// Home = $OPENCLAW_HOME (itself "~"-expandable against the OS home), else $HOME, else
// $USERPROFILE, else the account's home from the user database, else the working directory;
// the values "undefined" and "null" count as unset.
// Not reproduced: OPENCLAW_PROFILE state directories and the legacy ~/.clawdbot and
// clawdbot.json fallbacks.

#include <optional>
#include <string>
#include <string_view>

#include "config/env_lookup.h"

namespace clawexec::config {

/// Everything path resolution depends on, injectable for tests.
struct PathContext {
  EnvLookup env;
  std::string cwd;                     // absolute; resolves relative overrides
  std::optional<std::string> os_home;  // the user database's home directory, if known
};

/// The real process: environment, current directory, and getpwuid_r's home directory.
PathContext process_path_context();

std::string resolve_home_dir(const PathContext& context);
std::string resolve_state_dir(const PathContext& context);
std::string resolve_config_path(const PathContext& context);

/// Node's path.resolve(base, path) for POSIX paths: absolute result, "." and ".." segments
/// and repeated or trailing slashes removed.
std::string resolve_path(std::string_view base, std::string_view path);

}  // namespace clawexec::config
