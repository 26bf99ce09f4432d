"""The frontmatter parse builds the common shapes itself (yamlparse._build_plain): the same value,
the same notes and the same failures as PyYAML's construct_document, for every mix of shapes."""

from __future__ import annotations

import itertools
import math
from typing import Any

import yaml

from engine.base.yamlload import Loader
from engine.catalog.frontmatter import yamlparse

_VALUES = (
    "x", "'q'", '"d"', "1", "0x1f", "1.5", ".inf", ".nan", "true", "yes", "null", "~", "", "!!int x", "!!float y",
    "!!str 3", "!foo bar", "!!binary aGk=", "2024-01-01", "!!timestamp 2024-01-01", "[a, b]", "[1, b]", "[]", "{}",
    "{a: b}", "{a: 1}", "&A v", "*A", "&L [a]", "*L", "&M {k: v}", "*M", "[a, [b]]", "{a: {b: c}}", "!!set {a}",
    "!!omap [a: 1]", "|\n  block", "!!null x", "[*A]", "{k: *A}", "!!seq [a]", "!!map {a: b}", "[!!int 3]", "{x: !!bool true}",
    "{<<: *M}", "9" * 5000,
)  # fmt: skip
_KEYS = ("a", "name", "1", "true", "<<", "=", "!!str k", "? [x]\n:", "a")


def _build(src: str, plain: bool) -> tuple[Any, ...]:
    loader = Loader(src)
    try:
        node = loader.get_single_node()
        if node is None:
            return ("none",)
        try:
            fast = plain and yamlparse._plain(node)
            data = yamlparse._build_plain(loader, node) if fast else loader.construct_document(node)
        except Exception as exc:
            return ("failed", type(exc).__name__)
        return ("ok", data, [(n.start_mark.line, n.start_mark.column, text) for n, text in loader.notes], fast)
    except yaml.YAMLError:
        return ("error",)
    finally:
        loader.dispose()


def _same(a: Any, b: Any) -> bool:
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def test_the_plain_build_gives_what_pyyaml_gives() -> None:
    fast = 0
    lines = [f"{k}: {v}" if not k.endswith(":") else f"{k} {v}" for k in _KEYS for v in _VALUES]
    docs = ["\n".join(pair) for pair in itertools.product(lines[::7], lines[::5])] + lines
    for src in docs:
        ours, theirs = _build(src, True), _build(src, False)
        assert ours[:1] == theirs[:1], src
        if ours[0] == "ok":
            assert _same(ours[1], theirs[1]), src
            assert ours[2] == theirs[2], src
            fast += ours[3]
        else:
            assert ours == theirs, src
    # Both ways were taken (the test would prove nothing if every document fell back).
    assert 500 < fast < len(docs)


def test_aliases_give_one_object_and_notes_keep_their_order() -> None:
    parsed = yamlparse.parse("a: &L [x]\nb: *L\nc: &M {k: v}\nd: *M\ne: !!int x\nf: !!float y\n")
    assert parsed.data["a"] is parsed.data["b"] and parsed.data["c"] is parsed.data["d"]
    assert parsed.data["e"] == "x" and parsed.data["f"] == "y"
    assert [line for line, _, _ in parsed.notes] == [6, 7]


def test_the_loaders_resolve_gives_pyyamls_tag() -> None:
    loader = Loader("")
    try:
        texts = ["", "~", "null", "NULL", "nul", "true", "TRUE", "tRue", "yes", "1", "-1", "+1", "0x1F", "0o17", "017", "1.5"]
        texts += [".5", "1e3", "-.inf", ".NaN", "<<", "<", "a", "é", "1_000", "12:30", "2024-01-01", " 1", "1 "]
        for text, implicit, kind in itertools.product(
            texts, itertools.product((True, False), repeat=2), (yaml.ScalarNode, yaml.SequenceNode, yaml.MappingNode)
        ):
            assert loader.resolve(kind, text, implicit) == yaml.resolver.BaseResolver.resolve(loader, kind, text, implicit)
    finally:
        loader.dispose()
