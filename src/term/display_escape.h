#pragma once
// Text shown to a human (the operator CLI, approval prompts sent to MCP clients, logs) with
// every character that could hide, overwrite, reorder or fake what is displayed replaced by a
// visible escape, so that what the human reads is what runs.
//
// Escaped, each as one unambiguous token:
//   TAB \t, LF \n, CR \r, ESC \e; every other C0 control and DEL as \xNN (lower-case hex);
//   C1 controls (U+0080-U+009F), Unicode format characters (Cf: bidi embeddings, overrides
//   and isolates, U+200E/F, U+061C, zero-width characters, BOM, tags...), the other default-
//   ignorable code points (Hangul fillers, U+034F, Mongolian selectors...), U+2028/U+2029,
//   the non-ASCII space separators (NBSP, U+2000-U+200A, U+3000...), and variation selectors
//   except right after a character that has variants (non-ASCII, keycap bases 0-9 # *: so
//   emoji stay emoji) as \u{XXXX} (upper-case hex, at least four digits); every byte of
//   invalid UTF-8 as \xNN.
// A literal backslash stays a single backslash unless the next thing shown would make it read
// as one of these escapes (it is followed by a backslash, by e n r t x u, or by an escaped
// character); then it is doubled. Reading rule: "\\" is one backslash, \e \n \r \t \xNN
// \u{...} are escapes, and a backslash followed by anything else is itself.

#include <string>
#include <string_view>

namespace clawexec::term {

enum class DisplayStyle {
  kField,     // one value (a command, a path): line feeds are escaped too
  kLines,     // text made of lines (warnings, messages): LF stays a line break
  kJsonText,  // the output of a JSON serialiser shown to a human: LF stays, backslashes stay as
              // they are (each one already starts a JSON escape, and ours are not JSON escapes)
};

/// The text with every hiding or deceptive character made visible (see above). Printable
/// text, including any other non-ASCII character, is unchanged.
std::string escape_for_display(std::string_view text, DisplayStyle style = DisplayStyle::kField);

/// True when escape_for_display would change nothing (kField style).
bool is_display_safe(std::string_view text);

}  // namespace clawexec::term
