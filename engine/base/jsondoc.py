"""JSON documents that survive a read and a write unchanged in meaning, for editing files we did not write.

`json.loads` then `json.dumps` is not a faithful round trip: `1e999` comes back as `Infinity`
(not JSON), `1.10` as `1.1`, `-0` as `0`, an integer of 5,000 digits raises, `NaN` is accepted on
the way in, duplicate keys silently collapse, and a deeply nested file raises `RecursionError`.
Here every number keeps its exact text (`Number`), every object keeps all its pairs in order
(`JsonObject`, duplicates included), the non-JSON constants are refused, and nesting is bounded
before the parser runs. The output is two-space indented like `json.dumps(indent=2)`.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from json.encoder import encode_basestring  # the C encoder, ensure_ascii=False
from typing import Any

# Real settings nest about six levels (hooks); a hundred leaves room for anything sensible and
# keeps the C parser and our writer far from the interpreter's recursion limit.
MAX_DEPTH = 100

# A whole string (to its closing quote, or to the end when it has none), or a bracket.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)
# Strings and runs of anything that is not a bracket: what check_depth deletes.
_NOT_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"?|[^"\[\]{}]+', re.S)
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class JsonDocError(ValueError):
    """The text is not a JSON document we can edit faithfully; `line`/`column` point at the cause."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


class Number:
    """A JSON number as written: its text is written back unchanged, never through float or int.
    (A plain class with slots: the parser makes one per number, and a frozen dataclass is slower.)"""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Number) and other.text == self.text

    def __hash__(self) -> int:
        return hash((Number, self.text))

    def __repr__(self) -> str:
        return f"Number({self.text!r})"


class JsonObject:
    """A JSON object as written: every pair, in order, duplicates kept. Lookups answer with the last
    pair of a key, as JavaScript's JSON.parse (and so Claude Code) does."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[str, Any]] | None = None) -> None:
        self.pairs: list[tuple[str, Any]] = list(pairs or [])

    def count(self, key: str) -> int:
        return sum(1 for k, _ in self.pairs if k == key)

    def get(self, key: str, default: Any = None) -> Any:
        for k, value in reversed(self.pairs):
            if k == key:
                return value
        return default

    def set(self, key: str, value: Any) -> None:
        """Replace the value of the last pair of `key` in its place, or append a new pair."""
        for i in range(len(self.pairs) - 1, -1, -1):
            if self.pairs[i][0] == key:
                self.pairs[i] = (key, value)
                return
        self.pairs.append((key, value))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, JsonObject) and self.pairs == other.pairs

    # Mutable, so unhashable as a dict is. Python's own idiom; typeshed types object.__hash__ as a
    # method, so mypy cannot see that None is allowed here.
    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"JsonObject({self.pairs!r})"


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def _locate_depth(text: str, limit: int) -> tuple[int, int]:
    """Line and column of the first bracket past `limit` (only called once the fast pass found one)."""
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                return _position(text, match.start())
        elif token in "]}":
            depth -= 1
    return 0, 0


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Raise JsonDocError when arrays and objects nest deeper than `limit`, in linear time and
    without a Python step per character: strings and everything but brackets are deleted by one
    regex (a string always matches, to its closing quote or to the end, so nothing backtracks),
    and the deepest level is the largest running sum of the brackets left."""
    if text.count("[") + text.count("{") <= limit:  # most files: two passes in C and done
        return
    brackets = _NOT_BRACKET.sub("", text)
    if len(brackets) <= limit:
        return
    if max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit:
        line, column = _locate_depth(text, limit)
        raise JsonDocError(f"nested deeper than {limit} levels", line or None, column or None)


def _constant(name: str) -> Any:
    raise JsonDocError(f"`{name}` is not a JSON value (Python accepts it, Claude Code does not)")


def loads(text: str) -> Any:
    """Parse strict JSON into str, Number, bool, None, list and JsonObject. Raises JsonDocError."""
    check_depth(text)
    try:
        return json.loads(text, parse_float=Number, parse_int=Number, parse_constant=_constant, object_pairs_hook=JsonObject)
    except json.JSONDecodeError as exc:
        raise JsonDocError(exc.msg, exc.lineno, exc.colno) from None
    except RecursionError:  # check_depth makes this unreachable; kept so no parse can escape as a traceback
        raise JsonDocError(f"nested deeper than {MAX_DEPTH} levels") from None


_LITERALS = {True: "true", False: "false", None: "null"}


def dumps(value: Any, indent: int = 2) -> str:
    """The text of `value`, laid out as `json.dumps(value, indent=indent, ensure_ascii=False)`.

    Strings go through the C encoder one by one and scalars are written inline, so a file of
    many small values costs about a microsecond per value. A lone surrogate (`"\\ud800"` in the
    file) is a legal JSON escape but cannot be encoded as UTF-8: it is written back as the escape
    it was read from, in one pass over the result (only strings can hold one)."""
    out: list[str] = []
    append = out.append

    def scalar(item: Any) -> bool:
        kind = type(item)
        if kind is str:
            append(encode_basestring(item))
        elif kind is Number:
            append(item.text)
        elif item is True or item is False or item is None:
            append(_LITERALS[item])
        else:
            return False
        return True

    def emit(item: Any, level: int) -> None:
        if scalar(item):
            return
        if level > MAX_DEPTH:
            raise JsonDocError(f"nested deeper than {MAX_DEPTH} levels")
        inner = "\n" + " " * (indent * (level + 1))
        if isinstance(item, JsonObject):
            if not item.pairs:
                append("{}")
                return
            append("{")
            for n, (key, child) in enumerate(item.pairs):
                append(("," + inner if n else inner) + encode_basestring(key) + ": ")
                emit(child, level + 1)
            append("\n" + " " * (indent * level) + "}")
        elif isinstance(item, list):
            if not item:
                append("[]")
                return
            append("[")
            for n, child in enumerate(item):
                append("," + inner if n else inner)
                if not scalar(child):
                    emit(child, level + 1)
            append("\n" + " " * (indent * level) + "]")
        else:
            raise TypeError(f"not a JSON document value: {type(item).__name__}")

    emit(value, 0)
    text = "".join(out)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text) if not text.isascii() else text
