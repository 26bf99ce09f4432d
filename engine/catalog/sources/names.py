"""Which names Claude Code offers at all (2.1.328): a skill or command whose name fails this is
dropped with a `[names] ... is not offered` note in its debug log (recorded: listing_odd_names).

A name is refused when it is empty or over 256 UTF-16 units; holds a control character, `<`,
`>`, a line or paragraph separator, a format, private-use, surrogate or unassigned character, a
Braille blank, or a space other than the plain one; holds two spaces in a row; starts or ends
with a space or `:`, or has a space next to a `:`; or has a combining mark that follows no
letter, digit or mark (or nine in a row).
"""

from __future__ import annotations

import re
import unicodedata

MAX_NAME_UNITS = 256
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn"})
_SPACE_AT_COLON = re.compile(r"(?:^|:) | (?::|$)|^:|:$")
# Characters that show nothing or look like a space, besides the Unicode categories above.
_BLANK = frozenset("\u2028\u2029\u2800\u3164\uffa0\u115f\u1160\ufffc")


# Most names: nothing to check further (a catalog may hold 15,000).
_PLAIN = re.compile(r"[A-Za-z0-9_.-][A-Za-z0-9_.:-]{0,254}[A-Za-z0-9_.-]|[A-Za-z0-9_.-]")


def _units(text: str) -> int:
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def refusal(name: str) -> str | None:
    """Why Claude Code does not offer `name`, or None when it does."""
    if _PLAIN.fullmatch(name):
        return None
    if not name:
        return "the name is empty"
    if _units(name) > MAX_NAME_UNITS:
        return f"the name is over {MAX_NAME_UNITS} characters"
    if "<" in name or ">" in name:
        return "the name holds < or >"
    marks = 0
    previous = ""
    for char in name:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES or char in _BLANK:
            return f"the name holds a hidden or control character (U+{ord(char):04X})"
        if category == "Zs" and char != " ":
            return f"the name holds a space character other than the plain space (U+{ord(char):04X})"
        if category.startswith("M"):
            marks += 1
            if marks >= 9 or not previous or unicodedata.category(previous)[0] not in "LNM":
                return "the name holds a combining mark that belongs to no letter"
        else:
            marks = 0
        previous = char
    if "  " in name:
        return "the name holds two spaces in a row"
    if _SPACE_AT_COLON.search(name):
        return "the name starts or ends with a space or `:`, or has a space next to `:`"
    return None
