// Validation of one `tools.exec` object against the reference's config schema (the zod
// schema in OpenClaw's bundle: ToolExecBaseShape and its nested objects). Each known key has
// a reader that either yields a typed value or records "<path>: expected <what>, got <value>";
// unknown keys produce a warning and are dropped, also inside the nested strict objects
// (applyPatch, reviewer, reviewer.model, safeBinProfiles.<bin>). Numbers follow JavaScript:
// an integer is any finite number without fraction whose magnitude is at most 2^53 - 1.

#include "config/exec_layer.h"

#include <boost/json/serialize.hpp>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

#include "base/utf.h"

namespace clawexec::config::detail {
namespace {

namespace json = boost::json;

template <typename Enum>
struct EnumSpelling {
  std::string_view name;
  Enum value;
};

constexpr EnumSpelling<ExecHost> kHosts[] = {{"auto", ExecHost::kAuto},
                                             {"sandbox", ExecHost::kSandbox},
                                             {"gateway", ExecHost::kGateway},
                                             {"node", ExecHost::kNode}};
constexpr EnumSpelling<ExecMode> kModes[] = {{"deny", ExecMode::kDeny},
                                             {"allowlist", ExecMode::kAllowlist},
                                             {"ask", ExecMode::kAsk},
                                             {"auto", ExecMode::kAuto},
                                             {"full", ExecMode::kFull}};
constexpr EnumSpelling<ExecSecurity> kSecurities[] = {
    {"deny", ExecSecurity::kDeny}, {"allowlist", ExecSecurity::kAllowlist}, {"full", ExecSecurity::kFull}};
constexpr EnumSpelling<ExecAsk> kAsks[] = {
    {"off", ExecAsk::kOff}, {"on-miss", ExecAsk::kOnMiss}, {"always", ExecAsk::kAlways}};
constexpr EnumSpelling<PatchPathClass> kPatchPathClasses[] = {
    {"shell-startup", PatchPathClass::kShellStartup}, {"git", PatchPathClass::kGit}, {"ssh", PatchPathClass::kSsh}};
constexpr EnumSpelling<int> kThinkingLevels[] = {{"minimal", 0}, {"low", 1},   {"medium", 2},
                                                 {"high", 3},    {"xhigh", 4}, {"max", 5}};

std::string js_number(double d) {
  if (std::isnan(d)) return "NaN";
  if (std::isinf(d)) return d > 0 ? "Infinity" : "-Infinity";
  char buf[40];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, d);
    if (std::strtod(buf, nullptr) == d) break;
  }
  return buf;
}

// Integer constraints from the schema.
struct IntegerRule {
  std::string_view expected;
  int64_t min;
  int64_t max;
};
constexpr int64_t kMaxSafeInteger = (int64_t{1} << 53) - 1;
constexpr IntegerRule kPositive{"a positive integer", 1, kMaxSafeInteger};
constexpr IntegerRule kNonNegative{"a non-negative integer", 0, kMaxSafeInteger};
constexpr IntegerRule kGrantDays{"an integer from 1 to 3650", 1, 3650};

std::optional<int64_t> as_safe_integer(const json::value& v) {
  if (v.is_int64()) {
    int64_t i = v.get_int64();
    if (i >= -kMaxSafeInteger && i <= kMaxSafeInteger) return i;
  } else if (v.is_uint64()) {
    if (v.get_uint64() <= static_cast<uint64_t>(kMaxSafeInteger)) return static_cast<int64_t>(v.get_uint64());
  } else if (v.is_double()) {
    double d = v.get_double();
    if (std::isfinite(d) && std::trunc(d) == d && std::fabs(d) <= static_cast<double>(kMaxSafeInteger)) {
      return static_cast<int64_t>(d);
    }
  }
  return std::nullopt;
}

class Reader {
 public:
  explicit Reader(Diagnostics& diagnostics) : diagnostics_(diagnostics) {}

  void expected(const std::string& path, std::string_view what, const json::value& got) {
    diagnostics_.errors.push_back(path + ": expected " + std::string(what) + ", got " + describe_value(got));
  }
  void unknown(const std::string& path) { diagnostics_.warnings.push_back(path + ": unknown key, ignored"); }
  void error(const std::string& path, std::string_view message) {
    diagnostics_.errors.push_back(path + ": " + std::string(message));
  }

