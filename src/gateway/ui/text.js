// Showing untrusted text (commands, paths, warnings, command output) to a human, inertly and
// visibly. Nothing here ever builds HTML from a string: every piece becomes a DOM text node
// (textContent), and every character that could hide or reorder what is shown (C0/C1 controls,
// DEL, bidi overrides and isolates, zero-width characters, line/paragraph separators, combining
// marks past a short stack) becomes a marked, visible token such as ⟨U+202E⟩. Logs additionally
// render ANSI SGR colours as classes; other escape sequences are dropped, and split sequences
// across chunks are carried. Session output arrives with its escapes already stripped by the
// gateway and its colours beside it as `styles` ([[offset, "1;31"], ...]); render() applies
// those between the pieces of text, so no escape is ever rebuilt from a string. Styles only
// colour: nothing here hides text (conceal, and a colour on a background of its own family,
// are not honoured).

const NAMES = new Map([
  [0x1b, "ESC"], [0x07, "BEL"], [0x08, "BS"], [0x0d, "CR"], [0x00, "NUL"], [0x7f, "DEL"],
  [0x200b, "ZWSP"], [0x200c, "ZWNJ"], [0x200d, "ZWJ"], [0x2060, "WJ"], [0xfeff, "BOM"],
  [0x200e, "LRM"], [0x200f, "RLM"], [0x061c, "ALM"], [0x202a, "LRE"], [0x202b, "RLE"],
  [0x202c, "PDF"], [0x202d, "LRO"], [0x202e, "RLO"], [0x2066, "LRI"], [0x2067, "RLI"],
  [0x2068, "FSI"], [0x2069, "PDI"], [0x2028, "LS"], [0x2029, "PS"], [0x00ad, "SHY"],
]);

/** True for a code point that must not be shown as itself. */
export function isHidden(cp) {
  return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || NAMES.has(cp) || (cp >= 0x202a && cp <= 0x202e) ||
    (cp >= 0x2066 && cp <= 0x2069) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0xfff9 && cp <= 0xfffb) ||
    cp === 0x180e || (cp >= 0xe0000 && cp <= 0xe007f);
}

// Combining marks drawn over the character before them: a few in a row are ordinary text, a
// long stack ("Zalgo") is drawn across the lines around it and can cover what must be read, and
// a mark with no base would be drawn over the text before the value. Those become markers, as
// the gateway's display escaping does (term/display_escape.cc). Variation selectors, which
// are marks too, only pick an emoji or text form and are left alone.
const MAX_STACKED_MARKS = 4;
const STACKING_MARK = /^[\p{Mn}\p{Me}]$/u;

function isStackingMark(ch, cp) {
  return cp >= 0x300 && !(cp >= 0xfe00 && cp <= 0xfe0f) && !(cp >= 0xe0100 && cp <= 0xe01ef) && STACKING_MARK.test(ch);
}

function marker(cp) {
  const span = document.createElement("span");
  span.className = "esc";
  const hex = cp.toString(16).toUpperCase().padStart(4, "0");
  span.textContent = `⟨${NAMES.get(cp) ?? "U+" + hex}⟩`;
  span.title = `U+${hex}`;
  return span;
}

/**
 * Appends `text` to `parent` as text nodes, hidden characters as visible markers. With
 * `lines`, "\n" and "\t" stay themselves (for <pre>).
 */
export function appendVisible(parent, text, { lines = false } = {}) {
  let plain = "";
  let based = false;  // the previous character was shown as itself (a mark has a base)
  let stacked = 0;    // combining marks shown on that base
  for (const ch of String(text ?? "")) {
    const cp = ch.codePointAt(0);
    const mark = isStackingMark(ch, cp);
    if ((isHidden(cp) && !(lines && (cp === 0x0a || cp === 0x09))) ||
        (mark && (!based || stacked >= MAX_STACKED_MARKS))) {
      if (plain) parent.append(document.createTextNode(plain));
      plain = "";
      parent.append(marker(cp));
      based = false;
      stacked = 0;
    } else {
      plain += ch;
      based = true;
      stacked = mark ? stacked + 1 : 0;
    }
  }
  if (plain) parent.append(document.createTextNode(plain));
  return parent;
}

/** An element of `tag` (with `className`) holding `text` shown visibly. */
export function visibleEl(tag, text, className = "", options = {}) {
  const el = document.createElement(tag);
  if (className) el.className = className;
  return appendVisible(el, text, options);
}

// What a style mark's parameters may be (as the gateway checks them): digits and ';', bounded.
const SGR_PARAMS = /^[0-9;]{0,48}$/;

// The nearest of the 16 basic colours to an RGB colour: each channel at least half on sets its
// bit (red 1, green 2, blue 4); a colour whose brightest channel is near full is the bright
// variant; a dim grey is bright black. null for values that are not 0..255.
function nearestBasic(r, g, b) {
  if (![r, g, b].every((v) => Number.isInteger(v) && v >= 0 && v <= 255)) return null;
  const bits = (r >= 128 ? 1 : 0) | (g >= 128 ? 2 : 0) | (b >= 128 ? 4 : 0);
  const max = Math.max(r, g, b);
  if (bits === 0) return max >= 64 ? 8 : 0;
  return max >= 224 ? bits + 8 : bits;
}

// An xterm 256-colour index as a basic colour: 0-15 themselves, 16-231 the 6x6x6 cube,
// 232-255 the grey ramp.
function xterm256(n) {
  if (!Number.isInteger(n) || n < 0 || n > 255) return null;
  if (n < 16) return n;
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return nearestBasic(v, v, v);
  }
  const level = (x) => (x === 0 ? 0 : 55 + x * 40);
  const c = n - 16;
  return nearestBasic(level(Math.floor(c / 36)), level(Math.floor(c / 6) % 6), level(c % 6));
}

