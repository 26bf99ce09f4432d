"""A frontmatter nested deeper than skilldeck parses (bounds.MAX_NESTING), read down to that depth.

Claude Code 2.1.328 reads a `metadata: [[[...]]]` 5,000 levels deep and lists the skill with its
description (recorded: fm_deep_metadata). PyYAML's composer and constructors recurse once per
level, so skilldeck never hands them such a text; instead the node tree is built here from
libyaml's event stream (iterative: no stack grows with the depth), and each collection past the
bound is kept as an empty one of its kind. Every key above stays readable, and a value that is
a collection still reads as one (`description: [[[...]]]` is a list, which Claude Code drops too).
Aliases are not followed here: a deep text with aliases is left refused (bounds.py counts them),
and so is one with more than MAX_FLOW_BRACKETS brackets: libyaml's scanner spends time on every
open flow level at each token (25,000 levels took 2 s, 120,000 a minute).
"""

from __future__ import annotations

from typing import Any

import yaml

from ...base.bounds import MAX_NESTING

MAX_FLOW_BRACKETS = 4096
_KINDS: dict[type, type] = {yaml.SequenceStartEvent: yaml.SequenceNode, yaml.MappingStartEvent: yaml.MappingNode}


def shallow_fits(text: str) -> bool:
    """Whether a text past the nesting bound is cheap enough to read down to it (a tenth of a
    second at most)."""
    return text.count("[") + text.count("{") <= MAX_FLOW_BRACKETS


def shallow_node(loader: Any) -> tuple[Any, Any] | None:
    """The document of `loader` (a fresh PyYAML loader) as nodes, collections past
    MAX_NESTING - 1 levels left empty, and the first such collection (for its position); None
    when the text holds an alias, more than one document, or a syntax error (the caller keeps
    its refusal)."""
    stack: list[tuple[Any, list[Any]]] = []  # open collections and, for a mapping, a pending key
    root: Any = None
    cut: Any = None
    skipping = 0  # depth inside a collection being left out
    try:
        while (event := loader.get_event()) is not None:
            if isinstance(event, yaml.AliasEvent):
                return None
            if skipping:
                skipping += 1 if isinstance(event, yaml.CollectionStartEvent) else 0
                skipping -= 1 if isinstance(event, yaml.CollectionEndEvent) else 0
                continue
            if isinstance(event, yaml.DocumentStartEvent) and root is not None:
                return None
            node: Any = None
            # (The C loader's marks are its own class; the nodes take them as PyYAML's own do.)
            start: Any = event.start_mark
            if isinstance(event, yaml.ScalarEvent):
                tag = event.tag if event.tag not in (None, "!") else loader.resolve(yaml.ScalarNode, event.value, event.implicit)
                node = yaml.ScalarNode(tag, event.value, start, start, style=event.style)
                node.end_mark = event.end_mark
            elif isinstance(event, yaml.CollectionStartEvent):
                kind = _KINDS[type(event)]
                tag = event.tag if event.tag not in (None, "!") else loader.resolve(kind, None, event.implicit)
                node = kind(tag, [], start, start, flow_style=event.flow_style)
                if len(stack) >= MAX_NESTING - 1:
                    cut = cut or node
                    skipping = 1
                else:
                    _add(stack, node)
                    stack.append((node, []))
                    root = root if root is not None else node
                    continue
            elif isinstance(event, yaml.CollectionEndEvent):
                stack.pop()[0].end_mark = event.end_mark
                continue
            else:
                continue
            _add(stack, node)
            root = root if root is not None else node
    except yaml.YAMLError:
        return None
    return root, cut


def _add(stack: list[tuple[Any, list[Any]]], node: Any) -> None:
    if not stack:
        return
    parent, pending = stack[-1]
    if isinstance(parent, yaml.SequenceNode):
        parent.value.append(node)
    elif pending:
        parent.value.append((pending.pop(), node))
    else:
        pending.append(node)
