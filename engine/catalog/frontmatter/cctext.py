"""Texts as Claude Code keeps them: a description, when_to_use or argument hint cleaned at load time
(`cc_text`), and the description it falls back to, the body's first line."""

from __future__ import annotations

import bisect
import re
import unicodedata

from .js import JS_SPACE, JS_TRIM, utf16_cut, utf16_len

_JS_BLANK = f"[{JS_SPACE}]"
_HEADING = re.compile(f"#+{_JS_BLANK}+([^{JS_SPACE}][^\r\n\u2028\u2029]*)\\Z")
FALLBACK_MAX = 100


def first_line_description(body: str, default: str, start: int = 0) -> tuple[str, str]:
    """Claude Code's description fallback: the first line that is not blank once trimmed, without
    its heading marks (`# Title`, not `#Title`), cut to 97 UTF-16 units and `...` past 100.
    Returns (description, "body" | "default").

    `start` lets a caller pass the whole file and the body's offset, saving a copy."""
    pos, end_of_text = start, len(body)
    while True:
        end = body.find("\n", pos)
        end = end_of_text if end < 0 else end
        line = body[pos:end].strip(JS_TRIM)
        if line:
            heading = _HEADING.match(line)
            text = heading.group(1) if heading else line
            if utf16_len(text) > FALLBACK_MAX:
                text = utf16_cut(text, FALLBACK_MAX - 3) + "..."
            return text, "body"
        if end >= end_of_text:
            return default, "default"
        pos = end + 1