  template <typename Enum, size_t N>
  std::optional<Enum> read_enum(const json::value& v, const std::string& path,
                                const EnumSpelling<Enum> (&spellings)[N]) {
    if (v.is_string()) {
      for (const auto& s : spellings) {
        if (v.get_string() == s.name) return s.value;
      }
    }
    std::string what = "one of ";
    for (size_t i = 0; i < N; ++i) what += (i ? ", \"" : "\"") + std::string(spellings[i].name) + "\"";
    expected(path, what, v);
    return std::nullopt;
  }

  std::optional<std::string> read_string(const json::value& v, const std::string& path) {
    if (v.is_string()) return std::string(v.get_string());
    expected(path, "a string", v);
    return std::nullopt;
  }

  std::optional<bool> read_bool(const json::value& v, const std::string& path) {
    if (v.is_bool()) return v.get_bool();
    expected(path, "true or false", v);
    return std::nullopt;
  }

  std::optional<int64_t> read_integer(const json::value& v, const std::string& path,
                                      const IntegerRule& rule) {
    if (!v.is_number()) {
      expected(path, "a number", v);
      return std::nullopt;
    }
    std::optional<int64_t> i = as_safe_integer(v);
    if (!i || *i < rule.min || *i > rule.max) {
      expected(path, rule.expected, v);
      return std::nullopt;
    }
    return i;
  }

  std::optional<std::vector<std::string>> read_string_list(const json::value& v, const std::string& path) {
    if (!v.is_array()) {
      expected(path, "an array of strings", v);
      return std::nullopt;
    }
    std::vector<std::string> out;
    bool ok = true;
    const json::array& items = v.get_array();
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].is_string()) {
        out.emplace_back(items[i].get_string());
      } else {
        expected(path + "[" + std::to_string(i) + "]", "a string", items[i]);
        ok = false;
      }
    }
    if (!ok) return std::nullopt;
    return out;
  }

  template <typename Enum, size_t N>
  std::optional<std::vector<Enum>> read_enum_list(const json::value& v, const std::string& path,
                                                  const EnumSpelling<Enum> (&spellings)[N]) {
    if (!v.is_array()) {
      expected(path, "an array of strings", v);
      return std::nullopt;
    }
    std::vector<Enum> out;
    bool ok = true;
    const json::array& items = v.get_array();
    for (size_t i = 0; i < items.size(); ++i) {
      std::optional<Enum> item = read_enum(items[i], path + "[" + std::to_string(i) + "]", spellings);
      if (item) {
        out.push_back(*item);
      } else {
        ok = false;
      }
    }
    if (!ok) return std::nullopt;
    return out;
  }

  const json::object* read_object(const json::value& v, const std::string& path) {
    if (v.is_object()) return &v.get_object();
    expected(path, "an object", v);
    return nullptr;
  }

  // Validates a strict object: each key must have a checker, which returns the value to keep
  // (minus unknown keys further down) or nullopt on error. Returns the object minus unknown
  // keys, or nullopt if anything was invalid.
  using Checker = std::function<std::optional<json::value>(const json::value&, const std::string&)>;
  std::optional<json::object> read_strict_object(const json::value& v, const std::string& path,
                                                 const std::map<std::string_view, Checker>& checkers) {
    const json::object* object = read_object(v, path);
    if (object == nullptr) return std::nullopt;
    json::object kept;
    bool ok = true;
    for (const auto& member : *object) {
      std::string member_path = child_path(path, member.key());
      auto it = checkers.find(std::string_view(member.key()));
      if (it == checkers.end()) {
        unknown(member_path);
        continue;
      }
      std::optional<json::value> value = it->second(member.value(), member_path);
      if (value) {
        kept.insert_or_assign(member.key(), std::move(*value));
      } else {
        ok = false;
      }
    }
    if (!ok) return std::nullopt;
    return kept;
  }

  // Checkers usable in read_strict_object.
  template <typename Read>
  Checker keep_if(Read read) {
    return [read](const json::value& v, const std::string& p) -> std::optional<json::value> {
      if (!read(v, p)) return std::nullopt;
      return v;
    };
  }
  Checker string_checker() {
    return keep_if(
        [this](const json::value& v, const std::string& p) { return read_string(v, p).has_value(); });
  }
  Checker bool_checker() {
    return keep_if(
        [this](const json::value& v, const std::string& p) { return read_bool(v, p).has_value(); });
  }
  Checker string_list_checker() {
    return keep_if(
        [this](const json::value& v, const std::string& p) { return read_string_list(v, p).has_value(); });
  }
  Checker integer_checker(const IntegerRule& rule) {
    return keep_if([this, &rule](const json::value& v, const std::string& p) {
      return read_integer(v, p, rule).has_value();
    });
  }

  std::optional<json::object> read_reviewer(const json::value& v, const std::string& path);
  std::optional<json::object> read_safe_bin_profiles(const json::value& v, const std::string& path);
  std::optional<ApplyPatchLayer> read_apply_patch(const json::value& v, const std::string& path);

 private:
  Diagnostics& diagnostics_;
};

