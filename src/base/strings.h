#pragma once
// Small string helpers shared by every module (ASCII case mapping, splitting, joining, and
// the middle-truncation the reference uses for labels).

#include <string>
#include <string_view>
#include <vector>

namespace clawexec {

std::string ascii_upper(std::string_view s);
std::string ascii_lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);

/// Trims ASCII white space (space, \t, \n, \v, \f, \r).
std::string_view trim_ascii(std::string_view s);

/// The reference's `value.trim().toLowerCase()` for names it compares against ASCII literals
/// (modes, hosts, model ids, file extensions): JavaScript's trim (js_trim, Unicode white space
/// included), then ASCII lowering (non-ASCII letters cannot match an ASCII literal anyway).
std::string lower_trimmed(std::string_view s);

std::vector<std::string_view> split(std::string_view s, char separator);
std::string join(const std::vector<std::string>& parts, std::string_view separator);

/// The reference's truncateMiddle: if `s` is longer than `max` UTF-16 units, keep
/// floor((max-3)/2) units at each end joined by "...".
std::string truncate_middle(std::string_view s, size_t max);

}  // namespace clawexec
