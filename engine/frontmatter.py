"""Split a markdown file into YAML frontmatter and body, and parse the YAML as Claude Code does.

Claude Code reads the file as UTF-8 (bad bytes become U+FFFD), takes the block between a first
line `---` and the next line `---`, parses it, retries once after quoting values that usually
break YAML, and falls back to empty metadata. This module reproduces that and remembers
everything a user needs to fix the file: positions, repaired lines, duplicate keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, NamedTuple

import yaml

from .bounds import yaml_problem
from .yamlload import Loader

# PyYAML's C loader, reading values as Claude Code does where PyYAML would raise (yamlload.py).
_LOADER = Loader

# BEHAVIOR.md §2: unindented `key: value` lines are candidates for quoting. JavaScript's `.`
# stops at `\r`, so a CRLF line never matches there; the character class keeps that quirk.
# Written as one pattern, `^([a-zA-Z_-]+):\s+([^\r\n\u2028\u2029]+)\Z` backtracks through
# every split of a long run of blanks ending in `\r` (quadratic: 8,000 blanks took 0.45 s). The
# same match in two linear steps: the key and the whole blank run, then a value that must reach
# the end of the line without a line terminator. (When the blanks run to the end, the value the
# one pattern would find is a single blank, which never needs quotes: no repair either way.)
_REPAIR_KEY = re.compile(r"([a-zA-Z_-]+):\s+")
_TERMINATOR = re.compile(r"[\r\n\u2028\u2029]")
_NEEDS_QUOTES = re.compile(r"[{}\[\]*&#!|>%@`]|: ")


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
    has_frontmatter: bool
    terminated: bool
    yaml_text: str
    text: str
    body_offset: int

    @property
    def body(self) -> str:
        return self.text[self.body_offset :]

    @property
    def body_chars(self) -> int:
        return len(self.text) - self.body_offset


def _closing(text: str, start: int) -> tuple[int, int] | None:
    """Start and end of the first line at or after `start` that is `---` plus blanks."""
    pos = start - 1
    while True:
        pos = text.find("\n---", pos)
        if pos < 0:
            return None
        line_start = pos + 1
        line_end = text.find("\n", line_start)
        if line_end < 0:
            line_end = len(text)
        if not text[line_start + 3 : line_end].strip(" \t\r"):
            return line_start, line_end
        pos = line_end


def split(text: str) -> Split:
    """Separate frontmatter from body. The frontmatter must open on the very first line."""
    if not text.startswith("---"):
        return Split(False, False, "", text, 0)
    first_nl = text.find("\n")
    if first_nl < 0 or text[3:first_nl].strip():
        return Split(False, False, "", text, 0)
    close = _closing(text, first_nl)
    if close is None:
        return Split(True, False, "", text, 0)
    start, end = close
    if end < len(text):
        end += 1
    return Split(True, True, text[first_nl + 1 : start], text, end)


@dataclass(slots=True)
class YamlProblem:
    message: str
    line: int | None
    column: int | None
    # True when skilldeck refused to parse (too large, too deep, an alias bomb): see bounds.py.
    refused: bool = False


class Parsed:
    """The frontmatter as Claude Code would read it, plus what skilldeck learned doing so.

    Positions and source text are looked up in the YAML node only when a diagnostic needs
    them, which keeps the common case (a clean file) as cheap as a plain `yaml.load`."""

    __slots__ = ("_index", "data", "duplicates", "error", "first_line", "node", "not_mapping", "notes", "repaired_lines", "src")

    def __init__(self) -> None:
        self.data: dict[str, Any] = {}
        self.error: YamlProblem | None = None
        self.repaired_lines: list[int] = []
        self.duplicates: list[tuple[str, int, int]] = []
        self.not_mapping: str | None = None
        # (line, column, message) of each value read otherwise than PyYAML would (yamlload.py).
        self.notes: list[tuple[int, int, str]] = []
        self.node: Any = None
        self.src = ""
        self.first_line = 2
        self._index: dict[str, tuple[Any, Any]] | None = None

    def _pair(self, key: str) -> tuple[Any, Any] | None:
        if self.node is None:
            return None
        if self._index is None:
            # Built once: a file with thousands of unknown keys asks for thousands of positions,
            # and a scan per question made that quadratic (177 KB of keys took 19 s).
            # Later pairs overwrite earlier ones: the last one wins, as in the mapping.
            self._index = {str(k.value): (k, v) for k, v in self.node.value}
        return self._index.get(key)

    def position(self, key: str) -> tuple[int, int] | None:
        """File line and column (1-based) of `key`."""
        pair = self._pair(key)
        if pair is None:
            return None
        mark = pair[0].start_mark
        return mark.line + self.first_line, mark.column + 1

    def value_text(self, key: str) -> str | None:
        """The value exactly as written, for values YAML turned into lists or maps."""
        pair = self._pair(key)
        if pair is None:
            return None
        return self.src[pair[1].start_mark.index : pair[1].end_mark.index]


class _Refused(Exception):
    """The text is past a bound of bounds.py and was not parsed."""


class _ConstructFailed(Exception):
    """The YAML parsed but a value could not be built (`!!timestamp x`, `!!float x`, an integer
    of 4,301 digits): PyYAML raises ValueError, TypeError, OverflowError... for these, not
    YAMLError. `where` is the mark of the key whose value failed, when it can be told."""

    def __init__(self, exc: Exception, where: Any) -> None:
        super().__init__(str(exc))
        self.exc = exc
        self.where = where


def _compose(src: str) -> tuple[Any, Any, list[tuple[Any, str]]]:
    problem = yaml_problem(src)
    if problem is not None:
        raise _Refused(problem)
    loader = _LOADER(src)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, None, []
        try:
            data = loader.construct_document(node)
        except yaml.YAMLError:
            raise
        except Exception as exc:  # any constructor failure is a property of the file, not a bug
            raise _ConstructFailed(exc, _failing_key(node)) from exc
    finally:
        loader.dispose()
    return node, data, loader.notes


def _failing_key(node: Any) -> Any:
    """The start mark of the first top-level key whose value cannot be built, if any."""
    if not isinstance(node, yaml.MappingNode):
        return node.start_mark
    for key_node, value_node in node.value:
        loader = _LOADER("")
        try:
            loader.construct_document(value_node)
        except Exception:
            return key_node.start_mark
        finally:
            loader.dispose()
    return None


def _failure(exc: Exception, line_offset: int) -> YamlProblem:
    if isinstance(exc, yaml.YAMLError):
        return _problem(exc, line_offset)
    if isinstance(exc, _Refused):
        return YamlProblem(f"skilldeck does not parse this frontmatter: {exc}", None, None, refused=True)
    inner = exc.exc if isinstance(exc, _ConstructFailed) else exc
    text = f"a value cannot be read ({type(inner).__name__}: {str(inner)[:200]})"
    mark = exc.where if isinstance(exc, _ConstructFailed) else None
    if mark is None:
        return YamlProblem(text, None, None)
    return YamlProblem(text, mark.line + line_offset, mark.column + 1)


def _problem(exc: yaml.YAMLError, line_offset: int) -> YamlProblem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    text = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context, context_mark = getattr(exc, "context", None), getattr(exc, "context_mark", None)
    if context and context_mark is not None:
        # "found unexpected end of stream" means little without "while scanning a quoted
        # scalar" and where that began.
        text = f"{text} ({context} that starts on line {context_mark.line + line_offset})"
    if mark is None:
        return YamlProblem(text, None, None)
    return YamlProblem(text, mark.line + line_offset, mark.column + 1)


def repair(yaml_text: str) -> tuple[str, list[int]]:
    """Claude Code's retry: quote unindented values that contain YAML-significant characters.

    Returns the repaired text and the 0-based indices of the lines that were changed.
    """
    out: list[str] = []
    changed: list[int] = []
    for i, line in enumerate(yaml_text.split("\n")):
        m = _REPAIR_KEY.match(line)
        value = line[m.end() :] if m else ""
        if value and not _TERMINATOR.search(value):
            key = m.group(1)  # type: ignore[union-attr]
            quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
            if not quoted and _NEEDS_QUOTES.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                line = f'{key}: "{escaped}"'
                changed.append(i)
        out.append(line)
    return "\n".join(out), changed


# Values read otherwise than PyYAML would, reported one by one up to this many per file.
MAX_NOTES = 20

# Everything a parse of a hostile text raises: the YAML errors, the bounds, and what the
# constructors raise (RecursionError is caught there too, though the bounds keep it away).
_FAILURES = (yaml.YAMLError, _Refused, _ConstructFailed, RecursionError, MemoryError)


def parse(yaml_text: str, first_line: int = 2) -> Parsed:
    """Parse a frontmatter block whose first line is file line `first_line` (1-based)."""
    result = Parsed()
    if not yaml_text.strip():
        return result
    src = yaml_text
    try:
        node, data, notes = _compose(src)
    except _FAILURES as exc:
        result.error = _failure(exc, first_line)
        if result.error.refused:
            # A repair never makes a bomb or a deep nesting safe: do not parse it twice.
            return result
        src, changed = repair(yaml_text)
        if not changed:
            return result
        try:
            node, data, notes = _compose(src)
        except _FAILURES:
            return result
        result.repaired_lines = [first_line + i for i in changed]
    result.notes = [(n.start_mark.line + first_line, n.start_mark.column + 1, text) for n, text in notes[:MAX_NOTES]]
    if data is None:
        return result
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        result.not_mapping = type(data).__name__
        return result
    result.node, result.src, result.first_line = node, src, first_line
    if len(node.value) != len(data) or not all(isinstance(k, str) for k in data):
        seen: set[str] = set()
        for key_node, _ in node.value:
            key = str(key_node.value)
            if key in seen:
                mark = key_node.start_mark
                result.duplicates.append((key, mark.line + first_line, mark.column + 1))
            seen.add(key)
        data = {str(k): v for k, v in data.items()}
    result.data = data
    return result


_FIRST_TEXT = re.compile(r"[^\s\ufeff][^\n]*")
_HEADING = re.compile(r"^#+\s+(.+)$")


def first_line_description(body: str, default: str, start: int = 0) -> tuple[str, str]:
    """Claude Code's description fallback: the body's first non-empty line, heading marks removed,
    cut to 100 characters. Returns (description, "body" | "default").

    `start` lets a caller pass the whole file and the body's offset, saving a copy."""
    m = _FIRST_TEXT.search(body, start)
    if m is None:
        return default, "default"
    line = m.group().strip()
    heading = _HEADING.match(line)
    text = heading.group(1) if heading else line
    if len(text) > 100:
        text = text[:97] + "..."
    return text, "body"