# Claude Code's clean-up of a description, when_to_use and argument hint at load time: ANSI
# escape sequences are removed (strip_ansi), then each run of control, format, private-use,
# unassigned, surrogate and default-ignorable characters becomes one space, except the joiners
# and selectors that spell an emoji or an Indic conjunct.
_IGNORABLE = (
    (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x110BD, 0x110BD), (0x1D173, 0x1D17A),
    (0x13430, 0x1343F), (0x16FE4, 0x16FE4), (0x1BCA0, 0x1BCA3), (0xE0000, 0xE0FFF),
)  # fmt: skip
# Code points Claude Code 2.1.328 keeps (its Unicode is 17.0) that this Python's unicodedata
# (Unicode 14.0) calls unassigned: found by listing every such code point on the binary.
_NEWER_ASSIGNED = (
    (0x88f, 0x88f), (0x897, 0x897), (0xc5c, 0xc5c), (0xcdc, 0xcdc), (0xcf3, 0xcf3), (0xece, 0xece), (0x1acf, 0x1add),
    (0x1ae0, 0x1aeb), (0x1b4e, 0x1b4f), (0x1b7f, 0x1b7f), (0x1c89, 0x1c8a), (0x20c1, 0x20c1), (0x2427, 0x2429),
    (0x2b96, 0x2b96), (0x2ffc, 0x2fff), (0x31e4, 0x31e5), (0x31ef, 0x31ef), (0xa7cb, 0xa7cf), (0xa7d2, 0xa7d2),
    (0xa7d4, 0xa7d4), (0xa7da, 0xa7dc), (0xa7f1, 0xa7f1), (0xfbc3, 0xfbd2), (0xfd90, 0xfd91), (0xfdc8, 0xfdce),
    (0x105c0, 0x105f3), (0x10940, 0x10959), (0x10d40, 0x10d65), (0x10d69, 0x10d85), (0x10d8e, 0x10d8f),
    (0x10ec2, 0x10ec7), (0x10ed0, 0x10ed8), (0x10efa, 0x10eff), (0x1123f, 0x11241), (0x11380, 0x11389),
    (0x1138b, 0x1138b), (0x1138e, 0x1138e), (0x11390, 0x113b5), (0x113b7, 0x113c0), (0x113c2, 0x113c2),
    (0x113c5, 0x113c5), (0x113c7, 0x113ca), (0x113cc, 0x113d5), (0x113d7, 0x113d8), (0x113e1, 0x113e2),
    (0x116d0, 0x116e3), (0x11b00, 0x11b09), (0x11b60, 0x11b67), (0x11bc0, 0x11be1), (0x11bf0, 0x11bf9),
    (0x11db0, 0x11ddb), (0x11de0, 0x11de9), (0x11f00, 0x11f10), (0x11f12, 0x11f3a), (0x11f3e, 0x11f5a),
    (0x1342f, 0x1342f), (0x13440, 0x13455), (0x13460, 0x143fa), (0x16100, 0x16139), (0x16d40, 0x16d79),
    (0x16ea0, 0x16eb8), (0x16ebb, 0x16ed3), (0x16ff2, 0x16ff6), (0x187f8, 0x187ff), (0x18cff, 0x18cff),
    (0x18d09, 0x18d1e), (0x18d80, 0x18df2), (0x1b132, 0x1b132), (0x1b155, 0x1b155), (0x1cc00, 0x1ccfc),
    (0x1cd00, 0x1ceb3), (0x1ceba, 0x1ced0), (0x1cee0, 0x1cef0), (0x1d2c0, 0x1d2d3), (0x1df25, 0x1df2a),
    (0x1e030, 0x1e06d), (0x1e08f, 0x1e08f), (0x1e4d0, 0x1e4f9), (0x1e5d0, 0x1e5fa), (0x1e5ff, 0x1e5ff),
    (0x1e6c0, 0x1e6de), (0x1e6e0, 0x1e6f5), (0x1e6fe, 0x1e6ff), (0x1f6d8, 0x1f6d8), (0x1f6dc, 0x1f6dc),
    (0x1f774, 0x1f77f), (0x1f7d9, 0x1f7d9), (0x1f8b2, 0x1f8bb), (0x1f8c0, 0x1f8c1), (0x1f8d0, 0x1f8d8),
    (0x1fa54, 0x1fa57), (0x1fa75, 0x1fa77), (0x1fa87, 0x1fa8a), (0x1fa8e, 0x1fa8f), (0x1faad, 0x1faaf),
    (0x1fabb, 0x1fabf), (0x1fac6, 0x1fac6), (0x1fac8, 0x1fac8), (0x1facd, 0x1facf), (0x1fada, 0x1fadc),
    (0x1fadf, 0x1fadf), (0x1fae8, 0x1faea), (0x1faef, 0x1faef), (0x1faf7, 0x1faf8), (0x1fbcb, 0x1fbef),
    (0x1fbfa, 0x1fbfa), (0x2b739, 0x2b73f), (0x2cea2, 0x2cead), (0x2ebf0, 0x2ee5d), (0x31350, 0x33479),
)  # fmt: skip
_NEWER_STARTS = [lo for lo, _ in _NEWER_ASSIGNED]
_OLDER_UNICODE = tuple(int(p) for p in unicodedata.unidata_version.split(".")) < (17,)
_IGNORABLE_RE = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _IGNORABLE) + "]")
_JOINERS = "\u200c\u200d\ufe0f\U000e007f"


def _invisible(ch: str) -> bool:
    code = ord(ch)
    if code < 0x20 or 0x7F <= code <= 0x9F or ch in "\u2028\u2029":
        return True
    if code < 0xA0:
        return False
    category = unicodedata.category(ch)
    if category == "Cn" and _OLDER_UNICODE:
        # Unassigned here, perhaps not in Claude Code's newer Unicode.
        at = bisect.bisect_right(_NEWER_STARTS, code) - 1
        return not (at >= 0 and code <= _NEWER_ASSIGNED[at][1])
    if category in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return True
    return any(lo <= code <= hi for lo, hi in _IGNORABLE)


def _emoji_like(ch: str) -> bool:
    """A character an emoji sequence may start with: the pictographs, and the symbols and
    punctuation past ASCII that take a U+FE0F (`↔️`, `‼️`, `©️`; recorded: fm_description_text)."""
    code = ord(ch)
    return 0x1F000 <= code <= 0x1FAFF or (code > 0x7F and unicodedata.category(ch)[0] in "SP")


