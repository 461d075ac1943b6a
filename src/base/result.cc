#include "base/result.h"

#include <cerrno>
#include <cstring>

namespace clawexec {

Error Error::from_errno(std::string_view operation, int err) {
  ErrorCode code = ErrorCode::kIo;
  switch (err) {
    case ENOENT:
    case ESRCH:
      code = ErrorCode::kNotFound;
      break;
    case EACCES:
    case EPERM:
      code = ErrorCode::kPermissionDenied;
      break;
    case EINVAL:
    case ENOTDIR:
    case ENAMETOOLONG:
      code = ErrorCode::kInvalidArgument;
      break;
    case ETIMEDOUT:
      code = ErrorCode::kTimedOut;
      break;
    default:
      break;
  }
  std::string message(operation);
  message += ": ";
  message += std::strerror(err);
  return {code, err, std::move(message)};
}

}  // namespace clawexec
