"""The tiers tree: sources in precedence order, their skills, and the shadowed ones dimmed.

Names, plugin labels and folders come from files: each goes through `printable` (tui/untrusted.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.widgets import Tree
from textual.widgets.tree import NodeID, TreeNode

from engine import Severity, Shadowed, Skill, Source, printable

from ..view import CatalogView, PathDisplay, TierView
from .navigation import NavTree


@dataclass(frozen=True, slots=True)
class NodeData:
    source: Source
    skill: Skill | None = None
    shadow: Shadowed | None = None


# The tree's filter cycle (`t`): what each shows, for the tree's title.
FILTERS = {"all": "", "errors": "skills with errors", "problems": "skills with errors or warnings"}


def tier_path(tier: TierView, paths: PathDisplay) -> str:
    return printable(paths(tier.source.root))


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
    text.append(f"  {tier_path(tier, paths)}", "dim italic")
    return text


def middle_cut_sizes(length: int, room: int) -> tuple[int, int]:
    """How much of the start and of the end of a `length`-character text to keep around an
    ellipsis to fit `room` cells (a plugin's folder is told apart by its end, `…/plugins/name`, not by
    the home folder all of them start with)."""
    head = (room - 1) // 4
    return head, room - 1 - head


def shown_name(skill: Skill) -> str:
    """A skill's name as its row shows it: under a plugin's tier without the `plugin:` every row
    of the tier would repeat."""
    plugin = skill.source.plugin
    return skill.name.removeprefix(f"{plugin}:") if plugin else skill.name


def skill_label(skill: Skill, view: CatalogView) -> Text:
    text = Text(printable(shown_name(skill)))
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
    return Text.assemble(
        (printable(shown_name(skill)), "dim italic"), (f"  {HELD_BACK.get(skill.activation, 'held back')}", "dim cyan")
    )


def shadow_label(entry: Shadowed) -> Text:
    return Text.assemble(
        (printable(shown_name(entry.skill)), "dim strike"), (f"  ← {printable(entry.shadowed_by.source.label)}", "dim")
    )


# Above this many skills the tree opens with its tiers closed (the cursor's open).
BIG = 2000


@dataclass(frozen=True, slots=True)
class Rows:
    """A tier's rows as the filter leaves them."""

    skills: list[Skill]
    deferred: list[Skill]
    shadowed: list[Shadowed]

    def paths(self) -> list[Path]:
        return [s.path for s in self.skills] + [s.path for s in self.deferred] + [e.skill.path for e in self.shadowed]


def _key(source: Source) -> tuple[str, str]:
    # A tier as the next snapshot names it (`order` moves when a tier appears above it).
    return (source.kind.value, str(source.root))


