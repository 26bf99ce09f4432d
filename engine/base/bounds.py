"""How much structure skilldeck agrees to parse from a file it did not write, checked before parsing.

PyYAML's C composer and Python's `json` both recurse once per nesting level: 25,000 nested
brackets in a frontmatter overflow the C stack (a segfault, not an exception), 1,000 in a JSON
file raise RecursionError. YAML aliases let a few hundred bytes stand for billions of nodes
("billion laughs"), which hang whatever walks the parsed value. So every YAML and JSON text is
measured first, by a scan that costs far less than the parse, and refused past these bounds.
Real files stay far inside them: Claude Code's settings, manifests and frontmatter nest under
ten levels and use aliases, if at all, a handful of times.
"""

from __future__ import annotations

import re
from itertools import accumulate
from typing import Protocol

import yaml

# Deeper than any real settings file, manifest or frontmatter; shallow enough that neither the
# C composer nor the constructors come near a stack limit.
MAX_NESTING = 64
# Nodes that aliases may add to a frontmatter once expanded (each alias counts the full size of
# what it points at, aliases inside included). Claude Code 2.1.328 refuses somewhere between
# 5 and 43 million (recorded offline); a tenth of a million is already far past any real file
# and keeps what walks the value (listing, `show`, the app's details) fast.
MAX_ALIAS_NODES = 100_000
# Characters that aliases may add once expanded (each alias counts all the text of what it points
# at, keys included). Counting nodes alone let one 100,000-character scalar, anchored once and
# named 20,000 times, stand for 2 GB of text: 7.8 GB and 99 s to list, a MemoryError in the app.
# Claude Code 2.1.328 reads that file at 4.7 GB in 37 s. A megabyte is four times the largest
# frontmatter skilldeck parses at all, and a thousand times the largest in the corpus.
MAX_ALIAS_CHARS = 1_000_000
# A frontmatter larger than this is not parsed. The largest in the corpus is about 2 KB; parsing
# this much takes about 0.1 s, so the bound keeps a hostile file's cost small.
MAX_FRONTMATTER_CHARS = 256 * 1024

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
# The fast path proves a text nests less than MAX_NESTING without parsing it: flow nesting needs
# a bracket per level, and block nesting a column of indentation or of a `- `/`? ` indicator per
# two levels, at the start of some line. So with at most _FLOW_BUDGET brackets in all and no line
# starting with more than _PREFIX_BUDGET such characters, the depth is under the bound.
_FLOW_BUDGET = 15
_PREFIX_BUDGET = (MAX_NESTING - 2 - _FLOW_BUDGET) // 2
# Searched as "a newline, then the run" (plus a match at the start): with a literal first
# character the regex engine skips from newline to newline, where a MULTILINE `^` tries every position.
_LONG_PREFIX = re.compile(rf"[ \t?-]{{{_PREFIX_BUDGET + 1}}}")
_LONG_PREFIX_AFTER_NEWLINE = re.compile(rf"\n[ \t?-]{{{_PREFIX_BUDGET + 1}}}")
# A JSON string, its loop unrolled (a run of plain characters at a time, not one alternation per
# character: three times faster on a 60 KB installed_plugins.json, which has hundreds of brackets).
_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
# Each bracket's step in depth, looked up by C (map, accumulate), not by a Python expression each.
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}.__getitem__


def _yaml_may_be_deep(text: str) -> bool:
    """False only when the text certainly nests less than MAX_NESTING (see _FLOW_BUDGET)."""
    if text.count("[") + text.count("{") > _FLOW_BUDGET:
        return True
    return _LONG_PREFIX.match(text) is not None or _LONG_PREFIX_AFTER_NEWLINE.search(text) is not None


def yaml_problem(text: str) -> str | None:
    """Why `text` must not be parsed as YAML (too large, too deep, too many alias expansions),
    or None. The exact check walks libyaml's event stream, which is iterative (it never
    overflows a stack), and stops at the first event past a bound."""
    if len(text) > MAX_FRONTMATTER_CHARS:
        return (
            f"it is {len(text):,} characters, over skilldeck's {MAX_FRONTMATTER_CHARS:,}-character bound (Claude Code reads it)"
        )
    if "&" not in text and not _yaml_may_be_deep(text):
        # Without an anchor there is nothing an alias can point at.
        return None
    loader = _LOADER(text)
    try:
        return _walk_events(loader)
    except yaml.YAMLError:
        # A syntax error: the parse proper reports it, with its position.
        return None
    finally:
        loader.dispose()


class _Events(Protocol):
    """The part of a PyYAML loader the walk uses (types-PyYAML leaves get_event unannotated)."""

    def get_event(self) -> yaml.Event | None: ...


def _walk_events(loader: _Events) -> str | None:
    # Per open collection its running (nodes, characters); per anchor the expanded size of what
    # it names; and what aliases have added so far. A size counts the text of every scalar
    # below (keys too), so an alias is charged for all it stands for, aliases inside included.
    open_sizes: list[list[int]] = []
    open_anchors: list[str | None] = []
    anchors: dict[str, tuple[int, int]] = {}
    added_nodes = added_chars = 0
    while True:
        event = loader.get_event()
        if event is None or isinstance(event, yaml.StreamEndEvent):
            return None
        if isinstance(event, yaml.CollectionStartEvent):
            if len(open_sizes) >= MAX_NESTING:
                line = event.start_mark.line + 1 if event.start_mark else "?"
                return f"it nests more than {MAX_NESTING} levels deep (line {line} of the block; Claude Code reads it)"
            open_sizes.append([1, 0])
            open_anchors.append(event.anchor)
            continue
        if isinstance(event, yaml.CollectionEndEvent):
            nodes, chars = open_sizes.pop()
            anchor = open_anchors.pop()
        elif isinstance(event, yaml.AliasEvent):
            # An alias always names an anchor; an unknown one counts as one empty node.
            nodes, chars = anchors.get(event.anchor, (1, 0)) if event.anchor is not None else (1, 0)
            added_nodes += nodes
            added_chars += chars
            problem = _alias_problem(event, added_nodes, added_chars)
            if problem is not None:
                return problem
            anchor = None
        elif isinstance(event, yaml.ScalarEvent):
            nodes, chars, anchor = 1, len(event.value), event.anchor
        else:
            continue
        if anchor is not None:
            anchors[anchor] = (nodes, chars)
        if open_sizes:
            open_sizes[-1][0] += nodes
            open_sizes[-1][1] += chars


def _alias_problem(event: yaml.AliasEvent, nodes: int, chars: int) -> str | None:
    where = f"line {event.start_mark.line + 1} of the block" if event.start_mark else "the block"
    if nodes > MAX_ALIAS_NODES:
        return (
            f"its aliases (*{event.anchor} at {where}, and others) expand to more than {MAX_ALIAS_NODES:,} values; "
            "remove the aliases or write the values out (Claude Code refuses such a frontmatter too, "
            "from a few million values)"
        )
    if chars > MAX_ALIAS_CHARS:
        return (
            f"its aliases (*{event.anchor} at {where}, and others) expand to more than {MAX_ALIAS_CHARS:,} characters "
            "of text; remove the aliases or write the values out (Claude Code reads it, taking gigabytes of memory)"
        )
    return None


def json_too_deep(text: str, limit: int = MAX_NESTING) -> bool:
    """True when a JSON text nests more than `limit` levels (brackets inside strings do not
    count). Only a text with that many brackets in all pays for the exact count."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_STEP, brackets)), default=0) > limit
