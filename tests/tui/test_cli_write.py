"""`skilldeck list --json` writes its document as json_printable would, without scanning every
character when nothing needs escaping (tui/cli/jsonout.py `printable_utf8`)."""

from __future__ import annotations

import itertools

from engine import json_printable
from tui.cli.jsonout import printable_utf8

_CHARS = ("a", "\x7f", "\x80", "\x85", "\x9f", "\xa0", "\xbf", "©", "é", "\ud800", "\udcff", "\U0001f600", "\n", '"', "߿")


def test_the_bytes_are_json_printables_in_utf8() -> None:
    texts = ["".join(p) for n in range(4) for p in itertools.product(_CHARS, repeat=n)]
    # Past 256 characters of U+00A0..U+00BF the check gives up and escapes as before: both ways.
    texts += ["©" * 300, "©" * 300 + "\x85", "\x85" + "©" * 300, "é" * 10_000 + "\x9b"]
    for text in texts:
        assert printable_utf8(text) == json_printable(text).encode("utf-8", "surrogateescape"), repr(text)
