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
from dataclasses import dataclass
from typing import Any

# Real settings nest about six levels (hooks); a hundred leaves room for anything sensible and
# keeps the C parser and our writer far from the interpreter's recursion limit.
MAX_DEPTH = 100

_TOKEN = re.compile(r'["\[\]{}]')
_SURROGATE = re.compile(r"[\ud800-\udfff]")


class JsonDocError(ValueError):
    """The text is not a JSON document we can edit faithfully; `line`/`column` point at the cause."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


@dataclass(frozen=True)
class Number:
    """A JSON number as written: its text is written back unchanged, never through float or int."""

    text: str


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

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"JsonObject({self.pairs!r})"


def _position(text: str, index: int) -> tuple[int, int]:
    line = text.count("\n", 0, index) + 1
    return line, index - (text.rfind("\n", 0, index) + 1) + 1


def check_depth(text: str, limit: int = MAX_DEPTH) -> None:
    """Raise JsonDocError when arrays and objects nest deeper than `limit`. Linear in the text:
    strings are skipped with `str.find`, and each run of backslashes before a quote is counted once."""
    depth = 0
    i = 0
    while match := _TOKEN.search(text, i):
        char, i = match.group(), match.end()
        if char == '"':
            while True:
                j = text.find('"', i)
                if j < 0:
                    return  # an unterminated string: the parser says where
                k = j
                while k > i and text[k - 1] == "\\":
                    k -= 1
                i = j + 1
                if (j - k) % 2 == 0:
                    break
        elif char in "[{":
            depth += 1
            if depth > limit:
                line, column = _position(text, match.start())
                raise JsonDocError(f"nested deeper than {limit} levels", line, column)
        else:
            depth -= 1


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


def _string(value: str) -> str:
    # A lone surrogate (`"\ud800"` in the file) is a legal JSON escape but cannot be encoded as
    # UTF-8: it is written back as the escape it was read from.
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", json.dumps(value, ensure_ascii=False))


def dumps(value: Any, indent: int = 2) -> str:
    """The text of `value`, laid out as `json.dumps(value, indent=indent, ensure_ascii=False)`."""
    out: list[str] = []

    def emit(item: Any, level: int) -> None:
        if level > MAX_DEPTH + 1:
            raise JsonDocError(f"nested deeper than {MAX_DEPTH} levels")
        inner = "\n" + " " * (indent * (level + 1))
        if isinstance(item, JsonObject):
            if not item.pairs:
                out.append("{}")
                return
            out.append("{")
            for n, (key, child) in enumerate(item.pairs):
                out.append(("," if n else "") + inner + _string(key) + ": ")
                emit(child, level + 1)
            out.append("\n" + " " * (indent * level) + "}")
        elif isinstance(item, list):
            if not item:
                out.append("[]")
                return
            out.append("[")
            for n, child in enumerate(item):
                out.append(("," if n else "") + inner)
                emit(child, level + 1)
            out.append("\n" + " " * (indent * level) + "]")
        elif isinstance(item, Number):
            out.append(item.text)
        elif isinstance(item, str):
            out.append(_string(item))
        elif item is True or item is False or item is None:
            out.append(json.dumps(item))
        else:
            raise TypeError(f"not a JSON document value: {type(item).__name__}")

    emit(value, 0)
    return "".join(out)