class TiersTree(NavTree[NodeData]):
    """Every tier and its skills. Rebuilt from each catalog snapshot; the cursor stays put, and so
    do the tiers the user collapsed."""

    BINDINGS = [
        *NavTree.BINDINGS,
        Binding("f", "app.run_fork", "Fork", id="tiers.fork"),
        Binding("a", "app.run_with_args", "Run with args", id="tiers.args"),
        Binding("minus", "collapse_all", "Collapse all", key_display="-", id="tiers.collapse_all"),
        Binding("plus", "expand_all", "Expand all", key_display="+", id="tiers.expand_all"),
        Binding("equals_sign", "expand_all", "Expand all", key_display="=", show=False, id="tiers.expand_all2"),
        Binding("t", "cycle_filter", "Filter", id="tiers.filter"),
    ]

    def __init__(self, **kwargs: object) -> None:
        super().__init__("tiers", **kwargs)
        self._by_path: dict[Path, TreeNode[NodeData]] = {}
        # Each tier header's folder, by node, to cut in its middle when the line is too narrow.
        self._tier_paths: dict[int, str] = {}
        # Whether each tier was open, kept across snapshots and filters; the rows of the closed
        # ones, not yet in the tree, and which closed tier holds each of their paths.
        self._open: dict[tuple[str, str], bool] = {}
        self._pending: dict[NodeID, Rows] = {}
        self._closed_paths: dict[Path, TreeNode[NodeData]] = {}
        self._view: CatalogView | None = None
        self._paths: PathDisplay | None = None
        self.filter = "all"
        self._shown = "all"  # the filter the rows in the tree were made with
        self.border_title = "1 Tiers"

    def show_view(self, view: CatalogView, paths: PathDisplay, keep: Path | None) -> None:
        self._view, self._paths = view, paths
        self._fill(keep)

    def _fill(self, keep: Path | None) -> None:
        view, paths = self._view, self._paths
        if view is None or paths is None:
            return
        self._remember_open()
        # A big catalog opens with its tiers closed (but the cursor's): a tier's rows are added
        # only when it opens, so a load or a filter key costs the tiers, not every skill.
        default_open = self.filter != "all" or len(view.catalog.skills) <= BIG
        # Tree.clear keeps the old cursor node; reset it so moving back to the same line
        # still announces the new node (and the details show the new snapshot).
        self.clear()
        self.cursor_line = -1
        self._by_path = {}
        self._tier_paths = {}
        self._pending = {}
        self._closed_paths = {}
        wanted = self._wanted(view)
        self._shown = self.filter
        for tier in view.tiers:
            if self.filter == "all":
                rows = Rows(list(tier.skills), list(tier.deferred), list(tier.shadowed))
            else:
                rows = Rows(
                    [s for s in tier.skills if wanted(s.path)],
                    [s for s in tier.deferred if wanted(s.path)],
                    [e for e in tier.shadowed if wanted(e.skill.path)],
                )
            if self.filter != "all" and not (rows.skills or rows.deferred or rows.shadowed or self._tier_wanted(tier)):
                continue
            # A filtered tree is short: every tier in it is open.
            expand = default_open if self.filter != "all" else self._open.get(_key(tier.source), default_open)
            node = self.root.add(tier_label(tier, paths), NodeData(tier.source), expand=expand)
            self._tier_paths[node.id] = tier_path(tier, paths)
            if expand:
                self._add_rows(node, rows)
            else:
                self._pending[node.id] = rows
                for path in rows.paths():
                    self._closed_paths[path] = node
        if keep is None or not self.select_path(keep):
            if not self._by_path:
                # Every tier closed: the first with a row opens, for the cursor to start on.
                first_tier = next((n for n in self.root.children if n.id in self._pending and self._pending[n.id].paths()), None)
                if first_tier is not None:
                    self._open_tier(first_tier)
                    first_tier.expand()
            first = next(iter(self._by_path.values()), None)
            if first is not None:
                self.call_after_refresh(self.move_cursor, first)

    def _remember_open(self) -> None:
        # Only the whole tree says which tiers the user opened (a filtered one opens them all).
        if self._shown == "all" and self.root.children:
            self._open = {_key(n.data.source): n.is_expanded for n in self.root.children if n.data is not None}

    def _add_rows(self, node: TreeNode[NodeData], rows: Rows) -> None:
        view = self._view
        assert view is not None and node.data is not None
        source = node.data.source
        for skill in rows.skills:
            self._by_path[skill.path] = node.add_leaf(skill_label(skill, view), NodeData(source, skill))
        for skill in rows.deferred:
            self._by_path[skill.path] = node.add_leaf(deferred_label(skill), NodeData(source, skill))
        for entry in rows.shadowed:
            self._by_path[entry.skill.path] = node.add_leaf(shadow_label(entry), NodeData(source, entry.skill, entry))

    def _open_tier(self, node: TreeNode[NodeData]) -> None:
        """A closed tier's rows, added the first time it opens."""
        rows = self._pending.pop(node.id, None)
        if rows is not None:
            for path in rows.paths():
                self._closed_paths.pop(path, None)
            self._add_rows(node, rows)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        # enter, space or a click opened a tier (expand all and select_path add the rows first).
        if event.node.id in self._pending:
            self._open_tier(event.node)

    def _wanted(self, view: CatalogView) -> Callable[[Path], bool]:
        if self.filter == "errors":
            return lambda path: view.worst(path) is Severity.ERROR
        if self.filter == "problems":
            return lambda path: view.worst(path) is not None
        return lambda path: True

    def _tier_wanted(self, tier: TierView) -> bool:
        # A tier whose errors are in files that load no skill still shows, with its counts.
        return bool(tier.errors) if self.filter == "errors" else bool(tier.errors or tier.warnings)

    def action_cycle_filter(self) -> None:
        names = list(FILTERS)
        self.filter = names[(names.index(self.filter) + 1) % len(names)]
        shown = FILTERS[self.filter]
        self.border_title = f"1 Tiers · {shown}" if shown else "1 Tiers"
        current = self.current
        self._fill(current.skill.path if current is not None and current.skill is not None else None)
        if self.filter != "all" and not self._by_path:
            self.app.notify(f"No {shown}", title="Filter")

    def action_collapse_all(self) -> None:
        """Every tier closed: one flag per tier, and the tree's next layout walks only the tiers."""
        current = self.cursor_node
        tier = current.parent if current is not None and current.parent is not self.root else current
        # The cursor's skill is about to be hidden; its stale line must not be announced.
        self.cursor_line = -1
        for node in self.root.children:
            if node.is_expanded:
                node.collapse()
        if tier is not None:
            self._place(tier)

    def action_expand_all(self) -> None:
        current = self.cursor_node
        self.cursor_line = -1
        for node in self.root.children:
            if not node.is_expanded and node.allow_expand:
                self._open_tier(node)
                node.expand()
        if current is not None:
            self._place(current)

    def _place(self, node: TreeNode[NodeData]) -> None:
        self.last_line  # noqa: B018 - lays the lines out again, so that node.line is where it now is
        self.move_cursor(node)
        self.scroll_to_node(node, animate=False)

    def fit_label(self, node: TreeNode[NodeData], text: Text, room: int) -> Text:
        path = self._tier_paths.get(node.id)
        start = len(text) - len(path) if path else 0
        if path and text.plain.endswith(path) and text[:start].cell_len + 8 <= room:
            # A tier header: its folder is cut in the middle, so that its end still shows; slices
            # of the label keep its styles (the cursor's among them).
            head, tail = middle_cut_sizes(len(path), room - text[:start].cell_len)
            mark = text[start + head : start + head + 1]
            mark.plain = "…"
            return text[: start + head] + mark + text[len(text) - tail :]
        return super().fit_label(node, text, room)

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
        closed = self._closed_paths.get(path)
        if closed is not None:
            self._open_tier(closed)
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
