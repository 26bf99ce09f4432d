"""Text that Bun's YAML 1.2 parser reads and PyYAML (YAML 1.1, libyaml) does not, made readable
for PyYAML without changing what it means, so that skilldeck reads the fields Claude Code reads.

- U+0085, U+2028 and U+2029 are line breaks in YAML 1.1 and ordinary characters in YAML 1.2:
  `description: before<U+2028>after` is a broken key for PyYAML and the text `before after`
  (once cleaned) for Claude Code. ESC, which YAML 1.1 refuses anywhere, Bun reads in a plain
  scalar (`description: <ESC>[4munder<ESC>[0m`; Claude Code strips the escape later). They are
  swapped for private-use characters the text does not hold before the parse (one for one:
  every position stays) and put back in every scalar after.
- A UTF-16 surrogate pair written as two escapes in double quotes (`"\\ud83d\\ude00"`) is one
  character for Bun (😀) and an error for libyaml, which reads each escape alone. The pairs in the
  quoted scalar the error names are rewritten as one `\\U0001F600` escape and the parse retried; a
  lone half stays an error, as in Claude Code ("Unexpected character").

Recorded: tests/oracle/cases/listing/fm_yaml_unicode.json, fm_html_ansi.json.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_HIDDEN = "\x85\u2028\u2029\x1b"
# Private-use characters tried as stand-ins, from the end of the BMP's private-use area down.
_STAND_IN_TOP = 0xF8FF
_STAND_IN_BOTTOM = 0xE000
# Quoted scalars rewritten per parse at most: a frontmatter holds a few texts worth rewriting,
# and each retry is a parse of the whole block.
MAX_PAIR_RETRIES = 8
_PAIR = re.compile(r"\\u([dD][89abAB][0-9a-fA-F]{2})\\u([dD][c-fC-F][0-9a-fA-F]{2})")
_BAD_ESCAPE = "found invalid Unicode character escape code"


def hide_breaks(src: str) -> tuple[str, dict[str, str]]:
    """`src` with each YAML 1.1 line break that is not a YAML 1.2 one replaced by a private-use
    character absent from it, and the map back (empty when there was nothing to replace)."""
    if not any(ch in src for ch in _HIDDEN):
        return src, {}
    back: dict[str, str] = {}
    code = _STAND_IN_TOP
    # Once over the text: a hostile one holding most private-use characters costs no more.
    present = set(src)
    for ch in _HIDDEN:
        if ch not in present:
            continue
        while code >= _STAND_IN_BOTTOM and chr(code) in present:
            code -= 1
        if code < _STAND_IN_BOTTOM:
            break  # every private-use character is taken: a hostile text, read as YAML 1.1
        back[chr(code)] = ch
        src = src.replace(ch, chr(code))
        code -= 1
    return src, back


def restore_breaks(node: Any, back: dict[str, str]) -> None:
    """Put the hidden characters back into every scalar of a composed node graph (in place,
    before anything is built from it). Iterative, each node once: aliases share nodes."""
    if not back or node is None:
        return
    table = str.maketrans(back)
    seen: set[int] = set()
    stack = [node]
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, yaml.ScalarNode):
            item.value = item.value.translate(table)
        elif isinstance(item, yaml.SequenceNode):
            stack.extend(item.value)
        elif isinstance(item, yaml.MappingNode):
            for key, value in item.value:
                stack.extend((key, value))


def join_surrogates(src: str, exc: yaml.YAMLError) -> str | None:
    """`src` with the surrogate pairs of the double-quoted scalar `exc` stopped in written as one
    escape each, or None when the error is another one or no pair is there to join."""
    problem = getattr(exc, "problem", None)
    start_mark = getattr(exc, "context_mark", None)
    if problem != _BAD_ESCAPE or start_mark is None:
        return None
    start = start_mark.index
    if not src.startswith('"', start):
        return None
    end = start + 1
    while end < len(src) and src[end] != '"':
        end += 2 if src[end] == "\\" else 1
    region = src[start:end]
    joined = _PAIR.sub(_one_escape, region)
    return None if joined == region else src[:start] + joined + src[end:]


def _one_escape(pair: re.Match[str]) -> str:
    high, low = int(pair.group(1), 16), int(pair.group(2), 16)
    return f"\\U{0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00):08X}"
