#pragma once
// The `/exec` session directive (exec reference §5.1-5.2): finding it in an operator's message,
// reading its host/security/ask/node options, removing it from the text, and the replies to a
// message that consists of the directive alone. Pure: the current defaults are an input.

#include <optional>
#include <string>
#include <string_view>

#include "policy/modes.h"

namespace clawexec::policy {

/// What a message says through its (first) `/exec` directive.
struct ExecDirective {
  bool has_directive = false;
  bool at_message_start = false;  // only white space precedes the directive
  /// The message without the directive (whole line removed when the directive filled it, one
  /// adjacent space eaten otherwise); "" when nothing but white space would remain.
  std::string cleaned;
  std::optional<ExecHost> host;  // may be kAuto
  std::optional<ExecSecurity> security;
  std::optional<ExecAsk> ask;
  std::optional<std::string> node;  // trimmed, non-blank
  std::optional<std::string> raw_host;
  std::optional<std::string> raw_security;
  std::optional<std::string> raw_ask;
  std::optional<std::string> raw_node;
  bool has_options = false;  // at least one host/security/ask/node token was consumed
  bool invalid_host = false;
  bool invalid_security = false;
  bool invalid_ask = false;
  bool invalid_node = false;
};

/// The `/elevated` (or `/elev`) session directive (exec reference §4.3): its level, when given.
struct ElevatedDirective {
  bool has_directive = false;
  std::string raw_level;             // the word after it ("" when none)
  std::optional<std::string> level;  // off | on | ask | full, when raw_level is one (or an alias)
};

/// OpenClaw's normalizeElevatedLevel: off/false/no/0, full/auto/auto-approve/autoapprove,
/// ask/prompt/approval/approve, on/true/yes/1 (case-insensitive); nullopt otherwise.
std::optional<std::string> normalize_elevated_level(std::string_view raw);

/// Finds the first `/elevated` or `/elev` (as `/exec` is found) and reads the level after it
/// (an optional ':' first).
ElevatedDirective extract_elevated_directive(std::string_view message);

/// The acknowledgement of a level set: "⚙️ Elevated mode set to ask (approvals may still
/// apply).", with the reference's "Runtime is direct" line when the session is not sandboxed.
std::string elevated_directive_ack(std::string_view level, bool sandboxed);

/// Finds the first `/exec` (case-insensitive, at the start or after white space, followed by
/// the end, white space or ':'), skips an optional ":" prefix, then consumes key=value or
/// key:value tokens (the earlier of '=' and ':' splits; key lower-cased) for host, security,
/// ask and node, stopping at the first other token. A repeated key overwrites.
ExecDirective extract_exec_directive(std::string_view message);

/// The defaults a bare `/exec` reports (resolved by the caller, approvals file applied).
struct ExecDefaultsView {
  ExecHost host = ExecHost::kAuto;  // configured target label
  ExecHost effective_host = ExecHost::kGateway;
  ExecSecurity security = ExecSecurity::kFull;
  ExecAsk ask = ExecAsk::kOff;
  std::optional<std::string> node;
};

/// Whether the sender may persist session defaults (host/node).
enum class ExecPersistence { kAllowed, kDenied };

/// The reply to a message carrying the directive, or nullopt when there is none to give (no
/// directive, or the directive shares the message with other text and is simply applied to
/// that run). In order: the invalid-value messages ("Unrecognized exec host \"<raw>\". Valid
/// hosts: auto, sandbox, gateway, node." ...; "Exec node requires a value."); for a message
/// that starts with a bare /exec followed by other text, "Unexpected argument \"<word>\" for
/// /exec."; for a directive-only message without options, the current defaults and the
/// options line; otherwise the acknowledgements "⚙️ Exec defaults set (host=<h>, node=<n>)."
/// (or, when persistence is denied, "⚙️ Exec defaults require operator.admin for gateway
/// callers; skipped persistence.") and "⚙️ Exec policy for this run only (security=<s>,
/// ask=<a>).", each listing only the keys given, joined by one space.
std::optional<std::string> exec_directive_reply(const ExecDirective& directive, const ExecDefaultsView& current,
                                                ExecPersistence persistence);

}  // namespace clawexec::policy
