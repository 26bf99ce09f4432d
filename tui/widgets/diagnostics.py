"""Every diagnostic of the catalog, grouped by file, filterable by severity; the one under the
cursor in full below the tree (its hint, what enter does), and for a file no skill loads from,
the lines around the diagnostic once enter is pressed. Below the files, the plugin doctor's
errors and warnings (engine.diagnose, run in a worker after each load), grouped under each
plugin and marketplace, each with its fix.

A diagnostic's path and message quote files (folder names, keys, values), and a file's lines
are the file's: each goes through `printable` (tui/untrusted.py), and a notification naming a
file is not parsed as markup."""

from __future__ import annotations

import time
from collections import defaultdict
from functools import partial
from pathlib import Path

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from engine import Diagnostic, Finding, Severity, diagnose, printable, read_regular

from ..deck import Deck
from ..messages import JumpToSkill
from ..view import SEVERITY_WORD, CatalogView, count
from .details import SEVERITY_STYLE
from .diagnostics_tree import DiagnosticsTree

# The filter cycle: what each step shows.
FILTERS: tuple[tuple[str, frozenset[Severity]], ...] = (
    ("all", frozenset(Severity)),
    ("errors", frozenset({Severity.ERROR})),
    ("warnings", frozenset({Severity.WARNING})),
    ("notes", frozenset({Severity.INFO})),
)
# A file shown on enter is read up to this size (a diagnostic may name anything a project holds).
EXCERPT_READ_CAP = 1024 * 1024
# Lines shown before and after the diagnostic's line, and the width each is cut to.
EXCERPT_AROUND = 4
EXCERPT_LINE_CHARS = 300


def excerpt(data: bytes, line: int | None) -> Text:
    """The lines around `line` (1-based; the file's start when None), numbered, the line marked."""
    lines = data.decode("utf-8", "replace").splitlines()
    if not lines:
        return Text("(the file is empty)", "dim")
    at = min(max(1, line or 1), len(lines))
    first = max(1, at - EXCERPT_AROUND)
    last = min(len(lines), first + 2 * EXCERPT_AROUND)
    out = Text()
    for n in range(first, last + 1):
        mark = n == at and line is not None
        out.append(f"{'›' if mark else ' '}{n:>5}  ", "bold yellow" if mark else "dim")
        out.append(printable(lines[n - 1][:EXCERPT_LINE_CHARS].expandtabs(4)), "bold" if mark else "")
        out.append("\n")
    out.rstrip()
    return out


