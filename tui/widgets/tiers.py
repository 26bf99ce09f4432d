"""The tiers tree: sources in precedence order, their skills, and the shadowed ones dimmed.

Names, plugin labels and folders come from files: each goes through `printable` (tui/untrusted.py)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widgets.tree import TreeNode

from engine import Severity, Shadowed, Skill, Source, printable

from ..view import CatalogView, PathDisplay, TierView
from .navigation import NavTree


@dataclass(frozen=True, slots=True)
class NodeData:
    source: Source
    skill: Skill | None = None
    shadow: Shadowed | None = None


def tier_label(tier: TierView, paths: PathDisplay) -> Text:
    count = len(tier.skills)
    text = Text.assemble((printable(tier.source.label), "bold"), "  ", (f"{count} skill{'s' if count != 1 else ''}", "dim"))
    if tier.shadowed:
        text.append(f" +{len(tier.shadowed)} shadowed", "dim")
    if tier.deferred:
        text.append(f" +{len(tier.deferred)} held back", "dim")
    if tier.errors:
        text.append(f"  ✗{tier.errors}", "bold red")
    if tier.warnings:
        text.append(f"  ⚠{tier.warnings}", "yellow")
    text.append(f"  {printable(paths(tier.source.root))}", "dim italic")
    return text


def skill_label(skill: Skill, view: CatalogView) -> Text:
    text = Text(printable(skill.name))
    worst = view.worst(skill.path)
    if worst is Severity.ERROR:
        text.append(" ✗", "bold red")
    elif worst is Severity.WARNING:
        text.append(" ⚠", "yellow")
    marks = []
    if skill.context == "fork":
        marks.append("fork")
    if not skill.model_invocable:
        marks.append("user only")
    elif not skill.user_invocable:
        marks.append("model only")
    if marks:
        text.append("  " + " · ".join(marks), "dim cyan")
    return text


# How Claude Code adds a held-back skill later in a session (Skill.activation).
HELD_BACK = {"paths": "held back: listed once a file matching its paths: is touched",
             "nested": "held back: loads once a file under its folder is touched"}  # fmt: skip


def deferred_label(skill: Skill) -> Text:
    return Text.assemble((printable(skill.name), "dim italic"), (f"  {HELD_BACK.get(skill.activation, 'held back')}", "dim cyan"))


def shadow_label(entry: Shadowed) -> Text:
    return Text.assemble((printable(entry.skill.name), "dim strike"), (f"  ← {printable(entry.shadowed_by.source.label)}", "dim"))


class TiersTree(NavTree[NodeData]):
    """Every tier and its skills. Rebuilt from each catalog snapshot; the cursor stays put."""

    BINDINGS = [
        *NavTree.BINDINGS,
        Binding("f", "app.run_fork", "Fork", id="tiers.fork"),
        Binding("a", "app.run_with_args", "Run with args", id="tiers.args"),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__("tiers", **kwargs)
        self._by_path: dict[Path, TreeNode[NodeData]] = {}

    def show_view(self, view: CatalogView, paths: PathDisplay, keep: Path | None) -> None:
        # Tree.clear keeps the old cursor node; reset it so moving back to the same line
        # still announces the new node (and the details show the new snapshot).
        self.clear()
        self.cursor_line = -1
        self._by_path = {}
        for tier in view.tiers:
            node = self.root.add(tier_label(tier, paths), NodeData(tier.source), expand=True)
            for skill in tier.skills:
                self._by_path[skill.path] = node.add_leaf(skill_label(skill, view), NodeData(tier.source, skill))
            for skill in tier.deferred:
                self._by_path[skill.path] = node.add_leaf(deferred_label(skill), NodeData(tier.source, skill))
            for entry in tier.shadowed:
                leaf = node.add_leaf(shadow_label(entry), NodeData(tier.source, entry.skill, entry))
                self._by_path[entry.skill.path] = leaf
        if keep is None or not self.select_path(keep):
            first = next(iter(self._by_path.values()), None)
            if first is not None:
                self.call_after_refresh(self.move_cursor, first)

    async def _on_click(self, event: events.Click) -> None:
        # A click on a skill only puts the cursor on it: running one sends a (paid) request, which
        # takes enter. Tree's own click (it selects, which runs) still opens and closes tiers.
        meta = event.style.meta
        line = meta.get("line")
        if isinstance(line, int) and not meta.get("toggle", False):
            node = self.get_node_at_line(line)
            if node is not None and node.data is not None and node.data.skill is not None:
                event.prevent_default()
                self.cursor_line = line

    def select_path(self, path: Path) -> bool:
        node = self._by_path.get(path)
        if node is None:
            return False
        if node.parent is not None and not node.parent.is_expanded:
            node.parent.expand()
        self.call_after_refresh(self.move_cursor, node)
        return True

    @property
    def current(self) -> NodeData | None:
        node = self.cursor_node
        return node.data if node is not None else None
