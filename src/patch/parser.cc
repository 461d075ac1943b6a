// Parsing the apply_patch envelope (spec §6.2).
//
// Problem: agents send patches in a line-oriented format ("*** Begin Patch", file hunks,
// "@@" chunks, "*** End Patch"), sometimes wrapped in a shell heredoc or with CRLF line ends.
// Every rejection must carry the reference's exact message, because agents have learned to
// repair patches from those messages, and line numbers must count the same way.
//
// Approach: trim the input (JavaScript's trim), split on "\n" dropping one "\r" before it, check
// the boundary lines (retrying inside a heredoc wrapper), then walk the inner lines with a small
// recursive-descent parser: a hunk header decides the hunk kind, an update hunk is a sequence of
// chunks, and a chunk's body ends at the first line that is not ' ', '+', '-' or empty. Line
// numbers are 1-based with the "*** Begin Patch" line as 1. A path holding a NUL or another
// control byte is refused at its header line: the kernel would cut it at the NUL (so the file
// written would not be the one reported), and a control byte in a name only serves to mislead
// whoever reads the summary.

#include <string>

#include "base/utf.h"
#include "patch/patch.h"

namespace clawexec::patch {
namespace {

constexpr std::string_view kBeginPatch = "*** Begin Patch";
constexpr std::string_view kEndPatch = "*** End Patch";
constexpr std::string_view kAddFile = "*** Add File: ";
constexpr std::string_view kDeleteFile = "*** Delete File: ";
constexpr std::string_view kUpdateFile = "*** Update File: ";
constexpr std::string_view kMoveTo = "*** Move to: ";
constexpr std::string_view kEndOfFile = "*** End of File";
constexpr std::string_view kBareContext = "@@";
constexpr std::string_view kContextPrefix = "@@ ";

using Lines = std::vector<std::string_view>;

// Splits like JavaScript's split(/\r?\n/).
Lines split_lines(std::string_view text) {
  Lines lines;
  size_t start = 0;
  while (true) {
    size_t nl = text.find('\n', start);
    std::string_view piece = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    if (nl != std::string_view::npos && !piece.empty() && piece.back() == '\r') piece.remove_suffix(1);
    lines.push_back(piece);
    if (nl == std::string_view::npos) break;
    start = nl + 1;
  }
  return lines;
}

Error invalid_hunk(size_t line, std::string_view what) {
  return Error::invalid("Invalid patch hunk at line " + std::to_string(line) + ": " + std::string(what));
}

bool is_control_byte(unsigned char c) { return c < 0x20 || c == 0x7f; }

// `text` with control bytes spelled as C escapes (\0, \t, \r, \x1b, ...).
std::string escape_controls(std::string_view text) {
  std::string out;
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (!is_control_byte(c)) {
      out.push_back(ch);
    } else if (c == 0) {
      out += "\\0";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

// A path as written after a header marker; refused when it holds a control byte.
Result<std::string> header_path(std::string_view path, std::string_view header_line, size_t line) {
  for (char c : path) {
    if (!is_control_byte(static_cast<unsigned char>(c))) continue;
    std::string what = c == 0 ? "a NUL byte" : "the control character " + escape_controls(std::string_view(&c, 1));
    return invalid_hunk(line, "the path in '" + escape_controls(header_line) + "' contains " + what +
                                  "; a file path cannot contain NUL or control characters");
  }
  return std::string(path);
}

// Empty when the first and last lines are the markers, else the reference's message.
std::string boundary_error(const Lines& lines, size_t first, size_t last) {
  std::string_view head = js_trim(lines[first]);
  std::string_view tail = js_trim(lines[last]);
  if (head == kBeginPatch && tail == kEndPatch) return {};
  if (head != kBeginPatch) return "The first line of the patch must be '*** Begin Patch'";
  return "The last line of the patch must be '*** End Patch'";
}

bool is_heredoc_opener(std::string_view line) {
  return line == "<<EOF" || line == "<<'EOF'" || line == "<<\"EOF\"";
}

// The [first, last] range of lines holding "*** Begin Patch" .. "*** End Patch".
Result<std::pair<size_t, size_t>> envelope(const Lines& lines) {
  size_t last = lines.size() - 1;
  std::string strict = boundary_error(lines, 0, last);
  if (strict.empty()) return std::pair<size_t, size_t>{0, last};
  if (lines.size() >= 4 && is_heredoc_opener(lines[0]) && lines[last].ends_with("EOF")) {
    std::string inner = boundary_error(lines, 1, last - 1);
    if (inner.empty()) return std::pair<size_t, size_t>{1, last - 1};
    return Error::invalid(std::move(inner));
  }
  return Error::invalid(std::move(strict));
}

// Cursor over the lines between the envelope markers; `number` is the patch line of `pos`.
struct Cursor {
  const Lines& lines;
  size_t pos;
  size_t end;   // one past the last inner line
  size_t base;  // index of the "*** Begin Patch" line (patch line 1)
  size_t number() const { return pos - base + 1; }
  bool done() const { return pos >= end; }
  std::string_view peek() const { return lines[pos]; }
};

// One chunk starting at the cursor; `first` allows the "@@" header to be omitted.
Result<Chunk> parse_chunk(Cursor& c, bool first) {
  Chunk chunk;
  size_t header_line = c.number();
  chunk.line = header_line;
  std::string_view head = c.peek();
  if (head == kBareContext) {
    ++c.pos;
  } else if (head.starts_with(kContextPrefix)) {
    if (head.size() > kContextPrefix.size()) chunk.context = std::string(head.substr(kContextPrefix.size()));
    ++c.pos;
  } else if (!first) {
    return invalid_hunk(header_line, "Expected update hunk to start with a @@ context marker, got: '" +
                                         std::string(head) + "'");
  }
  if (c.done()) return invalid_hunk(header_line + 1, "Update hunk does not contain any lines");
  size_t body = 0;
  for (; !c.done(); ++c.pos, ++body) {
    std::string_view line = c.peek();
    if (line == kEndOfFile) {
      if (body == 0) return invalid_hunk(header_line + 1, "Update hunk does not contain any lines");
      chunk.end_of_file = true;
      ++c.pos;
      break;
    }
    char marker = line.empty() ? ' ' : line[0];
    std::string text(line.empty() ? line : line.substr(1));
    if (marker == ' ') {
      chunk.new_to_old.emplace_back(chunk.old_lines.size());
      chunk.old_lines.push_back(text);
      chunk.new_lines.push_back(std::move(text));
    } else if (marker == '+') {
      chunk.new_to_old.emplace_back(std::nullopt);
      chunk.new_lines.push_back(std::move(text));
    } else if (marker == '-') {
      chunk.old_lines.push_back(std::move(text));
    } else if (body == 0) {
      return invalid_hunk(header_line + 1,
                          "Unexpected line found in update hunk: '" + std::string(line) +
                              "'. Every line should start with ' ' (context line), '+' (added line), or '-' "
                              "(removed line)");
    } else {
      break;
    }
  }
  return chunk;
}

Result<Hunk> parse_update(Cursor& c, Hunk hunk) {
  if (!c.done()) {
    std::string_view move = js_trim(c.peek());
    if (move.starts_with(kMoveTo)) {
      hunk.move_to = TRY(header_path(move.substr(kMoveTo.size()), move, c.number()));
      ++c.pos;
    }
  }
  while (!c.done()) {
    std::string_view line = c.peek();
    if (js_trim(line).empty()) {
      ++c.pos;
      continue;
    }
    if (line.starts_with("***")) break;
    hunk.chunks.push_back(TRY(parse_chunk(c, hunk.chunks.empty())));
  }
  if (hunk.chunks.empty()) {
    return invalid_hunk(hunk.line, "Update file hunk for path '" + hunk.path + "' is empty");
  }
  return hunk;
}

Result<Hunk> parse_hunk(Cursor& c) {
  Hunk hunk;
  hunk.line = c.number();
  std::string_view raw = c.peek();
  std::string_view head = js_trim(raw);
  ++c.pos;
  if (head.starts_with(kAddFile)) {
    hunk.kind = HunkKind::kAdd;
    hunk.path = TRY(header_path(head.substr(kAddFile.size()), head, hunk.line));
    for (; !c.done() && c.peek().starts_with('+'); ++c.pos) {
      hunk.contents.append(c.peek().substr(1));
      hunk.contents.push_back('\n');
    }
    return hunk;
  }
  if (head.starts_with(kDeleteFile)) {
    hunk.kind = HunkKind::kDelete;
    hunk.path = TRY(header_path(head.substr(kDeleteFile.size()), head, hunk.line));
    return hunk;
  }
  if (head.starts_with(kUpdateFile)) {
    hunk.kind = HunkKind::kUpdate;
    hunk.path = TRY(header_path(head.substr(kUpdateFile.size()), head, hunk.line));
    return parse_update(c, std::move(hunk));
  }
  return invalid_hunk(hunk.line, "'" + std::string(raw) +
                                     "' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', "
                                     "'*** Delete File: {path}', '*** Update File: {path}'");
}

}  // namespace

Result<std::vector<Hunk>> parse_patch(std::string_view input) {
  std::string_view trimmed = js_trim(input);
  if (trimmed.empty()) return Error::invalid("Provide a patch input.");
  Lines lines = split_lines(trimmed);
  auto [first, last] = TRY(envelope(lines));
  Cursor c{lines, first + 1, last, first};
  std::vector<Hunk> hunks;
  while (!c.done()) hunks.push_back(TRY(parse_hunk(c)));
  if (hunks.empty()) return Error::invalid("No files were modified.");
  return hunks;
}

}  // namespace clawexec::patch
