"""Skill details: what matters about the selected skill, its body, files and diagnostics.

Every string from the skill's files (and folder names) goes through `printable` first: Textual,
like Rich, writes ESC and C1 controls in a widget's text straight to the terminal."""

from __future__ import annotations

from functools import partial
from pathlib import Path

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.timer import Timer
from textual.widgets import Static

from engine import Diagnostic, Severity, Shadowed, Skill, printable, skill_files

from ..deck import Deck
from ..lens import AgentBook
from ..messages import BodyLoaded
from ..usage import UsageBook
from ..view import SEVERITY_WORD, CatalogView, PathDisplay, TierView
from .markdown_body import MarkdownBody, render_markdown
from .pane_keys import PaneKeys, focus_keys_on_click

BODY_DEBOUNCE_S = 0.12

TIER_NOTES = {
    "managed": "highest: a managed skill wins every name clash",
    "user": "beats project, add-dir, commands and bundled skills of the same name",
    "project": "the nearest folder first, up to the git root; beats add-dir, commands, bundled",
    "add-dir": "beats commands and bundled skills of the same name",
    "plugin": "names are plugin:skill, so plugin skills never clash",
    "commands": "legacy .claude/commands: a skill of the same name wins",
    "bundled": "skilldeck's own, not Claude Code's: never in the listing it sends; a local skill of the same name wins",
    "path": "named on the command line",
}

SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _t(value: object, style: str = "") -> Text:
    return Text(printable(str(value)), style)


def yes_no(value: bool, why_not: str = "") -> Text:
    if value:
        return Text("yes", "green")
    return Text.assemble(("no", "red"), (f"  {why_not}" if why_not else "", "dim"))


def arguments_text(skill: Skill) -> Text:
    """Named `arguments:`: each is `$name` in the body, filled by the typed word in its place."""
    text = Text()
    for i, name in enumerate(skill.arguments):
        text.append(("  " if i else "") + "$" + printable(name), "bold")
        text.append(f" = word {i + 1}", "dim")
    return text


def listed_text(skill: Skill, shadow: Shadowed | None, view: CatalogView) -> Text:
    """Whether this skill is in the listing the model receives. The listing is by name: for a
    shadowed skill the entry of that name is the winner's, never this one's."""
    if view.catalog.reading is not None:
        # The listing's budget is shared by every skill: until all are read, what it keeps of
        # this one is not known (a partial catalog said "yes" for skills the whole one trims).
        done, total = view.catalog.reading
        return Text(f"not known yet: the skills are still being read ({done:,} of {total:,} files)", "dim")
    entry = view.listing.entry(skill.name)
    why_not = (view.listing.left_out or {}).get(skill.name)
    if shadow is not None:
        winner = printable(shadow.shadowed_by.source.label)
        if entry is None:
            return Text(f"no: shadowed, and the {winner} skill of this name is not listed either", "dim")
        return Text(f"no: shadowed; the {winner} skill of this name is listed instead", "yellow")
    if entry is None:
        return Text.assemble(("no", "dim" if why_not else "red"), (f"  {why_not}" if why_not else "", "dim"))
    if entry.override == "name-only":
        return Text("name only: skillOverrides says name-only", "yellow")
    if entry.trimmed:
        return Text("name only: description dropped to fit the budget", "yellow")
    return Text("yes", "green")


class Facts:
    """Keys in a bold column, each value wrapped beside its key (a long word folded), as a
    `Table.grid(padding=(0, 2))` drew them, at a tenth of the cost: a table measures every cell
    before it draws, and the details draw their facts twice on every cursor step (for the height,
    then for the screen)."""

    def __init__(self, rows: list[tuple[str, Text]]) -> None:
        self.rows = rows
        self.key_width = max((cell_len(key) for key, _ in rows), default=0)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        room = max(1, options.max_width - self.key_width - 2)
        bold = Style(bold=True)
        for key, value in self.rows:
            for index, line in enumerate(value.wrap(console, room, overflow="fold", no_wrap=False)):
                yield Segment((key if index == 0 else "").ljust(self.key_width + 2), bold)
                line.rstrip()
                # Text.render leaves a Text's own style to its caller: made a span under the others.
                line.stylize_before(line.style)
                yield from line.render(console)
                yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max((value.cell_len for _, value in self.rows), default=0)
        return Measurement(self.key_width + 3, self.key_width + 2 + widest).clamp(max_width=options.max_width)


