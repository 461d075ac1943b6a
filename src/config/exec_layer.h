#pragma once
// Internal to the config module: one validated `tools.exec` object (global or per-agent),
// every key optional, before layering and defaults. exec_layer.cc knows the reference's
// schema for these keys; exec_settings.cc layers and resolves.

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "config/exec_settings.h"

namespace clawexec::config::detail {

/// Problems found while reading a config file, each naming its key path.
struct Diagnostics {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};

struct ApplyPatchLayer {
  std::optional<bool> enabled;
  std::optional<bool> workspace_only;
  std::optional<std::vector<std::string>> allow_models;
  std::optional<std::vector<PatchPathClass>> allow_protected_paths;
};

struct ExecLayer {
  std::optional<ExecHost> host;
  std::optional<ExecMode> mode;
  std::optional<ExecSecurity> security;
  std::optional<ExecAsk> ask;
  std::optional<std::string> node;
  std::optional<std::vector<std::string>> path_prepend;
  std::optional<std::vector<std::string>> safe_bins;
  std::optional<bool> strict_inline_eval;
  std::optional<bool> command_highlighting;
  std::optional<int64_t> grant_expiry_days;
  std::optional<std::vector<std::string>> safe_bin_trusted_dirs;
  std::optional<boost::json::object> safe_bin_profiles;
  std::optional<boost::json::object> reviewer;
  std::optional<int64_t> background_ms;
  std::optional<int64_t> approval_running_notice_ms;
  std::optional<int64_t> timeout_seconds;
  std::optional<int64_t> cleanup_ms;
  std::optional<int64_t> max_live_sessions;
  std::optional<bool> notify_on_exit;
  std::optional<bool> notify_on_exit_empty_success;
  std::optional<ApplyPatchLayer> apply_patch;
};

/// Validates `exec` (found at `path`, e.g. "tools.exec") into a layer; invalid values are
/// recorded as errors and left unset, unknown keys as warnings.
ExecLayer read_exec_layer(const boost::json::object& exec, const std::string& path, Diagnostics& diagnostics);

/// `parent` + "." + key, or `parent["key"]` (JSON-quoted) when the key has characters other
/// than [A-Za-z0-9_$-] or is empty.
std::string child_path(std::string_view parent, std::string_view key);

/// The object at `parent[key]`: nullptr if absent, an error (naming `path`) if present but not
/// an object.
const boost::json::object* child_object(const boost::json::object& parent, std::string_view key,
                                        const std::string& path, Diagnostics& diagnostics);

/// A short rendering of a JSON value for messages: strings quoted, numbers as JavaScript
/// prints them, containers as "an object"/"an array".
std::string describe_value(const boost::json::value& value);

}  // namespace clawexec::config::detail
