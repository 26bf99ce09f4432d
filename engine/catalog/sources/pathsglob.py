"""`paths:` patterns read as Claude Code reads them (gitignore's way): relative to the start
folder, `*` within a folder name, `**` across folders, `?` one character, a pattern without `/`
at any depth, and a folder that matches takes everything under it (recorded:
tests/oracle/cases/invoke/run_paths_read). Matched in linear time (globmatch.py), whoever wrote
the pattern."""

from __future__ import annotations

from collections.abc import Sequence

from ...base.globmatch import ANY, Char, Item, Opt, Pattern, Star, gitignore_items

# Patterns per skill read at most, and the longest read: a `paths:` list is a few globs.
MAX_PATTERNS = 100
MAX_PATTERN_CHARS = 1000


def covers(patterns: Sequence[str], folder: str) -> bool:
    """Whether every file under `folder` matches (tried on files of several shapes): a touch
    anywhere there activates the skill."""
    return bool(folder) and all(paths_match(patterns, f"{folder}/{probe}") for probe in _PROBES)


_PROBES = ("f", "f.md", "a/f.ts", "a/b/.f")


def paths_match(patterns: Sequence[str], rel: str | None) -> bool:
    """Whether a file at `rel` (relative to the start folder, with `/`) matches one of a `paths:`
    skill's patterns."""
    if rel is None or rel == ".":
        return False
    return any(_compile(p).fullmatch(rel) for p in patterns[:MAX_PATTERNS] if p and len(p) <= MAX_PATTERN_CHARS)


def _compile(pattern: str) -> Pattern:
    """A `paths:` pattern as gitignore reads it, as an automaton (see the module's docstring)."""
    text = pattern.strip().removeprefix("./")
    anchored = "/" in text.rstrip("/")
    text = text.strip("/")
    items: list[Item] = [] if anchored else [Opt((Star(ANY), Char("/")))]
    items += gitignore_items(text)
    # A folder that matches takes everything under it.
    items.append(Opt((Char("/"), Star(ANY))))
    return Pattern(items)
