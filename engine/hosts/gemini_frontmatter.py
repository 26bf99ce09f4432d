"""How Gemini CLI 0.61.0 reads a SKILL.md's frontmatter, as its bundle does (skillLoader.ts):
js-yaml first, and when that throws or does not give a string `name` and `description`, a line
parser that takes each `name:` and `description:` line's raw text (docs/agents.md, Gemini CLI).

The line parser is why Gemini CLI is so lenient: `name: [q27-list]` is `[q27-list]`, `null` and
`true` are their text, a list is `- one - two`, a duplicate key (js-yaml throws on one) takes the
last line. So the YAML half has to fail exactly where js-yaml fails and type exactly what js-yaml
types, or the other half answers: the loader below is js-yaml's default schema on PyYAML.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

from ..base.bounds import yaml_problem
from ..base.plainyaml import plain_mapping
from ..base.yamlload import Loader as _CoreLoader
from .model import Refusal

# FRONTMATTER_REGEX without its body group: the file must start with the fence (no BOM, no
# indent, nothing after `---`), and the first line starting with `---` closes it.
_FRONTMATTER = re.compile(r"---\r?\n([\s\S]*?)\r?\n---")
# What JavaScript's `\s` and String.prototype.trim() take as white space: Python's set differs
# (\x1c-\x1f, \ufeff), and the line parser's answers with it.
_JS_SPACE_CHARS = " \t\n\v\f\r\u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" + "".join(map(chr, range(0x2000, 0x200B)))
# JavaScript's line terminators inside a line (lines are split at \r?\n): `.` does not match them.
_JS_TERMINATORS = re.compile("[\r\u2028\u2029]")
_LINE_BREAK = re.compile(r"\r?\n")
# The characters Gemini CLI replaces in a name (`a/b` is sent as `a-b`).
_NAME_UNSAFE = re.compile(r'[:\\/<>*?"|]')

# js-yaml 4's implicit types for plain scalars (DEFAULT_SCHEMA: core plus timestamp and merge).
_NULL = re.compile(r"~|null|Null|NULL|")
_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
# (`_*` before the first digit, never `[0-9_]*[0-9]`: two stars over the same characters backtrack
# quadratically on a long scalar that fails late.)
_INT = re.compile(r"[-+]?(?:0b_*[01][01_]*|0x_*[0-9a-fA-F][0-9a-fA-F_]*|0o_*[0-7][0-7_]*|0|[0-9][0-9_]*)")
_FLOAT = re.compile(
    r"[-+]?(?:[0-9][0-9_]*)(?:\.[0-9_]*)?(?:[eE][-+]?[0-9]+)?|\.[0-9_]+(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_TIMESTAMP = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?"
    r"(?:[ \t]*(?:Z|[-+][0-9][0-9]?(?::[0-9]{2})?))?"
)
_TAG = "tag:yaml.org,2002:"
_NOT_BREAKS = "\x85\u2028\u2029"
_PRIVATE = "".join(map(chr, range(0xE000, 0xE010)))
# bounds.yaml_problem's reasons end in what Claude Code does, which is no answer for Gemini CLI.
_CLAUDE_REMARK = re.compile(r" \(Claude Code[^)]*\)")
_KINDS = {"int": _INT, "float": _FLOAT, "bool": _BOOL, "timestamp": _TIMESTAMP}


class _Typed:
    """A value js-yaml gives as a number, boolean, Date or bytes: all that matters here is that it
    is not a string (Gemini CLI then reads the line's text instead)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def _js_kind(value: str) -> str:
    """The tag js-yaml's default schema gives a plain scalar."""
    if _NULL.fullmatch(value):
        return "null"
    for kind, pattern in _KINDS.items():
        # js-yaml refuses a number that ends in `_` (`1_` is text).
        if pattern.fullmatch(value) and not (kind in ("int", "float") and value.endswith("_")):
            return kind
    return "merge" if value == "<<" else "str"


class JsYamlLoader(_CoreLoader):
    """PyYAML's C safe loader typing and failing as js-yaml 4's `load` does: a duplicate key, an
    unknown tag or an explicit tag the value does not fit raise instead of being read leniently."""

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str | None:
        if kind is yaml.ScalarNode:
            return _TAG + _js_kind(value) if implicit[0] else self.DEFAULT_SCALAR_TAG
        return super().resolve(kind, value, implicit)

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        # js-yaml throws "duplicated mapping key" (merged keys may repeat); PyYAML keeps the last.
        seen: set[str] = set()
        for key, _ in node.value:
            if isinstance(key, yaml.ScalarNode) and key.tag != _TAG + "merge":
                if key.value in seen:
                    raise yaml.constructor.ConstructorError(None, None, "duplicated mapping key", key.start_mark)
                seen.add(key.value)
        return super().construct_mapping(node, deep)


def _typed(kind: str) -> Any:
    def construct(loader: JsYamlLoader, node: yaml.Node) -> Any:
        if not isinstance(node, yaml.ScalarNode) or _js_kind(node.value) != kind:
            # js-yaml: "cannot resolve a node with !<...> explicit tag".
            raise yaml.constructor.ConstructorError(None, None, f"not a {kind}", node.start_mark)
        return None if kind == "null" else _Typed(node.value)

    return construct


def _refuse_tag(loader: JsYamlLoader, node: yaml.Node) -> Any:
    raise yaml.constructor.ConstructorError(None, None, f"unknown tag {node.tag}", node.start_mark)


def _binary(loader: JsYamlLoader, node: yaml.Node) -> Any:
    return _Typed(str(node.value) if isinstance(node, yaml.ScalarNode) else "")


def _merge_value(loader: JsYamlLoader, node: yaml.Node) -> Any:
    return node.value if isinstance(node, yaml.ScalarNode) else _refuse_tag(loader, node)


for _kind in ("null", "int", "float", "bool", "timestamp"):
    JsYamlLoader.add_constructor(_TAG + _kind, _typed(_kind))
JsYamlLoader.add_constructor(_TAG + "binary", _binary)
# `<<` as a value (not a key, which PyYAML merges before it constructs) is js-yaml's text `<<`.
JsYamlLoader.add_constructor(_TAG + "merge", _merge_value)
JsYamlLoader.add_constructor(None, _refuse_tag)

# What a js-yaml `load` that throws looks like here: any of these ends the YAML half.
_FAILURES = (yaml.YAMLError, ValueError, TypeError, KeyError, OverflowError, AttributeError, RecursionError)


def frontmatter(text: str) -> str | Refusal:
    """The frontmatter block of a SKILL.md's text, or why Gemini CLI finds none."""
    match = _FRONTMATTER.match(text)
    if match:
        return match.group(1)
    first = text.split("\n", 1)[0].rstrip("\r")
    if first.startswith("\ufeff"):
        return Refusal(
            "it starts with a byte order mark, so Gemini CLI finds no frontmatter", "save it as UTF-8 without a BOM", 1
        )
    if first.strip() == "---" and first != "---":
        where = "spaces after its opening `---`" if first.startswith("---") else "its opening `---` is indented"
        return Refusal(f"{where}, so Gemini CLI finds no frontmatter", "make the first line exactly `---`", 1)
    if first != "---":
        return Refusal(
            "no frontmatter: the first line is not `---`", "start the file with a `---` line, then name and description", 1
        )
    return Refusal("its frontmatter is never closed by a `---` line", "end the frontmatter with a `---` line")


class Unparsed(Exception):
    """skilldeck will not parse this block (too large, too deep, too many aliases)."""


def _yaml_fields(block: str) -> tuple[str, str] | None:
    problem = yaml_problem(block)
    if problem is not None:
        raise Unparsed(_CLAUDE_REMARK.sub("", problem))
    plain = plain_mapping(block.removesuffix("\n"))
    if plain is not None and "name" in plain and "description" in plain:
        return plain["name"], plain["description"]  # the common frontmatter, as js-yaml reads it
    # js-yaml ends its input with a line break when it has none (so a block scalar last in the
    # frontmatter keeps its final break), and breaks lines at \n and \r only: to PyYAML (YAML 1.1)
    # \x85, \u2028 and \u2029 break lines too, so they stand in as unused private characters.
    free = (ch for ch in _PRIVATE if ch not in block)
    stand_ins = {ord(c): next(free, c) for c in _NOT_BREAKS if c in block}
    text = block.translate(stand_ins) if stand_ins else block
    if not text.endswith(("\n", "\r")):
        text += "\n"
    loader = JsYamlLoader(text)
    try:
        value = loader.get_single_data()
    except _FAILURES:
        return None
    finally:
        loader.dispose()
    if isinstance(value, dict):
        name, description = value.get("name"), value.get("description")
        if isinstance(name, str) and isinstance(description, str):
            if stand_ins:
                back = {ord(s): chr(c) for c, s in stand_ins.items()}
                return name.translate(back), description.translate(back)
            return name, description
    return None


def _js_trim(text: str) -> str:
    return text.strip(_JS_SPACE_CHARS)


def _value(line: str, key: str) -> str | None:
    """What `/^\\s*<key>\\s*(.*)$/` captures in one line, trimmed, or None when it does not match.
    Written out, not as a regex: Python's engine backtracks quadratically on the two `\\s*` around
    a long run of spaces, and the capture is the same. The leading spaces are a run before a
    letter, so they are all of them; the greedy `\\s*` takes every space after the colon, and what
    is left must hold no line terminator (they are spaces too: a shorter `\\s*` keeps them)."""
    rest = line.lstrip(_JS_SPACE_CHARS)
    if not rest.startswith(key):
        return None
    rest = rest[len(key) :].lstrip(_JS_SPACE_CHARS)
    return None if _JS_TERMINATORS.search(rest) else _js_trim(rest)


def _continues(line: str) -> bool:
    """`/^[ \\t]+\\S/`: indented by spaces or tabs, then a character that is no space."""
    rest = line.lstrip(" \t")
    return len(rest) < len(line) and rest != "" and rest[0] not in _JS_SPACE_CHARS


def _line_fields(block: str) -> tuple[str, str] | None:
    """parseSimpleFrontmatter: the last `name:` line's text and the last `description:` line's
    text joined with its indented continuation lines."""
    lines = _LINE_BREAK.split(block)
    name: str | None = None
    description: str | None = None
    i = 0
    while i < len(lines):
        if (value := _value(lines[i], "name:")) is not None:
            name = value
        elif (value := _value(lines[i], "description:")) is not None:
            parts = [value]
            while i + 1 < len(lines) and _continues(lines[i + 1]):
                parts.append(_js_trim(lines[i + 1]))
                i += 1
            description = " ".join(p for p in parts if p)
        i += 1
    return None if name is None or description is None else (name, description)


def fields(block: str) -> tuple[str, str] | Refusal:
    """The name (as sent: unsafe characters replaced) and description Gemini CLI reads from a
    frontmatter block, or why it lists nothing."""
    try:
        found = _yaml_fields(block) or _line_fields(block)
    except Unparsed as exc:
        return Refusal(f"skilldeck does not parse this frontmatter: {exc}", "shorten the frontmatter")
    if found is None:
        named = any(_value(line, "name:") is not None for line in _LINE_BREAK.split(block))
        missing = "description" if named else "name"
        return Refusal(f"Gemini CLI finds no `{missing}` in its frontmatter", f"add a `{missing}:` line to the frontmatter")
    name, description = found
    return _NAME_UNSAFE.sub("-", name), description
