"""The YAML loader of frontmatter: PyYAML's C safe loader, reading as Claude Code's parser does
where PyYAML would raise.

Claude Code's parser (YAML 1.2) never fails on a value it cannot type: `!!float x`, `!!timestamp x`,
`!local x` or `!!python/object:os.system x` are the text `x` there, `2024-02-30` is text (YAML 1.2
has no dates) and an integer of thousands of digits is Infinity. PyYAML raises ValueError,
KeyError, OverflowError or ConstructorError for each, which cost the skill its metadata (and,
before these were caught, took every command down). Here each such value becomes what Claude
Code reads, and a note says so (`Loader.notes`), since Claude Code says nothing.
"""

from __future__ import annotations

import math
import re
from typing import Any

import yaml

_BASE: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_DECIMAL = re.compile(r"[-+]?[0-9][0-9_]*")
_NULLS = frozenset({"", "~", "null", "Null", "NULL"})
_FAILURES = (ValueError, TypeError, KeyError, OverflowError, AttributeError, yaml.constructor.ConstructorError)


class Loader(_BASE):  # type: ignore[misc,valid-type]
    def __init__(self, stream: str) -> None:
        super().__init__(stream)
        # (node, message) for each value read otherwise than PyYAML would have.
        self.notes: list[tuple[Any, str]] = []


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
    build = _BASE.yaml_constructors[tag]

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
for _name in ("null", "bool", "int", "float", "binary", "timestamp"):
    _wrap(f"tag:yaml.org,2002:{_name}")
Loader.add_constructor(None, _unknown)
