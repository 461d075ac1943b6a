// Joining the operator channel: see operator_link.h.

#include "daemon/operator_link.h"

#include <cstdio>
#include <string>

#include "approvals/store.h"

namespace clawexec::daemon {

Result<ChannelAddress> operator_channel_address(const exec::ServiceConfig& config) {
  approvals::ApprovalsStore store(config.approvals_paths);
  approvals::ResolvedApprovals resolved =
      TRY(store.resolve(config.agent_id, policy::ApprovalsOverrides{}, approvals::SocketRequirement::kRequired));
  if (resolved.token.empty()) return Error::invalid("no socket token");
  return ChannelAddress{resolved.socket_path, resolved.token};
}

std::unique_ptr<approvals::OperatorChannel> start_operator_channel(
    boost::asio::io_context& io, const exec::ServiceConfig& config, std::string_view command,
    approvals::OperatorChannel::Provider provider,
    const std::function<void(exec::ExecService::ApprovalEvents)>& set_events, exec::ExecService::ApprovalEvents also) {
  Result<ChannelAddress> address = operator_channel_address(config);
  if (!address.ok()) {
    std::fprintf(stderr, "clawexec %.*s: warning: no operator channel (%s); approvals fall back to askFallback\n",
                 static_cast<int>(command.size()), command.data(), address.error().message.c_str());
    set_events(std::move(also));
    return nullptr;
  }
  auto channel = std::make_unique<approvals::OperatorChannel>(io, address->socket_path, address->token, std::move(provider));
  approvals::OperatorChannel* raw = channel.get();
  set_events({[raw, also](const json::Object& a) {
                raw->publish_requested(a);
                if (also.requested) also.requested(a);
              },
              [raw, also](const std::string& id, const std::string& decision, const std::string& by) {
                raw->publish_resolved(id, decision, by);
                if (also.resolved) also.resolved(id, decision, by);
              }});
  channel->start();
  return channel;
}

}  // namespace clawexec::daemon
