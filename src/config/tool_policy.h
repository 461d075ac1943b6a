#pragma once
// OpenClaw's tool policy for the three tools clawexec serves (`exec`, `process`,
// `apply_patch`): which of them a client's agent gets, read once from the parsed config
// document (`tools.profile`, `tools.allow`, `tools.alsoAllow`, `tools.deny`, and the same keys
// under `agents.entries.<id>.tools`).
//
// Approach: the reference resolves the policy into an ordered chain of layers (profile, global
// allow/deny, agent allow/deny, ...); a tool survives only if every layer lets it through, and
// within a layer deny wins over allow. We build the same layers from the document, keep their
// patterns normalised (trimmed, lowercased, aliases and `group:*` entries expanded), and answer
// `allows(name)` by walking them. The layers we do not apply (per provider, per sender) are
// reported as warnings instead of being dropped silently; the sandbox layer
// (`tools.sandbox.tools`) applies only to a session that runs in a sandbox. What a tool may *do* once allowed
// (`tools.exec.*`, `tools.exec.applyPatch.enabled`, ...) is not decided here.

#include <boost/json/object.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/result.h"

namespace clawexec::config {

/// The reference's normalizeToolPolicyName: trimmed, lowercased, then the aliases
/// `bash` -> `exec` and `apply-patch` -> `apply_patch`.
std::string normalize_tool_name(std::string_view name);

/// The resolved tool policy of one agent. A default-constructed policy allows every tool (no
/// `tools.*` policy keys at all, which is OpenClaw's "unset profile, no allow/deny").
class ToolPolicy {
 public:
  /// One `*`-glob from an allow or deny list, already normalised.
  struct Pattern {
    enum class Kind { kAll, kExact, kGlob };
    Kind kind = Kind::kExact;
    std::string text;
  };
  /// One filtering step of the chain. An empty `allow` lets everything through that `deny`
  /// does not match.
  struct Layer {
    std::string allow_key;  // what to name when `allow` removed a tool ("tools.allow")
    std::string deny_key;   // what to name when `deny` removed it ("tools.deny")
    std::vector<Pattern> allow;
    std::vector<Pattern> deny;
  };

  ToolPolicy() = default;
  explicit ToolPolicy(std::vector<Layer> layers, std::vector<std::string> warnings = {});
  /// `sandbox_layer`: tools.sandbox.tools, applied after `layers` to sandboxed sessions only.
  ToolPolicy(std::vector<Layer> layers, std::optional<Layer> sandbox_layer, std::vector<std::string> warnings);

  /// Whether the agent gets `tool` (any spelling: case, surrounding space and the `bash`
  /// alias do not matter). Meant for "exec", "process" and "apply_patch": only the groups
  /// that hold one of them (`group:runtime`, `group:fs`) are expanded, so the answer for
  /// another OpenClaw tool named through some other group would be wrong.
  /// `sandboxed`: the client's session runs in a sandbox, so tools.sandbox.tools applies too.
  bool allows(std::string_view tool, bool sandboxed = false) const { return !denied_by(tool, sandboxed).has_value(); }

  /// The config key that removes `tool`, for refusal messages: "tools.deny",
  /// "agents.entries.work.tools.allow", "tools.profile \"messaging\"", ...; nullopt when the
  /// tool is allowed. The first layer of the chain that removes it is named.
  std::optional<std::string> denied_by(std::string_view tool, bool sandboxed = false) const;

  /// Policy keys found but not applied, and the reference's own warnings (a profile that no
  /// longer widens itself for a configured `tools.exec` section), each naming its key path.
  const std::vector<std::string>& warnings() const { return warnings_; }

  const std::vector<Layer>& layers() const { return layers_; }

 private:
  std::vector<Layer> layers_;
  std::optional<Layer> sandbox_layer_;
  std::vector<std::string> warnings_;
};

/// Reads the tool policy of `agent_id` from `document` (the whole parsed config file; keys
/// other than the policy keys are ignored). `agent_id` is matched against the keys of
/// `agents.entries` like the exec settings do (config::normalize_agent_id on both sides, the
/// first matching entry wins); "" means the global scope only.
///
/// Every scope in the file is validated (every agent's, not only the serving one's), as the
/// reference validates the whole file. Errors name the key path, one per line:
/// "tools.allow: expected an array of strings, got \"exec\"", "tools.allow[1]: expected a
/// string, got 3", "tools.profile: expected one of \"minimal\", \"coding\", \"messaging\",
/// \"full\", got \"dev\"", "agents.entries.work.tools: cannot set both allow and alsoAllow in
/// the same scope (merge alsoAllow into allow, or remove allow and use profile + alsoAllow)".
Result<ToolPolicy> read_tool_policy(const boost::json::object& document, std::string_view agent_id);

}  // namespace clawexec::config
