"""Split a markdown file into YAML frontmatter and body, and parse the YAML as Claude Code does.

Claude Code reads the file as UTF-8 (bad bytes become U+FFFD), takes the block between a first
line `---` and the next line `---`, parses it, retries once after quoting values that usually
break YAML, and falls back to empty metadata. This module reproduces that and remembers
everything a user needs to fix the file: positions, repaired lines, duplicate keys.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_CLOSING = re.compile(r"^---[ \t\r]*$", re.M)
# BEHAVIOR.md §2: unindented `key: value` lines are candidates for quoting. JavaScript's `.`
# stops at `\r`, so a CRLF line never matches there; the character class keeps that quirk.
_REPAIRABLE = re.compile(r"^([a-zA-Z_-]+):\s+([^\r\n\u2028\u2029]+)\Z")
_NEEDS_QUOTES = re.compile(r"[{}\[\]*&#!|>%@`]|: ")


@dataclass(frozen=True, slots=True)
class Decoded:
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
    info = Decoded(text, bom, bad_line, bad_offset, "\r\n" in text[:4096])
    return text, info


@dataclass(frozen=True, slots=True)
class Split:
    has_frontmatter: bool
    terminated: bool
    yaml_text: str
    body: str
    body_offset: int
    # 1-based file line of the closing `---`, for messages.
    closing_line: int | None = None


def split(text: str) -> Split:
    """Separate frontmatter from body. The frontmatter must open on the very first line."""
    if not text.startswith("---"):
        return Split(False, False, "", text, 0)
    first_nl = text.find("\n")
    if first_nl < 0 or text[3:first_nl].strip():
        return Split(False, False, "", text, 0)
    close = _CLOSING.search(text, first_nl + 1)
    if close is None:
        return Split(True, False, "", text, 0)
    yaml_text = text[first_nl + 1 : close.start()]
    end = close.end()
    if end < len(text) and text[end] == "\n":
        end += 1
    closing_line = text.count("\n", 0, close.start()) + 1
    return Split(True, True, yaml_text, text[end:], end, closing_line)


@dataclass(slots=True)
class YamlProblem:
    message: str
    line: int | None
    column: int | None


@dataclass(slots=True)
class Parsed:
    """The frontmatter as Claude Code would read it, plus what skilldeck learned doing so."""

    data: dict[str, Any] = field(default_factory=dict)
    # Key -> (file line, file column) of the key, 1-based.
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    # Key -> exact source text of the value, kept for values YAML turned into lists or maps.
    value_text: dict[str, str] = field(default_factory=dict)
    error: YamlProblem | None = None
    repaired_lines: list[int] = field(default_factory=list)
    duplicates: list[tuple[str, int, int]] = field(default_factory=list)
    not_mapping: str | None = None


def _compose(src: str) -> tuple[Any, Any]:
    loader = _LOADER(src)
    try:
        node = loader.get_single_node()
        data = loader.construct_document(node) if node is not None else None
    finally:
        loader.dispose()
    return node, data


def _problem(exc: yaml.YAMLError, line_offset: int) -> YamlProblem:
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    text = getattr(exc, "problem", None) or str(exc).splitlines()[0]
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
        m = _REPAIRABLE.match(line)
        if m:
            key, value = m.group(1), m.group(2)
            quoted = len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'"
            if not quoted and _NEEDS_QUOTES.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                line = f'{key}: "{escaped}"'
                changed.append(i)
        out.append(line)
    return "\n".join(out), changed


def parse(yaml_text: str, first_line: int = 2) -> Parsed:
    """Parse a frontmatter block whose first line is file line `first_line` (1-based)."""
    result = Parsed()
    if not yaml_text.strip():
        return result
    src = yaml_text
    try:
        node, data = _compose(src)
    except yaml.YAMLError as exc:
        result.error = _problem(exc, first_line)
        src, changed = repair(yaml_text)
        if not changed:
            return result
        try:
            node, data = _compose(src)
        except yaml.YAMLError:
            return result
        result.repaired_lines = [first_line + i for i in changed]
    if data is None:
        return result
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        result.not_mapping = type(data).__name__
        return result
    seen: dict[str, tuple[int, int]] = {}
    for key_node, value_node in node.value:
        key = str(key_node.value)
        pos = (key_node.start_mark.line + first_line, key_node.start_mark.column + 1)
        if key in seen:
            result.duplicates.append((key, *pos))
        seen[key] = pos
        if not isinstance(value_node, yaml.ScalarNode):
            result.value_text[key] = src[value_node.start_mark.index : value_node.end_mark.index]
    result.positions = seen
    result.data = {str(k): v for k, v in data.items()}
    return result


_FIRST_TEXT = re.compile(r"[^\s\ufeff][^\n]*")
_HEADING = re.compile(r"^#+\s+(.+)$")


def first_line_description(body: str, default: str) -> tuple[str, str]:
    """Claude Code's description fallback: the body's first non-empty line, heading marks removed,
    cut to 100 characters. Returns (description, "body" | "default")."""
    m = _FIRST_TEXT.search(body)
    if m is None:
        return default, "default"
    line = m.group().strip()
    heading = _HEADING.match(line)
    text = heading.group(1) if heading else line
    if len(text) > 100:
        text = text[:97] + "..."
    return text, "body"
