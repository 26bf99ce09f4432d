"""Command palette providers: go to any skill (ctrl+p, then type its name).

A hit's prompt given as a `str` is parsed as markup by the palette, and its help always is: a
skill named `[/b]` (a folder in a cloned repository) crashed the palette. Prompts are `Text`,
help is escaped, and both show terminal controls as `^[` (tui/untrusted.py), as does a hit's
plain text, which the palette puts in its input once the hit is chosen."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from pathlib import Path
from typing import Protocol, cast

from textual.command import DiscoveryHit, Hit, Hits, Provider

from engine import Skill, printable

from .search import SearchIndex
from .untrusted import markup, text


class Skills(Protocol):
    """What the palette needs of the app (which implements it): the catalog's search, and a way
    to go to a skill."""

    search_index: SearchIndex

    def search_index_skills(self) -> Iterable[Skill]: ...
    def go_to_path(self, path: Path) -> None: ...


class SkillCommands(Provider):
    """Every skill as a palette entry; choosing one selects it in the tiers tree."""

    @property
    def deck(self) -> Skills:
        return cast(Skills, self.app)

    async def discover(self) -> Hits:
        for skill in list(self.deck.search_index_skills())[:30]:
            label = printable(f"Go to /{skill.name}")
            yield DiscoveryHit(
                text(label), partial(self.deck.go_to_path, skill.path), text=label, help=markup(skill.description[:100])
            )

    async def search(self, query: str) -> Hits:
        index = self.deck.search_index
        results = index.search(query, limit=40)
        top = results[0].score if results else 1.0
        for result in results:
            skill = result.skill
            label = printable(f"Go to /{skill.name}" + ("  (shadowed)" if result.shadowed else ""))
            yield Hit(
                max(0.0, min(1.0, result.score / max(top, 1.0))),
                text(label),
                partial(self.deck.go_to_path, skill.path),
                text=label,
                help=markup(f"{skill.source.label} · {skill.description[:90]}"),
            )
