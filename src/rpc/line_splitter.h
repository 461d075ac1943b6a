#pragma once
// Splits a byte stream into newline-delimited messages with a hard bound on memory: a line
// longer than the limit is not buffered; its bytes are skipped up to the next newline and
// reported once as oversized. This is what keeps a 100 MB line from exhausting the server.

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace clawexec::rpc {

class LineSplitter {
 public:
  using LineHandler = std::function<void(std::string line)>;
  using OversizedHandler = std::function<void(size_t bytes)>;

  LineSplitter(size_t max_line_bytes, LineHandler on_line, OversizedHandler on_oversized)
      : max_(max_line_bytes), on_line_(std::move(on_line)), on_oversized_(std::move(on_oversized)) {}

  /// Feeds the next bytes of the stream.
  void feed(std::string_view bytes);
  /// End of stream: a final line without a newline is still a line.
  void finish();
  /// True while the current line is over the limit (its bytes are being skipped); for users
  /// that treat an oversized line as fatal and need not wait for its newline.
  bool in_oversized_line() const { return skipping_; }

 private:
  void complete_line();

  size_t max_;
  LineHandler on_line_;
  OversizedHandler on_oversized_;
  std::string buffer_;
  bool skipping_ = false;
  size_t skipped_ = 0;
};

}  // namespace clawexec::rpc
