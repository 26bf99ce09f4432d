"""JSON out of the command line: documents as `json.dumps` writes them, and the long lists of
`skilldeck list --json` as the same JSON value written record by record, in large writes.

Whatever a file put in a value is escaped (json.dumps escapes C0 controls; `json_printable` the
DEL, C1 controls and lone surrogates it leaves raw): a terminal shows the output, never obeys it."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable
from typing import Any

from engine import json_printable


def dump(obj: Any) -> None:
    # json.dumps escapes C0 controls; json_printable escapes the DEL and C1 controls it leaves raw.
    sys.stdout.write(json_printable(json.dumps(obj, indent=2, ensure_ascii=False, default=str)) + "\n")


# Bytes per write of a long document: few system calls even unbuffered (PYTHONUNBUFFERED=1 in a
# container), and never the whole document held twice.
_CHUNK = 1 << 20


def dump_rows(doc: dict[str, Any]) -> None:
    """A document of lists of records (dicts, or their JSON text), each record on its own line: the same JSON value as
    `dump` gives, written by the C encoder (json.dumps with `indent` is pure Python, most of
    the cost at 15,000 skills) in chunks of about a megabyte, straight to the file descriptor."""
    encode = _row_encoder()
    pieces: list[str] = ["{"]
    size = 0
    sections = list(doc.items())
    for n, (key, rows) in enumerate(sections):
        comma = "," if n < len(sections) - 1 else ""
        if not isinstance(rows, list):  # a value of its own (a name, a block of text): one line
            pieces.append(f"\n  {json.dumps(key)}: {encode(rows)}{comma}")
            continue
        pieces.append(f"\n  {json.dumps(key)}: [")
        for i, row in enumerate(rows):
            line = row if isinstance(row, str) else encode(row)
            pieces.append(("\n    " if not i else ",\n    ") + line)
            size += len(line)
            if size > _CHUNK:
                _write("".join(pieces))
                pieces, size = [], 0
        pieces.append(("\n  ]" if rows else "]") + comma)
    pieces.append("\n}\n")
    _write("".join(pieces))


def _row_encoder() -> Callable[[Any], str]:
    """What `json.JSONEncoder(ensure_ascii=False, default=str).encode` gives a record, from one C
    encoder made once: `encode` makes a new one per call and checks for cycles, which a record
    built by `to_dict` cannot hold (a tenth of the writing at 15,000 skills)."""
    from json import encoder as json_encoder

    make = getattr(json_encoder, "c_make_encoder", None)
    if make is None:  # a Python built without the C accelerator
        return json.JSONEncoder(ensure_ascii=False, default=str).encode
    # markers, default, encoder (the C one here), indent, key and item separators, sort_keys,
    # skipkeys, allow_nan: json.JSONEncoder's own defaults, as its iterencode passes them.
    try:
        encode = make(None, str, json_encoder.encode_basestring, None, ": ", ", ", False, False, True)
        encode({"a": [1, None, True, "é"]}, 0)
    except TypeError:  # another Python's c_make_encoder (not a documented function)
        return json.JSONEncoder(ensure_ascii=False, default=str).encode
    return lambda row: "".join(encode(row, 0))


def _write(text: str) -> None:
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a captured or replaced stdout
        sys.stdout.write(json_printable(text) if "\x7f" in text or not text.isascii() else text)
        return
    sys.stdout.flush()
    data = memoryview(printable_utf8(text))
    while data:
        data = data[os.write(fd, data) :]


def printable_utf8(text: str) -> bytes:
    """`json_printable(text)` in UTF-8. json.dumps escapes C0 controls; json_printable escapes the
    DEL, the C1 controls and lone surrogates it leaves raw. Its scan of every character took 0.2 s
    of a 15,000-skill listing; in UTF-8 each of those has a byte of its own (a surrogate does not
    encode at all, DEL is 0x7F, U+0080..U+009F are 0xC2 then 0x80..0x9F), found at memchr speed,
    so the scan runs only for a text that holds one."""
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate
        return json_printable(text).encode("utf-8", "surrogateescape")
    if b"\x7f" in data or _may_hold_c1(data):
        return json_printable(text).encode("utf-8", "surrogateescape")
    return data


def _may_hold_c1(data: bytes) -> bool:
    at = data.find(b"\xc2")
    for _ in range(256):  # past that many (a text full of U+00A0..U+00BF), the scan decides
        if at < 0:
            return False
        if data[at + 1] < 0xA0:
            return True
        at = data.find(b"\xc2", at + 2)
    return True