def facts_table(
    skill: Skill,
    view: CatalogView,
    paths: PathDisplay,
    usage: UsageBook,
    shadow: Shadowed | None = None,
    agents: AgentBook | None = None,
) -> Facts:
    rows: list[tuple[str, Text | str]] = [
        ("display name", skill.display_name),
        ("source", Text.assemble(printable(skill.source.label), (f"  {skill.loaded_from.value}", "dim"))),
        ("path", paths(skill.path)),
        ("user can invoke", yes_no(skill.user_invocable, "user-invocable: false")),
        ("model can invoke", yes_no(skill.model_invocable, "disable-model-invocation: true")),
        ("in model listing", listed_text(skill, shadow, view)),
        ("used", usage.line(skill.name)),
        # What each agent that reads skill folders does with this file (tui/lens.py).
        *([("agents", agents.line(skill.path))] if agents is not None else []),
        ("context", Text("fork", "magenta") if skill.context == "fork" else Text("inline")),
        ("agent", skill.agent or ("general-purpose" if skill.context == "fork" else "—")),
        ("model", skill.model or "inherit"),
        ("allowed-tools", ", ".join(skill.allowed_tools) or "—"),
        ("argument hint", skill.argument_hint or "—"),
        # Shown only when set: most skills have none, and a row of dashes says nothing.
        *([("arguments", arguments_text(skill))] if skill.arguments else []),
        ("when_to_use", skill.when_to_use or "—"),
        ("description", Text.assemble(printable(skill.description), (f"  ({skill.description_source})", "dim"))),
    ]
    return Facts([(key, _t(value) if isinstance(value, str) else value) for key, value in rows])


def diagnostics_block(diags: tuple[Diagnostic, ...], paths: PathDisplay) -> Group:
    parts = []
    for d in diags:
        where = f"line {d.line}" if d.line else ""
        parts.append(
            Text.assemble((f"{SEVERITY_WORD[d.severity]:<8}", SEVERITY_STYLE[d.severity]), (f"{d.code}  ", "dim"), where)
        )
        parts.append(_t(f"  {paths.in_text(d.message)}"))
        if d.hint:
            parts.append(_t(f"  → {paths.in_text(d.hint)}", "green"))
    return Group(*parts)


class DetailsKeys(PaneKeys):
    """What `2` focuses: the details pane's keys (tui/widgets/pane_keys.py)."""


