"""`skilldeck usage [--since 30d]`: which skills were used, from Claude Code's and Codex's transcripts.

Only names, counts, dates and Claude Code's own failure reasons are printed: never message text.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from datetime import datetime

from rich.table import Table
from rich.text import Text

from engine import UsageReport, Workspace, collect_usage, json_printable, parse_since, printable, state_dir, transcript_roots

from . import render


def run(args: argparse.Namespace, workspace: Workspace) -> int:
    try:
        since = parse_since(args.since) if args.since else None
    except (ValueError, IndexError):
        render.err.print(f"[red]skilldeck usage: --since {render.markup(args.since)}: write a span such as 30d, 12h or 2w[/]")
        return 2
    catalog = workspace.load()
    roots = transcript_roots(workspace.locations)
    cache = None if args.no_cache else state_dir() / "usage-cache.json"
    report = collect_usage(roots, catalog.skills, since_days=since, now=time.time(), cache_path=cache)
    if args.json:
        body = {"skills": [s.to_dict() for s in report.skills], "files": report.files, "notes": list(report.notes)}
        sys.stdout.write(json_printable(json.dumps(body, indent=2, ensure_ascii=False)) + "\n")
        return 0
    show(report, since)
    return 0


def _date(when: float | None) -> str:
    return datetime.fromtimestamp(when).strftime("%Y-%m-%d %H:%M") if when else "never"


def show(report: UsageReport, since: float | None) -> None:
    span = f" in the last {since:g} days" if since is not None else ""
    if render.out.plain:
        for s in report.skills:
            where = "" if s.in_catalog else "\t(not in the catalog)"
            fields = (printable(s.name), s.typed, s.model, s.failed, _date(s.last), s.sessions, s.projects)
            render.out.line("\t".join(map(str, fields)) + where)
    else:
        table = Table(box=None, pad_edge=False)
        for column in ("name", "typed", "model", "failed", "last used", "sessions", "projects"):
            table.add_column(
                column, justify="right" if column in ("typed", "model", "failed", "sessions", "projects") else "left"
            )
        for s in report.skills:
            name = Text(printable(s.name), style="" if s.in_catalog else "dim")
            if not s.in_catalog:
                name.append(" (not in the catalog)", style="dim italic")
            failed = Text(str(s.failed), style="red" if s.failed else "")
            table.add_row(name, str(s.typed), str(s.model), failed, _date(s.last), str(s.sessions), str(s.projects))
        render.out.print(table)
        for s in report.skills:
            for reason, count in s.reasons:
                render.out.print(Text(f"  {printable(s.name)}: {count} × {printable(reason)}", style="dim"))
    unused = sum(1 for s in report.skills if s.in_catalog and not s.used)
    render.err.print(
        f"[dim]{render.count(report.files, 'transcript')} read; "
        f"{render.count(unused, 'skill')} of the catalog never used{span}[/]"
    )
    for note in report.notes:
        render.err.print(f"[yellow]{render.markup(printable(note))}[/]")