/** Renders a stream of terminal output into a <pre>, chunk by chunk, with SGR colours. */
export class AnsiRenderer {
  constructor(target) {
    this.target = target;
    this.carry = "";
    this.resetStyle();
  }

  resetStyle() {
    this.bold = this.dim = this.italic = this.underline = false;
    this.fg = null;
    this.bg = null;
  }

  classes() {
    const c = [];
    if (this.bold) c.push("b");
    if (this.dim) c.push("dim");
    if (this.italic) c.push("i");
    if (this.underline) c.push("u");
    // Text the colour of its own background ("\e[30;40m", "\e[37;47m") would be hidden: the
    // foreground then gives way to the background's readable default.
    if (this.fg !== null && !(this.bg !== null && this.fg % 8 === this.bg)) c.push(`f${this.fg}`);
    if (this.bg !== null) c.push(`g${this.bg}`);
    return c.join(" ");
  }

  // Parameters this does not know are ignored, among them 8 (conceal: the text stays visible),
  // 5/6 (blink) and 7 (reverse).
  sgr(params) {
    const ps = params === "" ? [0] : params.split(";").map((p) => (p === "" ? 0 : Number(p)));
    for (let i = 0; i < ps.length; i++) {
      const p = ps[i];
      if (p === 0) this.resetStyle();
      else if (p === 1) this.bold = true;
      else if (p === 2) this.dim = true;
      else if (p === 3) this.italic = true;
      else if (p === 4) this.underline = true;
      else if (p === 22) this.bold = this.dim = false;
      else if (p === 23) this.italic = false;
      else if (p === 24) this.underline = false;
      else if (p >= 30 && p <= 37) this.fg = p - 30;
      else if (p === 39) this.fg = null;
      else if (p >= 40 && p <= 47) this.bg = p - 40;
      else if (p === 49) this.bg = null;
      else if (p >= 90 && p <= 97) this.fg = p - 90 + 8;
      else if (p >= 100 && p <= 107) this.bg = p - 100;
      else if (p === 38 || p === 48) {
        // 256-colour and true colour: shown as the nearest of the 16 basic colours (the page's
        // palette has only those; backgrounds only the first 8).
        let n = null;
        if (ps[i + 1] === 5) {
          n = xterm256(ps[i + 2]);
          i += 2;
        } else if (ps[i + 1] === 2) {
          n = nearestBasic(ps[i + 2], ps[i + 3], ps[i + 4]);
          i += 4;
        }
        if (n !== null) p === 38 ? (this.fg = n) : (this.bg = n % 8);
      }
    }
  }

  /**
   * Renders the next chunk and returns a fragment. `styles` are the gateway's colour marks for
   * this chunk: [offset in UTF-16 units of `data`, SGR parameters]. Anything that is not a
   * well-formed mark (parameters other than digits and ';', a bad or backward offset) is
   * ignored. Escape sequences inside `data` itself are handled as before (SGR applied, others
   * skipped).
   */
  render(data, styles = []) {
    const frag = document.createDocumentFragment();
    data = String(data ?? "");
    let at = 0;
    for (const mark of Array.isArray(styles) ? styles : []) {
      if (!Array.isArray(mark) || mark.length !== 2) continue;
      let [offset, params] = mark;
      if (!Number.isInteger(offset) || offset < at || typeof params !== "string" || !SGR_PARAMS.test(params)) continue;
      offset = Math.min(offset, data.length);
      // Never between the halves of a surrogate pair.
      if (offset > 0 && offset < data.length && /[\uD800-\uDBFF]/.test(data[offset - 1]) && /[\uDC00-\uDFFF]/.test(data[offset])) offset += 1;
      if (offset > at) this.renderText(frag, data.slice(at, offset));
      this.sgr(params);
      at = offset;
    }
    if (at < data.length || at === 0) this.renderText(frag, data.slice(at));
    return frag;
  }

  /** Splits `data` into styled runs into `frag`, skipping non-SGR escape sequences. */
  renderText(frag, data) {
    let text = this.carry + data;
    this.carry = "";
    let run = "";
    const flush = () => {
      if (!run) return;
      const cls = this.classes();
      if (cls) frag.append(visibleEl("span", run, cls, { lines: true }));
      else appendVisible(frag, run, { lines: true });
      run = "";
    };
    let i = 0;
    while (i < text.length) {
      const ch = text[i];
      if (ch === "\x1b") {
        const rest = text.slice(i);
        const csi = /^\x1b\[([0-?]*)([ -\/]*)([@-~])/.exec(rest);
        const osc = /^\x1b\][^\x07\x1b]*(\x07|\x1b\\)/.exec(rest);
        if (csi) {
          flush();
          if (csi[3] === "m" && csi[2] === "") this.sgr(csi[1]);
          i += csi[0].length;
          continue;
        }
        if (osc) {
          i += osc[0].length;
          continue;
        }
        if (rest.length < 64 && /^\x1b(\[[0-?]*[ -\/]*|\][^\x07\x1b]*|\x1b?)?$/.test(rest)) {
          this.carry = rest;  // an unfinished sequence: wait for the next chunk
          break;
        }
        run += ch;  // a lone ESC: shown as a marker
        i += 1;
        continue;
      }
      if (ch === "\r") {
        if (text[i + 1] === "\n" || (i + 1 === text.length)) {
          i += 1;  // CRLF reads as LF; a trailing CR waits to see
          continue;
        }
        i += 1;  // a bare CR (progress bars) is dropped
        continue;
      }
      run += ch;
      i += 1;
    }
    flush();
  }
}