class SkillDetails(VerticalScroll, can_focus=False):
    """The right-hand pane for the skill under the cursor. The body is rendered later, once the
    cursor has rested (BODY_DEBOUNCE_S), read in this pane's own thread worker."""

    # As in the trees: j and k scroll here too (the arrows and pages are VerticalScroll's own).
    BINDINGS = [
        Binding("j", "scroll_down", "Scroll down", show=False, id="details.down"),
        Binding("k", "scroll_up", "Scroll up", show=False, id="details.up"),
    ]

    def __init__(self, deck: Deck, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.deck = deck
        self._skill: Skill | None = None
        self._facts: tuple[CatalogView, Skill, Shadowed | None] | None = None
        self._body_timer: Timer | None = None
        # The skill whose body is shown, for tests and screenshots to wait on.
        self.body_shown_for: Path | None = None

    def compose(self) -> ComposeResult:
        yield DetailsKeys(id="details-keys")
        yield Static("Loading skills…", id="details-title")
        yield Static(id="details-facts")
        yield Static(id="details-relations")
        yield Static(id="details-diagnostics")
        yield Static("body", id="details-body-title", classes="section")
        # Shown while the body is read and rendered (in a thread: tui/widgets/markdown_body.py).
        wait = Static(Text("…", "italic"), id="details-body-wait")
        wait.display = False
        yield wait
        yield MarkdownBody(id="details-body")
        yield Static(id="details-files")

    def on_click(self, event: events.Click) -> None:
        focus_keys_on_click(self, event)

    def on_mount(self) -> None:
        # The transcripts are read once the first screen is up, in a thread; the row fills in then.
        self.deck.usage.listeners.append(self._usage_read)
        self.deck.agents.listeners.append(self._usage_read)
        self.deck.usage.start(self, self.deck.workspace, self.deck.start)

    def on_unmount(self) -> None:
        for book in (self.deck.usage, self.deck.agents):
            if self._usage_read in book.listeners:
                book.listeners.remove(self._usage_read)

    def _usage_read(self) -> None:
        if self._facts is not None and self.is_attached:
            view, skill, shadow = self._facts
            self.query_one("#details-facts", Static).update(
                facts_table(skill, view, self.deck.paths, self.deck.usage, shadow, self.deck.agents)
            )

    def show(self, view: CatalogView, skill: Skill | None, shadow: Shadowed | None) -> None:
        paths = self.deck.paths
        self._skill = skill
        if self._body_timer is not None:
            self._body_timer.stop()
        if skill is not None:
            self._body_timer = self.set_timer(BODY_DEBOUNCE_S, partial(self._read_body_later, skill))
        title = self.query_one("#details-title", Static)
        facts = self.query_one("#details-facts", Static)
        relations = self.query_one("#details-relations", Static)
        diags = self.query_one("#details-diagnostics", Static)
        if skill is None:
            title.update(Text("Select a skill", "dim"))
            for widget in (facts, relations, diags):
                widget.update("")
            self.show_body(None)
            return
        title.update(
            Text.assemble(
                ("/" + printable(skill.name), "bold"),
                ("  shadowed" if shadow else "", "bold yellow"),
                ("  preview: not installed" if skill.source.preview else "", "bold yellow"),
            )
        )
        self._facts = (view, skill, shadow)
        facts.update(facts_table(skill, view, paths, self.deck.usage, shadow, self.deck.agents))
        lines = []
        if shadow is not None:
            winner = shadow.shadowed_by
            lines.append(
                _t(
                    f"Shadowed by the {winner.source.label} skill at {paths(winner.path)}: /{winner.name} and the "
                    f"model's Skill tool run that one; this one never runs.",
                    "yellow",
                )
            )
        for entry in view.catalog.shadowing(skill):
            lines.append(_t(f"Shadows the {entry.skill.source.label} skill at {paths(entry.skill.path)}.", "dim"))
        relations.update(Group(*lines))
        found = view.diagnostics_for(skill.path)
        diags.update(diagnostics_block(found, paths) if found else "")
        diags.set_class(bool(found), "has-diagnostics")
        self._hide_body(waiting=True)
        self.query_one("#details-files", Static).update("")

    def show_tier(self, tier: TierView) -> None:
        """A tier under the cursor: where it is, what it holds, where it stands in precedence."""
        paths = self.deck.paths
        self._skill = None
        if self._body_timer is not None:
            self._body_timer.stop()
        self.query_one("#details-title", Static).update(_t(tier.source.label, "bold"))
        table = Facts(
            [
                ("folder", _t(paths(tier.source.root))),
                ("kind", Text(tier.source.kind.value)),
                ("skills", Text(str(len(tier.skills) + len(tier.own)))),
                ("shadowed here", Text(str(len(tier.shadowed)))),
                ("errors", Text(str(tier.errors), "red" if tier.errors else "")),
                ("warnings", Text(str(tier.warnings), "yellow" if tier.warnings else "")),
                ("precedence", Text(TIER_NOTES.get(tier.source.kind.value, ""))),
            ]
        )
        self.query_one("#details-facts", Static).update(table)
        for name in ("#details-relations", "#details-diagnostics"):
            self.query_one(name, Static).update("")
        self.query_one("#details-diagnostics", Static).set_class(False, "has-diagnostics")
        self._hide_body(waiting=False)
        self.query_one("#details-files", Static).update("")

    def _read_body_later(self, skill: Skill) -> None:
        read = partial(self._read_body, skill, self._body_width())
        self.deck.start(self, read, f"Reading {skill.name}", thread=True, exclusive=True, group="body", name="body")

    def _body_width(self) -> int:
        """The cells a body row has: the body's own width once laid out, else the pane's room."""
        width = self.query_one("#details-body", MarkdownBody).size.width
        return width or max(1, self.scrollable_content_region.width)

    @property
    def body_fits(self) -> bool:
        """The body shown is rendered at the width it has (a resize renders it again); one never laid
        out (its tab not shown yet) has no width to fit. And the usage row is filled in: the pane
        is drawn whole (what tests and screenshots wait for)."""
        body = self.query_one("#details-body", MarkdownBody)
        fits = not (body.display and body.source and body.size.width) or body.rendered_width == body.size.width
        return fits and self.deck.usage.ready and self.deck.agents.ready

    def _read_body(self, skill: Skill, width: int) -> None:
        """Thread worker: the body read, made printable (a control in it is shown as ^[, not sent
        to the terminal) and rendered at `width`; the folder's other files."""
        files: list[str] = []
        try:
            body = skill.read_body()
        except OSError as exc:
            source = f"**Cannot read the body:** {printable(f'{exc.strerror}: {skill.path}')}"
        else:
            source = printable(body) if body.strip() else "*(empty body)*"
            if skill.path.name == "SKILL.md":
                files, cut = skill_files(skill.base_dir, limit=50)
                if cut:
                    files.append("…")
        self.post_message(BodyLoaded(skill.path, source, render_markdown(source, width), width, files))

    def on_body_loaded(self, message: BodyLoaded) -> None:
        skill = self._skill
        if skill is not None and message.path == skill.path:
            self.show_body(message)
            self.body_shown_for = skill.path

    def on_markdown_body_stale(self, message: MarkdownBody.Stale) -> None:
        # Resized: the body again, at its new width.
        if self._skill is not None and self.body_shown_for == self._skill.path:
            self._read_body_later(self._skill)

    def _hide_body(self, waiting: bool) -> None:
        self.query_one("#details-body", MarkdownBody).display = False
        self.query_one("#details-body-wait", Static).display = waiting

    def show_body(self, loaded: BodyLoaded | None) -> None:
        body = self.query_one("#details-body", MarkdownBody)
        listing = self.query_one("#details-files", Static)
        if loaded is None:
            body.show("", (), 0)
            listing.update("")
        else:
            body.show(loaded.source, loaded.rows, loaded.width)
            if loaded.files:
                listing.update(Text.assemble(("other files  ", "bold"), (printable("  ".join(loaded.files)), "")))
            else:
                listing.update(Text("no other files in the folder", "dim"))
        body.display = True
        self.query_one("#details-body-wait", Static).display = False
