#pragma once
// The state of one exec host=node call, shared by the files that drive it: node_run.cc
// (selection, prepare, the policy decision, system.run, streamed sessions) and
// node_approval.cc (the auto-reviewer and the human approval of a node run). Internal to exec.

#include <boost/asio/steady_timer.hpp>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "exec/exec_plan.h"
#include "exec/node_invoker.h"
#include "exec/service.h"
#include "json/json.h"

namespace clawexec::exec {

namespace node_detail {
/// A node invoke's failure as the agent reads it ("exec host=node: <command> on node <id>
/// failed: ..." for the link, the node's own refusal as it is).
std::string invoke_error_text(const std::string& node_id, const std::string& command, const NodeInvokeError& e);
/// OpenClaw's formatNodeRunToolResult for a node's system.run answer.
Reply node_result(const std::string& node_id, const json::Object& payload, const std::vector<std::string>& warnings,
                  int64_t started_ms, const std::string& cwd);
}  // namespace node_detail

struct ExecService::NodeCall {
  NodeSummary node;
  ExecPlan plan;
  CallContext ctx;
  ExecStartDone done;  // empty once answered (a pending approval answers early)
  policy::ExecCallPolicy policy;
  std::string agent_id;
  std::string session_key;
  int64_t started_ms = 0;
  int64_t timeout_ms = 0;
  json::Object prepared;  // the node's plan
  config::ExecSecurity security = config::ExecSecurity::kFull;
  config::ExecAsk ask = config::ExecAsk::kOff;
  config::ExecSecurity ask_fallback = config::ExecSecurity::kDeny;
  bool allow_always = false;  // the node said an allow-always would cover the whole command
  bool reviewed = false;        // the auto-reviewer was asked (mode auto: once, before any human)
  bool human_required = false;  // it deferred: no fallback may run the command

  void answer(Reply reply) {
    if (!done) return;
    ExecStartDone d = std::move(done);
    done = nullptr;
    d(std::move(reply));
  }
  std::string command_text() const { return json::string_member(prepared, "commandText"); }
  /// The foreground answer to this call's system.run: the node's result as OpenClaw formats it,
  /// or its error.
  Reply run_reply(const NodeInvokeResult& ran) const {
    if (auto* e = std::get_if<NodeInvokeError>(&ran)) return Reply::thrown(node_detail::invoke_error_text(node.node_id, "system.run", *e));
    const json::Value& result = std::get<json::Value>(ran);
    if (!result.is_object()) return Reply::thrown("exec host=node: node " + node.node_id + " answered system.run with a non-object result");
    return node_detail::node_result(node.node_id, result.get_object(), plan.warnings, started_ms, cwd());
  }
  std::string cwd() const { return json::string_member(prepared, "cwd"); }
  /// system.run's parameters for the prepared plan (`run_id`: the approval's, else a new one).
  json::Object run_params(const std::optional<std::string>& run_id) const;
};

struct ExecService::NodeApprovalWait {
  explicit NodeApprovalWait(boost::asio::io_context& io) : expiry(io) {}
  std::string id;
  std::shared_ptr<NodeCall> call;
  boost::asio::steady_timer expiry;
};


}  // namespace clawexec::exec
