// load_config: parse the JSON5 file, walk to `tools.exec` and the serving agent's
// `agents.entries.<id>.tools.exec`, validate every exec section (so a mistake in any agent's
// section is reported, as the reference validates the whole file), then layer the two
// sections and apply defaults, clamps and the environment overrides. The layering and
// precedence rules are documented in exec_settings.h; they mirror the reference's
// resolveExecToolConfig, applyExecPolicyLayer and createExecTool.

#include "config/exec_settings.h"

#include <algorithm>
#include <boost/json/array.hpp>
#include <set>

#include "base/strings.h"
#include "base/utf.h"
#include "config/exec_layer.h"
#include "config/exec_modes.h"
#include "config/json5.h"

namespace clawexec::config {
namespace {

namespace json = boost::json;
using detail::Diagnostics;
using detail::ExecLayer;

using detail::child_object;

struct Sections {
  std::optional<ExecLayer> global;
  std::optional<ExecLayer> agent;
};

Sections read_sections(const json::object& root, const std::string& agent_id, Diagnostics& diagnostics) {
  Sections sections;
  if (const json::object* tools = child_object(root, "tools", "tools", diagnostics)) {
    if (const json::object* exec = child_object(*tools, "exec", "tools.exec", diagnostics)) {
      sections.global = detail::read_exec_layer(*exec, "tools.exec", diagnostics);
    }
  }
  const json::object* agents = child_object(root, "agents", "agents", diagnostics);
  const json::object* entries =
      agents ? child_object(*agents, "entries", "agents.entries", diagnostics) : nullptr;
  if (entries == nullptr) return sections;
  const std::string wanted = agent_id.empty() ? std::string() : normalize_agent_id(agent_id);
  for (const auto& entry : *entries) {
    std::string entry_path = detail::child_path("agents.entries", entry.key());
    if (!entry.value().is_object()) {
      diagnostics.errors.push_back(entry_path + ": expected an object, got " +
                                   detail::describe_value(entry.value()));
      continue;
    }
    const json::object* tools =
        child_object(entry.value().get_object(), "tools", entry_path + ".tools", diagnostics);
    const json::object* exec =
        tools ? child_object(*tools, "exec", entry_path + ".tools.exec", diagnostics) : nullptr;
    if (exec == nullptr) continue;
    ExecLayer layer = detail::read_exec_layer(*exec, entry_path + ".tools.exec", diagnostics);
    // The first entry whose normalised key matches is the agent's (as in the reference).
    if (!wanted.empty() && !sections.agent && normalize_agent_id(entry.key()) == wanted)
      sections.agent = std::move(layer);
  }
  return sections;
}

// ---- layering ----

// The reference's applyExecPolicyLayer over the two sections (config/exec_modes.h).
LayeredExecPolicy apply_policy_layer(LayeredExecPolicy base, const std::optional<ExecLayer>& layer) {
  if (!layer) return base;
  return apply_exec_policy_layer(base, ExecPolicyFields{layer->mode, layer->security, layer->ask});
}

// agent ?? global for one field.
template <typename T>
std::optional<T> pick(const Sections& s, std::optional<T> ExecLayer::*field) {
  if (s.agent && (*s.agent).*field) return (*s.agent).*field;
  if (s.global && (*s.global).*field) return (*s.global).*field;
  return std::nullopt;
}

std::vector<std::string> normalize_path_prepend(const std::vector<std::string>& entries) {
  std::vector<std::string> out;
  std::set<std::string_view> seen;
  for (const std::string& entry : entries) {
    std::string_view trimmed = js_trim(entry);
    if (trimmed.empty() || !seen.insert(trimmed).second) continue;
    out.emplace_back(trimmed);
  }
  return out;
}

std::optional<json::object> merge_safe_bin_profiles(const Sections& s) {
  json::object merged;
  for (const auto* layer : {s.global ? &*s.global : nullptr, s.agent ? &*s.agent : nullptr}) {
    if (layer == nullptr || !layer->safe_bin_profiles) continue;
    for (const auto& profile : *layer->safe_bin_profiles) {
      std::string name = lower_trimmed(profile.key());
      if (!name.empty()) merged.insert_or_assign(name, profile.value());
    }
  }
  if (merged.empty()) return std::nullopt;
  return merged;
}

int64_t clamp_or_default(std::optional<int64_t> value, int64_t fallback, int64_t min, int64_t max) {
  return value ? std::clamp(*value, min, max) : fallback;
}

ExecSettings resolve(const Sections& s, const EnvLookup& env) {
  ExecSettings out;
  out.host = pick(s, &ExecLayer::host).value_or(ExecHost::kAuto);
  const LayeredExecPolicy policy = apply_policy_layer(apply_policy_layer({}, s.global), s.agent);
  out.mode = policy.mode;
  out.security = policy.security;
  out.ask = policy.ask;
  out.node = pick(s, &ExecLayer::node);

  int64_t timeout = pick(s, &ExecLayer::timeout_seconds).value_or(0);
  out.default_timeout_seconds = timeout > 0 ? timeout : 1800;
  std::optional<int64_t> background = pick(s, &ExecLayer::background_ms);
  if (!background) background = read_env_integer(env, "OPENCLAW_BASH_YIELD_MS", "PI_BASH_YIELD_MS");
  out.background_ms = clamp_or_default(background, 10000, 10, 120000);
  std::optional<int64_t> cleanup = pick(s, &ExecLayer::cleanup_ms);
  if (!cleanup) cleanup = read_env_integer(env, "OPENCLAW_BASH_JOB_TTL_MS", "PI_BASH_JOB_TTL_MS");
  out.cleanup_ms = clamp_or_default(cleanup, 1800000, 60000, 10800000);

  out.max_live_sessions = pick(s, &ExecLayer::max_live_sessions).value_or(1024);
  out.notify_on_exit = pick(s, &ExecLayer::notify_on_exit).value_or(true);
  out.notify_on_exit_empty_success = pick(s, &ExecLayer::notify_on_exit_empty_success);
  std::optional<int64_t> notice = pick(s, &ExecLayer::approval_running_notice_ms);
  out.approval_running_notice_ms = notice ? std::max<int64_t>(*notice, 0) : 10000;
  out.path_prepend =
      normalize_path_prepend(pick(s, &ExecLayer::path_prepend).value_or(std::vector<std::string>{}));

  out.safe_bins = pick(s, &ExecLayer::safe_bins);
  out.safe_bin_trusted_dirs = pick(s, &ExecLayer::safe_bin_trusted_dirs);
  out.safe_bin_profiles = merge_safe_bin_profiles(s);
  out.strict_inline_eval = pick(s, &ExecLayer::strict_inline_eval);
  out.command_highlighting = pick(s, &ExecLayer::command_highlighting).value_or(false);
  out.reviewer = pick(s, &ExecLayer::reviewer);
  out.grant_expiry_days = pick(s, &ExecLayer::grant_expiry_days);
  if (auto apply_patch = pick(s, &ExecLayer::apply_patch)) {
    out.apply_patch.enabled = apply_patch->enabled.value_or(true);
    out.apply_patch.workspace_only = apply_patch->workspace_only.value_or(true);
    out.apply_patch.allow_models = apply_patch->allow_models;
    out.apply_patch.allow_protected_paths = apply_patch->allow_protected_paths.value_or(std::vector<PatchPathClass>{});
  }

  out.max_output_chars =
      clamp_or_default(read_env_integer(env, "OPENCLAW_BASH_MAX_OUTPUT_CHARS", "PI_BASH_MAX_OUTPUT_CHARS"),
                       200000, 1000, 200000);
  out.pending_max_output_chars = std::min(
      clamp_or_default(read_env_integer(env, "OPENCLAW_BASH_PENDING_MAX_OUTPUT_CHARS"), 30000, 1000, 200000),
      out.max_output_chars);
  out.input_wait_idle_ms =
      clamp_or_default(read_env_integer(env, "OPENCLAW_PROCESS_INPUT_WAIT_IDLE_MS"), 15000, 1000, 600000);
  return out;
}

std::string with_origin(const std::string& origin, const std::string& message) {
  return origin.empty() ? message : origin + ": " + message;
}

}  // namespace

std::string_view to_string(ExecHost value) {
  switch (value) {
    case ExecHost::kAuto:
      return "auto";
    case ExecHost::kSandbox:
      return "sandbox";
    case ExecHost::kGateway:
      return "gateway";
    case ExecHost::kNode:
      return "node";
  }
  return "?";
}

std::string_view to_string(ExecMode value) {
  switch (value) {
    case ExecMode::kDeny:
      return "deny";
    case ExecMode::kAllowlist:
      return "allowlist";
    case ExecMode::kAsk:
      return "ask";
    case ExecMode::kAuto:
      return "auto";
    case ExecMode::kFull:
      return "full";
  }
  return "?";
}

std::string_view to_string(ExecSecurity value) {
  switch (value) {
    case ExecSecurity::kDeny:
      return "deny";
    case ExecSecurity::kAllowlist:
      return "allowlist";
    case ExecSecurity::kFull:
      return "full";
  }
  return "?";
}

std::string_view to_string(PatchPathClass value) {
  switch (value) {
    case PatchPathClass::kShellStartup:
      return "shell-startup";
    case PatchPathClass::kGit:
      return "git";
    case PatchPathClass::kSsh:
      return "ssh";
  }
  return "?";
}

std::string_view to_string(ExecAsk value) {
  switch (value) {
    case ExecAsk::kOff:
      return "off";
    case ExecAsk::kOnMiss:
      return "on-miss";
    case ExecAsk::kAlways:
      return "always";
  }
  return "?";
}

std::string normalize_agent_id(std::string_view id) {
  std::string lowered = lower_trimmed(id);
  auto id_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
  };
  bool canonical = !lowered.empty() && lowered.size() <= 64 && lowered[0] != '_' && lowered[0] != '-' &&
                   std::all_of(lowered.begin(), lowered.end(), id_char);
  if (canonical) return lowered;
  std::string out;
  bool in_run = false;
  for (char c : lowered) {
    if (id_char(c)) {
      out += c;
      in_run = false;
    } else if (!in_run) {
      out += '-';  // a run of other characters becomes one dash
      in_run = true;
    }
  }
  size_t first = out.find_first_not_of('-');
  size_t last = out.find_last_not_of('-');
  out = first == std::string::npos ? std::string() : out.substr(first, last - first + 1).substr(0, 64);
  return out.empty() ? "main" : out;
}

Result<LoadedConfig> load_config(const ConfigSources& sources) {
  LoadedConfig loaded;
  loaded.document = json::object();
  if (sources.file_text) {
    auto parsed = parse_json5(*sources.file_text);
    if (!parsed.ok()) return Error::invalid(with_origin(sources.origin, parsed.error().message));
    loaded.document = std::move(*parsed);
  }
  if (!loaded.document.is_object()) {
    return Error::invalid(with_origin(sources.origin, "expected an object at the top level, got " +
                                                          detail::describe_value(loaded.document)));
  }
  Diagnostics diagnostics;
  Sections sections = read_sections(loaded.document.get_object(), sources.agent_id, diagnostics);
  if (!diagnostics.errors.empty()) {
    std::string message;
    for (const std::string& error : diagnostics.errors) {
      if (!message.empty()) message += '\n';
      message += with_origin(sources.origin, error);
    }
    return Error::invalid(std::move(message));
  }
  for (const std::string& warning : diagnostics.warnings)
    loaded.warnings.push_back(with_origin(sources.origin, warning));
  loaded.exec = resolve(sections, sources.env);
  return loaded;
}

}  // namespace clawexec::config
