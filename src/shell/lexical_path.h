#pragma once
// Lexical POSIX path arithmetic (no file-system access) and file: URL decoding, as Node's
// path.resolve / path.join and url.fileURLToPath compute them.

#include <optional>
#include <string>
#include <string_view>

namespace clawexec::shell {

/// Node's path.posix.resolve(base, path) without a process cwd: `path` if absolute, else
/// base + "/" + path; "." and ".." segments and repeated or trailing slashes removed. A
/// relative `base` is taken relative to "/".
std::string resolve_lexically(std::string_view base, std::string_view path);

/// Node's path.posix.join(a, b) followed by resolution against "/" when relative.
std::string join_lexically(std::string_view a, std::string_view b);

/// True when normalised absolute `target` is `root` or lies below it.
bool is_path_inside(std::string_view root, std::string_view target);

/// Node's url.fileURLToPath on POSIX for a string starting with "file:" (any case): the
/// percent-decoded path with dot segments resolved. nullopt where Node throws: a host other
/// than "" or "localhost", an encoded "/" (%2F) in the path, or malformed percent-encoding.
std::optional<std::string> file_url_to_path(std::string_view url);

/// JavaScript's decodeURIComponent: nullopt for malformed escapes or invalid UTF-8.
std::optional<std::string> decode_uri_component(std::string_view text);

}  // namespace clawexec::shell
