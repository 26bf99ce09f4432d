"""Frontmatter values coerced as Claude Code reads them: booleans, tool lists, `paths:` patterns,
effort levels, scalars written as text."""

from __future__ import annotations

import math
import re
from typing import Any

from ..frontmatter import JS_TRIM, js_number, js_string

_TRUE = frozenset({"true", "yes", "on", "1"})
_FALSE = frozenset({"false", "no", "off", "0"})


def as_bool(value: Any) -> bool | None:
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        value = js_string(value)  # JavaScript's String(): 1.0 is "1"
    if isinstance(value, str):
        low = value.strip(JS_TRIM).lower()
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
    return None


def split_tools(value: str) -> list[str]:
    """Split one allowed-tools string as Claude Code does: at commas and spaces outside
    parentheses (`Read, Bash(git add:*)`); other blanks stay inside a name, a `)` ends the
    parenthesis whatever opened it, blanks before a name are dropped."""
    if "(" not in value and ")" not in value:
        # The common case: split at commas, then at spaces.
        return [t for part in value.split(",") for t in _space_split(part)]
    out: list[str] = []
    cur = ""
    inside = False
    for ch in value:
        if ch == "(":
            inside = True
            cur += ch
        elif ch == ")":
            inside = False
            cur += ch
        elif ch in ", " and not inside:
            if cur.strip(JS_TRIM):
                out.append(cur.strip(JS_TRIM))
            cur = ""
        elif cur or ch.strip(JS_TRIM):
            cur += ch
    if cur.strip(JS_TRIM):
        out.append(cur.strip(JS_TRIM))
    return out


def _space_split(part: str) -> list[str]:
    out = []
    for word in part.split(" "):
        word = word.lstrip(JS_TRIM)
        if word.strip(JS_TRIM):
            out.append(word.strip(JS_TRIM))
    return out


_JS_WHITESPACE = re.compile("[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
# `paths:` brace expansion bounds, as Claude Code's: at most 1,000 patterns and 4 MiB of them.
_PATH_RESULTS = 1000
_PATH_BYTES = 4_194_304
_BRACE = re.compile(r"([^{]*)\{([^}]+)\}([^\n\r\u2028\u2029]*)\Z")


def cc_paths(value: Any) -> tuple[str, ...]:
    """`paths:` as Claude Code reads it: strings (or the strings of a list) split at commas outside
    braces, braces expanded (`src/{a,b}/**`), a trailing `/**` dropped; none, or only `**`, is
    no condition at all (the skill is listed from the start)."""
    budget = [_PATH_RESULTS, _PATH_BYTES]
    patterns = [p[:-3] if p.endswith("/**") else p for p in _split_paths(value, budget)]
    patterns = [p for p in patterns if p]
    if not patterns or all(p == "**" for p in patterns):
        return ()
    return tuple(patterns)


def _split_paths(value: Any, budget: list[int]) -> list[str]:
    if isinstance(value, list):
        return [p for item in value for p in _split_paths(item, budget)]
    if not isinstance(value, str):
        return []
    parts: list[str] = []
    cur, depth = "", 0
    for ch in value:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(cur.strip(JS_TRIM))
            cur = ""
            continue
        cur += ch
    parts.append(cur.strip(JS_TRIM))
    return [p for part in parts if part for p in _expand(part, budget)]


def _expand(pattern: str, budget: list[int]) -> list[str]:
    """One pattern's brace expansion, within the shared budget; past it, the pattern unexpanded."""
    if "{" not in pattern:
        return [pattern]
    out: list[str] = []
    stack = [pattern]
    while stack:
        item = stack.pop()
        m = _BRACE.match(item)
        if not m:
            out.append(item)
            continue
        head, inner, tail = m.groups()
        options = [o.strip(JS_TRIM) for o in inner.split(",")]
        budget[1] -= len(item)
        count = len(out) + len(stack) + len(options)
        if budget[1] < 0 or count > budget[0] or count * len(pattern) > budget[1]:
            return [pattern]
        stack.extend(head + o + tail for o in reversed(options))
    budget[0] -= len(out)
    budget[1] -= len(out) * len(pattern)
    return out


def _scalar_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not math.isfinite(value):
        # As JavaScript's String() writes them, which is what Claude Code shows.
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    return str(value)


EFFORT_LEVELS = ("low", "medium", "high", "xhigh", "max")
_EFFORT_ALIASES = {"med": "medium"}
_PARSE_INT = re.compile(r"[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]*([-+]?\d+)")


def effort_level(value: Any) -> str | None:
    """Claude Code's reading of `effort:`: a level in any case (`med` for medium), an integer, or
    text that JavaScript's parseInt() reads as one (`3 please` is 3); None when it is ignored."""
    if value is None or value == "" or isinstance(value, (list, dict)):
        return None
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
        return js_number(value)
    text = js_string(value).lower()
    text = _EFFORT_ALIASES.get(text, text)
    if text in EFFORT_LEVELS:
        return text
    m = _PARSE_INT.match(text)
    return str(int(m.group(1))) if m else None
