// The `/exec` directive.
//
// An operator writes the directive inside ordinary text ("/exec host=node run the tests"), so
// extraction has two jobs: read as many option tokens as follow the directive and stop at the
// first word that is not one, then cut exactly the consumed span out of the message without
// disturbing the rest (a directive alone on its line takes the line with it; otherwise one
// neighbouring space goes). All offsets are UTF-8 byte offsets; white space is JavaScript's
// \s set, decoded per code point, since every such character is a single UTF-16 unit.

#include "policy/exec_directive.h"

#include <vector>

#include "base/strings.h"
#include "base/utf.h"

namespace clawexec::policy {
namespace {

constexpr std::string_view kDirective = "/exec";

bool space_at(std::string_view text, size_t pos) {
  if (pos >= text.size()) return false;
  char32_t cp = 0;
  decode_utf8(text.substr(pos), cp);
  return is_js_whitespace(cp);
}

/// Byte length of the code point starting at `pos` (at least 1).
size_t cp_length(std::string_view text, size_t pos) {
  char32_t cp = 0;
  size_t len = decode_utf8(text.substr(pos), cp);
  return len == 0 ? 1 : len;
}

/// True when the code point ending just before `pos` is white space (or pos is 0).
bool space_or_start_before(std::string_view text, size_t pos) {
  if (pos == 0) return true;
  size_t begin = pos - 1;
  while (begin > 0 && (static_cast<unsigned char>(text[begin]) & 0xC0) == 0x80) --begin;
  return space_at(text, begin);
}

bool all_js_space(std::string_view text) {
  for (size_t i = 0; i < text.size(); i += cp_length(text, i)) {
    if (!space_at(text, i)) return false;
  }
  return true;
}

bool only_blanks(std::string_view text) { return text.find_first_not_of(" \t") == std::string_view::npos; }

/// toLowerCase() for comparisons with ASCII keywords (ASCII letters, and U+212A KELVIN SIGN,
/// which lowercases to 'k').
std::string keyword_lower(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size();) {
    size_t len = cp_length(text, i);
    if (text.substr(i, len) == "\u212A") {
      out += 'k';
    } else {
      out += ascii_lower(text.substr(i, len));
    }
    i += len;
  }
  return out;
}

size_t find_directive(std::string_view text, std::string_view directive = kDirective) {
  for (size_t pos = 0; pos + directive.size() <= text.size(); ++pos) {
    if (!iequals(text.substr(pos, directive.size()), directive)) continue;
    size_t end = pos + directive.size();
    bool follows_ok = end == text.size() || text[end] == ':' || space_at(text, end);
    if (follows_ok && space_or_start_before(text, pos)) return pos;
  }
  return std::string_view::npos;
}

/// Reads option tokens from `args`; returns how many bytes of `args` the directive consumed.
size_t parse_options(std::string_view args, ExecDirective& out) {
  size_t i = 0;
  while (space_at(args, i)) i += cp_length(args, i);
  i = i < args.size() && args[i] == ':' ? i + 1 : 0;  // only a colon commits the prefix
  size_t consumed = i;
  while (i < args.size()) {
    while (space_at(args, i)) i += cp_length(args, i);
    if (i >= args.size()) break;
    size_t start = i;
    while (i < args.size() && !space_at(args, i)) i += cp_length(args, i);
    std::string_view token = args.substr(start, i - start);
    size_t split = token.find_first_of("=:");
    if (split == std::string_view::npos || split == 0) break;
    std::string key = keyword_lower(token.substr(0, split));
    std::string value(js_trim(token.substr(split + 1)));
    if (key == "host") {
      out.raw_host = value;
      out.host = normalize_exec_target(value);
      out.invalid_host = !out.host;
    } else if (key == "security") {
      out.raw_security = value;
      out.security = normalize_exec_security(value);
      out.invalid_security = !out.security;
    } else if (key == "ask") {
      out.raw_ask = value;
      out.ask = normalize_exec_ask(value);
      out.invalid_ask = !out.ask;
    } else if (key == "node") {
      out.raw_node = value;
      out.invalid_node = value.empty();
      out.node = value.empty() ? std::nullopt : std::optional<std::string>(value);
    } else {
      break;
    }
    out.has_options = true;
    consumed = i;
  }
  return consumed;
}

/// Cuts [start, end) out of `body`, widening the cut to the whole line or one adjacent blank.
std::string remove_span(std::string_view body, size_t start, size_t end) {
  size_t line_start = start == 0 ? 0 : body.rfind('\n', start - 1) + 1;  // npos + 1 == 0
  std::string_view before = body.substr(line_start, start - line_start);
  std::string_view after = body.substr(end);
  size_t blanks = after.find_first_not_of(" \t");
  if (blanks == std::string_view::npos) blanks = after.size();
  std::string_view rest = after.substr(blanks);
  size_t line_ending = rest.empty() ? 0 : rest.rfind("\r\n", 0) == 0 ? 2 : rest[0] == '\n' ? 1 : std::string_view::npos;
  size_t cut_start = start;
  size_t cut_end = end;
  if (only_blanks(before) && line_ending != std::string_view::npos) {
    cut_start = line_start;
    cut_end = end + blanks + line_ending;
  } else if (end < body.size() && (body[end] == ' ' || body[end] == '\t')) {
    cut_end += 1;
  } else if ((end == body.size() || body[end] == '\r' || body[end] == '\n') && !all_js_space(before) &&
             (body[start - 1] == ' ' || body[start - 1] == '\t')) {
    cut_start -= 1;
  }
  std::string cleaned(body.substr(0, cut_start));
  cleaned += body.substr(cut_end);
  return all_js_space(cleaned) ? std::string() : cleaned;
}

std::string system_ack(std::string_view text) { return "⚙️ " + std::string(js_trim(text)); }

std::string options_ack(std::string_view label, const std::vector<std::string>& parts) {
  return std::string(label) + " (" + join(parts, ", ") + ").";
}

std::optional<std::string> invalid_message(const ExecDirective& d) {
  if (d.invalid_host) {
    return "Unrecognized exec host \"" + d.raw_host.value_or("") + "\". Valid hosts: auto, sandbox, gateway, node.";
  }
  if (d.invalid_security) {
    return "Unrecognized exec security \"" + d.raw_security.value_or("") + "\". Valid: deny, allowlist, full.";
  }
  if (d.invalid_ask) return "Unrecognized exec ask \"" + d.raw_ask.value_or("") + "\". Valid: off, on-miss, always.";
  if (d.invalid_node) return std::string("Exec node requires a value.");
  return std::nullopt;
}

std::string current_defaults_text(const ExecDefaultsView& c) {
  std::string node = c.node && !c.node->empty() ? "node=" + *c.node : std::string("node=(unset)");
  return "Current exec defaults: host=" + std::string(config::to_string(c.host)) +
         ", effective=" + std::string(config::to_string(c.effective_host)) +
         ", security=" + std::string(config::to_string(c.security)) +
         ", ask=" + std::string(config::to_string(c.ask)) + ", " + node +
         ".\nOptions: host=auto|sandbox|gateway|node, security=deny|allowlist|full, ask=off|on-miss|always, "
         "node=<id>.";
}

std::string acknowledgements(const ExecDirective& d, ExecPersistence persistence) {
  std::vector<std::string> acks;
  std::vector<std::string> placement;
  if (d.host) placement.push_back("host=" + std::string(config::to_string(*d.host)));
  if (d.node) placement.push_back("node=" + *d.node);
  if (!placement.empty()) {
    acks.push_back(system_ack(persistence == ExecPersistence::kAllowed
                                  ? options_ack("Exec defaults set", placement)
                                  : "Exec defaults require operator.admin for gateway callers; skipped persistence."));
  }
  std::vector<std::string> run_policy;
  if (d.security) run_policy.push_back("security=" + std::string(config::to_string(*d.security)));
  if (d.ask) run_policy.push_back("ask=" + std::string(config::to_string(*d.ask)));
  if (!run_policy.empty()) acks.push_back(system_ack(options_ack("Exec policy for this run only", run_policy)));
  std::string text(js_trim(join(acks, " ")));
  return text.empty() ? "OK." : text;
}

}  // namespace

