"""The tiers tree: sources in precedence order, their skills, and the shadowed ones dimmed.

Drawn a line at a time (Textual's line API on a ScrollView): a row exists only while it is on
screen, so a 15,000-skill catalog costs what the screen shows, and a key what one or two lines
cost. Each tier keeps its rows as the catalog view holds them; where a line is comes from the
tiers' start lines (one per tier, found by bisection), never from a per-skill widget or node.

Names, plugin labels and folders come from files: each goes through `printable` (tui/untrusted.py)."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message

from engine import Shadowed, Skill, Source, printable

from ..deck import PluginBoard
from ..usage import UsageBook
from ..view import CatalogView, PathDisplay, TierView
from .navigation import LineCursor, LineLook
from .tier_filters import FILTERS, wanted_skills, wanted_tier
from .tier_labels import deferred_label, fit_tier, shadow_label, skill_label, tier_label, tier_path


@dataclass(frozen=True, slots=True)
class NodeData:
    source: Source
    skill: Skill | None = None
    shadow: Shadowed | None = None


@dataclass(frozen=True, slots=True)
class Rows:
    """A tier's rows as the filter leaves them: its skills, the held-back ones, the shadowed ones."""

    skills: Sequence[Skill]
    deferred: Sequence[Skill]
    shadowed: Sequence[Shadowed]
    # Claude Code's own skills, by name (a recorded comparison): rows with no skill behind them.
    own: Sequence[str] = ()

    def __len__(self) -> int:
        return len(self.skills) + len(self.deferred) + len(self.shadowed) + len(self.own)

    def paths(self) -> Iterator[Path]:
        yield from (s.path for s in self.skills)
        yield from (s.path for s in self.deferred)
        yield from (e.skill.path for e in self.shadowed)

    def data(self, source: Source, index: int) -> tuple[NodeData, str]:
        """The `index`th row's data, and its kind (skill, deferred, shadowed)."""
        if index < len(self.skills):
            return NodeData(source, self.skills[index]), "skill"
        index -= len(self.skills)
        if index < len(self.deferred):
            return NodeData(source, self.deferred[index]), "deferred"
        index -= len(self.deferred)
        if index < len(self.shadowed):
            entry = self.shadowed[index]
            return NodeData(source, entry.skill, entry), "shadowed"
        return NodeData(source), "own"


@dataclass(slots=True)
class TierRows:
    tier: TierView
    rows: Rows
    is_open: bool

    @property
    def key(self) -> tuple[str, str]:
        # A tier as the next snapshot names it (`order` moves when a tier appears above it).
        return (self.tier.source.kind.value, str(self.tier.source.root))

    @property
    def lines(self) -> int:
        return 1 + (len(self.rows) if self.is_open else 0)


