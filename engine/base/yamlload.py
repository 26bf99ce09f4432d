"""The YAML loader of frontmatter: PyYAML's C safe loader, reading as Claude Code's parser does
where PyYAML would raise.

Claude Code's parser (YAML 1.2) never fails on a value it cannot type: `!!float x`, `!!timestamp x`,
`!local x` or `!!python/object:os.system x` are the text `x` there, `2024-02-30` is text (YAML 1.2
has no dates) and an integer of thousands of digits is Infinity. PyYAML raises ValueError,
KeyError, OverflowError or ConstructorError for each, which cost the skill its metadata (and,
before these were caught, took every command down). Here each such value becomes what Claude
Code reads, and a note says so (`Loader.notes`), since Claude Code says nothing.

Plain scalars are typed by the YAML 1.2 core schema, as Claude Code's parser (Bun.YAML) types
them, not by PyYAML's YAML 1.1 rules: `yes`, `on`, `1_000`, `12:30` and `2024-01-01` are text,
`010` is ten, `1e3` is a number (recorded: tests/oracle/cases/listing/fm_description_scalars).
"""

from __future__ import annotations

import math
import re
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:
    # mypy is shown the pure-Python safe loader; the C one (PyYAML built with libyaml) has its interface.
    _BASE = yaml.SafeLoader
else:
    _BASE = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DECIMAL = re.compile(r"[-+]?[0-9][0-9_]*")
_DIGITS = re.compile(r"[-+]?[0-9]+")
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_FAILURES = (ValueError, TypeError, KeyError, OverflowError, AttributeError, yaml.constructor.ConstructorError)


class Loader(_BASE):
    # Its own table of implicit types (the YAML 1.2 core schema below), not PyYAML's 1.1 one.
    yaml_implicit_resolvers: dict[Any, Any] = {}
    # The composer calls descend_resolver(parent, index) and ascend_resolver() around every node
    # to follow path resolvers, and this loader has none (asserted below): PyYAML's methods would
    # return at once. Builtins that take the same arguments and do nothing (a builtin or a class
    # found on the class is called as it is, not bound) skip two Python calls per node, 2 us of
    # every frontmatter.
    descend_resolver = slice  # type: ignore[assignment]
    ascend_resolver = tuple  # type: ignore[assignment]

    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        # (node, message) for each value read otherwise than PyYAML would have.
        self.notes: list[tuple[Any, str]] = []

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str | None:
        """PyYAML's BaseResolver.resolve for this loader's table, which has no path resolvers and no
        resolver for every first character (checked below): the same tag, without building a list
        per scalar. The C parser calls it for every node: a tenth of the parse at 15,000 skills."""
        if kind is yaml.ScalarNode:
            if implicit[0]:
                for tag, regexp in self.yaml_implicit_resolvers.get(value[:1], ()):
                    if regexp.match(value):
                        return tag  # type: ignore[no-any-return]
            return self.DEFAULT_SCALAR_TAG
        if kind is yaml.SequenceNode:
            return self.DEFAULT_SEQUENCE_TAG
        return self.DEFAULT_MAPPING_TAG if kind is yaml.MappingNode else None


# The YAML 1.2 core schema's plain scalars (yaml.org/spec/1.2.2 §10.3.2), first match wins.
_CORE = (
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$", "-+0123456789"),
    ("float", r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$",
     "-+0123456789."),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
)  # fmt: skip
for _tag, _pattern, _first in _CORE:
    Loader.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_pattern), list(_first))
# Bun's parser also merges `<<: *anchor` into the mapping (recorded: fm_yaml_forms), a YAML 1.1 rule.
Loader.add_implicit_resolver("tag:yaml.org,2002:merge", re.compile(r"^(?:<<)$"), ["<"])
# What Loader.resolve leaves out of PyYAML's: path resolvers, and implicit ones for any first character.
assert not Loader.yaml_path_resolvers and None not in Loader.yaml_implicit_resolvers


