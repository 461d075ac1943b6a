// Reading the reviewer model's answer.
//
// Problem: the model's text is untrusted; only a clean, unambiguous answer in the agreed
// schema may let a command run, and every other text must become ask/unknown with the reason
// the reference gives (§8), so that the approval a human then sees explains why.
// Approach (the reference's parsing rules, with OpenClaw's stricter key checks, in order):
//   1. trim; a text fenced by ``` (optionally ```json, any case) on both ends is unwrapped;
//   2. it must start with '{' and end with '}'  -> else "returned no parseable JSON";
//   3. it must parse as JSON                     -> else "returned malformed JSON";
//   4. no top-level key may repeat               -> else "returned ambiguous JSON";
//   5. only decision, risk, rationale and user_authorization, with decision in allow | ask
//      (so "allow-once" and "deny" too are unsupported), risk and user_authorization in
//      low | medium | high | unknown, rationale a string
//                                                -> else "returned an unsupported response";
//   6. ask is kept; allow becomes allow-once when the risk is low, else ask "returned a
//      non-low allow decision" with the risk the model gave.

#include <boost/json.hpp>
#include <set>

#include "base/utf.h"
#include "json/json.h"
#include "policy/auto_review.h"

namespace clawexec::policy {
namespace {

constexpr std::string_view kMissingRationale = "exec reviewer did not explain decision";

ReviewAnswer unparsed(std::string_view rationale) {
  return {ReviewDecision::kAsk, ReviewLevel::kUnknown, std::string(rationale), std::nullopt};
}

// Consumes one code point of `word` ("json") case-insensitively as JavaScript's /iu does:
// simple case folding, under which U+017F LATIN SMALL LETTER LONG S is an "s".
bool starts_with_json_word(std::string_view text, size_t& length) {
  size_t pos = 0;
  for (char want : std::string_view("json")) {
    if (pos >= text.size()) return false;
    char32_t cp = 0;
    size_t n = decode_utf8(text.substr(pos), cp);
    const bool same = cp == static_cast<char32_t>(want) || cp == static_cast<char32_t>(want - 'a' + 'A') ||
                      (want == 's' && cp == 0x017F);
    if (!same) return false;
    pos += n;
  }
  length = pos;
  return true;
}

// /^```(?:json)?\s*([\s\S]*?)\s*```$/iu on the trimmed text: the inside of the fence without
// the optional "json" tag, trimmed; the trimmed text itself when it is not fenced.
std::string_view strip_json_fence(std::string_view text) {
  std::string_view trimmed = js_trim(text);
  constexpr std::string_view kFence = "```";
  if (trimmed.size() < 2 * kFence.size() || !trimmed.starts_with(kFence) || !trimmed.ends_with(kFence)) {
    return trimmed;
  }
  std::string_view inner = trimmed.substr(kFence.size(), trimmed.size() - 2 * kFence.size());
  size_t tag = 0;
  if (starts_with_json_word(inner, tag)) inner.remove_prefix(tag);
  return js_trim(inner);
}

// OpenClaw's scan for a repeated key at nesting depth 1 (brackets count as depth; strings
// are skipped with their escapes; a string followed by optional space and ':' is a key).
bool has_duplicate_top_level_keys(std::string_view text) {
  std::set<std::string> keys;
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '{' || c == '[') ++depth;
    if (c == '}' || c == ']') --depth;
    if (c != '"') continue;
    size_t end = i + 1;
    for (bool escaped = false; end < text.size(); ++end) {
      if (escaped) {
        escaped = false;
      } else if (text[end] == '\\') {
        escaped = true;
      } else if (text[end] == '"') {
        break;
      }
    }
    if (depth == 1) {
      size_t next = end + 1;
      while (next < text.size() &&
             (text[next] == ' ' || text[next] == '\t' || text[next] == '\n' || text[next] == '\r')) {
        ++next;
      }
      if (next < text.size() && text[next] == ':') {
        auto key = json::parse(text.substr(i, end + 1 - i));
        std::string decoded = key && key->is_string() ? std::string(key->as_string()) : std::string();
        if (!keys.insert(std::move(decoded)).second) return true;
      }
    }
    i = end;
  }
  return false;
}

std::optional<ReviewLevel> level_named(std::string_view name) {
  if (name == "low") return ReviewLevel::kLow;
  if (name == "medium") return ReviewLevel::kMedium;
  if (name == "high") return ReviewLevel::kHigh;
  if (name == "unknown") return ReviewLevel::kUnknown;
  return std::nullopt;
}

std::optional<ReviewLevel> level_member(const boost::json::value* v) {
  if (v == nullptr || !v->is_string()) return std::nullopt;
  return level_named(v->get_string());
}

// The answer for a parsed object, or nullopt when it does not fit the schema.
std::optional<ReviewAnswer> answer_from_object(const boost::json::object& o) {
  for (const auto& member : o) {
    const std::string_view key = member.key();
    if (key != "decision" && key != "risk" && key != "rationale" && key != "user_authorization") return std::nullopt;
  }
  const boost::json::value* decision = json::find(o, "decision");
  if (decision == nullptr || !decision->is_string()) return std::nullopt;
  const std::string_view name = decision->get_string();
  if (name != "allow" && name != "ask") return std::nullopt;
  const std::optional<ReviewLevel> risk = level_member(json::find(o, "risk"));
  if (!risk) return std::nullopt;
  const boost::json::value* rationale = json::find(o, "rationale");
  if (rationale != nullptr && !rationale->is_string()) return std::nullopt;
  const boost::json::value* authorization = json::find(o, "user_authorization");
  const std::optional<ReviewLevel> user_authorization = level_member(authorization);
  if (authorization != nullptr && !user_authorization) return std::nullopt;

  ReviewAnswer answer{ReviewDecision::kAsk, *risk, "", user_authorization};
  answer.rationale =
      clean_rationale(rationale != nullptr ? std::string_view(rationale->get_string()) : "", kMissingRationale);
  if (name == "allow") {
    if (*risk == ReviewLevel::kLow) {
      answer.decision = ReviewDecision::kAllowOnce;
    } else {
      answer.rationale = "exec reviewer returned a non-low allow decision";
    }
  }
  return answer;
}

}  // namespace

ReviewAnswer parse_review_output(std::string_view model_text) {
  const std::string valid = to_valid_utf8(model_text);
  const std::string_view object_text = strip_json_fence(valid);
  if (!object_text.starts_with('{') || !object_text.ends_with('}')) {
    return unparsed("exec reviewer returned no parseable JSON");
  }
  const std::optional<json::Value> parsed = json::parse(object_text);
  if (!parsed) return unparsed("exec reviewer returned malformed JSON");
  if (has_duplicate_top_level_keys(object_text)) return unparsed("exec reviewer returned ambiguous JSON");
  std::optional<ReviewAnswer> answer = parsed->is_object() ? answer_from_object(parsed->get_object()) : std::nullopt;
  if (!answer) return unparsed("exec reviewer returned an unsupported response");
  return *answer;
}

}  // namespace clawexec::policy
