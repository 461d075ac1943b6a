#pragma once
// The one way a clawexec daemon (serve or gateway) joins the operator channel
// (<state>/exec-approvals.sock): resolve the socket and token from the approvals document,
// start the channel with what this process contributes, and route its exec services'
// approval events to the channel (and to `also`, e.g. the gateway's WebSocket operators).
// Without a channel (the document cannot hold a token, say) a warning is printed, the events
// still reach `also`, and approvals that need a human fall back to askFallback.

#include <boost/asio/io_context.hpp>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "approvals/operator_channel.h"
#include "exec/service.h"

namespace clawexec::daemon {

/// The channel's socket and token for `config` (created in the approvals document when missing).
struct ChannelAddress {
  std::string socket_path;
  std::string token;
};
Result<ChannelAddress> operator_channel_address(const exec::ServiceConfig& config);

/// `set_events` installs the combined events on the process's exec service(s).
std::unique_ptr<approvals::OperatorChannel> start_operator_channel(
    boost::asio::io_context& io, const exec::ServiceConfig& config, std::string_view command,
    approvals::OperatorChannel::Provider provider,
    const std::function<void(exec::ExecService::ApprovalEvents)>& set_events,
    exec::ExecService::ApprovalEvents also = {});

}  // namespace clawexec::daemon
