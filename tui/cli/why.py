"""`skilldeck why PATH|NAME`: every gate one skill file or name meets, and what the model gets."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from rich.table import Table
from rich.text import Text

from engine import Why, Workspace, json_printable, printable, trace_why

from . import render

# How each status reads in a terminal: a mark that survives without colour, and a colour.
MARKS = {"passed": ("✓", "green"), "failed": ("✗", "bold red"), "n/a": ("–", "dim")}


def run(args: argparse.Namespace, workspace: Workspace) -> int:
    catalog = workspace.load()
    listing = workspace.listing(catalog, args.budget, model=args.model)
    result = trace_why(workspace, catalog, args.query, listing=listing, cwd=Path.cwd(), kind=args.kind or "auto")
    if args.json:
        # json.dumps escapes C0 controls; json_printable escapes the DEL and C1 it leaves raw.
        sys.stdout.write(json_printable(json.dumps(result.to_dict(), indent=2, ensure_ascii=False)) + "\n")
    elif render.out.plain:
        # Piped: each row whole on its own lines, the notes indented under their gate.
        for mark, label, body in trace_rows(result):
            first, *rest = body.plain.split("\n")
            gate = f"{mark.plain} {label.plain}: " if label.plain else ""
            render.out.line(gate + first)
            for line in rest:
                render.out.line("    " + line)
    else:
        render.out.print(trace_table(result))
    return 0 if result.loads else 1


def trace_table(result: Why) -> Table:
    """The trace as a Rich table: a mark, the gate, its sentence and notes; the verdict last."""
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True, style="bold")
    table.add_column(overflow="fold")
    for row in trace_rows(result):
        table.add_row(*row)
    return table


def trace_rows(result: Why) -> list[tuple[Text, Text, Text]]:
    """The trace's rows: a mark, the gate, its sentence and notes; the verdict last. Gates a failure
    kept Claude Code from reaching share one row. Every text from a file goes in as Text (never
    markup) with its controls made visible."""
    query = Text.assemble(("why ", "bold"), (printable(result.query), "bold cyan"), (f"  ({result.kind})", "dim"))
    rows = [(Text(""), Text(""), query)]
    gates = list(result.gates)
    while gates:
        gate = gates.pop(0)
        names = [gate.name]
        while gate.status.value == "n/a" and gates and gates[0].status == gate.status and gates[0].sentence == gate.sentence:
            names.append(gates.pop(0).name)
        mark, style = MARKS.get(gate.status.value, ("?", ""))
        body = Text(printable(gate.sentence), style="dim" if gate.status.value == "n/a" else "")
        for note in gate.notes:
            body.append("\n· " + printable(note), style="dim")
        label = names[0] if len(names) == 1 else f"{names[0]} … {names[-1]}"
        rows.append((Text(mark, style=style), Text(label, style=style), body))
    verdict = "bold green" if result.loads else "bold red"
    rows.append((Text("→", style=verdict), Text("verdict", style=verdict), Text(printable(result.verdict), style="bold")))
    return rows
