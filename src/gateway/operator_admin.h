#pragma once
// The admin reads and writes the operator protocol offers for exec, on the gateway's own files:
// the approvals document (`exec.approvals.get/set`, compare-and-swap on its hash: once the file
// exists a write must name the hash it was based on) and the exec part of `openclaw.json`
// (`config.get` / `config.patch`). The config methods are a deliberate subset of OpenClaw's:
// `config.get` returns only `tools.exec` and each `agents.entries.<id>.tools.exec` (the rest of
// the file holds secrets an operator.read client has no business reading), and `config.patch`
// applies a JSON merge patch (RFC 7396: null removes a key) that may touch nothing else. A
// patch whose result the exec configuration loader rejects is not written.
//
// Messages are OpenClaw's where it has one ("exec approvals base hash required; reload and
// retry", "config changed since last load; re-run config.get and retry", ...).

#include <optional>
#include <string>
#include <string_view>

#include "base/result.h"
#include "json/json.h"
#include "operator/operator_env.h"

namespace clawexec::gateway {

/// {path, exists, hash, file (socket token removed), resolvedDefaults}.
Result<json::Object> exec_approvals_get(const operator_ops::OperatorEnv& env);

/// Replaces the document with `file`; the answer is exec_approvals_get's after the write.
Result<json::Object> exec_approvals_set(const operator_ops::OperatorEnv& env, const json::Value& file,
                                        const std::optional<std::string>& base_hash);

/// {path, exists, hash, config: {tools:{exec}, agents:{entries:{<id>:{tools:{exec}}}}}}.
Result<json::Object> exec_config_get(const operator_ops::OperatorEnv& env);

/// Applies the merge patch `raw` (JSON5 text of an object); the answer is exec_config_get's
/// after the write, with `changed`.
Result<json::Object> exec_config_patch(const operator_ops::OperatorEnv& env, std::string_view raw,
                                       const std::optional<std::string>& base_hash);

}  // namespace clawexec::gateway
