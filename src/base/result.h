#pragma once
// Error and Result<T>: the one way fallible functions report failure in clawexec.
// Result mirrors the slice of C++23 std::expected we use (GCC 12 has no <expected> in C++20),
// so moving to std::expected later is a rename. No exceptions cross module boundaries.

#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace clawexec {

/// Canonical categories. Callers branch on these, never on message text.
enum class ErrorCode {
  kInvalidArgument,  // the caller asked for something malformed
  kNotFound,
  kPermissionDenied,
  kTimedOut,
  kRejected,  // refused by policy (security violation, denied host, ...)
  kCancelled,
  kIo,
  kInternal,
};

/// A recoverable failure: a code to branch on, the errno when a syscall failed, and a message
/// that names the operation and its subject ("spawn /bin/sh: No such file or directory")
/// because an agent will read it.
struct [[nodiscard]] Error {
  ErrorCode code = ErrorCode::kInternal;
  int sys_errno = 0;
  std::string message;

  /// "<operation>: <strerror(err)>", code derived from err.
  static Error from_errno(std::string_view operation, int err);
  static Error invalid(std::string message) {
    return {ErrorCode::kInvalidArgument, 0, std::move(message)};
  }
  static Error rejected(std::string message) { return {ErrorCode::kRejected, 0, std::move(message)}; }
  static Error internal(std::string message) { return {ErrorCode::kInternal, 0, std::move(message)}; }
};

template <typename T>
class [[nodiscard]] Result {
 public:
  Result(T value) : state_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit by design
  Result(Error error) : state_(std::in_place_index<1>, std::move(error)) {}  // NOLINT

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(state_); }
  const T& value() const& { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const& { return std::get<1>(state_); }
  Error&& error() && { return std::get<1>(std::move(state_)); }

  template <typename U>
  T value_or(U&& fallback) const& {
    return ok() ? value() : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  std::variant<T, Error> state_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : error_(std::move(error)), ok_(false) {}  // NOLINT

  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  void value() const {}
  const Error& error() const& { return error_; }
  Error&& error() && { return std::move(error_); }

 private:
  Error error_;
  bool ok_ = true;
};

/// Marks a deliberately ignored result; greppable in review.
template <typename T>
void ignore_error(const Result<T>&) {}

}  // namespace clawexec

/// Yields the value of a Result expression, or returns its Error from the enclosing function.
/// GNU statement expression: GCC and Clang only, chosen deliberately (POSIX-only project).
#define TRY(expr)                                      \
  __extension__({                                      \
    auto&& clawexec_try_result_ = (expr);              \
    if (!clawexec_try_result_.ok())                    \
      return std::move(clawexec_try_result_).error();  \
    std::move(clawexec_try_result_).value();           \
  })