def _core_int(loader: Loader, node: Any) -> int:
    """A 1.2 integer: decimal (a leading zero is not octal), `0o` octal or `0x` hexadecimal."""
    text = loader.construct_scalar(node)
    if text[:2] == "0o":
        return int(text[2:], 8)
    if text[:2] == "0x":
        return int(text[2:], 16)
    if not _DIGITS.fullmatch(text):
        # Python's int() also takes `1_000` and blanks; an explicit `!!int 1_000` is not a number.
        raise ValueError(f"not a YAML 1.2 integer: {text[:40]}")
    return int(text, 10)


def _core_float(loader: Loader, node: Any) -> float:
    text = str(loader.construct_scalar(node)).lower()
    if text.lstrip("+-") == ".inf":
        return -math.inf if text.startswith("-") else math.inf
    if text == ".nan":
        return math.nan
    return float(text)


def _binary_as_text(loader: Loader, node: Any) -> Any:
    """`!!binary` is the text as written there (recorded: fm_yaml_forms), not bytes."""
    if isinstance(node, yaml.ScalarNode):
        return loader.construct_scalar(node)
    return _as_claude_code_reads(loader, node, node.tag, True)


Loader.add_constructor("tag:yaml.org,2002:binary", _binary_as_text)
Loader.add_constructor("tag:yaml.org,2002:int", _core_int)
Loader.add_constructor("tag:yaml.org,2002:float", _core_float)


def _short(tag: str) -> str:
    return "!!" + tag.removeprefix("tag:yaml.org,2002:") if tag.startswith("tag:yaml.org,2002:") else tag


def _as_claude_code_reads(loader: Loader, node: Any, tag: str, explicit: bool) -> Any:
    """The value Claude Code's parser gives a node PyYAML could not build."""
    if isinstance(node, yaml.ScalarNode):
        value = node.value
        if tag.endswith(":int") and _DECIMAL.fullmatch(value):
            # Past Python's 4,300-digit limit: far past the largest double, so Infinity there.
            loader.notes.append((node, f"a number of {len(value):,} digits; Claude Code reads it as Infinity"))
            return -math.inf if value.startswith("-") else math.inf
        if tag.endswith(":timestamp") and yaml.SafeLoader.timestamp_regexp.match(value) and not explicit:
            return value  # not a date in YAML 1.2: plain text there, nothing to say
        loader.notes.append((node, f"`{_short(tag)} {value}` cannot be read as tagged; Claude Code reads the text `{value}`"))
        return value
    loader.notes.append((node, f"`{_short(tag)}` does not fit this value; Claude Code reads it untagged"))
    if isinstance(node, yaml.SequenceNode):
        return loader.construct_sequence(node, deep=True)
    return loader.construct_mapping(node, deep=True)


def _wrap(tag: str) -> None:
    build = Loader.yaml_constructors[tag]

    def construct(loader: Loader, node: Any) -> Any:
        if tag.endswith(":null") and isinstance(node, yaml.ScalarNode) and node.value not in _NULLS:
            # PyYAML's null ignores the text (`!!null x` is None); Claude Code keeps `x`.
            return _as_claude_code_reads(loader, node, tag, True)
        try:
            return build(loader, node)
        except _FAILURES:
            # The implicit resolvers only give a tag to text of its shape, so a failure on a
            # plain scalar is a value of the right shape that Python cannot build.
            return _as_claude_code_reads(loader, node, tag, _explicit(loader, node))

    Loader.add_constructor(tag, construct)


def _explicit(loader: Loader, node: Any) -> bool:
    if not isinstance(node, yaml.ScalarNode) or node.style:  # plain: None (Python parser) or "" (C parser)
        return True
    return loader.resolve(yaml.ScalarNode, node.value, (True, False)) != node.tag


def _unknown(loader: Loader, node: Any) -> Any:
    return _as_claude_code_reads(loader, node, node.tag, True)


# The scalar types that can fail. (!!str never fails on a scalar, and is by far the most
# common: left unwrapped. The collection ones, !!set, !!omap, !!pairs, build in two steps and
# fail later, as YAML errors the repair retry handles: left as they are too.)
for _name in ("null", "bool", "int", "float", "timestamp"):
    _wrap(f"tag:yaml.org,2002:{_name}")
Loader.add_constructor(None, _unknown)
