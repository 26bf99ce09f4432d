"""Fuzzy search over skill names, descriptions and paths, ranked, fast on ten thousand skills.

Every query word must match somewhere: in the name, the description or the path as text, or
as the letters of the name in order (fuzzy). Ranking, best first: the whole name, a name
prefix, a name substring (earlier is better), a fuzzy name match (tighter is better), the
description, the path; shorter names first among equals; shadowed skills after live ones.

Speed comes from doing the per-skill work in C: substring tests are `in`, the fuzzy test is
one compiled regex, and each rank is one list comprehension. While the user types, a query
that extends the previous one only searches the previous matches.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from engine import Skill


@dataclass(frozen=True, slots=True)
class Result:
    score: float
    skill: Skill
    shadowed: bool = False


class SearchIndex:
    def __init__(self, skills: Iterable[Skill], shadowed: Iterable[Skill] = ()) -> None:
        rows = [(s, False) for s in skills] + [(s, True) for s in shadowed]
        self._skills = [s for s, _ in rows]
        self._shadowed = [flag for _, flag in rows]
        self._names = [s.name.lower() for s, _ in rows]
        self._descs = [s.description.lower() for s, _ in rows]
        self._paths = [str(s.path).lower() for s, _ in rows]
        self._last: tuple[list[str], list[int]] | None = None

    def __len__(self) -> int:
        return len(self._skills)

    def _matches(self, words: list[str]) -> list[int]:
        """Indices of the skills every word matches, narrowing the previous answer if possible."""
        candidates: Sequence[int] = range(len(self._skills))
        if self._last is not None:
            last_words, last_hits = self._last
            if len(words) >= len(last_words) and all(w.startswith(lw) for w, lw in zip(words, last_words, strict=False)):
                candidates = last_hits
        names, descs, paths = self._names, self._descs, self._paths
        for word in words:
            fuzzy = re.compile(".*?".join(map(re.escape, word)))
            candidates = [
                i for i in candidates if word in names[i] or word in descs[i] or word in paths[i] or fuzzy.search(names[i])
            ]
        hits = list(candidates)
        self._last = (words, hits)
        return hits

    def _word_score(self, word: str, i: int) -> float:
        name = self._names[i]
        pos = name.find(word)
        if pos == 0:
            return 100.0 if name == word else 80.0
        if pos > 0:
            return 60.0 - min(pos, 20) / 2
        m = re.search(".*?".join(map(re.escape, word)), name)
        if m is not None:
            return 40.0 - min(m.end() - m.start() - len(word), 30)
        return 25.0 if word in self._descs[i] else 10.0

    def _total(self, words: list[str], i: int) -> float:
        return sum(self._word_score(w, i) for w in words) - len(self._names[i]) / 100 - (5 if self._shadowed[i] else 0)

    def _top_by_first_word(self, words: list[str], hits: list[int], limit: int) -> list[int]:
        """Many hits (a short query over thousands of skills): rank by where the first word
        falls in the name, one comprehension per rank, and stop once `limit` are found."""
        word, names = words[0], self._names
        found = [i for i in hits if names[i] == word]
        if len(found) < limit:
            prefix = [i for i in hits if names[i].startswith(word) and names[i] != word]
            found += sorted(prefix, key=lambda i: len(names[i]))
        if len(found) < limit:
            inner = [i for i in hits if names[i].find(word) > 0]
            found += sorted(inner, key=lambda i: (min(names[i].find(word), 20), len(names[i])))
        if len(found) < limit:
            taken = set(found)
            rest = [i for i in hits if i not in taken]
            pattern = re.compile(".*?".join(map(re.escape, word)))
            fuzzy = [i for i in rest if pattern.search(names[i])]
            found += sorted(fuzzy, key=lambda i: len(names[i]))
            if len(found) < limit:
                taken.update(fuzzy)
                descs = self._descs
                in_desc = [i for i in rest if i not in taken and word in descs[i]]
                found += sorted(in_desc, key=lambda i: len(names[i]))
                if len(found) < limit:
                    taken.update(in_desc)
                    found += [i for i in rest if i not in taken]
        return found[:limit]

    def search(self, query: str, limit: int = 200) -> list[Result]:
        words = query.lower().split()
        if not words:
            self._last = None
            return []
        hits = self._matches(words)
        if len(hits) > 4 * limit:
            top = self._top_by_first_word(words, hits, limit)
            results = [Result(self._total(words, i), self._skills[i], self._shadowed[i]) for i in top]
            # Keep the rank order; shadowed skills still go after live ones.
            return sorted(results, key=lambda r: r.shadowed)
        scored = sorted(((self._total(words, i), i) for i in hits), key=lambda pair: (self._shadowed[pair[1]], -pair[0]))
        return [Result(score, self._skills[i], self._shadowed[i]) for score, i in scored[:limit]]
