"""Split a markdown file into YAML frontmatter and body, and parse the YAML as Claude Code does.

Claude Code 2.1.328 reads the file as UTF-8 (bad bytes become U+FFFD), drops a BOM, takes the
block from a first line `---` to the next `---` wherever it stands, parses it as YAML 1.2 (Bun's
parser), retries once after quoting values that usually break YAML and turning leading tabs into
spaces, and falls back to empty metadata. Descriptions, when_to_use and argument hints are then
cleaned (`cc_text`). This module reproduces that and remembers everything a user needs to fix the
file: positions, repaired lines, duplicate keys. Each rule is recorded on the binary:
tests/oracle/cases/listing/fm_*.json.
"""

from __future__ import annotations

import bisect
import math
import re
import unicodedata
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
_REPAIR_KEY = re.compile(r"([a-zA-Z_-]+):[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+")
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


# JavaScript's `\s`: what Claude Code's frontmatter pattern counts as blank.
JS_SPACE = "\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
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
    """Claude Code's retry: quote unindented values that contain YAML-significant characters,
    then turn each tab that starts a line into two spaces.

    A value is left alone when it starts and ends with a quote, or is a `[...]` that reads as a
    list. Returns the repaired text and the 0-based indices of the lines that were changed.
    """
    out: list[str] = []
    for line in yaml_text.split("\n"):
        new = line
        m = _REPAIR_KEY.match(line)
        value = line[m.end() :] if m else ""
        if value and not _TERMINATOR.search(value):
            key = m.group(1)  # type: ignore[union-attr]
            # As JavaScript's startsWith/endsWith: a lone `"` both starts and ends with a quote.
            quoted = value[0] == value[-1] and value[0] in "\"'"
            if not quoted and not _reads_as_list(value) and _NEEDS_QUOTES.search(value):
                escaped = value.replace("\\", "\\\\").replace('"', '\\"')
                new = f'{key}: "{escaped}"'
        out.append(new)
    text = "\n".join(out)
    # `^\t+` with the m flag: at the start of the text and after any line terminator.
    text = _LEADING_TABS.sub(lambda t: "  " * len(t.group()), text)
    after = text.split("\n")
    changed = [i for i, (a, b) in enumerate(zip(yaml_text.split("\n"), after, strict=True)) if a != b]
    return text, changed


_LEADING_TABS = re.compile(r"(?:^|(?<=[\n\r\u2028\u2029]))\t+")


def _reads_as_list(value: str) -> bool:
    if not (value.startswith("[") and value.endswith("]")) or yaml_problem(value) is not None:
        return False
    try:
        loader = _LOADER(value)
        try:
            return isinstance(loader.get_single_data(), list)
        finally:
            loader.dispose()
    except Exception:  # any failure means "not a list": the value is then quoted, as there
        return False


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
            key = js_string(key_node.value)
            if key in seen:
                mark = key_node.start_mark
                result.duplicates.append((key, mark.line + first_line, mark.column + 1))
            seen.add(key)
        # Claude Code's parser gives a JavaScript object: every key is a string (`true`, `1`,
        # `null`), where Python's dict had merged `true` and `1` into one key.
        data = _string_keys(node) if not all(isinstance(k, str) for k in data) else data
    result.data = data
    return result


def _string_keys(node: Any) -> dict[str, Any]:
    """The mapping rebuilt pair by pair, each key as JavaScript's String() writes it."""
    loader = _LOADER("")
    try:
        return {js_string(loader.construct_object(k, deep=True)): loader.construct_object(v, deep=True) for k, v in node.value}
    finally:
        loader.dispose()


# JavaScript's String.prototype.trim(): its whitespace and line terminators.
JS_TRIM = "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(map(chr, range(0x2000, 0x200B)))
_JS_BLANK = f"[{JS_SPACE}]"
_HEADING = re.compile(f"#+{_JS_BLANK}+([^{JS_SPACE}][^\r\n\u2028\u2029]*)\\Z")
FALLBACK_MAX = 100