std::optional<json::object> Reader::read_reviewer(const json::value& v, const std::string& path) {
  Checker model = [this](const json::value& m, const std::string& p) -> std::optional<json::value> {
    if (m.is_string()) return m;
    if (!m.is_object()) {
      expected(p, "a model name or an object", m);
      return std::nullopt;
    }
    auto kept =
        read_strict_object(m, p, {{"primary", string_checker()}, {"fallbacks", string_list_checker()}});
    if (!kept) return std::nullopt;
    return json::value(std::move(*kept));
  };
  Checker thinking = keep_if([this](const json::value& t, const std::string& p) {
    return read_enum(t, p, kThinkingLevels).has_value();
  });
  return read_strict_object(v, path,
                            {{"model", model},
                             {"thinking", thinking},
                             {"fastMode", bool_checker()},
                             {"timeoutMs", integer_checker(kPositive)}});
}

std::optional<json::object> Reader::read_safe_bin_profiles(const json::value& v, const std::string& path) {
  const json::object* profiles = read_object(v, path);
  if (profiles == nullptr) return std::nullopt;
  const std::map<std::string_view, Checker> profile_keys = {{"minPositional", integer_checker(kNonNegative)},
                                                            {"maxPositional", integer_checker(kNonNegative)},
                                                            {"allowedValueFlags", string_list_checker()},
                                                            {"deniedFlags", string_list_checker()}};
  json::object out;
  bool ok = true;
  for (const auto& member : *profiles) {
    auto profile = read_strict_object(member.value(), child_path(path, member.key()), profile_keys);
    if (profile) {
      out.insert_or_assign(member.key(), std::move(*profile));
    } else {
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  return out;
}

std::optional<ApplyPatchLayer> Reader::read_apply_patch(const json::value& v, const std::string& path) {
  const json::object* object = read_object(v, path);
  if (object == nullptr) return std::nullopt;
  ApplyPatchLayer layer;
  bool ok = true;
  for (const auto& member : *object) {
    std::string member_path = child_path(path, member.key());
    std::string_view key = member.key();
    if (key == "enabled") {
      layer.enabled = read_bool(member.value(), member_path);
      ok = ok && layer.enabled;
    } else if (key == "workspaceOnly") {
      layer.workspace_only = read_bool(member.value(), member_path);
      ok = ok && layer.workspace_only;
    } else if (key == "allowModels") {
      layer.allow_models = read_string_list(member.value(), member_path);
      ok = ok && layer.allow_models;
    } else if (key == "allowProtectedPaths") {
      layer.allow_protected_paths = read_enum_list(member.value(), member_path, kPatchPathClasses);
      ok = ok && layer.allow_protected_paths;
    } else {
      unknown(member_path);
    }
  }
  if (!ok) return std::nullopt;
  return layer;
}

}  // namespace

std::string child_path(std::string_view parent, std::string_view key) {
  bool plain = !key.empty();
  for (char c : key) {
    plain = plain && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '$' || c == '-');
  }
  if (plain) return std::string(parent) + "." + std::string(key);
  return std::string(parent) + "[" + json::serialize(json::string(key)) + "]";
}

std::string describe_value(const json::value& value) {
  switch (value.kind()) {
    case json::kind::null:
      return "null";
    case json::kind::bool_:
      return value.get_bool() ? "true" : "false";
    case json::kind::int64:
      return std::to_string(value.get_int64());
    case json::kind::uint64:
      return std::to_string(value.get_uint64());
    case json::kind::double_:
      return js_number(value.get_double());
    case json::kind::array:
      return "an array";
    case json::kind::object:
      return "an object";
    case json::kind::string: {
      std::string_view text = value.get_string();
      constexpr size_t kMaxShown = 60;
      if (utf16_length(text) <= kMaxShown) return json::serialize(value);
      return json::serialize(json::string(utf16_prefix(text, kMaxShown))) + "...";
    }
  }
  return "?";
}

