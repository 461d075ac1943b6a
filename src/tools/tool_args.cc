#include "tools/tool_args.h"

namespace clawexec::tools {

std::optional<std::string> string_arg(const json::Object& args, std::string_view key) {
  const json::Value* v = json::find(args, key);
  if (!v || !v->is_string()) return std::nullopt;
  return std::string(v->get_string());
}

std::optional<double> number_arg(const json::Object& args, std::string_view key) {
  const json::Value* v = json::find(args, key);
  return v ? json::as_number(*v) : std::nullopt;
}

std::optional<bool> bool_arg(const json::Object& args, std::string_view key) {
  const json::Value* v = json::find(args, key);
  if (!v || !v->is_bool()) return std::nullopt;
  return v->get_bool();
}

std::vector<std::string> strings_arg(const json::Object& args, std::string_view key) {
  std::vector<std::string> out;
  const json::Value* v = json::find(args, key);
  if (!v || !v->is_array()) return out;
  for (const json::Value& item : v->get_array()) {
    if (item.is_string()) out.emplace_back(item.get_string());
  }
  return out;
}

}  // namespace clawexec::tools
