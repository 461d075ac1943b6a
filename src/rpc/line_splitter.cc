#include "rpc/line_splitter.h"

namespace clawexec::rpc {

void LineSplitter::feed(std::string_view bytes) {
  while (!bytes.empty()) {
    size_t nl = bytes.find('\n');
    std::string_view part = bytes.substr(0, nl);
    if (skipping_) {
      skipped_ += part.size();
    } else if (buffer_.size() + part.size() > max_) {
      skipping_ = true;
      skipped_ = buffer_.size() + part.size();
      buffer_.clear();
      buffer_.shrink_to_fit();
    } else {
      buffer_.append(part);
    }
    if (nl == std::string_view::npos) return;
    complete_line();
    bytes.remove_prefix(nl + 1);
  }
}

void LineSplitter::complete_line() {
  if (skipping_) {
    skipping_ = false;
    size_t n = skipped_;
    skipped_ = 0;
    on_oversized_(n);
    return;
  }
  std::string line = std::move(buffer_);
  buffer_.clear();
  if (!line.empty() && line.back() == '\r') line.pop_back();
  on_line_(std::move(line));
}

void LineSplitter::finish() {
  if (skipping_ || !buffer_.empty()) complete_line();
}

}  // namespace clawexec::rpc
