"""Readable terminal output for the CLI (rich tables), never used by `--json`."""

from __future__ import annotations

import difflib
import time
from collections import defaultdict
from pathlib import Path

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from engine import Catalog, CatalogDiff, Decision, Diagnostic, Listing, Prompt, Settings, Severity, Shadowed, Skill

out = Console(highlight=False)
err = Console(stderr=True, highlight=False)

SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "yellow", Severity.INFO: "cyan"}


def _flags(skill: Skill) -> str:
    who = []
    who.append("user" if skill.user_invocable else "—")
    who.append("model" if skill.model_invocable else "—")
    return " ".join(who)


def catalog_table(catalog: Catalog) -> None:
    table = Table(title=f"{len(catalog.skills)} skills", title_justify="left", box=box.SIMPLE_HEAD, expand=True)
    table.add_column("name", style="bold", no_wrap=True)
    table.add_column("source", no_wrap=True)
    table.add_column("invoked by", no_wrap=True)
    table.add_column("context", no_wrap=True)
    table.add_column("description", no_wrap=True, overflow="ellipsis", ratio=1, min_width=10)
    for skill in catalog.skills.values():
        table.add_row(
            escape(skill.name),
            escape(skill.source.label),
            _flags(skill),
            skill.context,
            escape(" ".join(skill.description.split())),
        )
    for entry in catalog.shadowed:
        table.add_row(
            Text(entry.skill.name, style="dim strike"),
            Text(entry.skill.source.label, style="dim"),
            Text("shadowed", style="dim"),
            "",
            Text(f"by {entry.shadowed_by.source.label}: {entry.shadowed_by.path}", style="dim"),
        )
    out.print(table)
    counts = catalog.counts()
    out.print(
        f"[bold red]{counts[Severity.ERROR]} errors[/], [yellow]{counts[Severity.WARNING]} warnings[/], "
        f"[cyan]{counts[Severity.INFO]} notes[/] — run [bold]skilldeck validate[/] for details"
    )


