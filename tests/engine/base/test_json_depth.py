"""`json_too_deep` (engine/base/bounds.py) counts nesting as a reader walking the text does:
brackets inside strings (escaped quotes and all) never count, and the exact count agrees with a
character-by-character walk on texts made to confuse it."""

from __future__ import annotations

import random

from engine.base.bounds import json_too_deep


def _walked_depth(text: str) -> int | None:
    """The deepest nesting, or None when the text ends inside a string (not JSON at all)."""
    deepest = depth = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return None if in_string else deepest


def test_the_count_agrees_with_a_walk() -> None:
    rng = random.Random(39)
    checked = 0
    for _ in range(5_000):
        # Mostly brackets, so that the exact count (past `limit` brackets in all) is what runs.
        text = "".join(rng.choice('[[{{]}"\\ab,:') for _ in range(rng.randint(0, 80)))
        deepest = _walked_depth(text)
        if deepest is None:
            continue
        checked += 1
        limit = rng.randint(1, 6)
        assert json_too_deep(text, limit) == (deepest > limit), text
    assert checked > 2_000


def test_real_shapes() -> None:
    assert json_too_deep("[" * 65 + "]" * 65)
    assert not json_too_deep("[" * 64 + "]" * 64)
    assert not json_too_deep('["' + "[" * 100 + '"]')
    assert not json_too_deep('["\\"' + "{" * 100 + '"]'), "an escaped quote does not end the string"
    many = "[" + ", ".join('{"a": [1, {"b": "[{"}]}' for _ in range(500)) + "]"
    assert not json_too_deep(many)
    assert json_too_deep("[" + many + "]", limit=3)
