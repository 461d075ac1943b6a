#include "approvals/system_fs.h"

#include "sys/sys.h"

namespace clawexec::approvals {

const policy::FsView& system_fs_view() {
  static const policy::FsView fs{
      [](const std::string& path) { return sys::is_executable_file(path); },
      [](const std::string& path) -> std::optional<std::string> {
        Result<std::string> real = sys::real_path(path);
        if (!real.ok()) return std::nullopt;
        return std::move(real).value();
      }};
  return fs;
}

}  // namespace clawexec::approvals
