#!/usr/bin/env python3
"""Regenerates the code point tables in json5_unicode.cc.

JSON5 property names follow ECMAScript 5.1 IdentifierName: a start character is a
Unicode letter (Lu, Ll, Lt, Lm, Lo, Nl), '$' or '_'; later characters may also be
Mn, Mc, Nd, Pc, ZWNJ or ZWJ. This prints the range tables for the two category sets
from the Unicode database bundled with the running Python.

Usage: python3 json5_unicode_gen.py > /tmp/tables.inc, then paste into json5_unicode.cc.
"""
import unicodedata

LETTERS = {"Lu", "Ll", "Lt", "Lm", "Lo", "Nl"}
PART_EXTRA = {"Mn", "Mc", "Nd", "Pc"}


def ranges(categories):
    out, start = [], None
    for cp in range(0x110000):
        inside = unicodedata.category(chr(cp)) in categories
        if inside and start is None:
            start = cp
        elif not inside and start is not None:
            out.append((start, cp - 1))
            start = None
    if start is not None:
        out.append((start, 0x10FFFF))
    return out


def emit(name, table):
    print(f"constexpr CodePointRange {name}[] = {{")
    line = "   "
    for first, last in table:
        item = f" {{0x{first:X}, 0x{last:X}}},"
        if len(line) + len(item) > 100:
            print(line)
            line = "   "
        line += item
    print(line)
    print("};")


print(f"// Unicode {unicodedata.unidata_version}")
emit("kLetterRanges", ranges(LETTERS))
emit("kIdentifierPartExtraRanges", ranges(PART_EXTRA))
