"""Command palette providers: go to any skill (ctrl+p, then type its name).

A hit's prompt given as a `str` is parsed as markup by the palette, and its help always is: a
skill named `[/b]` (a folder in a cloned repository) crashed the palette. Prompts are `Text`,
help is escaped, and both show terminal controls as `^[` (tui/untrusted.py), as does a hit's
plain text, which the palette puts in its input once the hit is chosen."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.command import DiscoveryHit, Hit, Hits, Provider

from engine import printable

from .untrusted import markup, text

if TYPE_CHECKING:
    from .app import SkilldeckApp


class SkillCommands(Provider):
    """Every skill as a palette entry; choosing one selects it in the tiers tree."""

    @property
    def deck(self) -> SkilldeckApp:
        return self.app  # type: ignore[return-value]

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
