"""Text and values as JavaScript sees them, which is how Claude Code does: `String()` of a number
or of what its YAML parser gives, the blanks of `trim()` and `\\s`, lengths and cuts in UTF-16 units, and
the width Bun's stringWidth gives (the listing budget's)."""

from __future__ import annotations

import functools
import math
import re
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
    format characters, combining marks and Hangul vowel and final jamo take 0, wide and full-width
    ones (CJK, most emoji) 2, every other character 1 (recorded: listing_cc_bundled_edge_*). An
    emoji sequence counts once, as 2: a skin tone after its emoji, what a U+200D joins on, the
    second of a pair of regional indicators (a flag; a lone one is 2), and U+FE0F makes a narrow
    character wide (a keycap `1️⃣`, `❤️`) (recorded: width_*). Other clusters are the sum of
    their characters (`क्षि` is 3). The description cap counts UTF-16 units instead (entry_text).
    ANSI escapes never reach it: Claude Code strips them from the texts first (cc_text)."""
    if text.isascii():
        return len(text) if text.isprintable() else sum(1 for ch in text if " " <= ch < "\x7f")
    if _SEQUENCE.search(text) is None:
        return sum(map(_char_width, text))
    total = 0
    cluster = 0  # the width of the emoji or character the next modifier or joiner applies to
    picture = joined = paired = False
    for ch in text:
        code = ord(ch)
        if code == 0x200D:
            joined = picture
            continue
        if code == 0xFE0F:
            if cluster == 1:
                total, cluster = total + 1, 2
            continue
        if joined and _pictographic(code):
            joined = False
            continue
        joined = False
        if 0x1F3FB <= code <= 0x1F3FF and picture:
            continue
        width = _char_width(ch)
        if 0x1F1E6 <= code <= 0x1F1FF:
            if paired:
                paired = False
                continue
            # Narrow in Unicode's table, drawn as an emoji: a flag's first half, or alone.
            paired, width = True, 2
        else:
            paired = False
        if width or unicodedata.category(ch) not in ("Mn", "Me", "Cf"):
            cluster, picture = width, _pictographic(code)
        total += width
    return total


# The characters that make a cluster count otherwise than the sum of its characters' widths:
# U+200D, U+FE0F, skin tones and regional indicators.
_SEQUENCE = re.compile("[\u200d\ufe0f\U0001f1e6-\U0001f1ff\U0001f3fb-\U0001f3ff]")


def _pictographic(code: int) -> bool:
    """An emoji a joiner or a skin tone attaches to: the emoji and symbol blocks (Unicode's
    Extended_Pictographic, near enough: Python has no such property)."""
    return 0x1F000 <= code <= 0x1FAFF or 0x2190 <= code <= 0x2BFF or code in (0xA9, 0xAE, 0x203C, 0x2049, 0x2122, 0x3030, 0x303D)


@functools.lru_cache(maxsize=8192)
def _char_width(ch: str) -> int:
    code = ord(ch)
    if 0x1160 <= code <= 0x11FF or 0xD7B0 <= code <= 0xD7FF:
        # Hangul vowel and final jamo join the initial before them: one wide syllable (width_hangul_jamo).
        return 0
    if unicodedata.category(ch) in ("Cc", "Cf", "Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