std::optional<std::string> normalize_elevated_level(std::string_view raw) {
  std::string key = lower_trimmed(raw);
  for (std::string_view v : {"off", "false", "no", "0"}) if (key == v) return "off";
  for (std::string_view v : {"full", "auto", "auto-approve", "autoapprove"}) if (key == v) return "full";
  for (std::string_view v : {"ask", "prompt", "approval", "approve"}) if (key == v) return "ask";
  for (std::string_view v : {"on", "true", "yes", "1"}) if (key == v) return "on";
  return std::nullopt;
}

ElevatedDirective extract_elevated_directive(std::string_view message) {
  ElevatedDirective out;
  size_t start = std::string_view::npos;
  size_t name_length = 0;
  for (std::string_view name : {std::string_view("/elevated"), std::string_view("/elev")}) {
    start = find_directive(message, name);
    if (start != std::string_view::npos) {
      name_length = name.size();
      break;
    }
  }
  if (start == std::string_view::npos) return out;
  out.has_directive = true;
  std::string_view args = message.substr(start + name_length);
  size_t i = 0;
  while (space_at(args, i)) i += cp_length(args, i);
  if (i < args.size() && args[i] == ':') ++i;
  while (space_at(args, i)) i += cp_length(args, i);
  size_t level_start = i;
  while (i < args.size() && !space_at(args, i)) i += cp_length(args, i);
  if (i > level_start) {
    out.raw_level = std::string(args.substr(level_start, i - level_start));
    out.level = normalize_elevated_level(out.raw_level);
  }
  return out;
}

