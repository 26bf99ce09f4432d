"""The frontmatter nearly every real SKILL.md has, read without a YAML parser: only `key: value`
lines, each key a plain word and each value a plain one-line text that every YAML the agents use
(PyYAML's 1.1, js-yaml, serde_yaml, eemeli/yaml) reads as that same string. Anything else (a
quote, a comment, a block, a second line, a word a YAML might read as a bool, a null or a number,
as value or as key, a key past YAML's 1,024 characters) is None, and the caller's own parser
decides (Claude Code's in catalog/frontmatter/yamlparse.py, each other agent's in its host). At
15,000 skills this saves each view most of its parsing."""

from __future__ import annotations

import re

# `key: value`: the key a plain word at the start of the line, one or more spaces after the colon.
_LINE = re.compile(r"([A-Za-z][A-Za-z0-9_-]*):[ ]+(\S(?:.*\S)?)[ ]*")
# Values some YAML reads as something other than text: bools and nulls of YAML 1.1 and 1.2.
_WORDS = frozenset({"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"})
# YAML's longest implicit key: PyYAML and libyaml fail on a longer one (YAML 1.2 §7.4.2 sets the bound).
_MAX_KEY = 1024
# Inside a plain value, what would end it or make it something else: a comment, a mapping, a tab.
_INSIDE = re.compile(r" #|: |\t|:$")


def plain_mapping(text: str) -> dict[str, str] | None:
    """The block as {key: text} when every line is a simple `key: value` and no key repeats."""
    if not text or not _only_newlines(text):
        return None
    out: dict[str, str] = {}
    for line in text.split("\n"):
        found = _LINE.fullmatch(line)
        if found is None:
            return None
        key, value = found.groups()
        first = value[0]
        if not (first.isalpha() or first == "_") or value.lower() in _WORDS or _INSIDE.search(value) or key in out:
            return None
        if key.lower() in _WORDS or len(key) > _MAX_KEY:
            return None  # a key read as a bool or a null (`TRUE:` is `true` in a JavaScript object), or too long
        out[key] = value
    return out


def _only_newlines(text: str) -> bool:
    """Printable but for the `\\n` between its lines (no `\\r`, no other control)."""
    return text.replace("\n", "").isprintable()