class DiagnosticsPane(Vertical):
    BINDINGS = [Binding("f", "cycle_filter", "Filter", id="diagnostics.filter")]
    DEFAULT_CSS = """
    #diagnostics-detail {
        height: auto;
        max-height: 50%;
        padding: 0 1;
        border-top: solid $panel-lighten-2;
    }
    """

    def __init__(self, deck: Deck, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.deck = deck
        self._view: CatalogView | None = None
        self._paths = deck.paths
        self._filter = 0
        self._loaded_paths: frozenset[Path] | None = None
        # The plugin doctor's findings for the view shown, as diagnostics under a row per plugin
        # or marketplace (keyed by a relative stand-in path no catalog diagnostic has).
        self._plugin_rows: dict[Path, tuple[str, list[Diagnostic]]] = {}
        # Files edited after this are "changed since the app started" (a reload is needed).
        self._started = time.time()

    def compose(self) -> ComposeResult:
        yield Static(id="diagnostics-header")
        yield DiagnosticsTree(id="diagnostics-tree")
        yield Static(id="diagnostics-detail")

    @property
    def diagnostics(self) -> DiagnosticsTree:
        return self.query_one(DiagnosticsTree)

    def show_view(self, view: CatalogView) -> None:
        self._view = view
        self._loaded_paths = None
        self._rebuild()
        work = partial(self._check_plugins, view)
        self.deck.start(self, work, "Checking plugins", thread=True, exclusive=True, group="plugin-doctor")

    def _check_plugins(self, view: CatalogView) -> None:
        findings = diagnose(self.deck.workspace.locations, view.catalog, view.listing, since=self._started)
        self.app.call_from_thread(self._show_findings, view, findings)

    def _show_findings(self, view: CatalogView, findings: list[Finding]) -> None:
        if view is not self._view:
            return
        rows: dict[Path, tuple[str, list[Diagnostic]]] = {}
        # Notes (what a plugin runs and costs) stay in `skilldeck doctor -v`.
        for f in findings:
            if f.severity == "info":
                continue
            title = f"plugin {f.plugin}" if f.plugin else f"marketplace {f.marketplace}" if f.marketplace else "plugins"
            key = Path("plugin-doctor", title)
            where = f.path or self.deck.workspace.locations.installed_plugins_file()
            diag = Diagnostic(Severity(f.severity), f.code, where, f.message, f.fix)
            rows.setdefault(key, (title, []))[1].append(diag)
        if rows or self._plugin_rows:
            self._plugin_rows = rows
            self._rebuild()
        counts: dict[str, tuple[int, int]] = {}
        for f in findings:
            if f.plugin and f.severity in ("error", "warning"):
                errors, warnings = counts.get(f.plugin.split("@", 1)[0], (0, 0))
                counts[f.plugin.split("@", 1)[0]] = (errors + (f.severity == "error"), warnings + (f.severity == "warning"))
        self.deck.doctor.post(counts)

    @property
    def plugin_findings(self) -> dict[str, list[Diagnostic]]:
        """The doctor's findings shown, by plugin or marketplace row."""
        return dict(self._plugin_rows.values())

    def _loaded(self) -> frozenset[Path]:
        """The paths of the view's skills, made the first time a diagnostic is shown."""
        if self._loaded_paths is None:
            skills = self._view.catalog.skills.values() if self._view is not None else ()
            self._loaded_paths = frozenset(skill.path for skill in skills)
        return self._loaded_paths

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
            (f"✗ {count(counts[Severity.ERROR], SEVERITY_WORD[Severity.ERROR])}  ", "red"),
            (f"⚠ {count(counts[Severity.WARNING], SEVERITY_WORD[Severity.WARNING])}  ", "yellow"),
            (f"ℹ {count(counts[Severity.INFO], SEVERITY_WORD[Severity.INFO])}", "cyan"),
            (f"   showing {label} · f: filter · enter: go to skill · e: edit", "dim"),
        )
        self.query_one("#diagnostics-header", Static).update(header)
        grouped: dict[Path, list[Diagnostic]] = defaultdict(list)
        for diag in view.catalog.diagnostics:
            if diag.severity in shown:
                grouped[diag.path].append(diag)
        # Files with errors first, then by the path as shown (not the absolute path, so the
        # order does not depend on where a checkout lives).
        rank = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}

        def order(path: Path) -> tuple[int, str]:
            return min(rank[d.severity] for d in grouped[path]), self._paths(path)

        files = [(path, grouped[path]) for path in sorted(grouped, key=order)]
        for key, (_title, diags) in sorted(self._plugin_rows.items(), key=lambda kv: kv[1][0]):
            kept = [d for d in diags if d.severity in shown]
            if kept:
                files.append((key, kept))
        tree = self.diagnostics
        tree.show_files(files, self._label, Text(f"No {label} — nothing to fix here.", "dim green"))
        self._describe(tree.current)

    def _label(self, path: Path, diag: Diagnostic | None) -> Text:
        """A row's text: a file's path, or a diagnostic (drawn only while its row is on screen)."""
        if diag is None:
            row = self._plugin_rows.get(path)
            return Text(printable(row[0]), "bold magenta") if row else Text(printable(self._paths(path)), "bold")
        where = f"{diag.line}:{diag.column or 1}  " if diag.line else ""
        return Text.assemble(
            (f"{SEVERITY_WORD[diag.severity][0].upper()} ", SEVERITY_STYLE[diag.severity]),
            (diag.code, "dim"),
            "  ",
            where,
            printable(self._paths.in_text(diag.message)),
            (f"  → {printable(self._paths.in_text(diag.hint))}" if diag.hint else "", "green"),
        )

    def on_diagnostics_tree_highlighted(self, event: DiagnosticsTree.Highlighted) -> None:
        event.stop()
        self._describe(self.diagnostics.current)

    def _describe(self, diag: Diagnostic | None, lines: Text | None = None) -> None:
        """The diagnostic under the cursor in full: where, the message, the hint, what keys do;
        and `lines` of its file when enter showed them."""
        detail = self.query_one("#diagnostics-detail", Static)
        if diag is None or self._view is None:
            detail.update("")
            return
        where = printable(self._paths(diag.path)) + (f"  line {diag.line}" if diag.line else "")
        parts: list[Text] = [
            Text.assemble((f"{SEVERITY_WORD[diag.severity]} ", SEVERITY_STYLE[diag.severity]), (diag.code, "dim"), f"  {where}"),
            Text(printable(self._paths.in_text(diag.message))),
        ]
        if diag.hint:
            parts.append(Text(f"→ {printable(self._paths.in_text(diag.hint))}", "green"))
        target = _skill_path(diag, self._view, self._loaded())
        if target is not None:
            parts.append(Text("enter: go to its skill · e: edit · w: why", "dim"))
        elif lines is None:
            parts.append(
                Text("No skill loads from this file. enter: show its lines here · e: open it in $EDITOR · w: why", "dim")
            )
        else:
            parts.append(Text("No skill loads from this file; e opens it in $EDITOR at this line.", "dim"))
            parts.append(lines)
        detail.update(Group(*parts))

    def on_diagnostics_tree_selected(self, event: DiagnosticsTree.Selected) -> None:
        event.stop()
        diag = self.diagnostics.current
        if diag is None or self._view is None:
            return
        target = _skill_path(diag, self._view, self._loaded())
        if target is None:
            # No skill to go to: the file's lines around the diagnostic, read in a thread.
            work = partial(self._read_lines, diag)
            self.deck.start(self, work, "Reading the file", thread=True, exclusive=True, group="diagnostic-file")
            return
        self.post_message(JumpToSkill(target))

    def _read_lines(self, diag: Diagnostic) -> None:
        try:
            data, _ = read_regular(diag.path, EXCERPT_READ_CAP)
            lines = excerpt(data, diag.line)
        except OSError as exc:
            lines = Text(f"Cannot read it: {printable(exc.strerror or str(exc))}", "red")
        self.app.call_from_thread(self._show_lines, diag, lines)

    def _show_lines(self, diag: Diagnostic, lines: Text) -> None:
        if self.diagnostics.current is diag:
            self._describe(diag, lines)


def _skill_path(diag: Diagnostic, view: CatalogView, loaded: frozenset[Path]) -> Path | None:
    """The skill file a diagnostic belongs to, when that file loaded as a skill (`loaded`: the
    paths of the catalog's skills, so that a key on the pane does not walk 15,000 of them)."""
    if diag.path in loaded:
        return diag.path
    entry = view.catalog.shadowed_entry(diag.path)
    return entry.skill.path if entry else None