def _kept(text: str, i: int) -> bool:
    """Whether the invisible character at `i` is part of an emoji or conjunct Claude Code keeps."""
    ch = text[i]
    before = text[i - 1] if i else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if ch == "\ufe0f":
        return bool(before) and (_emoji_like(before) or before in "#*0123456789")
    if ch == "\u200d":
        if before == "\ufe0f" and i > 1:
            before = text[i - 2]
        if before and after and _emoji_like(before) and _emoji_like(after):
            return True
    if ch in "\u200c\u200d" and before and after:
        # An Indic virama, then the joiner, then a letter: a spelled conjunct.
        return unicodedata.combining(before) == 9 and unicodedata.category(after).startswith("L")
    if 0xE0020 <= ord(ch) <= 0xE007F:
        # A subdivision flag: U+1F3F4 followed by tag characters.
        j = i
        while j > 0 and 0xE0020 <= ord(text[j - 1]) <= 0xE007F:
            j -= 1
        return j > 0 and text[j - 1] == "\U0001f3f4"
    return False


# What starts an escape sequence: ESC, and the C1 controls that introduce a CSI, an OSC or a
# control string (a lone ST, U+009C, is not one: it becomes a space as any control does).
_ESCAPES = re.compile("[\x1b\x90\x98\x9b\x9d\x9e\x9f]")
# What ends a control string: BEL, U+009C (ST) or `ESC \\` (ST in 7 bits).
_STRING_END = re.compile("\x07|\x9c|\x1b\\\\")
_C1 = {"\x9b": "[", "\x9d": "]", "\x90": "P", "\x98": "X", "\x9e": "^", "\x9f": "_"}


def strip_ansi(text: str) -> str:
    """`text` without its escape sequences, as Claude Code 2.1.328 strips them (ECMA-48; recorded:
    fm_html_ansi, fm_ansi_edges): a CSI (`ESC [` or U+009B) runs to its final byte (@ to ~),
    whatever comes between (digits, a newline, é); an OSC or other control string (`ESC ]`,
    `ESC P`, `ESC X`, `ESC ^`, `ESC _` or their C1 forms) to BEL, `ESC \\` or U+009C, else to
    the end; any other ESC takes the bytes from space to / after it and one byte from 0 to ~
    (`ESC 7`, `ESC ( B`, `ESC l`). An ESC before anything else (é, another ESC, the end) goes alone."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        found = _ESCAPES.search(text, i)
        if found is None:
            out.append(text[i:])
            break
        at = found.start()
        out.append(text[i:at])
        kind = _C1.get(text[at])
        j = at + 1
        if kind is None:  # ESC
            nxt = text[j] if j < n else ""
            if nxt and nxt in "[]PX^_":
                kind, j = nxt, j + 1
            else:
                k = j
                while k < n and " " <= text[k] <= "/":
                    k += 1
                i = k + 1 if k < n and "0" <= text[k] <= "~" else j
                continue
        if kind == "[":
            while j < n and not "@" <= text[j] <= "~":
                j += 1
            i = j + 1
        else:
            i = _string_end(text, j)
    return "".join(out)


def _string_end(text: str, start: int) -> int:
    """Where a control string that starts at `start` ends: after its terminator, else at the end."""
    found = _STRING_END.search(text, start)
    return len(text) if found is None else found.end()


def cc_text(text: str) -> str:
    """A description, when_to_use or argument hint as Claude Code keeps it after loading."""
    if _ESCAPES.search(text):
        text = strip_ansi(text)
    if text.isprintable() and (text.isascii() or not _IGNORABLE_RE.search(text)):
        return text  # (isprintable() passes the ignorable letters and marks: U+3164, U+FE0F, ...)
    keep_joiners = len(text) <= 4096 and any(j in text for j in _JOINERS)
    out: list[str] = []
    append = out.append
    run = False  # the last character was invisible: a run goes on, it gets one space only
    for i, ch in enumerate(text):
        if " " <= ch <= "~" or not _invisible(ch):  # printable ASCII, the bulk of any text: no call
            append(ch)
            run = False
        elif keep_joiners and _kept(text, i):
            append(ch)
            run = True
        else:
            if not (run and out[-1] == " "):
                append(" ")
            run = True
    return "".join(out)
