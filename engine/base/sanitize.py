"""Make untrusted text safe to print on a terminal, and visibly so.

A skill file, a folder name, a settings file or a model's answer can hold terminal control
sequences: an OSC 52 clipboard write (`ESC ] 52 ; c ; ... BEL`), a title change (`ESC ] 0 ;`), a
screen clear (`ESC [ 2 J`), or their one-byte C1 forms (`\\x9b` is CSI, `\\x9d` is OSC). Printed as
they are, they act on the user's terminal. Rich and Textual strip only BEL, BS, VT, FF and CR,
so ESC and the C1 controls get through both.

`printable` replaces every C0 control except newline and tab, DEL, and every C1 control with a
visible stand-in (caret notation, `^[` for ESC), so a reader sees that something was there
instead of silently losing it. It is for display only: what the model receives stays byte-exact.
"""

from __future__ import annotations

import re

# C0 except \t (0x09) and \n (0x0a), DEL, C1. A CRLF line end is a line end, not a control worth
# showing on every line, so `\r\n` is matched first and becomes `\n`.
# Lone surrogates too: a file name that is not UTF-8 arrives with its bytes as U+DC80..U+DCFF
# (os.fsdecode), which a strict UTF-8 terminal refuses and a C locale writes out as raw C1 bytes.
_CONTROLS = re.compile("\r\n|[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
# In JSON text, C0 controls are always escaped by json.dumps; DEL and C1 are not when
# ensure_ascii=False, and a UTF-8 terminal may act on a decoded C1 control.
_JSON_RAW = re.compile("[\x7f-\x9f\ud800-\udfff]")


def _stand_in(m: re.Match[str]) -> str:
    char = m.group(0)
    if char == "\r\n":
        return "\n"
    code = ord(char)
    if code < 0x20:
        return "^" + chr(code + 0x40)  # ^@ .. ^_ ; ESC is ^[
    if code == 0x7F:
        return "^?"
    if 0xDC80 <= code <= 0xDCFF:
        return f"<{code - 0xDC00:#04x}>"  # a byte of a name that is not UTF-8: <0xff>
    if code >= 0xD800:
        return f"<U+{code:04X}>"  # half of a surrogate pair, alone
    return f"<{code:#04x}>"  # a C1 control: <0x9b>


def printable(text: str) -> str:
    """`text` with every terminal control but newline and tab made visible and inert."""
    if text.isprintable():  # the common case, and a fast one (isprintable is False for \n and \t)
        return text
    return _CONTROLS.sub(_stand_in, text)


def json_printable(text: str) -> str:
    """A JSON document (from json.dumps, ensure_ascii=False) with DEL, C1 controls and lone
    surrogates written as `\\uXXXX` escapes: still the same JSON value, but nothing in it acts on a
    terminal or stops a strict UTF-8 writer. Outside strings JSON text is ASCII, so every such
    character is inside a string and may be escaped."""
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)
