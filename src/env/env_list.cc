#include "env/env_list.h"

#include <algorithm>

namespace clawexec::env {
namespace {

EnvList::const_iterator find_entry(const EnvList& env, std::string_view name) {
  return std::find_if(env.begin(), env.end(), [&](const auto& entry) { return entry.first == name; });
}

}  // namespace

const std::string* find_var(const EnvList& env, std::string_view name) {
  auto it = find_entry(env, name);
  return it == env.end() ? nullptr : &it->second;
}

void set_var(EnvList& env, std::string_view name, std::string value) {
  auto it = std::find_if(env.begin(), env.end(), [&](const auto& entry) { return entry.first == name; });
  if (it != env.end()) {
    it->second = std::move(value);
  } else {
    env.emplace_back(std::string(name), std::move(value));
  }
}

bool erase_var(EnvList& env, std::string_view name) {
  auto it = find_entry(env, name);
  if (it == env.end()) return false;
  env.erase(it);
  return true;
}

std::vector<std::string> to_assignments(const EnvList& env) {
  std::vector<std::string> out;
  out.reserve(env.size());
  for (const auto& [name, value] : env) {
    std::string line;
    line.reserve(name.size() + 1 + value.size());
    line.append(name).append(1, '=').append(value);
    out.push_back(std::move(line));
  }
  return out;
}

std::vector<std::string> sorted_names(const EnvList& env) {
  std::vector<std::string> names;
  names.reserve(env.size());
  for (const auto& [name, value] : env) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

}  // namespace clawexec::env
