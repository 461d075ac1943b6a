#pragma once
// Internal to the term module: the byte-level building blocks of the output sanitizer's hot
// loop, inline because they run once per byte or block of bytes.

#include <cstdint>
#include <cstring>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace clawexec::term::internal {

inline constexpr char32_t kReplacementCharacter = 0xFFFD;

/// Bytes that pass unchanged between escape sequences: printable ASCII and TAB/LF/CR.
constexpr bool is_plain_ascii(unsigned char b) {
  return (b >= 0x20 && b < 0x7F) || b == '\t' || b == '\n' || b == '\r';
}

/// Skips whole blocks of plain ASCII (16 bytes at a time with SSE2, else 8) and returns
/// where they end; with SSE2 that is the first byte that is not plain ASCII, otherwise the
/// caller examines the remaining bytes one by one.
inline const unsigned char* skip_plain_blocks(const unsigned char* p, const unsigned char* end) {
#if defined(__SSE2__)
  const __m128i below_printable = _mm_set1_epi8(0x1F);
  const __m128i del = _mm_set1_epi8(0x7F);
  const __m128i tab = _mm_set1_epi8('\t');
  const __m128i lf = _mm_set1_epi8('\n');
  const __m128i cr = _mm_set1_epi8('\r');
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed compares: bytes >= 0x80 are negative and fail the first test.
    const __m128i printable =
        _mm_and_si128(_mm_cmpgt_epi8(v, below_printable), _mm_cmplt_epi8(v, del));
    const __m128i kept_controls = _mm_or_si128(
        _mm_cmpeq_epi8(v, lf), _mm_or_si128(_mm_cmpeq_epi8(v, tab), _mm_cmpeq_epi8(v, cr)));
    const int mask = _mm_movemask_epi8(_mm_or_si128(printable, kept_controls));
    if (mask != 0xFFFF) return p + __builtin_ctz(static_cast<unsigned>(~mask));
    p += 16;
  }
#else
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHighBits = 0x8080808080808080ULL;
  while (end - p >= 8) {
    // Flags a word holding a byte below 0x20 or at/above 0x7F (may flag extra bytes, never
    // a word without one); TAB/LF/CR are left to the caller's byte loop.
    uint64_t w;
    std::memcpy(&w, p, sizeof w);
    if ((((w - kOnes * 0x20) & ~w) | ((w + kOnes) | w)) & kHighBits) return p;
    p += 8;
  }
#endif
  return p;
}

/// One step of the WHATWG UTF-8 decoder over the bytes at `p`: a complete character, an
/// invalid maximal subpart (`length` bytes that become one U+FFFD), or a sequence that the
/// buffer ends in the middle of.
struct Utf8Step {
  enum class Kind : uint8_t { kChar, kInvalid, kIncomplete };
  Kind kind;
  uint8_t length;
  char32_t cp;
};

inline Utf8Step decode_utf8_step(const unsigned char* p, const unsigned char* end) {
  const unsigned char lead = p[0];
  unsigned needed = 0;
  unsigned char lower = 0x80;
  unsigned char upper = 0xBF;
  char32_t cp = 0;
  if (lead < 0x80) return {Utf8Step::Kind::kChar, 1, lead};
  if (lead >= 0xC2 && lead <= 0xDF) {
    needed = 1;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    needed = 2;
    cp = lead & 0x0F;
    if (lead == 0xE0) lower = 0xA0;  // no overlong forms
    if (lead == 0xED) upper = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    needed = 3;
    cp = lead & 0x07;
    if (lead == 0xF0) lower = 0x90;  // no overlong forms
    if (lead == 0xF4) upper = 0x8F;  // nothing above U+10FFFF
  } else {
    return {Utf8Step::Kind::kInvalid, 1, 0};
  }
  for (unsigned i = 1; i <= needed; ++i) {
    if (p + i == end) return {Utf8Step::Kind::kIncomplete, 0, 0};
    const unsigned char next = p[i];
    if (next < lower || next > upper) {
      return {Utf8Step::Kind::kInvalid, static_cast<uint8_t>(i), 0};
    }
    lower = 0x80;
    upper = 0xBF;
    cp = cp << 6 | (next & 0x3F);
  }
  return {Utf8Step::Kind::kChar, static_cast<uint8_t>(needed + 1), cp};
}

/// Collects the many small pieces of sanitized output (escapes, replacement characters,
/// short runs) in a local buffer so that the output string sees few, large appends; long
/// runs go straight through.
class OutputWriter {
 public:
  explicit OutputWriter(std::string& out) : out_(out) {}
  OutputWriter(const OutputWriter&) = delete;
  OutputWriter& operator=(const OutputWriter&) = delete;
  ~OutputWriter() { flush(); }

  void write(const unsigned char* data, size_t size) {
    if (size > kCapacity - used_) flush();
    if (size >= kDirectSize) {
      flush();
      out_.append(reinterpret_cast<const char*>(data), size);
      return;
    }
    std::memcpy(buffer_ + used_, data, size);
    used_ += size;
  }

  /// The literal four characters \xNN (lower-case hex).
  void write_hex_escape(unsigned char byte) {
    static constexpr char kHex[] = "0123456789abcdef";
    const unsigned char text[4] = {'\\', 'x', static_cast<unsigned char>(kHex[byte >> 4]),
                                   static_cast<unsigned char>(kHex[byte & 0xF])};
    write(text, sizeof text);
  }

  void write_utf8(char32_t cp) {
    unsigned char bytes[4];
    size_t size = 0;
    if (cp < 0x80) {
      bytes[size++] = static_cast<unsigned char>(cp);
    } else if (cp < 0x800) {
      bytes[size++] = static_cast<unsigned char>(0xC0 | (cp >> 6));
      bytes[size++] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      bytes[size++] = static_cast<unsigned char>(0xE0 | (cp >> 12));
      bytes[size++] = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3F));
      bytes[size++] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
    } else {
      bytes[size++] = static_cast<unsigned char>(0xF0 | (cp >> 18));
      bytes[size++] = static_cast<unsigned char>(0x80 | ((cp >> 12) & 0x3F));
      bytes[size++] = static_cast<unsigned char>(0x80 | ((cp >> 6) & 0x3F));
      bytes[size++] = static_cast<unsigned char>(0x80 | (cp & 0x3F));
    }
    write(bytes, size);
  }

  /// Size of the output string once everything written so far is flushed.
  size_t size() const { return out_.size() + used_; }

  void flush() {
    if (used_ == 0) return;
    out_.append(buffer_, used_);
    used_ = 0;
  }

 private:
  static constexpr size_t kCapacity = 4096;
  static constexpr size_t kDirectSize = 128;
  std::string& out_;
  char buffer_[kCapacity];
  size_t used_ = 0;
};

}  // namespace clawexec::term::internal
