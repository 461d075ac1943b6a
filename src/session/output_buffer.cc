// Output retention for background sessions.
//
// Problem: a command may print hundreds of megabytes while the session keeps only a bounded
// window of it (200 000 UTF-16 units of aggregate, 30 000 unpolled units per stream), and the
// caps are defined in UTF-16 units although we store UTF-8. Re-trimming a capped string on
// every append (what a direct port of the reference does) costs O(cap) per append; with 64 KiB
// reads that is several times the data itself.
//
// Approach: every store is "append at the back, advance a begin offset at the front". Cutting
// N units off the front scans only the N units that go away, and the dead prefix is erased
// once it is larger than the live text, so each byte is copied a bounded number of times.
// Pending output is kept per stream as pieces tagged with an arrival sequence number:
// dropping a stream's oldest text touches only that stream's queue, and a drain merges the
// two queues by sequence number. Consecutive small writes of one stream share a piece, so
// they do not cost an allocation each. Units are counted 32 bytes at a time (SWAR), which
// keeps the whole path near memcpy speed for ASCII output.
//
// Dropping units at the front matches the reference's UTF-16 slicing: when the cut would fall
// inside a surrogate pair, the whole pair goes (one unit more than asked).

#include "session/output_buffer.h"

#include <algorithm>
#include <cstring>

#include "base/utf.h"

namespace clawexec::session {
namespace {

constexpr uint64_t kHighBits = 0x8080808080808080ull;

// Output that continues the most recent pending piece is appended to it while the piece is
// smaller than this: tiny writes share an allocation, large ones stay separate pieces that
// the pending cap can drop without scanning them.
constexpr size_t kMergeBytes = 8192;

uint64_t load_word(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, sizeof w);
  return w;
}

constexpr uint64_t kLowBits = 0x0101010101010101ull;

// Per byte of valid UTF-8, the UTF-16 units it contributes, as one count in each byte of the
// result: 1, minus 1 for a continuation byte (10xxxxxx), plus 1 for a 4-byte lead (11110xxx,
// a surrogate pair). A byte is never both, so no byte borrows from its neighbour.
[[gnu::always_inline]] inline uint64_t byte_unit_counts(uint64_t w) {
  uint64_t continuation = (w & ~(w << 1) & kHighBits) >> 7;
  uint64_t four_byte_lead = (w & (w << 1) & (w << 2) & (w << 3) & kHighBits) >> 7;
  return kLowBits + four_byte_lead - continuation;
}

size_t byte_units(unsigned char c) {
  if ((c & 0xC0) == 0x80) return 0;
  return c >= 0xF0 ? 2 : 1;
}

// UTF-16 units contributed by the 32 bytes at `p` (each byte lane sums at most 4 x 2, and the
// final horizontal sum at most 64, so nothing overflows).
[[gnu::always_inline]] inline size_t block_units(const char* p) {
  uint64_t w0 = load_word(p), w1 = load_word(p + 8), w2 = load_word(p + 16),
           w3 = load_word(p + 24);
  if (((w0 | w1 | w2 | w3) & kHighBits) == 0) return 32;
  uint64_t lanes = byte_unit_counts(w0) + byte_unit_counts(w1) + byte_unit_counts(w2) +
                   byte_unit_counts(w3);
  return static_cast<size_t>((lanes * kLowBits) >> 56);
}

// utf16_length, 32 bytes per step.
size_t count_units(std::string_view text) {
  const char* p = text.data();
  const size_t size = text.size();
  size_t units = 0;
  size_t i = 0;
  for (; i + 32 <= size; i += 32) units += block_units(p + i);
  for (; i < size; ++i) units += byte_units(static_cast<unsigned char>(p[i]));
  return units;
}

// Byte offset where the text left after dropping `units` units from the front begins, and
// the units actually dropped (units + 1 when the cut would split a surrogate pair).
struct Cut {
  size_t bytes = 0;
  size_t units = 0;
};

Cut cut_front(std::string_view text, size_t units) {
  const char* p = text.data();
  const size_t size = text.size();
  size_t i = 0;
  size_t dropped = 0;
  // Whole blocks whose code points all start before the cut. A block may end inside a code
  // point: its lead was counted, its continuation bytes count nothing.
  for (; i + 32 <= size; i += 32) {
    size_t u = block_units(p + i);
    if (dropped + u >= units) break;
    dropped += u;
  }
  for (; i < size; ++i) {
    auto c = static_cast<unsigned char>(p[i]);
    size_t u = byte_units(c);
    if (u == 0) continue;
    if (dropped >= units) return {i, dropped};
    dropped += u;
  }
  return {size, dropped};
}

// Erases a dead prefix once it outweighs the live text, so that erasing is amortized O(1)
// per byte that went through.
void compact(std::string& text, size_t& begin) {
  if (begin == text.size()) {
    text.clear();
    begin = 0;
  } else if (begin > 4096 && begin > text.size() / 2) {
    text.erase(0, begin);
    begin = 0;
  }
}

}  // namespace

