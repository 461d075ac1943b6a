#include "tools/exec_args.h"

#include "tools/tool_args.h"

namespace clawexec::tools {

std::string strip_xml_artifact(std::string s) {
  constexpr std::string_view kTag = "</arg_value>";
  size_t end = s.size();
  size_t gts = 0;
  while (end > 0 && s[end - 1] == '>') --end, ++gts;
  // "</arg_value>" plus at least one more '>' at the very end.
  if (gts >= 2 && end + 1 >= kTag.size() &&
      s.compare(end + 1 - kTag.size(), kTag.size() - 1, kTag.substr(0, kTag.size() - 1)) == 0) {
    s.erase(end + 1 - kTag.size());
  }
  return s;
}

exec::ExecRequest exec_request_from_args(const json::Object& args) {
  auto repaired = [&](std::string_view key) -> std::optional<std::string> {
    std::optional<std::string> v = string_arg(args, key);
    if (v) *v = strip_xml_artifact(std::move(*v));
    return v;
  };
  exec::ExecRequest r;
  r.legacy_timeout = args.contains("timeout");
  r.command = repaired("command").value_or("");
  r.workdir = repaired("workdir");
  r.host = repaired("host");
  r.security = repaired("security");
  r.ask = repaired("ask");
  r.node = repaired("node");
  r.elevated = bool_arg(args, "elevated");
  r.pty = bool_arg(args, "pty") == true;
  r.timeout_seconds = number_arg(args, "timeoutSeconds");
  r.yield_ms = number_arg(args, "yieldMs");
  r.background = bool_arg(args, "background") == true;
  if (const json::Value* env = json::find(args, "env"); env && env->is_object()) {
    for (const auto& kv : env->get_object()) {
      if (kv.value().is_string()) r.env.emplace_back(std::string(kv.key()), std::string(kv.value().get_string()));
    }
  }
  return r;
}

}  // namespace clawexec::tools
