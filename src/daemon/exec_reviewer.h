#pragma once
// The exec auto-reviewer's wiring (mode "auto"): which model reviews an agent's commands, read
// from the configuration (tools.exec.reviewer, models.providers), and the model call itself
// (net/model_client.h) offered to the exec service, which cannot reach the network layer. (The
// service withholds the reviewer's secrets from commands itself: exec/auto_review.h.)

#include <boost/json/value.hpp>
#include <string>

#include "config/env_lookup.h"
#include "config/exec_settings.h"
#include "exec/auto_review.h"

namespace clawexec::daemon {

/// The reviewer of `agent_id`: its endpoint, or why a configured one cannot be used (a bad
/// model ref, an unknown provider, a missing key...). Never fails: a problem only matters when
/// a command is reviewed, and then the reviewer says "exec reviewer model unavailable: ...".
exec::ReviewerConfig resolve_reviewer(const config::ExecSettings& exec, const boost::json::value& document,
                                      const std::string& agent_id, const config::EnvLookup& env,
                                      const std::string& origin);

/// `text` with every occurrence of each secret replaced by "***".
std::string mask_secrets(std::string text, const std::vector<std::string>& secrets);

/// net::complete as the service's ModelCompleter (streamed, verified TLS). Whatever comes
/// back (text, provider errors, transport errors) has the endpoint's secrets masked.
exec::ModelCompleter model_completer();

}  // namespace clawexec::daemon