class TiersTree(LineCursor, can_focus=True):
    """Every tier and its skills. Rebuilt from each catalog snapshot; the cursor stays on its
    skill, and the tiers the user closed stay closed."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "choose", "Run", show=False),
        Binding("space", "toggle_tier", "Open or close the tier", show=False),
        Binding("left", "close_tier", "Close the tier", show=False),
        Binding("right", "open_tier", "Open the tier", show=False),
        Binding("f", "app.run_fork", "Fork", id="tiers.fork"),
        Binding("a", "app.run_with_args", "Run with args", id="tiers.args"),
        Binding("minus", "collapse_all", "Collapse all", key_display="-", id="tiers.collapse_all"),
        Binding("plus", "expand_all", "Expand all", key_display="+", id="tiers.expand_all"),
        Binding("equals_sign", "expand_all", "Expand all", key_display="=", show=False, id="tiers.expand_all2"),
        Binding("t", "cycle_filter", "Filter", id="tiers.filter"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"tiers--cursor", "tiers--guides", "tiers--tier"}
    DEFAULT_CSS = """
    TiersTree {
        background: $surface;
        & > .tiers--guides { color: $surface-lighten-2; }
        & > .tiers--cursor { background: $block-cursor-blurred-background; text-style: $block-cursor-blurred-text-style; }
        &:focus > .tiers--cursor {
            color: $block-cursor-foreground;
            background: $block-cursor-background;
            text-style: $block-cursor-text-style;
        }
    }
    """

    class Chosen(Message):
        """enter on a skill's row: run it."""

        def __init__(self, tree: TiersTree, data: NodeData) -> None:
            super().__init__()
            self.tree, self.data = tree, data

        @property
        def control(self) -> TiersTree:
            return self.tree

    def __init__(
        self,
        follow: Callable[[NodeData | None], None] | None = None,
        usage: UsageBook | None = None,
        doctor: PluginBoard | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        # What the transcripts say of each skill's use (the "unused" filter); None: no such filter.
        self.usage = usage
        # The plugin doctor's findings per plugin, marked on each plugin's tier line.
        self.doctor = doctor
        # Told, at once, what the cursor is on (None when empty), when it moves or the rows change
        # under it. A call, not a message: a message reached the app only after the screen had
        # drawn the cursor's frame, so each step drew two frames, the second one held back by
        # Textual's frame timer (17-33 ms at 60 frames a second).
        self.follow = follow
        self._tiers: list[TierRows] = []
        # The first line of each tier, for bisection; rebuilt when a tier opens or closes.
        self._starts: list[int] = []
        self._lines = 0
        # Whether each tier was open, kept across snapshots and filters.
        self._open: dict[tuple[str, str], bool] = {}
        self._view: CatalogView | None = None
        self._paths: PathDisplay | None = None
        # (tier index, row index) of each path a filter shows (unfiltered: TierView.rows).
        self._where: dict[Path, tuple[int, int]] = {}
        self._cursor = 0
        self._announced: NodeData | None = None
        self.filter = "all"
        self._shown = "all"  # the filter the rows were made with
        self.border_title = "1 Tiers"

    # The rows ---------------------------------------------------------------------------------
    def show_view(self, view: CatalogView, paths: PathDisplay, keep: Path | None) -> None:
        self._view, self._paths = view, paths
        self._fill(keep)

    def _fill(self, keep: Path | None) -> None:
        view = self._view
        if view is None:
            return
        if self._shown == "all" and self._tiers:
            # Only the whole tree says which tiers the user opened (a filtered one opens them all).
            self._open = {t.key: t.is_open for t in self._tiers}
        wanted = wanted_skills(self.filter, view, self.usage)
        self._shown = self.filter
        tiers: list[TierRows] = []
        for tier in view.tiers:
            if self.filter == "all":
                rows = Rows(tier.skills, tier.deferred, tier.shadowed, tier.own)
            else:
                rows = Rows(
                    [s for s in tier.skills if wanted(s.path)],
                    [s for s in tier.deferred if wanted(s.path)],
                    [e for e in tier.shadowed if wanted(e.skill.path)],
                )
                if not (len(rows) or wanted_tier(self.filter, tier)):
                    continue
            entry = TierRows(tier, rows, True)
            # A filtered tree is short: every tier in it is open.
            entry.is_open = self._open.get(entry.key, True) if self.filter == "all" else True
            tiers.append(entry)
        self._tiers = tiers
        filtered = self.filter != "all"
        self._where = {p: (t, i) for t, e in enumerate(tiers) for i, p in enumerate(e.rows.paths())} if filtered else {}
        self._relayout()
        if keep is None or not self.select_path(keep):
            # The first skill of an open tier, else the first line.
            self._cursor = -1
            first = next((t for t, entry in enumerate(tiers) if entry.is_open and len(entry.rows)), None)
            self.move_to(self._starts[first] + 1 if first is not None else 0)
        self._announce(force=True)

    def _relayout(self) -> None:
        starts, line = [], 0
        for entry in self._tiers:
            starts.append(line)
            line += entry.lines
        self._starts, self._lines = starts, line
        self.forget_lines()
        self.virtual_size = Size(self.scrollable_content_region.width, line)
        self.refresh()

    def row_at(self, line: int) -> tuple[int, int] | None:
        """(tier index, row index) of a line; row -1 is the tier's own line."""
        if not 0 <= line < self._lines:
            return None
        t = bisect_right(self._starts, line) - 1
        return t, line - self._starts[t] - 1

    def _find(self, path: Path) -> tuple[int, int] | None:
        if self._shown != "all":
            return self._where.get(path)
        return next(((t, e.tier.rows[path]) for t, e in enumerate(self._tiers) if path in e.tier.rows), None)

    def line_of(self, path: Path) -> int | None:
        where = self._find(path)
        if where is None or not self._tiers[where[0]].is_open:
            return None
        return self._starts[where[0]] + 1 + where[1]

    def data_at(self, line: int) -> NodeData | None:
        at = self.row_at(line)
        if at is None:
            return None
        entry = self._tiers[at[0]]
        return NodeData(entry.tier.source) if at[1] < 0 else entry.rows.data(entry.tier.source, at[1])[0]

    @property
    def tiers(self) -> list[TierRows]:
        return self._tiers

    @property
    def last_line(self) -> int:
        return self._lines - 1

    @property
    def current(self) -> NodeData | None:
        return self.data_at(self._cursor)

    def shown_skills(self) -> list[Skill]:
        """Every skill with a row (open or closed tier), in order: what the filter left."""
        return [e.skill for t in self._tiers for e in (t.rows.data(t.tier.source, i)[0] for i in range(len(t.rows))) if e.skill]

    # Moving ---------------------------------------------------------------------------------
    def _moved(self, old: int) -> None:
        self._announce()

    def _announce(self, force: bool = False) -> None:
        data = self.current
        if force or data != self._announced:
            self._announced = data
            if self.follow is not None:
                self.follow(data)

    def select_path(self, path: Path) -> bool:
        """Put the cursor on a skill's row, opening its tier; False when no row shows it."""
        where = self._find(path)
        if where is None:
            return False
        if not self._tiers[where[0]].is_open:
            self._tiers[where[0]].is_open = True
            self._relayout()
        line = self.line_of(path)
        assert line is not None
        self.move_to(line)
        return True

    @property
    def line_count(self) -> int:
        return self._lines

    # Opening and closing tiers ----------------------------------------------------------------
    def _set_open(self, t: int, is_open: bool) -> None:
        if self._tiers[t].is_open != is_open:
            self._tiers[t].is_open = is_open
            self._relayout()

    def action_toggle_tier(self) -> None:
        at = self.row_at(self._cursor)
        if at is not None and at[1] < 0:
            self._set_open(at[0], not self._tiers[at[0]].is_open)

    def action_open_tier(self) -> None:
        at = self.row_at(self._cursor)
        if at is not None and at[1] < 0:
            self._set_open(at[0], True)

    def action_close_tier(self) -> None:
        at = self.row_at(self._cursor)
        if at is None:
            return
        self._set_open(at[0], False)
        self.move_to(self._starts[at[0]])

    def action_choose(self) -> None:
        data = self.current
        if data is None:
            return
        if data.skill is None:
            self.action_toggle_tier()
        else:
            self.post_message(self.Chosen(self, data))

    def action_collapse_all(self) -> None:
        """Every tier closed, the cursor on its tier's line."""
        at = self.row_at(self._cursor)
        for entry in self._tiers:
            entry.is_open = False
        self._relayout()
        if at is not None:
            self.move_to(self._starts[at[0]])

    def action_expand_all(self) -> None:
        data = self.current
        for entry in self._tiers:
            entry.is_open = True
        self._relayout()
        if data is not None and data.skill is not None and self.select_path(data.skill.path):
            return
        tier = next((t for t, e in enumerate(self._tiers) if data is not None and e.tier.source == data.source), None)
        self.move_to(self._starts[tier] if tier is not None else 0)

    def on_mount(self) -> None:
        if self.usage is not None:
            self.usage.listeners.append(self._usage_read)
        if self.doctor is not None:
            self.doctor.listeners.append(self._doctor_done)

    def on_unmount(self) -> None:
        if self.usage is not None and self._usage_read in self.usage.listeners:
            self.usage.listeners.remove(self._usage_read)
        if self.doctor is not None and self._doctor_done in self.doctor.listeners:
            self.doctor.listeners.remove(self._doctor_done)

    def _doctor_done(self) -> None:
        if self.is_attached:
            self.forget_lines()
            self.refresh()

    def _usage_read(self) -> None:
        if self.filter == "unused" and self.is_attached:
            current = self.current
            self._fill(current.skill.path if current is not None and current.skill is not None else None)

    def action_cycle_filter(self) -> None:
        names = [name for name in FILTERS if name != "unused" or self.usage is not None]
        self.filter = names[(names.index(self.filter) + 1) % len(names)]
        if self.filter == "unused" and self.usage is not None and not self.usage.ready:
            self.app.notify("The transcripts are still being read: every skill shows until they are in", title="Filter")
        shown = FILTERS[self.filter]
        self.border_title = f"1 Tiers · {shown}" if shown else "1 Tiers"
        current = self.current
        self._fill(current.skill.path if current is not None and current.skill is not None else None)
        if self.filter != "all" and not self._where:
            self.app.notify(f"No {shown}", title="Filter")

    def on_click(self, event: events.Click) -> None:
        # A click on a skill only puts the cursor on it: running one sends a (paid) request, which
        # takes enter. A click on a tier opens or closes it.
        offset = event.get_content_offset(self)
        if offset is None:
            return
        line = offset.y + int(self.scroll_offset.y)
        at = self.row_at(line)
        if at is None:
            return
        self.move_to(line, scroll=False)
        if at[1] < 0:
            self._set_open(at[0], not self._tiers[at[0]].is_open)

    # Drawing ----------------------------------------------------------------------------------
    def row_text(self, line: int) -> Text:
        """A line's text as drawn, before the cursor's style: guides, then the label fitted to the
        width."""
        at = self.row_at(line)
        view, paths = self._view, self._paths
        if at is None or view is None or paths is None:
            return Text()
        t, index = at
        entry = self._tiers[t]
        room = self.scrollable_content_region.width
        if index < 0:
            plugin = entry.tier.source.plugin
            found = self.doctor.counts.get(plugin) if self.doctor is not None and plugin else None
            label = tier_label(entry.tier, paths, found)
            return fit_tier(Text("▼ " if entry.is_open else "▶ ", "bold") + label, tier_path(entry.tier, paths), room)
        data, kind = entry.rows.data(entry.tier.source, index)
        guide = "└ " if index == len(entry.rows) - 1 else "├ "
        guides = self.get_component_rich_style("tiers--guides", partial=True)
        if kind == "own":
            name = entry.rows.own[index - len(entry.rows) + len(entry.rows.own)]
            return Text.assemble((guide, guides), (printable(name), "dim"), ("  counted in the budget", "dim cyan"))
        assert data.skill is not None
        if kind == "skill":
            label = skill_label(data.skill, view)
        elif kind == "deferred":
            label = deferred_label(data.skill)
        else:
            assert data.shadow is not None
            label = shadow_label(data.shadow)
        # The guide as a span: Text(guide, guides) + label made the guides' colour the whole line's
        # base style, and every plain name was drawn in it (dim grey).
        text = Text.assemble((guide, guides), label)
        if room and text.cell_len > room:
            text.truncate(room, overflow="ellipsis")
        return text

    def line_look(self, line: int) -> LineLook:
        if line == self._cursor:
            style: Style | None = self.get_component_rich_style("tiers--cursor", partial=True)
        elif (at := self.row_at(line)) is not None and at[1] < 0:
            style = self.get_component_rich_style("tiers--tier", partial=True)
        else:
            style = None
        # A change of focus redraws the whole tree (its top rule changes): from the kept lines.
        return self.get_component_rich_style("tiers--guides", partial=True), style

    def line_text(self, line: int, look: LineLook) -> Text:
        text = self.row_text(line)
        style = look[1]
        if style is not None:
            text.stylize(style)
        return text

    def on_resize(self, event: events.Resize) -> None:
        self.virtual_size = Size(self.scrollable_content_region.width, self._lines)
