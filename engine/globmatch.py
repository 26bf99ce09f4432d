"""Wildcard patterns matched in time linear in the text, whoever wrote the pattern.

Rules in a settings file and the wildcards of a model's Bash line are written by strangers,
and a pattern with many stars, turned into a backtracking regular expression, takes
exponential time: `Bash(*e*e*e*e*e*e*e*e*e*e*e*e*e*Q)` against `echo eeee…` never answered
(Claude Code 2.1.328 hangs on it too). Here a pattern is a small automaton (Thompson's
construction) run over the text once, keeping the set of states it could be in: the cost is
the text's length times the pattern's, whatever either holds.

A pattern is a sequence of items: `Char(test)` (one character), `Star(test)` (any run of
such characters), `Opt(items)` and `Alt(choices)`. A test is one character (that character),
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


# Transitions a pattern keeps (see Pattern); past this the table starts again, so a hostile
# text's many distinct characters cost time, never unbounded memory.
_MAX_TRANSITIONS = 50_000


class Pattern:
    """A compiled pattern: `fullmatch(text)` in O(len(text) * states), and in practice one dict
    lookup per character: the sets of states met are numbered and their transitions kept as
    they are first needed (a lazily built DFA), so a Glob over 40,000 paths costs ~0.1 s where
    stepping the automaton each time cost 2 s."""

    __slots__ = ("_accepting", "_end", "_ids", "_next", "_sets", "_split", "_start", "_tests", "_trans")

    def __init__(self, items: Sequence[Item]) -> None:
        # State i reads one character passing _tests[i] and goes to _next[i]; a state whose test
        # is None is a split: it goes, reading nothing, to every state in _split[i].
        self._tests: list[Test | None] = []
        self._next: list[int] = []
        self._split: list[tuple[int, ...]] = []
        self._end = self._new(None)
        first = self._build(items, self._end)
        # The DFA: numbered sets of states (0 is the empty set: no match possible), transitions.
        self._sets: list[frozenset[int]] = []
        self._ids: dict[frozenset[int], int] = {}
        self._accepting: list[bool] = []
        self._trans: dict[tuple[int, str], int] = {}
        self._intern(frozenset())
        self._start = self._intern(self._closure([first]))

    def _new(self, test: Test | None, after: int = -1, split: tuple[int, ...] = ()) -> int:
        self._tests.append(test)
        self._next.append(after)
        self._split.append(split)
        return len(self._tests) - 1

    def _build(self, items: Sequence[Item], after: int) -> int:
        """The first state of `items`, which end in state `after` (built back to front)."""
        for item in reversed(items):
            if isinstance(item, Char):
                after = self._new(item.test, after)
            elif isinstance(item, Star):
                loop = self._new(None, split=(after,))
                step = self._new(item.test, loop)
                self._split[loop] = (step, after)
                after = loop
            elif isinstance(item, Opt):
                after = self._new(None, split=(self._build(item.items, after), after))
            else:
                after = self._new(None, split=tuple(self._build(choice, after) for choice in item.choices))
        return after

    def _closure(self, states: list[int]) -> frozenset[int]:
        seen: set[int] = set()
        stack = states
        while stack:
            state = stack.pop()
            if state in seen:
                continue
            seen.add(state)
            if self._tests[state] is None:
                stack.extend(self._split[state])
        return frozenset(seen)

    def _intern(self, states: frozenset[int]) -> int:
        known = self._ids.get(states)
        if known is None:
            known = self._ids[states] = len(self._sets)
            self._sets.append(states)
            self._accepting.append(self._end in states)
        return known

    def _step(self, at: int, c: str) -> int:
        tests, nexts = self._tests, self._next
        moved = [nexts[s] for s in self._sets[at] if (t := tests[s]) is not None and _accepts(t, c)]
        after = self._closure(moved) if moved else frozenset()
        if len(self._trans) >= _MAX_TRANSITIONS:
            # Start the table again; `at` is a number of the old one, so this step is not kept.
            start = self._sets[self._start]
            self._sets, self._ids, self._accepting, self._trans = [], {}, [], {}
            self._intern(frozenset())
            self._start = self._intern(start)
            return self._intern(after)
        found = self._trans[at, c] = self._intern(after)
        return found

    def fullmatch(self, text: str) -> bool:
        at, trans = self._start, self._trans
        for c in text:
            found = trans.get((at, c))
            if found is None:
                found = self._step(at, c)
                trans = self._trans
            if not found:
                return False
            at = found
        return self._accepting[at]


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
