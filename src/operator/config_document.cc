// Reading and atomically rewriting the JSON5 config document. The write goes through the
// project's one atomic replace (sys::replace_file_atomically: temp file beside the target,
// fsync, rename, directory fsync), keeping the old file's permission bits.

#include "operator/config_document.h"

#include <boost/json/object.hpp>
#include <cstdint>
#include <optional>

#include "config/exec_settings.h"
#include "config/json5.h"
#include "json/json.h"
#include "sys/file_system.h"
#include "sys/whole_file.h"
#include "sys/sys.h"

namespace clawexec::operator_ops {

namespace bj = boost::json;

Result<ConfigDocument> read_config_document(const std::string& path) {
  std::optional<std::string> text = TRY(config::read_config_file(path));
  ConfigDocument out;
  if (!text) {
    out.document = bj::object();
    return out;
  }
  out.exists = true;
  auto parsed = config::parse_json5(*text);
  if (!parsed.ok()) return Error::invalid("read config " + path + ": " + parsed.error().message);
  out.document = std::move(*parsed);
  if (!out.document.is_object()) return Error::invalid("read config " + path + ": the top level is not an object");
  return out;
}

Result<void> write_config_document(const std::string& path, const bj::value& document) {
  const std::string text = json::stringify(document, 2) + "\n";
  const size_t slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : (slash == 0 ? "/" : path.substr(0, slash));
  if (!sys::is_directory(dir)) {
    auto made = sys::make_directory(dir, 0700);
    if (!made.ok()) return Error::invalid("write config " + path + ": " + made.error().message);
  }
  uint32_t mode = 0600;
  auto existing = sys::lstat_path(path);
  if (existing.ok() && *existing) {
    if ((*existing)->type == sys::FileType::kSymlink) {
      return Error::rejected("write config " + path + ": refusing to replace a symlink");
    }
    mode = (*existing)->mode & 0777;
  }
  Result<void> written = sys::replace_file_atomically(path, text, mode, sys::Durability::kFsyncFileAndDirectory);
  if (!written.ok()) return Error::invalid("write config " + path + ": " + written.error().message);
  return {};
}

}  // namespace clawexec::operator_ops
