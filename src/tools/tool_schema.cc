// Tool schemas (texts from the reference's exec/process tool definitions) and the
// coerce-then-validate step of the reference agent loop. See tool_schema.h.

#include "tools/tool_schema.h"

#include <cmath>
#include <cstdlib>

#include "base/strings.h"
#include "exec/target.h"

namespace clawexec::tools {
namespace {

constexpr std::string_view kExecDescription =
    "Run shell now; background continuation supported. Use yieldMs/background, then process for "
    "logs/status/input/intervention. Long run: nothing wakes you when it ends; poll it with "
    "process (poll can wait up to 30 s) to confirm completion, or read the `Exec completed` "
    "notification if your client shows MCP log messages. TTY CLI/UI/coding agent: "
    "pty=true. Quote arguments containing shell metacharacters, including URL query strings with "
    "`?` or `&`.";

constexpr std::string_view kProcessDescription =
    "Control existing exec: list, poll, log, write, send-keys, submit, paste, kill. poll/log: "
    "status, output, quiet success, completion without auto-wake, input hints. Others: "
    "input/intervention.";

std::string_view type_name(FieldType type) {
  switch (type) {
    case FieldType::kString:
    case FieldType::kStringEnum: return "string";
    case FieldType::kNumber: return "number";
    case FieldType::kBoolean: return "boolean";
    case FieldType::kStringArray: return "array";
    case FieldType::kStringRecord: return "object";
  }
  return "string";
}

// JavaScript's Number(string) for the strings a model might send; nullopt if not finite.
std::optional<double> js_string_to_number(std::string_view raw) {
  std::string s(trim_ascii(raw));
  if (s.empty()) return 0.0;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X' || s[1] == 'o' || s[1] == 'O' ||
                                      s[1] == 'b' || s[1] == 'B')) {
    int base = (s[1] == 'x' || s[1] == 'X') ? 16 : (s[1] == 'o' || s[1] == 'O') ? 8 : 2;
    char* end = nullptr;
    unsigned long long v = std::strtoull(s.c_str() + 2, &end, base);
    if (*end != '\0') return std::nullopt;
    return static_cast<double>(v);
  }
  for (char c : s) {
    if (!(std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == 'e' || c == 'E' ||
          c == '+' || c == '-')) {
      return std::nullopt;  // rejects "Infinity", "NaN", "12px", hex without prefix...
    }
  }
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (*end != '\0' || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Text a non-string scalar becomes when a string is expected.
std::optional<std::string> scalar_to_string(const json::Value& v, std::string_view null_text) {
  if (v.is_string()) return std::string(v.get_string());
  if (v.is_bool()) return std::string(v.get_bool() ? "true" : "false");
  if (v.is_null()) return std::string(null_text);
  if (std::optional<double> d = json::as_number(v)) {
    if (v.is_int64()) return std::to_string(v.get_int64());
    if (v.is_uint64()) return std::to_string(v.get_uint64());
    return json::js_number(*d);
  }
  return std::nullopt;
}

std::optional<json::Value> coerce_number(const json::Value& v) {
  if (v.is_number()) return v;
  if (v.is_bool()) return json::Value(v.get_bool() ? 1 : 0);
  if (v.is_null()) return json::Value(0);
  if (v.is_string()) {
    if (std::optional<double> d = js_string_to_number(v.get_string())) {
      if (*d == std::floor(*d) && std::fabs(*d) < 9e15) return json::Value(static_cast<int64_t>(*d));
      return json::Value(*d);
    }
  }
  return std::nullopt;
}

std::optional<json::Value> coerce_boolean(const json::Value& v) {
  if (v.is_bool()) return v;
  if (v.is_null()) return json::Value(false);
  if (v.is_string()) {
    std::string_view s = v.get_string();
    if (s == "true" || s == "1") return json::Value(true);
    if (s == "false" || s == "0") return json::Value(false);
  }
  if (std::optional<double> d = json::as_number(v)) {
    if (*d == 1) return json::Value(true);
    if (*d == 0) return json::Value(false);
  }
  return std::nullopt;
}

struct Checker {
  std::vector<std::string> errors;
  std::optional<std::string> tool_text;  // the first FieldSpec::invalid_value_text failure

  void fail(std::string path, std::string_view message) {
    errors.push_back("  - " + path + ": " + std::string(message));
  }

  // Coerces `v` in place for `field`; records errors.
  void check(const FieldSpec& field, json::Value& v) {
    std::string name(field.name);
    switch (field.type) {
      case FieldType::kString: {
        std::optional<std::string> s = scalar_to_string(v, "");
        if (!s) return fail(name, "must be string");
        v = json::Value(json::Value(boost::json::string(*s)));
        return;
      }
      case FieldType::kNumber: {
        std::optional<json::Value> n = coerce_number(v);
        if (!n) return fail(name, "must be number");
        v = *n;
        if (field.minimum && *json::as_number(v) < *field.minimum) {
          fail(name, "must be >= " + json::js_number(*field.minimum));
        }
        return;
      }
      case FieldType::kBoolean: {
        std::optional<json::Value> b = coerce_boolean(v);
        if (!b) return fail(name, "must be boolean");
        v = *b;
        return;
      }
      case FieldType::kStringEnum: {
        bool ok = v.is_string();
        if (ok) {
          ok = false;
          for (std::string_view allowed : field.enum_values) ok = ok || v.get_string() == allowed;
        }
        if (!ok) fail(name, "must be equal to one of the allowed values");
        if (!ok && v.is_string() && field.invalid_value_text && !tool_text) {
          tool_text = field.invalid_value_text(v.get_string());
        }
        return;
      }
      case FieldType::kStringArray: check_string_array(name, v); return;
      case FieldType::kStringRecord: check_string_record(name, v); return;
    }
  }

  void check_string_array(const std::string& name, json::Value& v) {
    if (v.is_object()) return fail(name, "must be array");
    if (!v.is_array()) {
      json::Array wrapped;
      wrapped.push_back(v);
      v = std::move(wrapped);
    }
    json::Array& items = v.get_array();
    for (size_t i = 0; i < items.size(); ++i) {
      std::optional<std::string> s = scalar_to_string(items[i], "null");
      if (!s) {
        fail(name + "." + std::to_string(i), "must be string");
        continue;
      }
      items[i] = boost::json::string(*s);
    }
  }

  void check_string_record(const std::string& name, json::Value& v) {
    if (!v.is_object()) return fail(name, "must be object");
    for (auto& kv : v.get_object()) {
      std::optional<std::string> s = scalar_to_string(kv.value(), "null");
      if (!s) {
        fail(name + "." + std::string(kv.key()), "must be string");
        continue;
      }
      kv.value() = boost::json::string(*s);
    }
  }
};

}  // namespace

const ToolSpec& exec_tool_spec() {
  static const ToolSpec spec{
      .name = "exec",
      .title = "exec",
      .description = kExecDescription,
      .fields = {
          {"command", FieldType::kString, "Shell command.", Required::kYes},
          {"workdir", FieldType::kString, "Omit/empty string: default; whitespace-only invalid."},
          {"env", FieldType::kStringRecord, "Env overrides. Literal values; no expansion. Omit to inherit."},
          {"yieldMs", FieldType::kNumber, "Milliseconds before backgrounding; default 10000."},
          {"background", FieldType::kBoolean, "Background now."},
          {"timeoutSeconds", FieldType::kNumber, "Timeout in seconds."},
          {"pty", FieldType::kBoolean, "Use PTY for TTY-required CLIs and coding agents."},
          {"elevated", FieldType::kBoolean, "Run on host with elevated permissions if allowed."},
          {"host", FieldType::kStringEnum, "Omit/auto: inherit configured host.", Required::kNo,
           {"auto", "sandbox", "gateway", "node"}, std::nullopt, &exec::invalid_host_text},
          {"security", FieldType::kString,
           "Ignored per call; tools.exec.security and host approvals decide."},
          {"ask", FieldType::kString,
           "Uses tools.exec.ask and host approvals; channel-origin calls cannot override host ask=off."},
          {"node", FieldType::kString, "Node id/name for host=node."},
      }};
  return spec;
}

const ToolSpec& process_tool_spec() {
  static const ToolSpec spec{
      .name = "process",
      .title = "process",
      .description = kProcessDescription,
      .fields = {
          {"action", FieldType::kStringEnum,
           "Process action (list|poll|log|write|send-keys|submit|paste|kill|clear|remove)",
           Required::kYes,
           {"list", "poll", "log", "write", "send-keys", "submit", "paste", "kill", "clear", "remove"},
           std::nullopt,
           [](std::string_view) { return std::string(kInvalidProcessActionText); }},
          {"sessionId", FieldType::kString, "Required for every action except list."},
          {"data", FieldType::kString, "Data to write for write"},
          {"keys", FieldType::kStringArray, "Key tokens to send for send-keys"},
          {"hex", FieldType::kStringArray, "Hex bytes to send for send-keys"},
          {"literal", FieldType::kString, "Literal string for send-keys"},
          {"text", FieldType::kString, "Text to paste for paste"},
          {"bracketed", FieldType::kBoolean, "Wrap paste in bracketed mode"},
          {"eof", FieldType::kBoolean, "Close stdin after write"},
          {"offset", FieldType::kNumber, "Log offset"},
          {"limit", FieldType::kNumber, "Log length"},
          {"timeout", FieldType::kNumber,
           "For poll: wait up to this many milliseconds before returning; max 30000 ms, higher "
           "values are clamped to 30000",
           Required::kNo, {}, 0.0},
      }};
  return spec;
}

const ToolSpec& apply_patch_tool_spec() {
  static const ToolSpec spec{
      .name = "apply_patch",
      .title = "apply_patch",
      .description = "Patch one/many files. Input requires *** Begin Patch and *** End Patch.",
      .fields = {
          {"input", FieldType::kString, "Patch content using the *** Begin Patch/End Patch format.", Required::kYes},
      }};
  return spec;
}

json::Object input_schema(const ToolSpec& spec) {
  json::Object properties;
  json::Array required;
  for (const FieldSpec& f : spec.fields) {
    json::Object p;
    p["type"] = type_name(f.type);
    if (f.type == FieldType::kStringEnum) {
      json::Array values;
      for (std::string_view v : f.enum_values) values.emplace_back(v);
      p["enum"] = std::move(values);
    } else if (f.type == FieldType::kStringArray) {
      p["items"] = json::Object{{"type", "string"}};
    } else if (f.type == FieldType::kStringRecord) {
      p["additionalProperties"] = json::Object{{"type", "string"}};
    }
    if (f.minimum) p["minimum"] = *f.minimum;
    p["description"] = f.description;
    properties[f.name] = std::move(p);
    if (f.required == Required::kYes) required.emplace_back(f.name);
  }
  json::Object schema;
  schema["type"] = "object";
  schema["properties"] = std::move(properties);
  if (!required.empty()) schema["required"] = std::move(required);
  return schema;
}

Result<json::Object> validate_arguments(const ToolSpec& spec, const json::Value& arguments) {
  Checker checker;
  json::Object coerced;
  if (arguments.is_null()) {
    // Absent arguments are an empty object.
  } else if (!arguments.is_object()) {
    checker.fail("root", "must be object");
  } else {
    coerced = arguments.get_object();
  }
  if (checker.errors.empty()) {
    for (const FieldSpec& f : spec.fields) {
      if (f.required == Required::kYes && !coerced.contains(f.name)) {
        checker.fail(std::string(f.name), "must have required properties " + std::string(f.name));
      }
    }
    for (const FieldSpec& f : spec.fields) {
      auto it = coerced.find(f.name);
      if (it != coerced.end()) checker.check(f, it->value());
    }
  }
  if (checker.errors.empty()) return coerced;
  if (checker.tool_text) return Error::invalid(std::move(*checker.tool_text));
  std::string message = "Validation failed for tool \"" + std::string(spec.name) + "\":\n" +
                        join(checker.errors, "\n") + "\n\nReceived arguments:\n" +
                        json::stringify(arguments.is_null() ? json::Value(json::Object()) : arguments, 2);
  return Error::invalid(std::move(message));
}

}  // namespace clawexec::tools
