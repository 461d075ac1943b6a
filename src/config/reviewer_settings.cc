// resolve_reviewer_settings: see reviewer_settings.h. The reviewer object was validated and
// layered by load_config (exec_layer.cc knows its schema); this file only picks the model ref,
// falls back to the agent's primary model, and clamps the timeout as OpenClaw's
// resolveTimerTimeoutMs does.

#include "config/reviewer_settings.h"

#include <algorithm>
#include <cmath>

#include "base/strings.h"
#include "config/exec_layer.h"
#include "config/model_providers.h"

namespace clawexec::config {
namespace {

namespace json = boost::json;

// A model setting's primary ref: the string itself or {primary}; "" when neither.
std::string primary_of(const json::value* v) {
  if (v == nullptr) return {};
  if (v->is_string()) return std::string(trim_ascii(v->get_string()));
  if (v->is_object()) {
    const json::value* p = v->get_object().if_contains("primary");
    if (p && p->is_string()) return std::string(trim_ascii(p->get_string()));
  }
  return {};
}

const json::value* member(const json::value* v, std::string_view key) {
  if (v == nullptr || !v->is_object()) return nullptr;
  return v->get_object().if_contains(key);
}

struct AgentModel {
  std::string ref;
  std::string source;
};

// agents.entries.<id>.model ?? agents.defaults.model (the first entry whose normalised key
// matches, like load_config).
AgentModel agent_primary_model(const json::value& document, std::string_view agent_id) {
  const json::value* agents = member(&document, "agents");
  if (const json::value* entries = member(agents, "entries"); entries && entries->is_object()) {
    const std::string wanted = normalize_agent_id(agent_id);
    for (const auto& entry : entries->get_object()) {
      if (normalize_agent_id(entry.key()) != wanted) continue;
      std::string ref = primary_of(member(&entry.value(), "model"));
      if (!ref.empty()) return {ref, detail::child_path("agents.entries", entry.key()) + ".model"};
      break;
    }
  }
  std::string ref = primary_of(member(member(agents, "defaults"), "model"));
  if (!ref.empty()) return {ref, "agents.defaults.model"};
  return {};
}

}  // namespace

Result<ReviewerSettings> resolve_reviewer_settings(const ExecSettings& exec, const boost::json::value& document,
                                                   std::string_view agent_id) {
  ReviewerSettings out;
  const json::object* reviewer = exec.reviewer ? &*exec.reviewer : nullptr;
  json::value reviewer_value = reviewer ? json::value(*reviewer) : json::value();
  std::string ref = primary_of(member(&reviewer_value, "model"));
  AgentModel agent = agent_primary_model(document, agent_id);
  if (!ref.empty()) {
    out.model_source = "tools.exec.reviewer.model";
  } else if (!agent.ref.empty()) {
    ref = agent.ref;
    out.model_source = agent.source;
  }
  if (!ref.empty()) {
    if (ref.find('/') == std::string::npos) {
      // A bare model id takes the agent's primary provider, else OpenClaw's fallback "openai".
      auto agent_split = split_model_ref(agent.ref);
      ref = (agent_split.ok() ? agent_split->first : std::string("openai")) + "/" + ref;
    }
    auto split = split_model_ref(ref);
    if (!split.ok()) return Error::invalid(out.model_source + ": " + split.error().message);
    out.provider = split->first;
    out.model = split->second;
  }
  if (const json::value* t = member(&reviewer_value, "timeoutMs")) {
    if (t->is_number()) {
      double n = t->to_number<double>();
      out.timeout_ms = static_cast<int64_t>(std::clamp<double>(std::floor(n), kReviewerMinTimeoutMs,
                                                                kReviewerMaxTimeoutMs));
    }
  }
  if (const json::value* t = member(&reviewer_value, "thinking"); t && t->is_string()) {
    out.thinking = std::string(t->get_string());
  }
  if (const json::value* f = member(&reviewer_value, "fastMode"); f && f->is_bool()) out.fast_mode = f->get_bool();
  return out;
}

}  // namespace clawexec::config
