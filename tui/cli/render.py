"""Readable terminal output for the CLI (rich tables), never used by `--json`.

Every string that comes from a file, a folder name, a settings file or a model goes through
`printable` (or `_m` for Rich markup) before it is printed: Rich passes ESC and C1 controls
through, and a skill could otherwise write to the clipboard or retitle or clear the terminal.

On a terminal the output is laid out to its width, in colour. Piped or redirected, Rich would draw
at 80 columns (descriptions cut to `Co...`, paths split mid-name, lines padded with spaces): there
every line is printed whole, with no padding and no colour, tables as tab-separated rows."""

from __future__ import annotations

import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, TextIO

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from engine import (
    OWN_SKILLS_NOTE,
    Added,
    Call,
    Catalog,
    CatalogDiff,
    Decision,
    Diagnostic,
    Failed,
    Fork,
    Listing,
    Prompt,
    Result,
    RunEvent,
    Settings,
    Severity,
    Shadowed,
    Skill,
    Streamed,
    close_names,
    printable,
)


class Stream:
    """stdout or stderr as the CLI prints to it, decided at each print: the stream may be replaced
    (pytest's capture) and is a terminal or not. `plain` is true when it is not a terminal."""

    def __init__(self, stderr: bool) -> None:
        self.stderr = stderr
        self._console: Console | None = None
        self._for: tuple[TextIO, bool] | None = None

    @property
    def file(self) -> TextIO:
        return sys.stderr if self.stderr else sys.stdout

    @property
    def plain(self) -> bool:
        try:
            return not self.file.isatty()
        except (AttributeError, ValueError):  # a closed stream, or a stand-in without isatty
            return True

    @property
    def console(self) -> Console:
        key = (self.file, self.plain)
        if self._console is None or self._for != key:
            # emoji=False: a description's `:rocket:` is text, not a picture. Plain: no colour
            # (even under FORCE_COLOR), and soft wrap so that no line is cut or padded to a width.
            options: dict[str, Any] = {"color_system": None, "soft_wrap": True} if key[1] else {}
            self._console = _Console(file=key[0], highlight=False, emoji=False, **options)
            self._for = key
        return self._console

    def print(self, *objects: Any, **options: Any) -> None:
        self.console.print(*objects, **options)

    def line(self, text: str) -> None:
        """One line exactly as given (already printable): no markup, no wrapping, no padding."""
        self.file.write(text + "\n")

    def rule(self, title: str = "", align: str = "center") -> None:
        """A titled rule across a terminal; a plain `── title` line elsewhere."""
        if self.plain:
            self.console.print(f"── {title}")
        else:
            self.console.rule(title, align=align)  # type: ignore[arg-type]


class _Console(Console):
    def on_broken_pipe(self) -> None:
        """The reader left (`skilldeck rules | head -1`): rich's own answer is exit 1, which a
        script reads as a finding; the command's (tui/cli/main.py main) is exit 0, as for plain lines."""
        self.quiet = True
        raise BrokenPipeError


out = Stream(stderr=False)
err = Stream(stderr=True)

# Under every view of a --marketplace preview (tui/view.py says it in the app).
PREVIEW_NOTE = (
    "Preview (--marketplace): what installing these plugins would give. Claude Code loads none of it until "
    "each is installed (claude plugin marketplace add DIR, then claude plugin install NAME@MARKETPLACE)."
)

SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def markup(value: object) -> str:
    """Untrusted text for a Rich markup string: controls made visible, markup escaped."""
    return escape(printable(str(value)))


_m = markup


def count(n: int, word: str) -> str:
    """`1 error`, `2 errors`: a number and its noun, in the right number."""
    return f"{n:,} {word if n == 1 else word + 's'}"


def _tally(catalog: Catalog, diags: list[Diagnostic] | None = None) -> str:
    counts = catalog.counts()
    if diags is not None:  # validate's own list: the catalog's and the other agents' findings
        counts = {severity: sum(d.severity is severity for d in diags) for severity in Severity}
    return (
        f"[bold red]{count(counts[Severity.ERROR], 'error')}[/], [yellow]{count(counts[Severity.WARNING], 'warning')}[/], "
        f"[cyan]{count(counts[Severity.INFO], 'note')}[/]"
    )


def _t(value: object, style: str = "") -> Text:
    """Untrusted text as a Rich Text (no markup), controls made visible."""
    return Text(printable(str(value)), style)


