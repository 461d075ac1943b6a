// `/approve` parsing and resolution.
//
// The command arrives as free chat-style text from an operator, so the parser is forgiving in
// the same ways as the reference (optional slash, any case, either argument order, several
// aliases per decision) and strict about the rest: anything it cannot read gets the usage
// text, never a guess. Tokens split on JavaScript white space; keyword comparison lowercases
// the way String.prototype.toLowerCase does for the ASCII vocabulary involved.

#include "policy/approve_command.h"

#include <algorithm>
#include <array>
#include <utility>

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::policy {
namespace {

/// toLowerCase() as far as it matters when comparing against ASCII keywords: ASCII letters
/// and U+212A KELVIN SIGN (which lowercases to 'k'); other characters are kept.
std::string keyword_lower(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  while (!text.empty()) {
    char32_t cp = 0;
    size_t len = decode_utf8(text, cp);
    if (len == 0) len = 1;
    if (cp == U'\u212A') {
      out += 'k';
    } else if (cp < 0x80) {
      out += ascii_lower(text.substr(0, 1));
    } else {
      out.append(text.substr(0, len));
    }
    text.remove_prefix(std::min(len, text.size()));
  }
  return out;
}

/// Splits on runs of JavaScript white space, dropping empty pieces.
std::vector<std::string_view> split_js_whitespace(std::string_view text) {
  std::vector<std::string_view> tokens;
  size_t start = std::string_view::npos;
  size_t i = 0;
  while (i < text.size()) {
    char32_t cp = 0;
    size_t len = decode_utf8(text.substr(i), cp);
    if (len == 0) len = 1;
    if (is_js_whitespace(cp)) {
      if (start != std::string_view::npos) tokens.push_back(text.substr(start, i - start));
      start = std::string_view::npos;
    } else if (start == std::string_view::npos) {
      start = i;
    }
    i += len;
  }
  if (start != std::string_view::npos) tokens.push_back(text.substr(start));
  return tokens;
}

/// True when the text at `pos` is the end or starts with JavaScript white space.
bool at_end_or_space(std::string_view text, size_t pos) {
  if (pos >= text.size()) return true;
  char32_t cp = 0;
  decode_utf8(text.substr(pos), cp);
  return is_js_whitespace(cp);
}

/// Length of the leading "/approve" or "approve" when followed by white space or the end.
size_t command_prefix_length(std::string_view text) {
  size_t slash = !text.empty() && text[0] == '/' ? 1 : 0;
  constexpr std::string_view kWord = "approve";
  if (text.size() < slash + kWord.size() || !iequals(text.substr(slash, kWord.size()), kWord)) return 0;
  size_t end = slash + kWord.size();
  return at_end_or_space(text, end) ? end : 0;
}

bool is_foreign_bot_mention(std::string_view text) {
  constexpr std::string_view kPrefix = "/approve@";
  if (text.size() <= kPrefix.size() || !iequals(text.substr(0, kPrefix.size()), kPrefix)) return false;
  return !at_end_or_space(text, kPrefix.size());
}

ApproveParse reply(std::string_view text) { return {ApproveParseKind::kReply, std::string(text), {}}; }

bool contains_word_ci(std::string_view haystack, std::string_view needle) {
  std::string h = ascii_lower(haystack);
  auto is_word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || (c >= 'A' && c <= 'Z');
  };
  for (size_t pos = h.find(needle); pos != std::string::npos; pos = h.find(needle, pos + 1)) {
    bool left_ok = pos == 0 || !is_word(h[pos - 1]);
    size_t end = pos + needle.size();
    bool right_ok = end >= h.size() || !is_word(h[end]);
    if (left_ok && right_ok) return true;
  }
  return false;
}

}  // namespace

std::optional<ApprovalDecision> approve_decision_alias(std::string_view token) {
  static constexpr std::array<std::pair<std::string_view, ApprovalDecision>, 10> kAliases = {{
      {"allow", ApprovalDecision::kAllowOnce},
      {"once", ApprovalDecision::kAllowOnce},
      {"allow-once", ApprovalDecision::kAllowOnce},
      {"allowonce", ApprovalDecision::kAllowOnce},
      {"always", ApprovalDecision::kAllowAlways},
      {"allow-always", ApprovalDecision::kAllowAlways},
      {"allowalways", ApprovalDecision::kAllowAlways},
      {"deny", ApprovalDecision::kDeny},
      {"reject", ApprovalDecision::kDeny},
      {"block", ApprovalDecision::kDeny},
  }};
  std::string key = keyword_lower(js_trim(token));
  for (const auto& [alias, decision] : kAliases) {
    if (alias == key) return decision;
  }
  return std::nullopt;
}

ApproveParse parse_approve_command(std::string_view text) {
  std::string_view trimmed = js_trim(text);
  if (is_foreign_bot_mention(trimmed)) return reply(kApproveForeignBotText);
  size_t prefix = command_prefix_length(trimmed);
  if (prefix == 0) return {};
  std::vector<std::string_view> tokens = split_js_whitespace(js_trim(trimmed.substr(prefix)));
  if (tokens.size() < 2) return reply(kApproveUsageText);
  if (auto decision = approve_decision_alias(tokens[0])) {
    std::vector<std::string> rest(tokens.begin() + 1, tokens.end());
    return {ApproveParseKind::kRequest, "", {std::string(js_trim(join(rest, " "))), *decision}};
  }
  if (auto decision = approve_decision_alias(tokens[1])) {
    return {ApproveParseKind::kRequest, "", {std::string(tokens[0]), *decision}};
  }
  return reply(kApproveUsageText);
}

std::string approve_success_reply(ApprovalDecision decision, std::string_view id) {
  return "✅ Approval " + std::string(to_string(decision)) + " submitted for " + std::string(id) + ".";
}

std::string approve_failure_reply(std::string_view error) {
  return "❌ Failed to submit approval: " + std::string(error);
}

bool is_approval_not_found_error(const Error& error) {
  if (error.code == ErrorCode::kNotFound) return true;
  return contains_word_ci(error.message, "unknown or expired approval id") ||
         contains_word_ci(error.message, "approval expired or not found");
}

std::optional<std::string> handle_approve_command(std::string_view text, const std::vector<ApprovalResolver>& resolvers) {
  ApproveParse parsed = parse_approve_command(text);
  if (parsed.kind == ApproveParseKind::kNotApprove) return std::nullopt;
  if (parsed.kind == ApproveParseKind::kReply) return parsed.reply;
  if (resolvers.empty()) return approve_failure_reply("unknown or expired approval id");
  for (size_t i = 0; i < resolvers.size(); ++i) {
    Result<void> outcome = resolvers[i](parsed.request);
    if (outcome.ok()) return approve_success_reply(parsed.request.decision, parsed.request.id);
    bool last = i + 1 == resolvers.size();
    if (!is_approval_not_found_error(outcome.error()) || last) return approve_failure_reply(outcome.error().message);
  }
  return approve_failure_reply("unknown or expired approval id");  // unreachable
}

}  // namespace clawexec::policy
