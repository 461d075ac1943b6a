#pragma once
// The exec tool: a request through the exec pipeline, then (for a started run) the race of its
// exit against the yield window (tools/exec_call.h). `run_exec` serves typed callers (the CLI);
// `run_exec_tool` the tool's JSON arguments.

#include <memory>

#include "exec/service.h"
#include "tools/exec_call.h"
#include "tools/tool_result.h"

namespace clawexec::tools {

void run_exec(exec::ExecService& service, std::shared_ptr<exec::ClientSession> client, exec::ExecRequest request,
              exec::CallOptions options, ExecCallDone done);

/// `args`: already checked against exec_tool_spec().
void run_exec_tool(exec::ExecService& service, std::shared_ptr<exec::ClientSession> client, const json::Object& args,
                   exec::CallOptions options, ToolDone done);

/// The process tool (process_tool.cc): `args` already checked against process_tool_spec().
void run_process_tool(exec::ExecService& service, const exec::ClientSession& client, const json::Object& args,
                      std::shared_ptr<exec::CancelSignal> cancel, ToolDone done);

/// The operator's view of the process tool (the gateway's clawexec.sessions.* methods): `args`
/// as the process tool takes them (checked here), over every client's sessions, limited to list,
/// log, write, send-keys, submit, paste and kill (list entries also carry each one's `scope`).
void run_operator_process_action(exec::ExecService& service, const json::Value& args, ToolDone done);

}  // namespace clawexec::tools