def skill_detail(skill: Skill, catalog: Catalog, shadow: Shadowed | None) -> None:
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    listed = {s.name for s in catalog.model_invocable()}
    rows: list[tuple[str, str | Text]] = [
        ("name", f"/{skill.name}"),
        ("display name", skill.display_name),
        ("description", Text(skill.description).append(f"  ({skill.description_source})", "dim")),
        ("source", Text(skill.source.label).append(f"  {skill.loaded_from.value}", "dim")),
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
    for key, value in rows:
        table.add_row(key, value if isinstance(value, Text) else Text(value))
    out.print(table)
    if shadow:
        winner = shadow.shadowed_by
        out.print(f"[yellow]shadowed by[/] /{escape(winner.name)} from {escape(winner.source.label)} ({winner.path})")
    for entry in catalog.shadowing(skill):
        out.print(f"[dim]shadows[/] the {escape(entry.skill.source.label)} skill at {entry.skill.path}")
    diags = catalog.diagnostics_for(skill.path)
    if diags:
        out.print()
        for d in diags:
            _diagnostic(d)
    out.rule("body")
    out.print(escape(skill.read_body().rstrip()))


def _diagnostic(d: Diagnostic) -> None:
    where = "" if d.line is None else f"line {d.line}" + ("" if d.column is None else f", column {d.column}")
    style = SEVERITY_STYLE[d.severity]
    out.print(f"  [{style}]{d.severity.value:<7}[/] [dim]{d.code:<24}[/] {escape(where)}")
    # Indented as a block so that wrapped lines stay under the diagnostic they belong to.
    out.print(Padding(Text(d.message), (0, 0, 0, 11)))
    if d.hint:
        out.print(Padding(Text(f"→ {d.hint}", style="green"), (0, 0, 0, 11)))


def diagnostics_report(catalog: Catalog, diags: list[Diagnostic], failing: list[Diagnostic], strict: bool, verbose: bool) -> None:
    by_file: dict[Path, list[Diagnostic]] = defaultdict(list)
    for d in diags:
        if verbose or d.severity is not Severity.INFO or d in failing:
            by_file[d.path].append(d)
    for path, items in by_file.items():
        out.print(f"[bold]{escape(str(path))}[/]")
        for d in items:
            _diagnostic(d)
    counts = catalog.counts()
    total = len(catalog.skills) + len(catalog.shadowed)
    verdict = "[bold red]FAIL[/]" if failing else "[bold green]OK[/]"
    mode = " (strict)" if strict else ""
    out.print(
        f"{verdict}{mode}: {total} skills checked, [red]{counts[Severity.ERROR]} errors[/], "
        f"[yellow]{counts[Severity.WARNING]} warnings[/], [cyan]{counts[Severity.INFO]} notes[/]"
        + ("" if verbose or not counts[Severity.INFO] else " [dim](-v shows the notes)[/]")
    )


def listing_summary(listing: Listing) -> None:
    trimmed = listing.trimmed
    err.print(
        f"[dim]{len(listing.entries)} skills listed, {listing.used:,} of {listing.budget:,} characters"
        + (f"; {len(trimmed)} descriptions dropped to fit ({listing.wanted:,} wanted)" if trimmed else "")
        + "[/]"
    )


def not_found(name: str, catalog: Catalog) -> None:
    names = list(catalog.skills) + [s.skill.name for s in catalog.shadowed]
    close = difflib.get_close_matches(name.removeprefix("/"), names, n=3)
    hint = f"; did you mean {', '.join(close)}?" if close else "; run skilldeck list to see them all"
    err.print(f"[red]no skill named {escape(name)}[/]{escape(hint)}")


def watching(catalog: Catalog, polled: int) -> None:
    note = f"; {polled} folders polled (inotify limit)" if polled else ""
    err.print(f"[dim]watching {len(catalog.skills)} skills in {len(catalog.sources)} tiers{note}; ctrl+c stops[/]")


def change_line(change: CatalogDiff) -> None:
    parts = [f"[dim]{time.strftime('%H:%M:%S')}[/]", escape(change.summary())]
    if change.added:
        parts.append(f"[green]+ {escape(', '.join(change.added))}[/]")
    if change.removed:
        parts.append(f"[red]- {escape(', '.join(change.removed))}[/]")
    for name, what in change.changed.items():
        parts.append(f"[yellow]~ {escape(name)}[/] [dim]({escape(', '.join(what))})[/]")
    parts.append(f"[dim]{change.elapsed_ms:.0f} ms[/]")
    out.print("  ".join(parts))


DECISION_STYLE = {"allow": "bold green", "ask": "bold yellow", "deny": "bold red"}


def rules_table(settings: Settings) -> None:
    for f in settings.files:
        state = "" if f.ok else (" [red](invalid, skipped)[/]" if f.exists else " [dim](absent)[/]")
        out.print(f"[bold]{f.scope}[/] {escape(str(f.path))}{state}")
        for rule in [r for r in settings.rules if r.file == f.path]:
            out.print(f"  [{DECISION_STYLE[rule.behavior]}]{rule.behavior:<5}[/] {escape(rule.text)}")
    if settings.allow_managed_permission_rules_only:
        out.print("[yellow]allowManagedPermissionRulesOnly: only managed rules apply[/]")
    for d in settings.diagnostics:
        _diagnostic(d)
    out.print("[dim]Skill rules gate the model's Skill tool only: a user typing /name is not checked against them.[/]")


def decision_line(call: str, decision: Decision) -> None:
    where = f"  [dim]{escape(str(decision.file))}[/]" if decision.file else ""
    out.print(f"[{DECISION_STYLE[decision.decision]}]{decision.decision}[/] {escape(call)}: {escape(decision.reason)}{where}")


def edit_line(text: str, ok: bool) -> None:
    out.print(f"[{'green' if ok else 'yellow'}]{escape(text)}[/]")


def prompt_view(prompt: Prompt) -> None:
    agent = f", agent {prompt.agent}" if prompt.agent else ""
    out.print(f"[bold]/{escape(prompt.skill.name)}[/]  {prompt.context}{agent}  model: {escape(prompt.model or 'inherit')}")
    out.print(f"pre-approved while it runs: {escape(', '.join(prompt.allowed_tools) or 'nothing')}")
    for message in prompt.messages:
        tag = "[dim]meta (sent, not shown)[/]" if message.meta else "[green]visible[/]"
        out.rule(f"{message.role} · {tag}", align="left")
        out.print(escape(message.text), highlight=False, soft_wrap=True)


def run_event(event: object) -> None:
    from engine.runner import Added, Call, Failed, Fork, Result, Text

    if isinstance(event, Added) and event.message.kind == "fork-result":
        out.print(escape(event.message.text), soft_wrap=True)
    elif isinstance(event, Text):
        out.file.write(event.delta)
        out.file.flush()
    elif isinstance(event, Call):
        err.print(f"\n[dim]→ {escape(event.name)} {escape(str(event.input))}: {event.decision}[/]")
    elif isinstance(event, Result):
        err.print(f"[dim]  {'error: ' if event.is_error else ''}{escape(event.text[:200])}[/]")
    elif isinstance(event, Fork):
        step = f": {escape(event.result)}" if event.phase == "step" else f" {event.phase}"
        err.print(f"[magenta]fork /{escape(event.skill)}{step}[/]")
    elif isinstance(event, Failed):
        err.print(f"\n[red]{escape(event.error.message)}[/]")
