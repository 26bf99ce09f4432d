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

from textual.app import SystemCommand
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


class Actions(Protocol):
    """The app's actions the palette's system commands call."""

    def action_help(self) -> None: ...
    def action_reload(self) -> None: ...
    def action_search(self) -> None: ...
    def action_new_conversation(self) -> None: ...
    def action_agent(self, key: str = "") -> None: ...
    def resume_session(self, path: Path | None = None) -> None: ...
    def _compare(self) -> None: ...


def app_commands(app: Actions, textuals: Iterable[SystemCommand]) -> Iterable[SystemCommand]:
    """The palette's commands: Textual's own, its "Keys" replaced by skilldeck's list (`?`: Textual's
    help panel knew none of its panes), then the app's."""
    keys = SystemCommand("Keys", "Every key of every pane (?)", app.action_help)
    yield from (keys if command.title == "Keys" else command for command in textuals)
    yield SystemCommand("Reload", "Read every tier from disk again", app.action_reload)
    yield SystemCommand("Search skills", "Fuzzy search over names, descriptions and paths", app.action_search)
    yield SystemCommand("Resume conversation", "Reopen the latest saved conversation and continue it", app.resume_session)
    yield SystemCommand("New conversation", "Start a new conversation (ctrl+n)", app.action_new_conversation)
    yield SystemCommand("Compare with Claude Code", "Run your Claude Code offline and diff its listing (C)", app._compare)
    yield SystemCommand("Next agent", "Show what the next agent (Codex CLI, Gemini CLI, ...) sees (A)", app.action_agent)