def _flags(skill: Skill) -> str:
    who = []
    who.append("user" if skill.user_invocable else "—")
    who.append("model" if skill.model_invocable else "—")
    return " ".join(who)


def catalog_table(catalog: Catalog) -> None:
    rows: list[tuple[Text, ...]] = []
    for skill in catalog.skills.values():
        rows.append(
            (
                _t(skill.name, "bold"),
                _t(skill.source.label),
                Text(_flags(skill)),
                _t(skill.context),
                _t(" ".join(skill.description.split())),
            )
        )
    for skill in catalog.deferred:
        rows.append(
            (
                _t(skill.name, "dim italic"),
                _t(skill.source.label, "dim"),
                Text(f"held back ({skill.activation})", style="dim"),
                _t(skill.context),
                _t(" ".join(skill.description.split()), "dim"),
            )
        )
    for entry in catalog.shadowed:
        rows.append(
            (
                _t(entry.skill.name, "dim strike"),
                _t(entry.skill.source.label, "dim"),
                Text("shadowed", style="dim"),
                Text(""),
                _t(f"by {entry.shadowed_by.source.label}: {entry.shadowed_by.path}", "dim"),
            )
        )
    if out.plain:
        # One skill a line, its fields apart by tabs (`cut -f1` gives the names), nothing cut.
        for row in rows:
            out.line("\t".join(cell.plain for cell in row))
    else:
        table = Table(title=count(len(catalog.skills), "skill"), title_justify="left", box=box.SIMPLE_HEAD, expand=True)
        table.add_column("name", no_wrap=True)
        table.add_column("source", no_wrap=True)
        table.add_column("invoked by", no_wrap=True)
        table.add_column("context", no_wrap=True)
        table.add_column("description", no_wrap=True, overflow="ellipsis", ratio=1, min_width=10)
        for row in rows:
            table.add_row(*row)
        out.print(table)
    # Piped, stdout holds only the rows (`skilldeck list | wc -l` counts skills): the summary is for the person.
    summary = err if out.plain else out
    summary.print(f"{count(len(catalog.skills), 'skill')}: {_tally(catalog)} — run [bold]skilldeck validate[/] for details")


def skill_detail(skill: Skill, catalog: Catalog, shadow: Shadowed | None) -> None:
    listed = {s.name for s in catalog.model_invocable()}
    rows: list[tuple[str, str | Text]] = [
        ("name", f"/{skill.name}"),
        ("display name", skill.display_name),
        ("description", _t(skill.description).append(f"  ({skill.description_source})", "dim")),
        ("source", _t(skill.source.label).append(f"  {skill.loaded_from.value}", "dim")),
        ("path", str(skill.path)),
        ("user can invoke", "yes" if skill.user_invocable else "no (user-invocable: false)"),
        ("model can invoke", "yes" if skill.model_invocable else "no (disable-model-invocation: true)"),
        ("in model listing", "yes" if skill.name in listed else "no"),
        ("context", skill.context + (f", agent {skill.agent}" if skill.agent else "")),
        ("model", skill.model or "inherit"),
        ("allowed-tools", ", ".join(skill.allowed_tools) or "—"),
        ("argument hint", skill.argument_hint or "—"),
        ("when_to_use", skill.when_to_use or "—"),
    ]
    cells = [(key, value if isinstance(value, Text) else _t(value)) for key, value in rows]
    if out.plain:
        for key, value in cells:
            out.line(f"{key}: {value.plain}")
    else:
        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column(style="bold", no_wrap=True)
        table.add_column()
        for key, value in cells:
            table.add_row(key, value)
        out.print(table)
    if shadow:
        winner = shadow.shadowed_by
        out.print(f"[yellow]shadowed by[/] /{_m(winner.name)} from {_m(winner.source.label)} ({_m(winner.path)})")
    for entry in catalog.shadowing(skill):
        out.print(f"[dim]shadows[/] the {_m(entry.skill.source.label)} skill at {_m(entry.skill.path)}")
    diags = catalog.diagnostics_for(skill.path)
    if diags:
        out.print()
        for d in diags:
            _diagnostic(d)
    out.rule("body")
    try:
        out.print(_m(skill.read_body().rstrip()))
    except OSError as exc:  # changed since the load (now a FIFO, too large, gone)
        out.print(f"[red]cannot read the body:[/] {_m(exc.strerror or str(exc))}: {_m(skill.path)}")


