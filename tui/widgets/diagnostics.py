"""Every diagnostic of the catalog, grouped by file, filterable by severity.

A diagnostic's path and message quote files (folder names, keys, values): each goes through
`printable` (tui/untrusted.py), and a notification naming a file is not parsed as markup."""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static, Tree

from engine import Diagnostic, Severity, printable

from ..messages import JumpToSkill
from ..view import CatalogView, PathDisplay
from .details import SEVERITY_STYLE
from .navigation import NavTree

# The filter cycle: what each step shows.
FILTERS: tuple[tuple[str, frozenset[Severity]], ...] = (
    ("all", frozenset(Severity)),
    ("errors", frozenset({Severity.ERROR})),
    ("warnings", frozenset({Severity.WARNING})),
    ("notes", frozenset({Severity.INFO})),
)


class DiagnosticsTree(NavTree[Diagnostic | Path]):
    def __init__(self, **kwargs: object) -> None:
        super().__init__("diagnostics", **kwargs)

    @property
    def current(self) -> Diagnostic | None:
        node = self.cursor_node
        if node is None:
            return None
        if isinstance(node.data, Diagnostic):
            return node.data
        first = node.children[0].data if node.children else None
        return first if isinstance(first, Diagnostic) else None


class DiagnosticsPane(Vertical):
    BINDINGS = [Binding("f", "cycle_filter", "Filter", id="diagnostics.filter")]

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._view: CatalogView | None = None
        self._paths = PathDisplay()
        self._filter = 0

    def compose(self) -> ComposeResult:
        yield Static(id="diagnostics-header")
        yield DiagnosticsTree(id="diagnostics-tree")

    @property
    def tree(self) -> DiagnosticsTree:
        return self.query_one(DiagnosticsTree)

    def show_view(self, view: CatalogView, paths: PathDisplay) -> None:
        self._view, self._paths = view, paths
        self._rebuild()

    def action_cycle_filter(self) -> None:
        self._filter = (self._filter + 1) % len(FILTERS)
        self._rebuild()
        self.app.notify(f"Showing {FILTERS[self._filter][0]}", timeout=1.5)

    def set_filter(self, name: str) -> None:
        self._filter = next(i for i, (label, _) in enumerate(FILTERS) if label == name)
        self._rebuild()

    def _rebuild(self) -> None:
        view = self._view
        if view is None:
            return
        label, shown = FILTERS[self._filter]
        counts = view.catalog.counts()
        header = Text.assemble(
            ("Diagnostics  ", "bold"),
            (f"✗ {counts[Severity.ERROR]} errors  ", "red"),
            (f"⚠ {counts[Severity.WARNING]} warnings  ", "yellow"),
            (f"ℹ {counts[Severity.INFO]} notes", "cyan"),
            (f"   showing {label} · f: filter · enter: go to skill · e: edit", "dim"),
        )
        self.query_one("#diagnostics-header", Static).update(header)
        grouped: dict[Path, list[Diagnostic]] = defaultdict(list)
        for diag in view.catalog.diagnostics:
            if diag.severity in shown:
                grouped[diag.path].append(diag)
        tree = self.tree
        tree.clear()
        # Files with errors first, then by the path as shown (not the absolute path, so the
        # order does not depend on where a checkout lives).
        rank = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}

        def order(path: Path) -> tuple[int, str]:
            return min(rank[d.severity] for d in grouped[path]), self._paths(path)

        for path in sorted(grouped, key=order):
            diags = grouped[path]
            node = tree.root.add(Text(printable(self._paths(path)), "bold"), path, expand=True)
            for diag in diags:
                where = f"{diag.line}:{diag.column or 1}  " if diag.line else ""
                node.add_leaf(
                    Text.assemble(
                        (f"{diag.severity.value[0].upper()} ", SEVERITY_STYLE[diag.severity]),
                        (diag.code, "dim"),
                        "  ",
                        where,
                        printable(self._paths.in_text(diag.message)),
                    ),
                    diag,
                )
        if not grouped:
            tree.root.add_leaf(Text(f"No {label} — nothing to fix here.", "dim green"))

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        event.stop()
        diag = self.tree.current
        if diag is None or self._view is None:
            return
        target = _skill_path(diag, self._view)
        if target is None:
            where = printable(self._paths(diag.path))
            self.app.notify(f"No skill loads from {where}; press e to open it", severity="warning", markup=False)
            return
        self.post_message(JumpToSkill(target))


def _skill_path(diag: Diagnostic, view: CatalogView) -> Path | None:
    """The skill file a diagnostic belongs to, when that file loaded as a skill."""
    catalog = view.catalog
    for skill in catalog.skills.values():
        if skill.path == diag.path:
            return skill.path
    entry = catalog.shadowed_entry(diag.path)
    return entry.skill.path if entry else None