def first_line_description(body: str, default: str, start: int = 0) -> tuple[str, str]:
    """Claude Code's description fallback: the first line that is not blank once trimmed, without
    its heading marks (`# Title`, not `#Title`), cut to 97 UTF-16 units and `...` past 100.
    Returns (description, "body" | "default").

    `start` lets a caller pass the whole file and the body's offset, saving a copy."""
    pos, end_of_text = start, len(body)
    while True:
        end = body.find("\n", pos)
        end = end_of_text if end < 0 else end
        line = body[pos:end].strip(JS_TRIM)
        if line:
            heading = _HEADING.match(line)
            text = heading.group(1) if heading else line
            if utf16_len(text) > FALLBACK_MAX:
                text = utf16_cut(text, FALLBACK_MAX - 3) + "..."
            return text, "body"
        if end >= end_of_text:
            return default, "default"
        pos = end + 1


def utf16_len(text: str) -> int:
    """The length JavaScript gives `text`: a character past U+FFFF counts twice."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def utf16_cut(text: str, units: int) -> str:
    """`text.substring(0, units)`; a character cut in half becomes a space, as Claude Code's
    clean-up turns the lone surrogate it leaves into one."""
    if len(text) * 2 <= units or utf16_len(text) <= units:
        return text
    used = 0
    for index, ch in enumerate(text):
        size = 2 if ord(ch) > 0xFFFF else 1
        if used + size > units:
            return text[:index] + (" " if used < units else "")
        used += size
    return text


def js_number(value: float | int) -> str:
    """`String(n)` in JavaScript, for the number Claude Code's parser reads (a double)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    try:
        x = float(value)
    except OverflowError:
        x = math.inf if value > 0 else -math.inf
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    # repr() gives the shortest digits that read back as the same double, as JavaScript does;
    # the layout (plain up to 21 digits, exponent below 1e-6) is JavaScript's Number::toString.
    digits, exponent = repr(abs(x)).split("e") if "e" in repr(abs(x)) else (repr(abs(x)), "0")
    whole, _, frac = digits.partition(".")
    frac = frac.rstrip("0")
    mantissa = (whole + frac).lstrip("0")
    point = len(whole) + int(exponent) - (len(whole + frac) - len((whole + frac).lstrip("0")))
    mantissa = mantissa.rstrip("0") or "0"
    k, n = len(mantissa), point
    if k <= n <= 21:
        out = mantissa + "0" * (n - k)
    elif 0 < n <= 21:
        out = mantissa[:n] + "." + mantissa[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + mantissa
    else:
        e = n - 1
        out = (mantissa if k == 1 else f"{mantissa[0]}.{mantissa[1:]}") + f"e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + out


def js_string(value: Any) -> str:
    """`String(value)` in JavaScript, for what Claude Code's YAML parser gives: lists join their
    items with commas, a mapping is `[object Object]`, null is `null`."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return value
    if isinstance(value, (bool, int, float)):
        return js_number(value)
    if isinstance(value, list):
        # Array.prototype.join writes null (and undefined) items as empty strings.
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


# Claude Code's clean-up of a description, when_to_use and argument hint at load time: ANSI
# escape sequences are removed, then each run of control, format, private-use, unassigned,
# surrogate and default-ignorable characters becomes one space, except the joiners and
# selectors that spell an emoji or an Indic conjunct.
_ANSI = re.compile(
    r"[\x1b\x9b][\[\]()#;?]*(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?\x07"
    r"|(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-nq-uy=><~])"
)
_IGNORABLE = (
    (0xAD, 0xAD), (0x34F, 0x34F), (0x61C, 0x61C), (0x115F, 0x1160), (0x17B4, 0x17B5), (0x180B, 0x180F),
    (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x2800, 0x2800), (0x3164, 0x3164), (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFFB), (0x110BD, 0x110BD), (0x1D173, 0x1D17A),
    (0x13430, 0x1343F), (0x16FE4, 0x16FE4), (0x1BCA0, 0x1BCA3), (0xE0000, 0xE0FFF),
)  # fmt: skip
# Code points Claude Code 2.1.328 keeps (its Unicode is 17.0) that this Python's unicodedata
# (Unicode 14.0) calls unassigned: found by listing every such code point on the binary.
_NEWER_ASSIGNED = (
    (0x88f, 0x88f), (0x897, 0x897), (0xc5c, 0xc5c), (0xcdc, 0xcdc), (0xcf3, 0xcf3), (0xece, 0xece), (0x1acf, 0x1add),
    (0x1ae0, 0x1aeb), (0x1b4e, 0x1b4f), (0x1b7f, 0x1b7f), (0x1c89, 0x1c8a), (0x20c1, 0x20c1), (0x2427, 0x2429),
    (0x2b96, 0x2b96), (0x2ffc, 0x2fff), (0x31e4, 0x31e5), (0x31ef, 0x31ef), (0xa7cb, 0xa7cf), (0xa7d2, 0xa7d2),
    (0xa7d4, 0xa7d4), (0xa7da, 0xa7dc), (0xa7f1, 0xa7f1), (0xfbc3, 0xfbd2), (0xfd90, 0xfd91), (0xfdc8, 0xfdce),
    (0x105c0, 0x105f3), (0x10940, 0x10959), (0x10d40, 0x10d65), (0x10d69, 0x10d85), (0x10d8e, 0x10d8f),
    (0x10ec2, 0x10ec7), (0x10ed0, 0x10ed8), (0x10efa, 0x10eff), (0x1123f, 0x11241), (0x11380, 0x11389),
    (0x1138b, 0x1138b), (0x1138e, 0x1138e), (0x11390, 0x113b5), (0x113b7, 0x113c0), (0x113c2, 0x113c2),
    (0x113c5, 0x113c5), (0x113c7, 0x113ca), (0x113cc, 0x113d5), (0x113d7, 0x113d8), (0x113e1, 0x113e2),
    (0x116d0, 0x116e3), (0x11b00, 0x11b09), (0x11b60, 0x11b67), (0x11bc0, 0x11be1), (0x11bf0, 0x11bf9),
    (0x11db0, 0x11ddb), (0x11de0, 0x11de9), (0x11f00, 0x11f10), (0x11f12, 0x11f3a), (0x11f3e, 0x11f5a),
    (0x1342f, 0x1342f), (0x13440, 0x13455), (0x13460, 0x143fa), (0x16100, 0x16139), (0x16d40, 0x16d79),
    (0x16ea0, 0x16eb8), (0x16ebb, 0x16ed3), (0x16ff2, 0x16ff6), (0x187f8, 0x187ff), (0x18cff, 0x18cff),
    (0x18d09, 0x18d1e), (0x18d80, 0x18df2), (0x1b132, 0x1b132), (0x1b155, 0x1b155), (0x1cc00, 0x1ccfc),
    (0x1cd00, 0x1ceb3), (0x1ceba, 0x1ced0), (0x1cee0, 0x1cef0), (0x1d2c0, 0x1d2d3), (0x1df25, 0x1df2a),
    (0x1e030, 0x1e06d), (0x1e08f, 0x1e08f), (0x1e4d0, 0x1e4f9), (0x1e5d0, 0x1e5fa), (0x1e5ff, 0x1e5ff),
    (0x1e6c0, 0x1e6de), (0x1e6e0, 0x1e6f5), (0x1e6fe, 0x1e6ff), (0x1f6d8, 0x1f6d8), (0x1f6dc, 0x1f6dc),
    (0x1f774, 0x1f77f), (0x1f7d9, 0x1f7d9), (0x1f8b2, 0x1f8bb), (0x1f8c0, 0x1f8c1), (0x1f8d0, 0x1f8d8),
    (0x1fa54, 0x1fa57), (0x1fa75, 0x1fa77), (0x1fa87, 0x1fa8a), (0x1fa8e, 0x1fa8f), (0x1faad, 0x1faaf),
    (0x1fabb, 0x1fabf), (0x1fac6, 0x1fac6), (0x1fac8, 0x1fac8), (0x1facd, 0x1facf), (0x1fada, 0x1fadc),
    (0x1fadf, 0x1fadf), (0x1fae8, 0x1faea), (0x1faef, 0x1faef), (0x1faf7, 0x1faf8), (0x1fbcb, 0x1fbef),
    (0x1fbfa, 0x1fbfa), (0x2b739, 0x2b73f), (0x2cea2, 0x2cead), (0x2ebf0, 0x2ee5d), (0x31350, 0x33479),
)  # fmt: skip
_NEWER_STARTS = [lo for lo, _ in _NEWER_ASSIGNED]
_OLDER_UNICODE = tuple(int(p) for p in unicodedata.unidata_version.split(".")) < (17,)
_IGNORABLE_RE = re.compile("[" + "".join(f"{chr(lo)}-{chr(hi)}" for lo, hi in _IGNORABLE) + "]")
_JOINERS = "\u200c\u200d\ufe0f\U000e007f"


def _invisible(ch: str) -> bool:
    code = ord(ch)
    if code < 0x20 or 0x7F <= code <= 0x9F or ch in "\u2028\u2029":
        return True
    if code < 0xA0:
        return False
    category = unicodedata.category(ch)
    if category == "Cn" and _OLDER_UNICODE:
        # Unassigned here, perhaps not in Claude Code's newer Unicode.
        at = bisect.bisect_right(_NEWER_STARTS, code) - 1
        return not (at >= 0 and code <= _NEWER_ASSIGNED[at][1])
    if category in ("Cc", "Cf", "Cs", "Co", "Cn"):
        return True
    return any(lo <= code <= hi for lo, hi in _IGNORABLE)


def _emoji_like(ch: str) -> bool:
    """A character an emoji sequence may start with: the pictographs, and the symbols and
    punctuation past ASCII that take a U+FE0F (`↔️`, `‼️`, `©️`; recorded: fm_description_text)."""
    code = ord(ch)
    return 0x1F000 <= code <= 0x1FAFF or (code > 0x7F and unicodedata.category(ch)[0] in "SP")


def _kept(text: str, i: int) -> bool:
    """Whether the invisible character at `i` is part of an emoji or conjunct Claude Code keeps."""
    ch = text[i]
    before = text[i - 1] if i else ""
    after = text[i + 1] if i + 1 < len(text) else ""
    if ch == "\ufe0f":
        return bool(before) and (_emoji_like(before) or before in "#*0123456789")
    if ch == "\u200d":
        if before == "\ufe0f" and i > 1:
            before = text[i - 2]
        if before and after and _emoji_like(before) and _emoji_like(after):
            return True
    if ch in "\u200c\u200d" and before and after:
        # An Indic virama, then the joiner, then a letter: a spelled conjunct.
        return unicodedata.combining(before) == 9 and unicodedata.category(after).startswith("L")
    if 0xE0020 <= ord(ch) <= 0xE007F:
        # A subdivision flag: U+1F3F4 followed by tag characters.
        j = i
        while j > 0 and 0xE0020 <= ord(text[j - 1]) <= 0xE007F:
            j -= 1
        return j > 0 and text[j - 1] == "\U0001f3f4"
    return False


def cc_text(text: str) -> str:
    """A description, when_to_use or argument hint as Claude Code keeps it after loading."""
    if "\x1b" in text or "\x9b" in text:
        text = _ANSI.sub("", text)
    if text.isprintable() and (text.isascii() or not _IGNORABLE_RE.search(text)):
        return text  # (isprintable() passes the ignorable letters and marks: U+3164, U+FE0F, ...)
    keep_joiners = len(text) <= 4096 and any(j in text for j in _JOINERS)
    out: list[str] = []
    append = out.append
    run = False  # the last character was invisible: a run goes on, it gets one space only
    for i, ch in enumerate(text):
        if " " <= ch <= "~" or not _invisible(ch):  # printable ASCII, the bulk of any text: no call
            append(ch)
            run = False
        elif keep_joiners and _kept(text, i):
            append(ch)
            run = True
        else:
            if not (run and out[-1] == " "):
                append(" ")
            run = True
    return "".join(out)
