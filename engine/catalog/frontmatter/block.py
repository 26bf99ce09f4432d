"""A markdown file's bytes decoded as Claude Code reads them, and split into the frontmatter block
and the body."""

from __future__ import annotations

import re
from typing import NamedTuple

from .js import JS_SPACE


class Decoded(NamedTuple):
    text: str
    bom: bool
    # 1-based line and byte offset of the first byte that is not UTF-8, if any.
    bad_utf8_line: int | None
    bad_utf8_offset: int | None
    crlf: bool


def decode(data: bytes) -> tuple[str, Decoded]:
    """Decode like Node's `readFileSync(path, "utf-8")`: no BOM stripping, U+FFFD for bad bytes."""
    try:
        text = data.decode("utf-8")
        bad_line = bad_offset = None
    except UnicodeDecodeError as exc:
        text = data.decode("utf-8", errors="replace")
        bad_offset = exc.start
        bad_line = data.count(b"\n", 0, exc.start) + 1
    bom = text.startswith("\ufeff")
    # A one-byte search is a memchr; searching for "\r\n" directly is several times slower.
    crlf = b"\r" in data and b"\r\n" in data
    info = Decoded(text, bom, bad_line, bad_offset, crlf)
    return text, info


class Split(NamedTuple):
    # The file opens with `---` (after a BOM): the author meant a frontmatter.
    has_frontmatter: bool
    # Claude Code found a closing `---` and reads a frontmatter; when False it reads none and the
    # whole file is the body.
    terminated: bool
    yaml_text: str
    text: str
    body_offset: int
    # File line (1-based) of the first line of `yaml_text`, and of the `---` that closed it.
    first_line: int = 2
    close_line: int = 0
    # The `---` that closed the block is not a line of its own (`a---b`, `----`, `--- x`):
    # whatever follows it on that line is body.
    close_inline: bool = False
    # Where `yaml_text` starts in `text`.
    yaml_offset: int = 0

    @property
    def body(self) -> str:
        return self.text[self.body_offset :]

    @property
    def body_chars(self) -> int:
        return len(self.text) - self.body_offset


_BLANKS = re.compile(f"[{JS_SPACE}]*")


def split(text: str) -> Split:
    """Separate frontmatter from body as Claude Code 2.1.328 does.

    After dropping a BOM, the file must start with `---`, blanks and a newline; the block then
    ends at the next `---` wherever it stands, even inside a value (`a---b`) or as the start of
    `----`, and the body starts after the blanks (newlines included) that follow it. With no
    `---` after the opening one there is no frontmatter at all: the whole file is the body.
    (The pattern is `^---\\s*\\n([\\s\\S]*?)---\\s*\\n?`; here in linear steps.)"""
    start = 1 if text.startswith("\ufeff") else 0
    if not text.startswith("---", start):
        return Split(False, False, "", text, 0)
    blanks = _BLANKS.match(text, start + 3)
    assert blanks is not None
    # `\s*\n` backtracks to the last newline of the blank run after the opening dashes.
    newline = text.rfind("\n", start + 3, blanks.end())
    if newline < 0:
        return Split(False, False, "", text, 0)
    yaml_start = newline + 1
    close = text.find("---", yaml_start)
    if close < 0:
        return Split(True, False, "", text, 0)
    after = _BLANKS.match(text, close + 3)
    assert after is not None
    line_end = text.find("\n", close + 3)
    rest_of_line = text[close + 3 : len(text) if line_end < 0 else line_end]
    inline = (close > 0 and text[close - 1] != "\n") or bool(rest_of_line.strip(" \t\r"))
    first_line = text.count("\n", 0, yaml_start) + 1
    close_line = first_line + text.count("\n", yaml_start, close)
    return Split(True, True, text[yaml_start:close], text, after.end(), first_line, close_line, inline, yaml_start)