ExecLayer read_exec_layer(const json::object& exec, const std::string& path, Diagnostics& diagnostics) {
  Reader r(diagnostics);
  ExecLayer layer;
  using Handler = std::function<void(const json::value&, const std::string&)>;
  const std::map<std::string_view, Handler> handlers = {
      {"host", [&](auto& v, auto& p) { layer.host = r.read_enum(v, p, kHosts); }},
      {"mode", [&](auto& v, auto& p) { layer.mode = r.read_enum(v, p, kModes); }},
      {"security", [&](auto& v, auto& p) { layer.security = r.read_enum(v, p, kSecurities); }},
      {"ask", [&](auto& v, auto& p) { layer.ask = r.read_enum(v, p, kAsks); }},
      {"node", [&](auto& v, auto& p) { layer.node = r.read_string(v, p); }},
      {"pathPrepend", [&](auto& v, auto& p) { layer.path_prepend = r.read_string_list(v, p); }},
      {"safeBins", [&](auto& v, auto& p) { layer.safe_bins = r.read_string_list(v, p); }},
      {"strictInlineEval", [&](auto& v, auto& p) { layer.strict_inline_eval = r.read_bool(v, p); }},
      {"commandHighlighting", [&](auto& v, auto& p) { layer.command_highlighting = r.read_bool(v, p); }},
      {"grantExpiryDays",
       [&](auto& v, auto& p) { layer.grant_expiry_days = r.read_integer(v, p, kGrantDays); }},
      {"safeBinTrustedDirs",
       [&](auto& v, auto& p) { layer.safe_bin_trusted_dirs = r.read_string_list(v, p); }},
      {"safeBinProfiles",
       [&](auto& v, auto& p) { layer.safe_bin_profiles = r.read_safe_bin_profiles(v, p); }},
      {"reviewer", [&](auto& v, auto& p) { layer.reviewer = r.read_reviewer(v, p); }},
      {"backgroundMs", [&](auto& v, auto& p) { layer.background_ms = r.read_integer(v, p, kPositive); }},
      {"approvalRunningNoticeMs",
       [&](auto& v, auto& p) { layer.approval_running_notice_ms = r.read_integer(v, p, kNonNegative); }},
      {"timeoutSeconds", [&](auto& v, auto& p) { layer.timeout_seconds = r.read_integer(v, p, kPositive); }},
      {"cleanupMs", [&](auto& v, auto& p) { layer.cleanup_ms = r.read_integer(v, p, kPositive); }},
      {"maxLiveSessions", [&](auto& v, auto& p) { layer.max_live_sessions = r.read_integer(v, p, kPositive); }},
      {"notifyOnExit", [&](auto& v, auto& p) { layer.notify_on_exit = r.read_bool(v, p); }},
      {"notifyOnExitEmptySuccess",
       [&](auto& v, auto& p) { layer.notify_on_exit_empty_success = r.read_bool(v, p); }},
      {"applyPatch", [&](auto& v, auto& p) { layer.apply_patch = r.read_apply_patch(v, p); }},
  };
  for (const auto& member : exec) {
    std::string member_path = child_path(path, member.key());
    auto it = handlers.find(std::string_view(member.key()));
    if (it == handlers.end()) {
      r.unknown(member_path);
    } else {
      it->second(member.value(), member_path);
    }
  }
  if (exec.contains("mode") && (exec.contains("security") || exec.contains("ask"))) {
    r.error(child_path(path, "mode"),
            "cannot be combined with security or ask in the same exec object; keep either mode or the legacy "
            "security/ask pair");
  }
  return layer;
}

const boost::json::object* child_object(const boost::json::object& parent, std::string_view key,
                                        const std::string& path, Diagnostics& diagnostics) {
  const boost::json::value* v = parent.if_contains(key);
  if (v == nullptr) return nullptr;
  if (v->is_object()) return &v->get_object();
  diagnostics.errors.push_back(path + ": expected an object, got " + describe_value(*v));
  return nullptr;
}

}  // namespace clawexec::config::detail
