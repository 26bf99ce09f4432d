"""Fuzzy search over skill names, descriptions and places, ranked, fast on fifteen thousand skills.

Every query word must match somewhere: in the name, the description or where the skill lives
(`_where`: its path below its tier's folder, and its plugin), or as the letters of the name in
order (fuzzy). Ranking, best first, word and prefix matches before loose ones: the whole name, a
name prefix, a word start in the name, a word start in the description, a name substring
(earlier is better), a description substring, a substring of where it lives, and last a fuzzy
name match (tighter is better). Shorter names first among equals; shadowed skills after live
ones. So "react" ranks "Master React" (a word) above "refactor" (only r-e-a-c-t in order).

Speed comes from doing the per-skill work in C: substring tests are `in`, each pattern is
compiled once per query, and each rank is one list comprehension. A word start is found with
`str.find` and a look at the character before (`_word_starts`; a pattern per skill took 83 ms
for `x` over 15,000 descriptions, the finds 6 ms); its rank walks the skills shortest name first
and stops once it has what it needs. While the user types,
a query that extends the previous one only searches the previous matches, and a query typed
again (after a backspace) is answered from the last few.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from engine import Skill

# Rank of one query word in one skill (see the module docstring); a fuzzy match scores below
# FUZZY, less for a looser one.
EXACT, PREFIX, NAME_WORD, DESC_WORD, NAME_TEXT, DESC_TEXT, PATH_TEXT, FUZZY = 100, 80, 65, 55, 45, 30, 25, 20
# Answers kept by query: typing back over a query (backspace) costs nothing.
KEPT_ANSWERS = 32
# A letter of a word: the character before a word start is not one (`[\W_]`, as in `master-react`
# or `Master React`). ASCII is answered by str.isalnum, which agrees with it there.
_LETTER = re.compile(r"[^\W_]")


def _word_starts(text: str, where: str) -> bool:
    """Whether `text` is in `where` where a word starts: at its beginning or after a non-letter."""
    at = where.find(text)
    while at >= 0:
        if at == 0:
            return True
        before = where[at - 1]
        if not (before.isalnum() if before.isascii() else _LETTER.match(before)):
            return True
        at = where.find(text, at + 1)
    return False


@dataclass(frozen=True, slots=True)
class Result:
    score: float
    skill: Skill
    shadowed: bool = False


@dataclass(frozen=True, slots=True)
class _Word:
    """One query word and its patterns, compiled once per search (never per skill)."""

    text: str
    # The word's letters in order. `a[^b]*b` rather than `a.*?b`: the same leftmost match, without
    # the backtracking that made a near miss cost more the longer the query.
    fuzzy: re.Pattern[str]

    @classmethod
    def of(cls, text: str) -> _Word:
        letters = [re.escape(c) for c in text]
        fuzzy = letters[0] + "".join(f"[^{c}]*{c}" for c in letters[1:])
        return cls(text, re.compile(fuzzy))


def _where(skill: Skill) -> str:
    """Where a skill lives, as search reads it: its path below its tier's folder, without the
    `SKILL.md` every skill folder holds and a plugin's `skills/` folder, after its plugin's name
    (`pdf-tools`, `git/commit.md`, `demo-tools/format-check`). The folders above are the same for
    every skill of a tier: in the text, `sk` or `claude` matched every skill of a catalog."""
    try:
        parts = list(skill.path.relative_to(skill.source.root).parts)
    except ValueError:
        return str(skill.path)
    if parts and parts[-1] == "SKILL.md":
        parts.pop()
    if skill.source.plugin is not None:
        if parts and parts[0] == "skills":
            parts.pop(0)
        parts.insert(0, skill.source.plugin)
    return "/".join(parts)


class SearchIndex:
    def __init__(self, skills: Iterable[Skill], shadowed: Iterable[Skill] = ()) -> None:
        rows = [(s, False) for s in skills] + [(s, True) for s in shadowed]
        self._skills = [s for s, _ in rows]
        self._shadowed = [flag for _, flag in rows]
        self._names = [s.name.lower() for s, _ in rows]
        self._descs = [s.description.lower() for s, _ in rows]
        self._wheres = [_where(s).lower() for s, _ in rows]
        # Name, place and description as one text, for the test every skill goes through: one `in`
        # instead of three. A query word holds no whitespace, so none is found across a newline.
        rows_text = zip(self._names, self._wheres, self._descs, strict=True)
        self._texts = [f"{name}\n{where}\n{desc}" for name, where, desc in rows_text]
        self._last: tuple[list[str], list[int]] | None = None
        self._answers: OrderedDict[tuple[str, int], list[Result]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._skills)

    def _matches(self, words: list[_Word]) -> list[int]:
        """Indices of the skills every word matches, narrowing the previous answer if possible."""
        texts = [w.text for w in words]
        candidates: Sequence[int] = range(len(self._skills))
        if self._last is not None:
            last_words, last_hits = self._last
            if len(texts) >= len(last_words) and all(w.startswith(lw) for w, lw in zip(texts, last_words, strict=False)):
                candidates = last_hits
        names, texts_of = self._names, self._texts
        for word in words:
            text = word.text
            if len(text) == 1:  # its letters in order: the letter, in the name
                candidates = [i for i in candidates if text in texts_of[i]]
            else:
                fuzzy = word.fuzzy.search
                candidates = [i for i in candidates if text in texts_of[i] or fuzzy(names[i])]
        hits = list(candidates)
        self._last = (texts, hits)
        return hits

    def _word_score(self, word: _Word, i: int) -> float:
        name, desc, text = self._names[i], self._descs[i], word.text
        if name == text:
            return EXACT
        if name.startswith(text):
            return PREFIX
        if _word_starts(text, name):
            return NAME_WORD
        in_desc = text in desc
        if in_desc and _word_starts(text, desc):
            return DESC_WORD
        pos = name.find(text)
        if pos > 0:
            return NAME_TEXT - min(pos, 20) / 2
        if in_desc:
            return DESC_TEXT
        if text in self._wheres[i]:
            return PATH_TEXT
        m = word.fuzzy.search(name)
        if m is not None:
            return FUZZY - min(m.end() - m.start() - len(text), 15)
        return 0.0

    def _total(self, words: list[_Word], i: int) -> float:
        return sum(self._word_score(w, i) for w in words) - len(self._names[i]) / 100 - (5 if self._shadowed[i] else 0)

    def _top_by_first_word(self, word: _Word, hits: list[int], limit: int) -> list[int]:
        """Many hits (a short query over thousands of skills): rank by the first word, one
        comprehension per rank in `_word_score`'s order, and stop once `limit` are found."""
        text, names, descs, wheres = word.text, self._names, self._descs, self._wheres
        fuzzy = word.fuzzy.search

        def by_length(i: int) -> int:
            return len(names[i])

        def by_place(i: int) -> tuple[int, int]:
            return min(names[i].find(text), 20), len(names[i])

        found = [i for i in hits if names[i] == text]
        taken = set(found)

        def first(texts: list[str]) -> Callable[[list[int]], list[int]]:
            # A word start in the name (or the description): only where the word is in the text at
            # all, shortest name first, and only until the rest of `limit` is found (`e` is in
            # every description, mostly inside words: 100 ms to look at them all).
            def rank(rest: list[int]) -> list[int]:
                need, out = limit - len(found), []
                for i in sorted((i for i in rest if text in texts[i]), key=by_length):
                    if _word_starts(text, texts[i]):
                        out.append(i)
                        if len(out) >= need:
                            break
                return out

            return rank

        ranks: tuple[Callable[[list[int]], list[int]], ...] = (
            lambda rest: sorted((i for i in rest if names[i].startswith(text)), key=by_length),
            first(names),
            first(descs),
            lambda rest: sorted((i for i in rest if text in names[i]), key=by_place),
            lambda rest: sorted((i for i in rest if text in descs[i]), key=by_length),
            lambda rest: sorted((i for i in rest if text in wheres[i]), key=by_length),
            lambda rest: sorted((i for i in rest if fuzzy(names[i])), key=by_length),
        )
        for rank in ranks:
            if len(found) >= limit:
                break
            rest = [i for i in hits if i not in taken] if taken else hits
            more = rank(rest)
            found += more
            taken.update(more)
        return found[:limit]

    def search(self, query: str, limit: int = 200) -> list[Result]:
        key = (" ".join(query.lower().split()), limit)
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = self._search(query, limit)
            if len(self._answers) > KEPT_ANSWERS:
                self._answers.popitem(last=False)
        else:
            self._answers.move_to_end(key)
        return list(answer)

    def _search(self, query: str, limit: int) -> list[Result]:
        words = [_Word.of(w) for w in query.lower().split()]
        if not words:
            self._last = None
            return []
        hits = self._matches(words)
        if len(hits) > 4 * limit:
            top = self._top_by_first_word(words[0], hits, limit)
            results = [Result(self._total(words, i), self._skills[i], self._shadowed[i]) for i in top]
            # Keep the rank order; shadowed skills still go after live ones.
            return sorted(results, key=lambda r: r.shadowed)
        scored = sorted(((self._total(words, i), i) for i in hits), key=lambda pair: (self._shadowed[pair[1]], -pair[0]))
        return [Result(score, self._skills[i], self._shadowed[i]) for score, i in scored[:limit]]