std::string elevated_directive_ack(std::string_view level, bool sandboxed) {
  std::string text = level == "off"  ? "Elevated mode disabled."
                     : level == "full" ? "Elevated mode set to full (auto-approve)."
                                       : "Elevated mode set to ask (approvals may still apply).";
  std::string out = system_ack(text);
  if (!sandboxed) out += "\n" + system_ack("Runtime is direct; sandboxing does not apply.");
  return out;
}

ExecDirective extract_exec_directive(std::string_view message) {
  ExecDirective out;
  size_t start = message.empty() ? std::string_view::npos : find_directive(message);
  if (start == std::string_view::npos) {
    out.cleaned = std::string(message);
    return out;
  }
  out.has_directive = true;
  out.at_message_start = all_js_space(message.substr(0, start));
  size_t args_start = start + kDirective.size();
  size_t consumed = parse_options(message.substr(args_start), out);
  out.cleaned = remove_span(message, start, args_start + consumed);
  return out;
}

std::optional<std::string> exec_directive_reply(const ExecDirective& d, const ExecDefaultsView& current,
                                                ExecPersistence persistence) {
  if (!d.has_directive) return std::nullopt;
  // A message starting with a bare /exec is the /exec command; its leftover words are errors.
  bool command_form = d.at_message_start && !d.has_options && !d.cleaned.empty();
  bool directive_only = d.cleaned.empty() || command_form;
  if (!directive_only) return std::nullopt;
  if (auto invalid = invalid_message(d)) return invalid;
  if (command_form) {
    std::string_view rest = js_trim_start(d.cleaned);
    size_t end = 0;
    while (end < rest.size() && !space_at(rest, end)) end += cp_length(rest, end);
    return "Unexpected argument \"" + std::string(rest.substr(0, end)) + "\" for /exec.";
  }
  if (!d.has_options) return current_defaults_text(current);
  return acknowledgements(d, persistence);
}

}  // namespace clawexec::policy
