#pragma once
// Names of background sessions: the id an agent passes back to `process` (a friendly
// "<adjective>-<noun>" slug, unique among live and retained sessions) and the short label
// derived from the command for lists and result details.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace clawexec::session {

/// A uniform random integer in [0, bound) (bound >= 1). The caller supplies a CSPRNG.
using UniformSource = std::function<uint32_t(uint32_t bound)>;
/// Whether an id is already used by a running, retained or still-notifying session.
using IsTaken = std::function<bool(std::string_view id)>;

/// A new session id. Tries up to 12 random "<adjective>-<noun>" bases, each also with the
/// suffixes -2..-12; then the same with "<adjective>-<noun>-<noun>"; then a three-word base
/// plus "-" and three random [a-z0-9]; if even that is taken, appends "-" and `now_ms` in
/// base 36 (now_ms: milliseconds since the epoch).
std::string create_session_slug(const UniformSource& random, const IsTaken& is_taken,
                                int64_t now_ms);

/// The word lists slugs are built from (lowercase letters only).
std::string_view slug_adjective(size_t index);
std::string_view slug_noun(size_t index);
size_t slug_adjective_count();
size_t slug_noun_count();

/// The reference's deriveSessionName, applied to the first command only: cut the command at
/// its first separator outside quotes (`;`, `&&`, `||`, `|`, `&`, newline), split that into
/// shell-like words (double-quoted strings with backslash escapes and single-quoted strings
/// stay inside a word), strip one level of surrounding quotes, and return "<verb> <target>"
/// where target is the first later word not starting with '-' (else the second word),
/// middle-truncated to 48 units; the verb alone when there is no second word. nullopt when
/// the command has no words.
/// Examples: "npm run build" -> "npm run", "ls -la" -> "ls -la",
/// "echo start; sleep 1; echo hi; exit 3" -> "echo start" (the reference: "echo start;").
std::optional<std::string> derive_session_name(std::string_view command);

}  // namespace clawexec::session
