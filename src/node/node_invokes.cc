// The node's answers to node.invoke.request (node_client.h): the five system.* commands and
// UNAVAILABLE for the rest. File work (approvals, plans, hashing a pinned executable) runs on
// the worker thread; system.run checks the request (command text, plan binding, env, cwd; for
// a run the gateway approved, that the node's policy is still the one the plan was prepared
// under and that the approval is used once) and then hands it to the exec pipeline. Every answer goes through the outbox, the run's event
// before its result.

#include "node/node_client.h"

#include "approvals/random.h"
#include "base/strings.h"
#include "node/local_policy.h"
#include "node/run_plan.h"
#include "sys/file_system.h"

namespace clawexec::node {
namespace {

bool is_posix_sh(const std::string& program) {
  std::string base = program.substr(program.rfind('/') == std::string::npos ? 0 : program.rfind('/') + 1);
  return base == "sh" || base == "bash" || base == "dash";
}

// The pipeline's command text for argv: a plain `sh -c SCRIPT` / `sh -lc SCRIPT` runs its
// script (the pipeline's own shell runs it); anything else runs as exactly its argv.
std::string pipeline_command(const CommandRequest& command) {
  const auto& argv = command.argv;
  if (command.preview && command.shell_payload && argv.size() == 3 && is_posix_sh(argv[0]) &&
      (argv[1] == "-c" || argv[1] == "-lc")) {
    return *command.shell_payload;
  }
  return quote_argv(argv);
}

}  // namespace

void NodeClient::answer(const std::string& invoke_id, json::Object payload) {
  enqueue({invoke_id, "node.invoke.result",
           json::Object{{"id", invoke_id}, {"nodeId", identity_.device_id}, {"ok", true}, {"payloadJSON", json::serialize(payload)}}});
}

void NodeClient::answer_error(const std::string& invoke_id, const std::string& code, const std::string& message) {
  enqueue({invoke_id, "node.invoke.result",
           json::Object{{"id", invoke_id},
                        {"nodeId", identity_.device_id},
                        {"ok", false},
                        {"error", json::Object{{"code", code}, {"message", message}}}}});
}

void NodeClient::emit_event(const std::string& invoke_id, const std::string& event, json::Object payload) {
  enqueue({invoke_id, "node.event", json::Object{{"event", event}, {"payloadJSON", json::serialize(payload)}}});
}

void NodeClient::on_invoke(const json::Object& payload) {
  std::string invoke_id = json::string_member(payload, "id");
  std::string command = json::string_member(payload, "command");
  if (invoke_id.empty()) return;
  if (!active_invokes_.insert(invoke_id).second) return;  // a repeat of one being answered
  json::Object params;
  if (const json::Value* pj = json::find(payload, "paramsJSON"); pj && pj->is_string()) {
    std::optional<json::Value> parsed = json::parse(pj->get_string());
    if (!parsed || !(parsed->is_object() || parsed->is_null())) {
      return answer_error(invoke_id, "INVALID_REQUEST", "paramsJSON must be a JSON object");
    }
    if (parsed->is_object()) params = std::move(parsed->get_object());
  } else if (const json::Object* p = json::object_member(payload, "params")) {
    params = *p;
  }
  if (command == "system.which") return system_which(invoke_id, params);
  if (command.rfind("clawexec.exec.", 0) == 0 && gateway_streams_) {
    if (command == "clawexec.exec.start") return stream_start(invoke_id, std::move(params));
    if (command == "clawexec.exec.input") return stream_input(invoke_id, params);
    if (command == "clawexec.exec.kill") return stream_kill(invoke_id, params);
  }
  if (command == "system.run") return system_run(invoke_id, std::move(params));
  if (command == "system.execApprovals.get") {
    return off_thread([files = options_.files] { return approvals_get(files); },
                      [invoke_id](NodeClient& self, Result<json::Object> r) {
                        if (!r.ok()) return self.answer_error(invoke_id, "INVALID_REQUEST", "Error: INVALID_REQUEST: " + r.error().message);
                        self.answer(invoke_id, std::move(*r));
                      });
  }
  if (command == "system.execApprovals.set") {
    return off_thread([files = options_.files, params] { return approvals_set(files, params); },
                      [invoke_id](NodeClient& self, Result<json::Object> r) {
                        if (!r.ok()) return self.answer_error(invoke_id, "INVALID_REQUEST", "Error: INVALID_REQUEST: " + r.error().message);
                        self.answer(invoke_id, std::move(*r));
                      });
  }
  if (command == "system.run.prepare") {
    PrepareContext context{options_.process_cwd, options_.path_env, {}};
    return off_thread(
        [files = options_.files, params, context]() mutable -> std::variant<json::Object, InvokeError> {
          Result<PolicyView> policy = read_policy_view(files, json::string_member(params, "agentId"));
          if (!policy.ok()) return InvokeError{"INVALID_REQUEST", policy.error().message};
          context.policy = std::move(*policy);
          return prepare_plan(params, context);
        },
        [invoke_id](NodeClient& self, std::variant<json::Object, InvokeError> r) {
          if (auto* e = std::get_if<InvokeError>(&r)) return self.answer_error(invoke_id, e->code, e->message);
          self.answer(invoke_id, std::move(std::get<json::Object>(r)));
        });
  }
  answer_error(invoke_id, "UNAVAILABLE", "command not supported");
}

void NodeClient::system_which(const std::string& invoke_id, const json::Object& params) {
  json::Object found;
  for (const std::string& name : json::strings_member(params, "bins")) {
    std::string trimmed(trim_ascii(name));
    if (std::optional<std::string> path = find_in_path(trimmed, options_.path_env)) found[trimmed] = *path;
  }
  answer(invoke_id, json::Object{{"bins", std::move(found)}});
}

namespace {

struct CheckedRun {
  CommandRequest command;
  env::EnvList env;
  bool cwd_missing = false;
  bool approved = false;
};

bool approved_by_gateway(const json::Object& params) {
  const json::Value* approved = json::find(params, "approved");
  std::string decision = json::string_member(params, "approvalDecision");
  return (approved && approved->is_bool() && approved->get_bool()) || decision == "allow-once" || decision == "allow-always";
}

std::variant<CheckedRun, InvokeError> check_run(const json::Object& params, const operator_ops::OperatorEnv& files) {
  std::variant<CommandRequest, InvokeError> resolved = resolve_command(params);
  if (auto* e = std::get_if<InvokeError>(&resolved)) return *e;
  CheckedRun out{std::get<CommandRequest>(std::move(resolved)), {}, false, false};
  if (std::optional<InvokeError> e = check_plan_binding(params, out.command)) return *e;
  if (approved_by_gateway(params)) {
    // The approval was given for the plan as prepared, under the node's policy of that moment.
    const json::Object* plan = json::object_member(params, "systemRunPlan");
    const json::Value* snapshot = plan ? json::find(*plan, "policySnapshot") : nullptr;
    if (!snapshot) return InvokeError{"INVALID_REQUEST", "delayed approval requires a prepared policy snapshot"};
    Result<PolicyView> current = read_policy_view(files, json::string_member(params, "agentId"));
    if (!current.ok()) return InvokeError{"INVALID_REQUEST", current.error().message};
    if (*snapshot != json::Value(policy_snapshot_json(*current))) {
      return InvokeError{"SYSTEM_RUN_DENIED", "SYSTEM_RUN_DENIED: exec approval policy changed; request approval again"};
    }
    // Only a plan this node's prepare could have bound: a pinned, hashed executable (a shell
    // payload is never bound, see prepare_plan).
    if (out.command.shell_payload || !json::object_member(*plan, "mutableFileOperand")) {
      return InvokeError{"SYSTEM_RUN_DENIED", "SYSTEM_RUN_DENIED: approval missing executable binding"};
    }
    out.approved = true;
  }
  std::variant<env::EnvList, InvokeError> env = check_env_overrides(params, out.command.shell_payload.has_value());
  if (auto* e = std::get_if<InvokeError>(&env)) return *e;
  out.env = std::get<env::EnvList>(std::move(env));
  if (std::optional<std::string> cwd = nonempty_string(params, "cwd")) {
    Result<std::optional<sys::FileInfo>> info = sys::stat_path(*cwd);
    out.cwd_missing = !info.ok() || !*info || (*info)->type != sys::FileType::kDirectory;
  }
  return out;
}

}  // namespace

void NodeClient::system_run(const std::string& invoke_id, json::Object params) {
  off_thread([params, files = options_.files] { return check_run(params, files); }, [invoke_id, params](NodeClient& self, std::variant<CheckedRun, InvokeError> r) {
    if (auto* e = std::get_if<InvokeError>(&r)) return self.answer_error(invoke_id, e->code, e->message);
    CheckedRun checked = std::get<CheckedRun>(std::move(r));
    std::string session_key = nonempty_string(params, "sessionKey").value_or("node");
    std::optional<std::string> given_run_id = nonempty_string(params, "runId");
    std::string run_id = given_run_id.value_or(approvals::random_uuid());
    if (checked.approved) {
      // An approved run's runId is its approval's id: one approval, one run.
      if (!given_run_id) return self.answer_error(invoke_id, "INVALID_REQUEST", "an approved system.run needs its runId");
      if (!self.used_approvals_.insert(run_id).second) {
        return self.answer_error(invoke_id, "SYSTEM_RUN_DENIED", "SYSTEM_RUN_DENIED: approval " + run_id + " was already used");
      }
    }
    const json::Value* s = json::find(params, "suppressNotifyOnExit");
    bool suppress = s && s->is_bool() && s->get_bool();
    std::string command_text = checked.command.command_text;
    std::string cwd = nonempty_string(params, "cwd").value_or("");
    if (checked.cwd_missing) {
      RunResult result;
      result.error = missing_cwd_error(cwd);
      self.emit_event(invoke_id, "exec.finished", exec_finished_payload(session_key, run_id, command_text, result, suppress));
      return self.answer(invoke_id, run_result_json(result));
    }
    RunSpec spec;
    spec.command = pipeline_command(checked.command);
    spec.cwd = cwd;
    spec.env = std::move(checked.env);
    if (std::optional<int64_t> ms = json::integer_member(params, "timeoutMs"); ms && *ms > 0) spec.timeout_seconds = *ms / 1000.0;
    spec.agent_id = nonempty_string(params, "agentId").value_or("");
    spec.scope_key = run_scope(invoke_id);
    spec.approved = checked.approved;
    std::weak_ptr<NodeClient> weak = self.weak_from_this();
    self.runner_.run(std::move(spec), [weak, invoke_id, session_key, run_id, command_text, suppress](RunOutcome outcome) {
      auto client = weak.lock();
      if (!client) return;
      NodeClient* const me = client.get();
      if (auto* denied = std::get_if<RunDenied>(&outcome)) {
        if (me->options_.log) me->options_.log("system.run denied: " + command_text + ": " + denied->detail);
        me->emit_event(invoke_id, "exec.denied",
                         json::Object{{"sessionKey", session_key},
                                      {"runId", run_id},
                                      {"host", "node"},
                                      {"command", command_text},
                                      {"reason", denied->reason},
                                      {"suppressNotifyOnExit", suppress}});
        return me->answer_error(invoke_id, "SYSTEM_RUN_DENIED", denied->message);
      }
      RunResult result = std::get<RunResult>(std::move(outcome));
      cap_outputs(result);
      me->emit_event(invoke_id, "exec.finished", exec_finished_payload(session_key, run_id, command_text, result, suppress));
      me->answer(invoke_id, run_result_json(result));
    });
  });
}

void NodeClient::stream_start(const std::string& invoke_id, json::Object params) {
  std::string stream_id = json::string_member(params, "streamId");
  if (stream_id.empty() || stream_id.size() > 128) {
    return answer_error(invoke_id, "INVALID_REQUEST", "clawexec.exec.start needs a streamId (1-128 characters)");
  }
  if (streams_.count(stream_id)) return answer_error(invoke_id, "INVALID_REQUEST", "streamed session " + stream_id + " already exists");
  // An approval is bound to one system.run (its runId, used once); streams never carry one.
  if (approved_by_gateway(params)) {
    return answer_error(invoke_id, "INVALID_REQUEST", "an approved run goes through system.run, not clawexec.exec.start");
  }
  off_thread([params, files = options_.files] { return check_run(params, files); },
             [invoke_id, params, stream_id](NodeClient& self, std::variant<CheckedRun, InvokeError> r) {
    if (auto* e = std::get_if<InvokeError>(&r)) return self.answer_error(invoke_id, e->code, e->message);
    CheckedRun checked = std::get<CheckedRun>(std::move(r));
    std::string cwd = nonempty_string(params, "cwd").value_or("");
    if (checked.cwd_missing) return self.answer_error(invoke_id, "INVALID_REQUEST", missing_cwd_error(cwd));
    if (self.streams_.count(stream_id)) return self.answer_error(invoke_id, "INVALID_REQUEST", "streamed session " + stream_id + " already exists");
    std::string session_key = nonempty_string(params, "sessionKey").value_or("node");
    std::string command_text = checked.command.command_text;
    RunSpec spec;
    spec.command = pipeline_command(checked.command);
    spec.cwd = cwd;
    spec.env = std::move(checked.env);
    if (std::optional<int64_t> ms = json::integer_member(params, "timeoutMs"); ms && *ms > 0) spec.timeout_seconds = *ms / 1000.0;
    spec.agent_id = nonempty_string(params, "agentId").value_or("");
    spec.scope_key = "node:stream:" + stream_id;
    const json::Value* pty = json::find(params, "pty");
    spec.pty = pty && pty->is_bool() && pty->get_bool();
    // Claimed now: a second start with this id is refused while this one is being spawned.
    auto stream = std::make_shared<Stream>();
    stream->id = stream_id;
    self.streams_[stream_id] = stream;
    std::weak_ptr<NodeClient> weak = self.weak_from_this();
    self.runner_.start(std::move(spec), [weak, invoke_id, stream, session_key, command_text](StartOutcome started) {
      auto client = weak.lock();
      if (!client) return;
      NodeClient* const me = client.get();
      if (auto* denied = std::get_if<RunDenied>(&started)) {
        me->streams_.erase(stream->id);
        if (me->options_.log) me->options_.log("clawexec.exec.start denied: " + command_text + ": " + denied->detail);
        me->emit_event(invoke_id, "exec.denied",
                       json::Object{{"sessionKey", session_key}, {"runId", stream->id}, {"host", "node"}, {"command", command_text},
                                    {"reason", denied->reason}});
        return me->answer_error(invoke_id, "SYSTEM_RUN_DENIED", denied->message);
      }
      stream->run = std::get<std::shared_ptr<exec::Run>>(std::move(started));
      std::weak_ptr<Stream> ws = stream;
      stream->run->add_output_listener([weak, ws](std::string_view text) {
        auto me2 = weak.lock();
        auto st = ws.lock();
        if (me2 && st) me2->stream_output(st, text);
      });
      stream->run->on_started([weak, ws, invoke_id](Result<pid_t> pid) {
        auto me2 = weak.lock();
        auto st = ws.lock();
        if (!me2 || !st) return;
        if (!pid.ok()) {
          me2->streams_.erase(st->id);
          return me2->answer_error(invoke_id, "UNAVAILABLE", pid.error().message);
        }
        me2->answer(invoke_id, json::Object{{"streamId", st->id}, {"pid", pid.value()}});
      });
      stream->run->on_exited([weak, ws](const exec::ExecOutcome& outcome) {
        auto me2 = weak.lock();
        auto st = ws.lock();
        if (!me2 || !st) return;
        json::Object end;
        const std::optional<proc::ExitStatus>& status = st->run->exit_status();
        if (status && status->code) end["exitCode"] = *status->code;
        if (status && status->signal) end["signal"] = *status->signal;
        if (outcome.timed_out) end["timedOut"] = true;
        st->exit = std::move(end);
        st->run.reset();  // the session stays in the node's registry; the stream only owes its end
        me2->pump_stream(st);
      });
    });
  });
}

}  // namespace clawexec::node
