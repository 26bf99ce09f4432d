"""Wildcard patterns matched in time linear in the text, whoever wrote the pattern.

Rules in a settings file and the wildcards of a model's Bash line are written by strangers,
and a pattern with many stars, turned into a backtracking regular expression, takes
exponential time: `Bash(*e*e*e*e*e*e*e*e*e*e*e*e*e*Q)` against `echo eeee…` never answered
(Claude Code 2.1.328 hangs on it too). Here a pattern is run over the text once, bit-parallel
(shift-and): its state is one integer with a bit per position of the pattern, and a character
costs a few integer operations on it, whatever the pattern or the text holds. Memory is bounded
by the pattern: no table of states grows with the text.

A pattern is a sequence of items: `Char(test)` (one character), `Star(test)` (any run of
such characters), `Opt(items)` and `Alt(choices)` (brace alternatives, expanded before the run:
at most MAX_ALTERNATIVES). A test is one character (that character),
`ANY`, `NOT_SLASH`, or a compiled one-character class (`re.compile("[a-z]")`), which cannot
backtrack.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

ANY = "any"
NOT_SLASH = "not-slash"
Test = str | re.Pattern[str]


@dataclass(frozen=True)
class Char:
    test: Test


@dataclass(frozen=True)
class Star:
    test: Test


@dataclass(frozen=True)
class Opt:
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Alt:
    choices: tuple[tuple[Item, ...], ...]


Item = Char | Star | Opt | Alt


def literal(text: str) -> list[Item]:
    return [Char(c) for c in text]


def _accepts(test: Test, c: str) -> bool:
    if test is ANY:
        return True
    if test is NOT_SLASH:
        return c != "/"
    if isinstance(test, str):
        return c == test
    return test.fullmatch(c) is not None


# Brace alternatives a pattern may expand to (`{a,b}{c,d}` is four); past this it is refused.
MAX_ALTERNATIVES = 256
# Characters whose masks a pattern remembers: a hostile text of many distinct characters costs
# time, never memory past this.
_MAX_REMEMBERED = 512


class TooComplex(ValueError):
    """A pattern with more brace alternatives than MAX_ALTERNATIVES."""


def _alternatives(items: Sequence[Item]) -> list[list[Item]]:
    """Every sequence without Alt that `items` stands for (Opt may stay: it is a skip)."""
    out: list[list[Item]] = [[]]
    for item in items:
        if isinstance(item, Alt):
            choices = [alt for choice in item.choices for alt in _alternatives(choice)]
            out = [head + tail for head in out for tail in choices]
        elif isinstance(item, Opt):
            inner = _alternatives(item.items)
            if len(inner) != 1:
                raise TooComplex("a brace inside an optional part")
            out = [[*head, Opt(tuple(inner[0]))] for head in out]
        else:
            out = [[*head, item] for head in out]
        if len(out) > MAX_ALTERNATIVES:
            raise TooComplex(f"more than {MAX_ALTERNATIVES} alternatives")
    return out


class _Flat:
    """One alternative, run bit-parallel: bit i of the state means "the first i items matched".
    A character moves every state at once with a few integer operations (shift-and), so a step
    costs the same whatever the pattern holds: no set of states, no table that can grow."""

    __slots__ = ("_by_test", "_eps", "_masks", "_room", "_start", "_steps", "_width")

    def __init__(self, items: Sequence[Item]) -> None:
        flat: list[Char | Star | None] = []
        # Epsilon moves of the optional parts: (the position they leave from, how far they go).
        skips: list[tuple[int, int]] = []
        self._flatten(items, flat, skips)
        self._width = len(flat)
        self._by_test: dict[tuple[Test, bool], int] = {}
        passable = 0  # positions left for the next one without reading: stars and entries
        for at, item in enumerate(flat):
            if item is None:
                passable |= 1 << at
                continue
            star = isinstance(item, Star)
            key = (item.test, star)
            self._by_test[key] = self._by_test.get(key, 0) | (1 << at)
            if star:
                passable |= 1 << at
        by_length: dict[int, int] = {}
        for at, length in skips:
            by_length[length] = by_length.get(length, 0) | (1 << at)
        self._eps = [(1, passable), *sorted(by_length.items())]
        self._masks: dict[str, tuple[int, int]] = {}
        # Steps already taken, (state, character) -> state: a benign pattern meets few states, so
        # most characters cost one lookup. Bounded by the pattern's width (a state is that many
        # bits); a hostile one that meets a new state at every step only clears it more often.
        self._steps: dict[tuple[int, str], int] = {}
        self._room = 8192 if self._width <= 256 else max(16, 2**21 // self._width)
        self._start = self._closure(1)

    def _flatten(self, items: Sequence[Item], flat: list[Char | Star | None], skips: list[tuple[int, int]]) -> None:
        for item in items:
            if isinstance(item, Opt):
                # An entry position (None, read past without a character) from which the skip
                # leaves: a star's own position would let the skip follow characters it read.
                start = len(flat)
                flat.append(None)
                self._flatten(item.items, flat, skips)
                skips.append((start, len(flat) - start))
            elif isinstance(item, Star) and flat and isinstance(flat[-1], Star) and flat[-1].test == item.test:
                continue  # `**` of one kind is one star: it keeps the epsilon chains short
            elif isinstance(item, Char | Star):
                flat.append(item)
            else:
                raise TooComplex("an alternative inside a flat pattern")

    def _closure(self, state: int) -> int:
        while True:
            more = state
            for length, mask in self._eps:
                more |= (state & mask) << length
            if more == state:
                return state
            state = more

    def _mask(self, c: str) -> tuple[int, int]:
        known = self._masks.get(c)
        if known is None:
            chars = stars = 0
            for (test, star), mask in self._by_test.items():
                if _accepts(test, c):
                    if star:
                        stars |= mask
                    else:
                        chars |= mask
            known = (chars, stars)
            if len(self._masks) < _MAX_REMEMBERED:
                self._masks[c] = known
        return known

    def _step(self, state: int, c: str) -> int:
        chars, stars = self._mask(c)
        after = ((state & chars) << 1) | (state & stars)
        after = self._closure(after) if after else 0
        if len(self._steps) >= self._room:
            self._steps.clear()
        self._steps[state, c] = after
        return after

    def fullmatch(self, text: str) -> bool:
        state, steps = self._start, self._steps
        for c in text:
            after = steps.get((state, c))
            if after is None:
                after = self._step(state, c)
            if not after:
                return False
            state = after
        return bool(state >> self._width & 1)


class Pattern:
    """A compiled pattern: `fullmatch(text)` in O(len(text)) integer steps per alternative, its
    memory bounded by the pattern (issue 32: a 12 KB rule against a 6,000-character path took
    2.4 GB as a lazily built DFA, and hostile file names made a new DFA state at every step).
    Raises TooComplex for more than MAX_ALTERNATIVES brace alternatives."""

    __slots__ = ("_flats",)

    def __init__(self, items: Sequence[Item]) -> None:
        self._flats = [_Flat(alternative) for alternative in _alternatives(items)]

    def fullmatch(self, text: str) -> bool:
        return any(flat.fullmatch(text) for flat in self._flats)


class StarGlob:
    """A Bash rule's pattern, where every `*` is any run of characters, matched in linear time:
    each middle piece taken at its leftmost place is never worse than a later one (a star
    follows it, which takes whatever is left). With `tail`, a whitespace character and anything
    may follow the whole (a rule's trailing ` *`)."""

    __slots__ = ("pieces", "tail")

    def __init__(self, spec: str, tail: bool) -> None:
        self.pieces = spec.split("*")
        self.tail = tail

    def fullmatch(self, text: str) -> bool:
        pieces = self.pieces
        first, last = pieces[0], pieces[-1]
        if not text.startswith(first):
            return False
        if len(pieces) == 1:
            return text == first or self._space_at(text, len(first))
        at = len(first)
        for piece in pieces[1:-1]:
            found = text.find(piece, at)
            if found < 0:
                return False
            at = found + len(piece)
        if text.endswith(last) and len(text) - len(last) >= at:
            return True
        if not self.tail:
            return False
        # `last`, then a whitespace character, then anything.
        found = text.find(last, at)
        while found >= 0:
            if self._space_at(text, found + len(last)):
                return True
            found = text.find(last, found + 1)
        return False

    def _space_at(self, text: str, at: int) -> bool:
        return self.tail and at < len(text) and text[at].isspace()


def gitignore_items(pattern: str) -> list[Item]:
    """A gitignore-style path pattern's items: `**/` any folders (or none), `**` anything, `*` and
    `?` within one folder, every other character itself (permission rules, `paths:` patterns)."""
    out: list[Item] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append(Opt((Star(ANY), Char("/"))))
            i += 3
        elif pattern.startswith("**", i):
            out.append(Star(ANY))
            i += 2
        else:
            c = pattern[i]
            out.append(Star(NOT_SLASH) if c == "*" else Char(NOT_SLASH) if c == "?" else Char(c))
            i += 1
    return out