def _diagnostic(d: Diagnostic, stream: Stream | None = None) -> None:
    stream = stream or out
    where = "" if d.line is None else f"line {d.line}" + ("" if d.column is None else f", column {d.column}")
    # `note`, as the summaries and the app call an info diagnostic.
    word = "note" if d.severity is Severity.INFO else d.severity.value
    head = Text.assemble("  ", (f"{word:<7}", SEVERITY_STYLE[d.severity]), " ", (f"{printable(d.code):<24}", "dim"))
    head.append(f" {where}")
    head.rstrip()
    stream.print(head)
    blocks = [_t(d.message)] + ([_t(f"→ {d.hint}", "green")] if d.hint else [])
    for block in blocks:
        if stream.plain:
            # Indented line by line, never wrapped: a long path stays whole.
            for line in block.plain.splitlines() or [""]:
                stream.line(" " * 11 + line)
        else:
            # Indented as a block so that wrapped lines stay under the diagnostic they belong to.
            stream.print(Padding(block, (0, 0, 0, 11)))


def diagnostics_report(catalog: Catalog, diags: list[Diagnostic], failing: list[Diagnostic], strict: bool, verbose: bool) -> None:
    by_file: dict[Path, list[Diagnostic]] = defaultdict(list)
    for d in diags:
        if verbose or d.severity is not Severity.INFO or d in failing:
            by_file[d.path].append(d)
    for path, items in by_file.items():
        out.print(f"[bold]{_m(path)}[/]")
        for d in items:
            _diagnostic(d)
    notes = sum(d.severity is Severity.INFO for d in diags)
    total = len(catalog.skills) + len(catalog.shadowed)
    verdict = "[bold red]FAIL[/]" if failing else "[bold green]OK[/]"
    mode = " (strict)" if strict else ""
    out.print(
        f"{verdict}{mode}: {count(total, 'skill')} checked, {_tally(catalog, diags)}"
        + ("" if verbose or not notes else " [dim](-v shows the notes)[/]")
    )


def listing_summary(listing: Listing) -> None:
    trimmed = listing.trimmed
    err.print(
        f"[dim]{count(len(listing.entries), 'skill')} listed, {listing.used:,} of {listing.budget:,g} characters"
        + (f" ({_m(listing.budget_source)})" if listing.budget_source else "")
        + (f"; {count(len(trimmed), 'description')} dropped to fit ({listing.wanted:,} wanted)" if trimmed else "")
        + (f"; {len(listing.left_out or {})} not listed" if listing.left_out else "")
        + "[/]"
    )
    if not listing.own_counted:
        err.print(f"[yellow]{_m(listing.own_stale)}[/]" if listing.own_stale else f"[dim]{_m(OWN_SKILLS_NOTE)}[/]")
    elif listing.own_from:
        err.print(f"[dim]Claude Code's own skills counted as {_m(listing.own_from)} listed them (skilldeck compare)[/]")


def not_found(name: str, catalog: Catalog, lead: str = "no skill named") -> str:
    """Say on stderr that no skill has this name, with the nearest names; returns the sentence."""
    # Once each: a shadowed skill has its winner's name (`did you mean x, x?`).
    names = list(dict.fromkeys([*catalog.skills, *(s.skill.name for s in catalog.shadowed)]))
    # Bounded: difflib over 15,000 long, similar names took about a minute.
    close = close_names(name.removeprefix("/"), names)
    hint = f"; did you mean {', '.join(close)}?" if close else "; run skilldeck list to see them all"
    err.print(f"[red]{lead} {_m(name)}[/]{_m(hint)}")
    return f"{lead} {name}{hint}"


def unknown_typed(name: str, catalog: Catalog) -> str | None:
    """For `prompt` and `run`: when no skill answers a typed /name (its own name or its `name:`
    label, case and all, as Claude Code finds it), say so with the nearest names and return the
    sentence; None when one does."""
    wanted = name.strip().removeprefix("/")
    if catalog.skills.get(wanted) is not None or catalog.labelled(wanted) is not None:
        return None
    return not_found(wanted, catalog, lead="Unknown skill:")


def watching(catalog: Catalog, polled: int) -> None:
    note = f"; {count(polled, 'folder')} polled (inotify limit)" if polled else ""
    what = f"{count(len(catalog.skills), 'skill')} in {count(len(catalog.sources), 'tier')}"
    err.print(f"[dim]watching {what}{note}; ctrl+c stops[/]")


