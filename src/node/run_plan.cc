// system.run.prepare / system.run shapes (run_plan.h), after OpenClaw's node host
// (src/node-host/invoke-system-run-plan.ts, src/infra/system-run-approval-binding.ts).
//
// A prepare either binds the approval (the gateway's or the node's policy is stricter than
// full/off, or the request did not say) or not. Binding resolves the working directory to its
// real path, pins a direct executable to its real path and records its SHA-256
// (mutableFileOperand), and refuses shell payloads it cannot bind, with the reference's text.
// Without binding the plan is the argv as sent, at the real cwd. Either way system.run later
// re-checks the plan it is handed against what it is asked to run.

#include "node/run_plan.h"

#include <algorithm>

#include "base/strings.h"
#include "env/host_env_policy.h"
#include "hash/sha256.h"
#include "shell/shell_wrappers.h"
#include "shell/word.h"
#include "sys/file_system.h"
#include "sys/sys.h"
#include "sys/whole_file.h"

namespace clawexec::node {
namespace {

constexpr std::string_view kCannotBindShell =
    "SYSTEM_RUN_DENIED: approval cannot safely bind this interpreter/runtime command\nNo approval request was created for "
    "this attempt; this is not a user denial. Retry a supported single executable with an absolute path through the "
    "normal approval flow. This node approval path cannot bind script/interpreter payloads nested in its shell wrapper.";

InvokeError invalid(std::string message) { return {"INVALID_REQUEST", std::move(message)}; }

std::optional<std::string> optional_string(const json::Object& o, std::string_view key) {
  const json::Value* v = json::find(o, key);
  if (!v || !v->is_string()) return std::nullopt;
  std::string s(trim_ascii(std::string(v->get_string())));
  if (s.empty()) return std::nullopt;
  return s;
}

bool is_executable_file(const std::string& path) {
  Result<std::optional<sys::FileInfo>> info = sys::stat_path(path);
  return info.ok() && *info && (*info)->type == sys::FileType::kRegular && ((*info)->mode & 0111) != 0;
}

}  // namespace

std::optional<std::string> nonempty_string(const json::Object& object, std::string_view key) {
  const json::Value* v = json::find(object, key);
  if (!v || !v->is_string() || v->get_string().empty()) return std::nullopt;
  return std::string(v->get_string());
}

std::optional<std::string> find_in_path(const std::string& name, const std::string& path_env) {
  if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  for (std::string_view dir : split(path_env, ':')) {
    if (dir.empty()) continue;
    std::string p = std::string(dir) + "/" + name;
    if (is_executable_file(p)) return p;
  }
  return std::nullopt;
}

namespace {

// The real path of argv[0] as the node would execute it, or nullopt.
std::optional<std::string> resolve_executable(const std::string& token, const std::string& cwd, const std::string& path_env) {
  if (token.empty()) return std::nullopt;
  std::string candidate;
  if (token.find('/') != std::string::npos) {
    candidate = token[0] == '/' ? token : cwd + "/" + token;
    if (!is_executable_file(candidate)) return std::nullopt;
  } else {
    std::optional<std::string> found = find_in_path(token, path_env);
    if (!found) return std::nullopt;
    candidate = *found;
  }
  Result<std::string> real = sys::real_path(candidate);
  if (!real.ok()) return std::nullopt;
  return *real;
}

Result<std::string> file_sha256(const std::string& path) {
  std::string data = TRY(sys::read_whole_file(path));
  return hash::sha256_hex(data);
}

int security_rank(std::string_view s) { return s == "deny" ? 0 : s == "allowlist" ? 1 : 2; }
int ask_rank(std::string_view a) { return a == "always" ? 2 : a == "on-miss" ? 1 : 0; }

}  // namespace

std::variant<CommandRequest, InvokeError> resolve_command(const json::Object& params) {
  const json::Value* command = json::find(params, "command");
  std::optional<std::string> raw = optional_string(params, "rawCommand");
  if (!command || !command->is_array() || command->as_array().empty()) {
    if (raw) return invalid("rawCommand requires params.command");
    return invalid("command required");
  }
  CommandRequest out;
  for (const json::Value& v : command->as_array()) {
    if (!v.is_string()) return invalid("command must be an array of strings");
    out.argv.emplace_back(v.get_string());
  }
  out.command_text = shell::format_exec_command(out.argv);
  if (std::optional<shell::ShellWrapper> w = shell::find_shell_wrapper(out.argv)) {
    out.shell_payload = w->payload;
    std::string trimmed(trim_ascii(w->payload));
    // A wrapper with positional arguments after its script has no single preview.
    if (w->shell_argv.size() == 3 && w->shell_argv == out.argv) out.preview = trimmed;
  }
  if (raw && *raw != out.command_text && !(out.preview && *raw == *out.preview)) {
    return invalid("INVALID_REQUEST: rawCommand does not match command");
  }
  return out;
}

json::Object policy_snapshot_json(const PolicyView& policy) {
  return json::Object{{"security", policy.security},
                      {"ask", policy.ask},
                      {"askFallback", policy.ask_fallback},
                      {"autoAllowSkills", policy.auto_allow_skills},
                      {"allowlistRules", policy.allowlist_rules}};
}

std::variant<json::Object, InvokeError> prepare_plan(const json::Object& params, const PrepareContext& context) {
  std::variant<CommandRequest, InvokeError> resolved = resolve_command(params);
  if (auto* e = std::get_if<InvokeError>(&resolved)) return *e;
  CommandRequest command = std::get<CommandRequest>(std::move(resolved));

  std::optional<std::string> req_security = optional_string(params, "security");
  std::optional<std::string> req_ask = optional_string(params, "ask");
  std::string security = context.policy.security;
  std::string ask = context.policy.ask;
  if (req_security && security_rank(*req_security) < security_rank(security)) security = *req_security;
  if (req_ask && ask_rank(*req_ask) > ask_rank(ask)) ask = *req_ask;
  // A deny policy binds nothing: the plan goes back with its snapshot (security deny), so the
  // gateway refuses with "security=deny" rather than with a binding problem.
  const bool bind = security != "deny" && (!req_security || !req_ask || security != "full" || ask != "off");

  if (bind && command.shell_payload) return InvokeError{"INVALID_REQUEST", std::string(kCannotBindShell)};
  std::string cwd = optional_string(params, "cwd").value_or(context.process_cwd);
  Result<std::string> real_cwd = sys::real_path(cwd);
  if (!real_cwd.ok()) return invalid("SYSTEM_RUN_DENIED: working directory does not exist or is inaccessible");
  cwd = *real_cwd;

  std::vector<std::string> argv = command.argv;
  json::Value mutable_operand = nullptr;
  if (bind) {
    std::optional<std::string> pinned = resolve_executable(argv[0], cwd, context.path_env);
    if (!pinned) return invalid("SYSTEM_RUN_DENIED: approval requires a stable executable path");
    argv[0] = *pinned;
    Result<std::string> digest = file_sha256(*pinned);
    if (!digest.ok()) return invalid("SYSTEM_RUN_DENIED: approval requires a stable executable path");
    mutable_operand = json::Object{{"argvIndex", 0}, {"path", *pinned}, {"sha256", *digest}};
  }
  std::string command_text = shell::format_exec_command(argv);
  json::Value preview = nullptr;
  if (command.preview && *command.preview != command_text) preview = *command.preview;
  auto nullable = [&](std::string_view key) -> json::Value {
    std::optional<std::string> v = optional_string(params, key);
    return v ? json::Value(*v) : json::Value(nullptr);
  };
  json::Object plan{{"argv", json::string_array(argv)}, {"cwd", cwd},
                    {"commandText", command_text},      {"commandPreview", preview},
                    {"agentId", nullable("agentId")},   {"sessionKey", nullable("sessionKey")}};
  if (!mutable_operand.is_null()) plan["mutableFileOperand"] = mutable_operand;
  plan["policySnapshot"] = policy_snapshot_json(context.policy);

  if (std::variant<env::EnvList, InvokeError> env = check_env_overrides(params, command.shell_payload.has_value());
      std::holds_alternative<InvokeError>(env)) {
    return std::get<InvokeError>(env);
  }
  return json::Object{{"plan", std::move(plan)},
                      {"execPolicy", json::Object{{"security", context.policy.security}, {"ask", context.policy.ask}}},
                      // Coverage of a later allow-always is not computed here: none is claimed.
                      {"allowAlwaysCoverage", json::Object{{"complete", false}, {"patterns", json::Array()}}}};
}

std::variant<env::EnvList, InvokeError> check_env_overrides(const json::Object& params, bool shell_wrapper) {
  env::EnvList out;
  const json::Value* env_value = json::find(params, "env");
  if (!env_value || env_value->is_null()) return out;
  if (!env_value->is_object()) return invalid("env must be an object of strings");
  std::vector<std::string> blocked, non_portable;
  for (const auto& kv : env_value->get_object()) {
    std::string key(kv.key());
    if (!kv.value().is_string()) return invalid("env must be an object of strings");
    std::optional<std::string_view> normalized = env::normalize_override_key(key);
    if (!normalized) {
      non_portable.push_back(env::visible_key(key));
      continue;
    }
    if (env::is_dangerous_override_key(*normalized) || env::match_form(*normalized) == "PATH") {
      blocked.emplace_back(*normalized);
      continue;
    }
    if (shell_wrapper && !env::is_shell_wrapper_allowed_key(*normalized)) continue;
    out.emplace_back(std::string(*normalized), std::string(kv.value().get_string()));
  }
  if (!blocked.empty() || !non_portable.empty()) {
    std::vector<std::string> details;
    if (!blocked.empty()) details.push_back("blocked override keys: " + join(blocked, ", "));
    if (!non_portable.empty()) details.push_back("invalid non-portable override keys: " + join(non_portable, ", "));
    return invalid("SYSTEM_RUN_DENIED: environment override rejected (" + join(details, "; ") + ")");
  }
  return out;
}

std::optional<InvokeError> check_plan_binding(const json::Object& params, const CommandRequest& command) {
  const json::Value* plan_value = json::find(params, "systemRunPlan");
  auto present = [&](std::string_view key) {
    const json::Value* v = json::find(params, key);
    return v && !v->is_null() && !(v->is_bool() && !v->get_bool());
  };
  // An approval names what it approved: without the plan it is not honoured.
  if (!plan_value && (present("approved") || present("approvalDecision") || present("approvalSource"))) {
    return invalid("explicit approval requires matching systemRunPlan");
  }
  if (!plan_value) return std::nullopt;
  const json::Object* plan = plan_value->is_object() ? &plan_value->get_object() : nullptr;
  const json::Value* argv = plan ? json::find(*plan, "argv") : nullptr;
  if (!plan || !argv || !argv->is_array() || argv->as_array().empty()) return invalid("systemRunPlan invalid");
  std::vector<std::string> plan_argv;
  for (const json::Value& v : argv->as_array()) {
    if (!v.is_string()) return invalid("systemRunPlan invalid");
    plan_argv.emplace_back(v.get_string());
  }
  auto same = [&](std::string_view key) { return optional_string(*plan, key) == optional_string(params, key); };
  if (plan_argv != command.argv || json::string_member(*plan, "commandText") != command.command_text || !same("cwd") ||
      !same("agentId") || !same("sessionKey")) {
    return invalid("systemRunPlan does not match the command, cwd, agent or session of this run");
  }
  if (const json::Object* operand = json::object_member(*plan, "mutableFileOperand")) {
    std::optional<int64_t> index = json::integer_member(*operand, "argvIndex");
    std::string path = json::string_member(*operand, "path");
    if (!index || *index < 0 || static_cast<size_t>(*index) >= plan_argv.size() || plan_argv[*index] != path) {
      return invalid("systemRunPlan invalid");
    }
    Result<std::string> digest = file_sha256(path);
    if (!digest.ok() || *digest != json::string_member(*operand, "sha256")) {
      return InvokeError{"SYSTEM_RUN_DENIED",
                         "SYSTEM_RUN_DENIED: approval binding changed: " + path + " is not the file that was prepared"};
    }
  }
  return std::nullopt;
}

void cap_outputs(RunResult& result) {
  bool truncated = false;
  for (std::string* s : {&result.stdout_text, &result.stderr_text}) {
    if (s->size() > kOutputCap) {
      s->resize(kOutputCap);
      truncated = true;
    }
  }
  if (truncated) (result.stderr_text.empty() ? result.stdout_text : result.stderr_text) += "\n... (truncated)";
}

json::Object run_result_json(const RunResult& result) {
  json::Object out;
  if (result.exit_code) out["exitCode"] = *result.exit_code;
  out["timedOut"] = result.timed_out;
  out["success"] = result.success();
  out["stdout"] = result.stdout_text;
  out["stderr"] = result.stderr_text;
  out["error"] = result.error ? json::Value(*result.error) : json::Value(nullptr);
  return out;
}

json::Object exec_finished_payload(const std::string& session_key, const std::string& run_id,
                                   const std::string& command_text, const RunResult& result, bool suppress_notify) {
  std::vector<std::string> parts;
  for (const std::string* s : {&result.stdout_text, &result.stderr_text}) {
    if (!s->empty()) parts.push_back(*s);
  }
  if (result.error && !result.error->empty()) parts.push_back(*result.error);
  std::string output(trim_ascii(join(parts, "\n")));
  if (output.size() > kEventOutputTail) output = "... (truncated) " + output.substr(output.size() - kEventOutputTail);
  json::Object out{{"sessionKey", session_key}, {"runId", run_id}, {"host", "node"}, {"command", command_text}};
  if (result.exit_code) out["exitCode"] = *result.exit_code;
  out["timedOut"] = result.timed_out;
  out["success"] = result.success();
  out["output"] = output;
  out["suppressNotifyOnExit"] = suppress_notify;
  return out;
}

std::string missing_cwd_error(const std::string& cwd) {
  return "node exec working directory does not exist on the node host: " + cwd +
         " (os reported: Command failed during launch or output capture (ENOENT))";
}

}  // namespace clawexec::node
