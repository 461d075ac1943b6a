// Reading the config file from disk. A missing file is normal (defaults apply), so a missing
// path maps to "no file"; every other failure is an error that names the path.

#include "config/exec_settings.h"
#include "sys/sys.h"

namespace clawexec::config {

Result<std::optional<std::string>> read_config_file(const std::string& path) {
  return sys::read_file_if_exists(path, "read config file " + path);
}

}  // namespace clawexec::config
