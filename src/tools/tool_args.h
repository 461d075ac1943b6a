#pragma once
// Typed reads of already schema-checked tool arguments. A missing or differently typed
// argument reads as absent (the schema check ran first; tools treat absent as "default").

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "json/json.h"

namespace clawexec::tools {

std::optional<std::string> string_arg(const json::Object& args, std::string_view key);
std::optional<double> number_arg(const json::Object& args, std::string_view key);
std::optional<bool> bool_arg(const json::Object& args, std::string_view key);
/// The string items of an array argument (others skipped); empty when absent.
std::vector<std::string> strings_arg(const json::Object& args, std::string_view key);

}  // namespace clawexec::tools
