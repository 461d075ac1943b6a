#pragma once
// The exec auto-reviewer's wiring (mode "auto"): which model reviews an agent's commands, read
// from the configuration (tools.exec.reviewer, models.providers), and the model call itself
// (net/model_client.h) offered to the exec service, which cannot reach the network layer.

#include <boost/json/value.hpp>
#include <string>

#include "config/env_lookup.h"
#include "config/exec_settings.h"
#include "env/env_list.h"
#include "exec/auto_review.h"

namespace clawexec::daemon {

/// The reviewer of `agent_id`: its endpoint, or why a configured one cannot be used (a bad
/// model ref, an unknown provider, a missing key...). Never fails: a problem only matters when
/// a command is reviewed, and then the reviewer says "exec reviewer model unavailable: ...".
exec::ReviewerConfig resolve_reviewer(const config::ExecSettings& exec, const boost::json::value& document,
                                      const std::string& agent_id, const config::EnvLookup& env,
                                      const std::string& origin);

/// Removes from `inherited` (the environment commands inherit) every variable whose value is
/// one of the reviewer's secrets (its API key, secret header values): the agent's commands must
/// not read the credential the server calls the model with (`printenv OPENAI_API_KEY`).
/// Returns the names removed.
std::vector<std::string> withhold_reviewer_secrets(const exec::ReviewerConfig& reviewer, env::EnvList& inherited);

/// The secrets of `endpoint` (its API key, secret-looking header values: 8 characters or more).
std::vector<std::string> endpoint_secrets(const config::ModelEndpoint& endpoint);

/// `text` with every occurrence of each secret replaced by "***".
std::string mask_secrets(std::string text, const std::vector<std::string>& secrets);

/// net::complete as the service's ModelCompleter (streamed, verified TLS). Whatever comes
/// back (text, provider errors, transport errors) has the endpoint's secrets masked.
exec::ModelCompleter model_completer();

}  // namespace clawexec::daemon
