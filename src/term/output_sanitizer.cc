// Output sanitizing: raw process bytes in, agent-safe UTF-8 text out.
//
// Problem: every byte a command prints passes through here (100 MB commands included), in
// arbitrary pipe-sized chunks. The result must equal what the reference produces: its
// streaming UTF-8 decoder (invalid input -> U+FFFD by the WHATWG "maximal subpart" rule, a
// character split across reads decoded whole), then its ANSI stripper, then removal of
// format (Cf) characters and "\xNN" escaping of controls other than TAB/LF/CR.
//
// Approach: the stages are fused into one pass. The decoder is the WHATWG byte-at-a-time
// algorithm with its state kept between feed() calls; each decoded code point goes through
// the AnsiStripper and then emit(). Three loops keep the common cases cheap:
//   * process_text runs while no character is pending and the stripper is between
//     sequences. It copies bytes that need no change in runs (16 ASCII bytes per step with
//     SSE2), escapes controls and replaces invalid bytes itself, since none of that can
//     change the stripper's state; it stops at an escape introducer (ESC, U+009B, U+009D)
//     or a character cut by the end of the chunk.
//   * process_sequence feeds ASCII bytes of an escape sequence straight to the stripper.
//   * inside an OSC string, ASCII other than BEL and ESC is skipped without a state step.
// Everything else takes decode_byte(). All output goes through one OutputWriter per call,
// which batches the small pieces. Every code point the stripper swallows passes emit(), which
// is where a completed SGR is noticed and (when the caller asked) recorded at the writer's
// current size; plain text never takes that branch.

#include "term/output_sanitizer.h"

#include "term/text_scan.h"
#include "term/unicode_format.h"

namespace clawexec::term {

using internal::OutputWriter;
using internal::Utf8Step;

void OutputSanitizer::feed(std::string_view bytes, std::string& out, std::vector<SgrMark>* marks) {
  marks_ = marks;
  out.reserve(out.size() + bytes.size());
  OutputWriter writer(out);
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  const auto* end = p + bytes.size();
  while (p < end) {
    if (needed_ == 0) {
      if (stripper_.in_text()) {
        p = process_text(p, end, writer);
        if (p == end) break;
      } else if (stripper_.in_osc_string()) {
        while (p < end && *p < 0x80 && *p != 0x07 && *p != 0x1B) ++p;
        if (p == end) break;
      } else {
        p = process_sequence(p, end, writer);
        if (p == end) break;
        if (*p < 0x80) continue;  // the sequence ended: dispatch on the new state
      }
    }
    decode_byte(*p++, writer);
  }
  marks_ = nullptr;
}

const unsigned char* OutputSanitizer::process_text(const unsigned char* p, const unsigned char* end,
                                                   OutputWriter& out) {
  const unsigned char* run = p;  // bytes since `run` are copied unchanged
  auto end_run = [&] {
    if (p != run) out.write(run, static_cast<size_t>(p - run));
  };
  while (p < end) {
    const unsigned char byte = *p;
    if (internal::is_plain_ascii(byte)) {
      p = internal::skip_plain_blocks(p + 1, end);
      continue;
    }
    if (byte == 0x1B) break;
    const Utf8Step step = internal::decode_utf8_step(p, end);
    if (step.kind == Utf8Step::Kind::kIncomplete) break;
    if (step.kind == Utf8Step::Kind::kChar && step.cp >= 0xA0 && !is_format_code_point(step.cp)) {
      p += step.length;
      continue;
    }
    if (step.cp == 0x9B || step.cp == 0x9D) break;
    end_run();
    if (step.kind == Utf8Step::Kind::kInvalid) {
      out.write_utf8(internal::kReplacementCharacter);
    } else if (step.cp < 0xA0) {
      out.write_hex_escape(static_cast<unsigned char>(step.cp));  // C0, DEL or C1 control
    }  // else a format character, dropped
    p += step.length;
    run = p;
  }
  end_run();
  return p;
}

const unsigned char* OutputSanitizer::process_sequence(const unsigned char* p,
                                                       const unsigned char* end,
                                                       OutputWriter& out) {
  while (p < end && *p < 0x80 && !stripper_.in_text() && !stripper_.in_osc_string()) {
    emit(*p++, out);
  }
  return p;
}

void OutputSanitizer::decode_byte(unsigned char byte, OutputWriter& out) {
  if (needed_ == 0) {
    if (byte < 0x80) {
      emit(byte, out);
    } else if (byte >= 0xC2 && byte <= 0xDF) {
      needed_ = 1;
      partial_ = byte & 0x1F;
    } else if (byte >= 0xE0 && byte <= 0xEF) {
      if (byte == 0xE0) lower_ = 0xA0;
      if (byte == 0xED) upper_ = 0x9F;
      needed_ = 2;
      partial_ = byte & 0x0F;
    } else if (byte >= 0xF0 && byte <= 0xF4) {
      if (byte == 0xF0) lower_ = 0x90;
      if (byte == 0xF4) upper_ = 0x8F;
      needed_ = 3;
      partial_ = byte & 0x07;
    } else {
      emit(internal::kReplacementCharacter, out);
    }
    return;
  }
  if (byte < lower_ || byte > upper_) {
    // The bytes so far are a maximal subpart: one U+FFFD, then this byte starts afresh.
    reset_decoder();
    emit(internal::kReplacementCharacter, out);
    decode_byte(byte, out);
    return;
  }
  lower_ = 0x80;
  upper_ = 0xBF;
  partial_ = partial_ << 6 | (byte & 0x3F);
  if (--needed_ == 0) {
    const char32_t cp = partial_;
    partial_ = 0;
    emit(cp, out);
  }
}

// One decoded code point through the stripper, then into its visible form: TAB/LF/CR and
// printable characters as UTF-8, other C0/DEL/C1 controls as "\xNN", format characters not
// at all. (The decoder never yields surrogates, so there are none to remove here.)
void OutputSanitizer::emit(char32_t cp, OutputWriter& out) {
  if (!stripper_.keep(cp)) {
    if (stripper_.sgr_completed()) {
      std::string_view params = stripper_.take_sgr();
      if (marks_) marks_->push_back({out.size(), std::string(params)});
    }
    return;
  }
  if (cp < 0xA0) {
    if (internal::is_plain_ascii(static_cast<unsigned char>(cp))) {
      const unsigned char byte = static_cast<unsigned char>(cp);
      out.write(&byte, 1);
    } else {
      out.write_hex_escape(static_cast<unsigned char>(cp));
    }
  } else if (!is_format_code_point(cp)) {
    out.write_utf8(cp);
  }
}

void OutputSanitizer::reset_decoder() {
  partial_ = 0;
  needed_ = 0;
  lower_ = 0x80;
  upper_ = 0xBF;
}

void OutputSanitizer::finish(std::string& out) {
  if (needed_ != 0) {
    reset_decoder();
    OutputWriter writer(out);
    emit(internal::kReplacementCharacter, writer);
  }
  stripper_.reset();
}

std::string sanitize_output(std::string_view bytes) {
  OutputSanitizer sanitizer;
  std::string out;
  sanitizer.feed(bytes, out);
  sanitizer.finish(out);
  return out;
}

}  // namespace clawexec::term