OutputBuffer::OutputBuffer(OutputLimits limits) : limits_(limits) {}

size_t OutputBuffer::pending_cap() const {
  return std::min(limits_.pending_max_output_chars, limits_.max_output_chars);
}

void OutputBuffer::append(Stream stream, std::string_view text, std::span<const term::SgrMark> marks) {
  if (sealed_) return;
  if (!marks.empty()) record_marks(text, marks);
  if (text.empty()) return;
  const size_t units = count_units(text);
  append_pending(stream, text, units);
  total_units_ += units;
  append_aggregate(text, units);
  style_marks_.retain_from(aggregate_start_chars());
}

// Byte offsets into `text` become stream positions: units counted up to each mark in turn.
void OutputBuffer::record_marks(std::string_view text, std::span<const term::SgrMark> marks) {
  uint64_t at = total_units_;
  size_t counted = 0;  // bytes of `text` counted into `at`
  for (const term::SgrMark& mark : marks) {
    const size_t offset = std::clamp(mark.offset, counted, text.size());
    at += count_units(text.substr(counted, offset - counted));
    counted = offset;
    style_marks_.add(at, mark.params);
  }
}

void OutputBuffer::append_pending(Stream stream, std::string_view text, size_t units) {
  StreamQueue& q = queue(stream);
  const size_t cap = pending_cap();
  if (q.units + units > cap) {
    truncated_ = true;
    pending_dropped_ = true;
  }
  if (units >= cap) {
    // The new text alone fills the cap: everything older of this stream goes, and only the
    // end of the new text is copied.
    q.pieces.clear();
    q.units = 0;
    Cut cut = cut_front(text, units - cap);
    text.remove_prefix(cut.bytes);
    if (text.empty()) return;
    q.pieces.push_back({next_seq_++, std::string(text), 0, units - cut.units});
    q.units = units - cut.units;
    return;
  }
  if (!q.pieces.empty() && q.pieces.back().seq + 1 == next_seq_ &&
      q.pieces.back().text.size() < kMergeBytes) {
    q.pieces.back().text.append(text);  // continues the most recent piece
    q.pieces.back().units += units;
  } else {
    q.pieces.push_back({next_seq_++, std::string(text), 0, units});
  }
  q.units += units;
  if (q.units > cap) drop_oldest_pending(q, q.units - cap);
}

void OutputBuffer::drop_oldest_pending(StreamQueue& q, size_t overflow) {
  while (overflow > 0 && !q.pieces.empty()) {
    Piece& front = q.pieces.front();
    if (front.units <= overflow) {
      overflow -= front.units;
      q.units -= front.units;
      q.pieces.pop_front();
      continue;
    }
    Cut cut = cut_front(std::string_view(front.text).substr(front.begin), overflow);
    front.begin += cut.bytes;
    front.units -= cut.units;
    q.units -= cut.units;
    if (front.units == 0) {
      q.pieces.pop_front();  // only a surrogate pair was left, and the cut took it
    } else {
      compact(front.text, front.begin);
    }
    break;
  }
}

void OutputBuffer::append_aggregate(std::string_view text, size_t units) {
  const size_t cap = limits_.max_output_chars;
  if (aggregate_units_ + units <= cap) {
    aggregate_.append(text);
    aggregate_units_ += units;
    return;
  }
  truncated_ = true;
  if (units >= cap) {
    Cut cut = cut_front(text, units - cap);
    aggregate_.assign(text.substr(cut.bytes));
    aggregate_begin_ = 0;
    aggregate_units_ = units - cut.units;
    return;
  }
  aggregate_.append(text);
  aggregate_units_ += units;
  Cut cut = cut_front(aggregated(), aggregate_units_ - cap);
  aggregate_begin_ += cut.bytes;
  aggregate_units_ -= cut.units;
  compact(aggregate_, aggregate_begin_);
}

DrainedOutput OutputBuffer::drain_pending() {
  DrainedOutput out;
  out.output_dropped = pending_dropped_;
  size_t bytes = 0;
  for (const StreamQueue* q : {&stdout_, &stderr_}) {
    for (const Piece& piece : q->pieces) bytes += piece.text.size() - piece.begin;
  }
  out.text.reserve(bytes);
  auto a = stdout_.pieces.begin();
  auto b = stderr_.pieces.begin();
  while (a != stdout_.pieces.end() || b != stderr_.pieces.end()) {
    bool take_stdout = b == stderr_.pieces.end() || (a != stdout_.pieces.end() && a->seq < b->seq);
    const Piece& piece = take_stdout ? *a++ : *b++;
    out.text.append(piece.text, piece.begin);
  }
  for (StreamQueue* q : {&stdout_, &stderr_}) {
    q->pieces.clear();
    q->units = 0;
  }
  pending_dropped_ = false;
  return out;
}

bool OutputBuffer::has_pending() const {
  return stdout_.units > 0 || stderr_.units > 0;
}

std::string_view OutputBuffer::tail() const {
  return utf16_suffix(aggregated(), kTailChars);
}

}  // namespace clawexec::session
