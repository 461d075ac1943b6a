// Resolving the auto-reviewer's model and calling it (exec_reviewer.h).

#include "daemon/exec_reviewer.h"


#include "config/model_providers.h"
#include "config/reviewer_settings.h"
#include "net/model_client.h"

namespace clawexec::daemon {

exec::ReviewerConfig resolve_reviewer(const config::ExecSettings& exec, const boost::json::value& document,
                                      const std::string& agent_id, const config::EnvLookup& env,
                                      const std::string& origin) {
  exec::ReviewerConfig out;
  Result<config::ReviewerSettings> settings = config::resolve_reviewer_settings(exec, document, agent_id);
  if (!settings.ok()) {
    out.unavailable = settings.error().message;
    return out;
  }
  out.timeout_ms = settings->timeout_ms;
  out.model_source = settings->model_source;
  if (!settings->provider || !settings->model) return out;  // no model anywhere: the default reviewer
  out.model = *settings->provider + "/" + *settings->model;
  Result<config::ModelProviders> providers = config::read_model_providers(document, origin);
  if (!providers.ok()) {
    out.unavailable = providers.error().message;
    return out;
  }
  Result<config::ModelEndpoint> endpoint =
      config::resolve_model_endpoint(*providers, *settings->provider, *settings->model, env, "exec reviewer model");
  if (!endpoint.ok()) {
    out.unavailable = endpoint.error().message;
    return out;
  }
  out.endpoint = std::move(endpoint).value();
  return out;
}

std::string mask_secrets(std::string text, const std::vector<std::string>& secrets) {
  for (const std::string& secret : secrets) {
    if (secret.empty()) continue;
    for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) text.replace(at, secret.size(), "***");
  }
  return text;
}

exec::ModelCompleter model_completer() {
  return [](boost::asio::io_context& io, const config::ModelEndpoint& endpoint, const policy::ReviewPrompt& prompt,
            std::chrono::milliseconds timeout, std::function<void(exec::ModelReply)> done) -> std::function<void()> {
    net::CompletionRequest request;
    request.system = prompt.system;
    request.user = prompt.user;
    request.max_tokens = prompt.max_tokens;
    request.temperature = prompt.temperature;
    request.timeout = timeout;
    request.stream = true;  // as OpenClaw's model transports call every provider
    std::shared_ptr<net::ModelCall> call = net::complete(io, endpoint, request, [done = std::move(done), secrets = exec::endpoint_secrets(endpoint)](Result<net::Completion> answer) {
      exec::ModelReply reply;
      if (answer.ok()) {
        reply.kind = exec::ModelReply::Kind::kAnswered;
        reply.text = std::move(answer->text);
        reply.stop_reason = std::move(answer->stop_reason);
        reply.error_message = std::move(answer->error_message);
      } else if (answer.error().code == ErrorCode::kTimedOut) {
        reply.kind = exec::ModelReply::Kind::kTimedOut;
      } else if (answer.error().code == ErrorCode::kCancelled) {
        reply.kind = exec::ModelReply::Kind::kAnswered;
        reply.stop_reason = "aborted";
      } else {
        reply.kind = exec::ModelReply::Kind::kFailed;
        reply.error = answer.error().message;
      }
      // A provider (or a proxy before it) may echo the credential anywhere: nothing of it goes on.
      reply.text = mask_secrets(std::move(reply.text), secrets);
      reply.error_message = mask_secrets(std::move(reply.error_message), secrets);
      reply.error = mask_secrets(std::move(reply.error), secrets);
      done(std::move(reply));
    });
    return [weak = std::weak_ptr<net::ModelCall>(call)] {
      if (auto c = weak.lock()) c->cancel();
    };
  };
}

}  // namespace clawexec::daemon
