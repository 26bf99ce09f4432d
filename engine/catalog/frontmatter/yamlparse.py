"""The frontmatter block parsed as YAML the way Claude Code does: PyYAML's C loader within the
bounds, Claude Code's one repair and retry, and where each key and problem stands in the file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import yaml

from ...base.bounds import MAX_FRONTMATTER_CHARS, MAX_NESTING, yaml_problem
from ...base.plainyaml import plain_mapping
from ...base.yamlload import Loader
from .js import js_string
from .shallow import shallow_fits, shallow_node
from .yaml12 import MAX_PAIR_RETRIES, hide_breaks, join_surrogates, restore_breaks

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


@dataclass(slots=True)
class YamlProblem:
    """Why a frontmatter block did not parse, and where."""

    message: str
    line: int | None
    column: int | None
    # True when skilldeck refused to parse (too large, too deep, an alias bomb): see bounds.py.
    refused: bool = False


class Parsed:
    """The frontmatter as Claude Code would read it, plus what skilldeck learned doing so.

    Positions and source text are looked up only when a diagnostic needs them: in the YAML node,
    or in the text when the block was plain enough to need no parser (`node` is then None)."""

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
        self._index: dict[str, tuple[int, int, int, int]] | None = None

    def _spot(self, key: str) -> tuple[int, int, int, int] | None:
        """Where `key` stands: its 0-based line and column in the block, and where its value starts
        and ends in `src`; from the YAML node, or from the text itself when no parser read it."""
        if self.node is None and len(self.data) <= _FEW_KEYS:
            # A plain block of a few keys is asked about one or two of them: a search each.
            return _plain_spot(self.src, key) if self.data else None
        if self._index is None:
            # Built once: a file with thousands of unknown keys asks for thousands of positions,
            # and a scan per question made that quadratic (177 KB of keys took 19 s).
            # Later pairs overwrite earlier ones: the last one wins, as in the mapping.
            if self.node is None:
                self._index = _plain_spots(self.src)
            else:
                self._index = {
                    str(k.value): (k.start_mark.line, k.start_mark.column, v.start_mark.index, v.end_mark.index)
                    for k, v in self.node.value
                }
        return self._index.get(key)

    def position(self, key: str) -> tuple[int, int] | None:
        """File line and column (1-based) of `key`."""
        spot = self._spot(key)
        return None if spot is None else (spot[0] + self.first_line, spot[1] + 1)

    def value_text(self, key: str) -> str | None:
        """The value exactly as written, for values YAML turned into lists or maps."""
        spot = self._spot(key)
        return None if spot is None else self.src[spot[2] : spot[3]]


_FEW_KEYS = 8


def _plain_spots(src: str) -> dict[str, tuple[int, int, int, int]]:
    """`_plain_spot` for every key of a plain block at once."""
    spots: dict[str, tuple[int, int, int, int]] = {}
    start = 0
    for number, line in enumerate(src.removesuffix("\n").split("\n")):
        key, _, _ = line.partition(":")
        spots[key] = _line_spot(line, number, start)
        start += len(line) + 1
    return spots


def _plain_spot(src: str, key: str) -> tuple[int, int, int, int] | None:
    """`Parsed._spot` in a block plain_mapping read: one `key: value` per line, no key twice, no
    line break inside a value, so the key's line is the one that starts with `key:`. (A plain
    block has a few keys: a search per question costs less than a table.)"""
    head = key + ":"
    at = 0 if src.startswith(head) else src.find("\n" + head) + 1
    if at == 0 and not src.startswith(head):
        return None
    stop = src.find("\n", at)
    return _line_spot(src[at : stop if stop >= 0 else len(src)], src.count("\n", 0, at), at)


def _line_spot(line: str, number: int, start: int) -> tuple[int, int, int, int]:
    """The spot of the `key: value` line `number` of a plain block, which starts at `start`."""
    key, _, rest = line.partition(":")
    begin = start + len(key) + 1 + len(rest) - len(rest.lstrip(" "))
    return number, 0, begin, start + len(line.rstrip(" "))


# How bounds.py begins its reason for a text nested too deep.
_TOO_DEEP = "it nests more than"


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


_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"


def _text(node: Any) -> bool:
    return type(node) is yaml.ScalarNode and node.tag == _STR


def _text_pairs(node: Any) -> bool:
    return all(_text(k) and _text(v) for k, v in node.value)


def _plain(node: Any) -> bool:
    """Whether the document is a mapping of text keys to scalars, or to lists or mappings of text
    only: nearly every frontmatter, and the shape `_build_plain` builds."""
    if type(node) is not yaml.MappingNode or node.tag != _MAP:
        return False
    for key, value in node.value:
        if not _text(key):
            return False  # a merge key, a number or a mapping as key: PyYAML's own way
        kind = type(value)
        if kind is yaml.ScalarNode:
            continue
        if kind is yaml.SequenceNode and value.tag == _SEQ:
            if not all(_text(item) for item in value.value):
                return False
        elif kind is not yaml.MappingNode or value.tag != _MAP or not _text_pairs(value):
            return False
    return True


def _build_plain(loader: Any, node: Any) -> dict[Any, Any]:
    """What `construct_document` gives a `_plain` document, built without its per-node machinery
    (a quarter of the frontmatter parse). Text is the node's value, as PyYAML's str constructor
    returns it; any other scalar goes through the loader's own constructor, in document order, so
    its value and its notes are PyYAML's. Later keys win, as there; a list or mapping reached
    through two aliases is one object, as there."""
    data: dict[Any, Any] = {}
    shared: dict[Any, Any] = {}
    for key, value in node.value:
        kind = type(value)
        if kind is yaml.ScalarNode:
            data[key.value] = value.value if value.tag == _STR else loader.construct_object(value)
            continue
        built = shared.get(value)
        if built is None:
            if kind is yaml.SequenceNode:
                built = [item.value for item in value.value]
            else:
                built = {k.value: v.value for k, v in value.value}
            shared[value] = built
        data[key.value] = built
    return data


def _compose(src: str) -> tuple[Any, Any, list[tuple[Any, str]], str]:
    """The node, the value and the notes of `src`, read as YAML 1.2 reads it (yaml12.py), and the
    text the marks point into (a joined surrogate pair shortens its line)."""
    for _ in range(MAX_PAIR_RETRIES):
        try:
            node, data, notes = _compose_once(src)
            return node, data, notes, src
        except yaml.YAMLError as exc:
            joined = join_surrogates(src, exc)
            if joined is None:
                raise
            src = joined
    node, data, notes = _compose_once(src)
    return node, data, notes, src


def _compose_once(src: str) -> tuple[Any, Any, list[tuple[Any, str]]]:
    problem = yaml_problem(src)
    deep = None
    if problem is not None and not (problem.startswith(_TOO_DEEP) and shallow_fits(src)):
        raise _Refused(problem)
    hidden, back = hide_breaks(src)
    loader = _LOADER(hidden)
    try:
        if problem is not None:
            # Nested past the bound: read down to it (shallow.py), as far as Claude Code's fields go.
            deep = shallow_node(loader)
            if deep is None:
                raise _Refused(problem)
            node = deep[0]
        else:
            node = loader.get_single_node()
        if node is None:
            return None, None, []
        restore_breaks(node, back)
        try:
            data = _build_plain(loader, node) if _plain(node) else loader.construct_document(node)
        except yaml.YAMLError:
            raise
        except Exception as exc:  # any constructor failure is a property of the file, not a bug
            raise _ConstructFailed(exc, _failing_key(node)) from exc
    finally:
        loader.dispose()
    if deep is not None and deep[1] is not None:
        loader.notes.insert(0, (deep[1], f"{_TOO_DEEP} {MAX_NESTING} levels: skilldeck reads what lies above and "
                                "leaves the rest out (Claude Code reads it all)"))  # fmt: skip
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
        if m is not None and value and not _TERMINATOR.search(value):
            key = m.group(1)
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
    # (The block ends with the newline before its closing `---`.)
    plain = plain_mapping(yaml_text.removesuffix("\n")) if len(yaml_text) <= MAX_FRONTMATTER_CHARS else None
    if plain is not None:
        # Nearly every frontmatter: one-line text values that every YAML reads as written, so
        # no parser is needed (a third of a 15,000-skill load went to PyYAML's nodes).
        result.data, result.src, result.first_line = plain, yaml_text, first_line
        return result
    src = yaml_text
    try:
        node, data, notes, src = _compose(src)
    except _FAILURES as exc:
        result.error = _failure(exc, first_line)
        if result.error.refused:
            # A repair never makes a bomb or a deep nesting safe: do not parse it twice.
            return result
        src, changed = repair(yaml_text)
        if not changed:
            return result
        try:
            node, data, notes, src = _compose(src)
        except _FAILURES:
            return result
        result.repaired_lines = [first_line + i for i in changed]
    if notes:
        result.notes = [(n.start_mark.line + first_line, n.start_mark.column + 1, text) for n, text in notes[:MAX_NOTES]]
    if data is None:
        return result
    if not isinstance(data, dict) or not isinstance(node, yaml.MappingNode):
        result.not_mapping = type(data).__name__
        return result
    result.node, result.src, result.first_line = node, src, first_line
    # (`str.__instancecheck__` is isinstance(k, str), mapped in C: no generator per file.)
    if len(node.value) != len(data) or not all(map(str.__instancecheck__, data)):
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
