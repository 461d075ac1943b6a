#pragma once
// The exec auto-reviewer's settings for one agent (spec: approvals-and-policy §8): which model
// reviews a command in `mode: "auto"`, and how long it may take. The transport that calls the
// model is net/model_client.h; the endpoint lookup is config/model_providers.h.
//
// Facts from OpenClaw 2026.9.6 (exec-auto-reviewer, bash-tools, agent-scope):
// * The reviewer object is `agents.entries.<id>.tools.exec.reviewer ?? tools.exec.reviewer`:
//   an agent's object replaces the global one as a whole (ExecSettings::reviewer holds it).
// * `model` is a "provider/model" string or {primary, fallbacks}; only `primary` is used (the
//   reviewer has no fallbacks). Unset or blank: the agent's primary model,
//   `agents.entries.<id>.model ?? agents.defaults.model` (each a string or {primary}).
// * A ref without a slash takes the provider of the agent's primary model, else "openai".
// * `timeoutMs`: default 30000, clamped to [1000, 2147000000].
// * `thinking` and `fastMode` are passed to the model as reasoning level and service tier;
//   they are kept here for the caller, the client does not send them yet.

#include <boost/json/value.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "config/exec_settings.h"

namespace clawexec::config {

inline constexpr int64_t kReviewerDefaultTimeoutMs = 30000;
inline constexpr int64_t kReviewerMinTimeoutMs = 1000;
inline constexpr int64_t kReviewerMaxTimeoutMs = 2147000000;

struct ReviewerSettings {
  /// Both set, or both unset when no model is configured anywhere (then OpenClaw's default
  /// reviewer answers "ask": "no model-backed exec reviewer is configured for <host>").
  std::optional<std::string> provider;
  std::optional<std::string> model;
  /// The key the model came from ("tools.exec.reviewer.model", "agents.defaults.model", ...).
  std::string model_source;
  int64_t timeout_ms = kReviewerDefaultTimeoutMs;
  std::optional<std::string> thinking;  // minimal | low | medium | high | xhigh | max
  std::optional<bool> fast_mode;
};

/// Resolves the reviewer for `agent_id` from the already-layered exec settings and the whole
/// config document (for the agent's primary model). An error only for a model ref that is not
/// a usable "provider/model" (named with its key).
Result<ReviewerSettings> resolve_reviewer_settings(const ExecSettings& exec, const boost::json::value& document,
                                                   std::string_view agent_id);

}  // namespace clawexec::config
