#include "tools/exec_tool.h"

#include "tools/exec_args.h"

namespace clawexec::tools {

void run_exec(exec::ExecService& service, std::shared_ptr<exec::ClientSession> client, exec::ExecRequest request,
              exec::CallOptions options, ExecCallDone done) {
  std::shared_ptr<exec::CancelSignal> cancel = options.cancel;
  service.exec(std::move(request), std::move(client), std::move(options),
               [&service, cancel, done = std::move(done)](exec::ExecStart start) mutable {
                 if (auto* reply = std::get_if<exec::Reply>(&start)) return done(ExecCallResult{std::move(*reply), {}});
                 auto call = std::make_shared<ExecCall>(service, std::get<exec::StartedRun>(std::move(start)),
                                                        std::move(cancel), std::move(done));
                 call->begin();
               });
}

void run_exec_tool(exec::ExecService& service, std::shared_ptr<exec::ClientSession> client, const json::Object& args,
                   exec::CallOptions options, ToolDone done) {
  run_exec(service, std::move(client), exec_request_from_args(args), std::move(options),
           [done = std::move(done)](ExecCallResult r) { done(std::move(r.result)); });
}

}  // namespace clawexec::tools
