"""Text and values as JavaScript sees them, which is how Claude Code does: `String()` of a number
or of what its YAML parser gives, the blanks of `trim()` and `\\s`, lengths and cuts in UTF-16 units, and
the width Bun's stringWidth gives (the listing budget's)."""

from __future__ import annotations

import functools
import math
import unicodedata
from typing import Any

# JavaScript's `\s`: what Claude Code's frontmatter pattern counts as blank.
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# JavaScript's String.prototype.trim(): its whitespace and line terminators.
JS_TRIM = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(map(chr, range(0x2000, 0x200B)))


def utf16_len(text: str) -> int:
    """The length JavaScript gives `text`: a character past U+FFFF counts twice."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_cut(text: str, units: int, half: str = " ") -> str:
    """`text.substring(0, units)`. A character cut in half leaves half a surrogate pair, which
    becomes `half`: a space where Claude Code's clean-up turns it into one (descriptions), U+FFFD
    where it is sent as it is (the listing; recorded: listing_escape_cap)."""
    if len(text) * 2 <= units or utf16_len(text) <= units:
        return text
    # Cut the UTF-16 form itself: a loop over characters cost 0.7 ms per capped entry.
    data = text.encode("utf-16-le", "surrogatepass")
    end = 2 * max(units, 0)
    out = data[:end].decode("utf-16-le", "surrogatepass")
    if out and "\ud800" <= out[-1] <= "\udbff" and 0xDC <= data[end + 1] <= 0xDF:
        out = out[:-1] + half  # the cut went through a surrogate pair
    return out


def js_number(value: float | int) -> str:
    """`String(n)` in JavaScript, for the number Claude Code's parser reads (a double)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    try:
        x = float(value)
    except OverflowError:
        x = math.inf if value > 0 else -math.inf
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    # repr() gives the shortest digits that read back as the same double, as JavaScript does;
    # the layout (plain up to 21 digits, exponent below 1e-6) is JavaScript's Number::toString.
    digits, exponent = repr(abs(x)).split("e") if "e" in repr(abs(x)) else (repr(abs(x)), "0")
    whole, _, frac = digits.partition(".")
    frac = frac.rstrip("0")
    mantissa = (whole + frac).lstrip("0")
    point = len(whole) + int(exponent) - (len(whole + frac) - len((whole + frac).lstrip("0")))
    mantissa = mantissa.rstrip("0") or "0"
    k, n = len(mantissa), point
    if k <= n <= 21:
        out = mantissa + "0" * (n - k)
    elif 0 < n <= 21:
        out = mantissa[:n] + "." + mantissa[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + mantissa
    else:
        e = n - 1
        out = (mantissa if k == 1 else f"{mantissa[0]}.{mantissa[1:]}") + f"e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + out


def js_string(value: Any) -> str:
    """`String(value)` in JavaScript, for what Claude Code's YAML parser gives: lists join their
    items with commas, a mapping is `[object Object]`, null is `null`."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int, float)):
        return js_number(value)
    if isinstance(value, list):
        # Array.prototype.join writes null (and undefined) items as empty strings.
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def display_width(text: str) -> int:
    """The width Claude Code 2.1.328 counts an entry at against the budget: Bun.stringWidth with
    ambiguous characters narrow. Control characters (a newline, as in its own `claude-api` text),
    format characters and combining marks take 0, wide and full-width ones (CJK, most emoji) 2,
    every other character 1 (recorded: listing_cc_bundled_edge_*). The description cap counts UTF-16
    units instead (entry_text). Not modelled: Bun counts an emoji sequence joined by U+200D as
    one emoji, and leaves ANSI escape sequences out."""
    if text.isascii():
        return len(text) if text.isprintable() else sum(1 for ch in text if " " <= ch < "\x7f")
    return sum(map(_char_width, text))


@functools.lru_cache(maxsize=8192)
def _char_width(ch: str) -> int:
    if unicodedata.category(ch) in ("Cc", "Cf", "Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