def change_line(change: CatalogDiff) -> None:
    parts = [f"[dim]{time.strftime('%H:%M:%S')}[/]", _m(change.summary())]
    if change.added:
        parts.append(f"[green]+ {_m(', '.join(change.added))}[/]")
    if change.removed:
        parts.append(f"[red]- {_m(', '.join(change.removed))}[/]")
    for name, what in change.changed.items():
        parts.append(f"[yellow]~ {_m(name)}[/] [dim]({_m(', '.join(what))})[/]")
    parts.append(f"[dim]{change.elapsed_ms:.0f} ms[/]")
    out.print("  ".join(parts))


DECISION_STYLE = {"allow": "bold green", "ask": "bold yellow", "deny": "bold red"}


def rules_table(settings: Settings) -> None:
    for f in settings.files:
        state = "" if f.ok else (" [red](invalid, skipped)[/]" if f.exists else " [dim](absent)[/]")
        out.print(f"[bold]{f.scope}[/] {_m(f.path)}{state}")
        for rule in [r for r in settings.rules if r.file == f.path]:
            ignored = settings.ignored(rule)
            note = f"  [yellow](ignored: {_m(ignored)})[/]" if ignored else ""
            out.print(f"  [{DECISION_STYLE[rule.behavior]}]{rule.behavior:<5}[/] {_m(rule.text)}{note}")
    if not settings.trust.trusted:
        out.print("[yellow]This project is not trusted: its own allow rules count for nothing (skilldeck trust --yes)[/]")
    if settings.allow_managed_permission_rules_only:
        out.print("[yellow]allowManagedPermissionRulesOnly: only managed rules apply[/]")
    for d in settings.diagnostics:
        _diagnostic(d)
    out.print("[dim]Skill rules gate the model's Skill tool only: a user typing /name is not checked against them.[/]")


def decision_line(call: str, decision: Decision) -> None:
    where = f"  [dim]{_m(decision.file)}[/]" if decision.file else ""
    out.print(f"[{DECISION_STYLE[decision.decision]}]{decision.decision}[/] {_m(call)}: {_m(decision.reason)}{where}")


def edit_line(text: str, ok: bool) -> None:
    out.print(f"[{'green' if ok else 'yellow'}]{_m(text)}[/]")


def prompt_view(prompt: Prompt) -> None:
    agent = f", agent {_m(prompt.agent)}" if prompt.agent else ""
    out.print(f"[bold]/{_m(prompt.skill.name)}[/]  {prompt.context}{agent}  model: {_m(prompt.model or 'inherit')}")
    out.print(f"pre-approved while it runs: {_m(', '.join(prompt.allowed_tools) or 'nothing')}")
    for message in prompt.messages:
        tag = "[dim]meta (sent, not shown)[/]" if message.meta else "[green]visible[/]"
        out.rule(f"{message.role} · {tag}", align="left")
        out.print(_m(message.text), highlight=False, soft_wrap=True)
    previewed = [r for r in prompt.shell if not r.ran and r.decision]
    if previewed:
        out.rule("! commands", align="left")
        for run in previewed:
            style = DECISION_STYLE.get(run.decision, "")
            out.print(f"  [{style}]{run.decision:<5}[/] {_m(run.command)}  [dim]{_m(run.reason)}[/]", soft_wrap=True)
        err.print(
            f"[yellow]{count(len(previewed), '! command')} not run: a preview never runs them.[/] "
            "--run-shell runs the allowed ones, as a real run would."
        )


def run_event(event: RunEvent) -> None:
    # Everything here comes from a model or a skill: a model can print escapes as well as a file.
    if isinstance(event, Added) and event.message.kind == "fork-result":
        out.print(_m(event.message.text), soft_wrap=True)
    elif isinstance(event, Streamed):
        # Each character is made safe on its own, so an escape split across deltas is still caught.
        out.file.write(printable(event.delta))
        out.file.flush()
    elif isinstance(event, Call):
        err.print(f"\n[dim]→ {_m(event.name)} {_m(event.input)}: {event.decision}[/]")
    elif isinstance(event, Result):
        err.print(f"[dim]  {'error: ' if event.is_error else ''}{_m(event.text[:200])}[/]")
    elif isinstance(event, Fork):
        step = f": {_m(event.result)}" if event.phase == "step" else f" {event.phase}"
        err.print(f"[magenta]fork /{_m(event.skill)}{step}[/]")
    elif isinstance(event, Failed):
        err.print(f"\n[red]{_m(event.error.message)}[/]")
