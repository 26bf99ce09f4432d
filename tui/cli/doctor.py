"""`skilldeck doctor [--json]`: every way a plugin silently goes missing, stale or dangerous, each
with the command or edit that fixes it. Reads only; exit 1 when any error or warning is found."""

from __future__ import annotations

import argparse
import json
import sys

from rich.text import Text

from engine import Finding, Workspace, diagnose, json_printable, printable

from . import render

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def run(args: argparse.Namespace, workspace: Workspace) -> int:
    catalog = workspace.load()
    listing = workspace.listing(catalog)
    findings = diagnose(workspace.locations, catalog, listing)
    failing = any(f.severity in ("error", "warning") for f in findings)
    if args.json:
        body = {"findings": [f.to_dict() for f in findings]}
        sys.stdout.write(json_printable(json.dumps(body, indent=2, ensure_ascii=False)) + "\n")
        return 1 if failing else 0
    shown = findings if args.verbose else [f for f in findings if f.severity != "info"]
    show(shown, len(findings) - len(shown))
    return 1 if failing else 0


def _group(f: Finding) -> str:
    return f.plugin or (f"marketplace {f.marketplace}" if f.marketplace else "plugins")


def show(findings: list[Finding], hidden: int) -> None:
    groups: dict[str, list[Finding]] = {}
    for f in findings:
        groups.setdefault(_group(f), []).append(f)
    for name, items in groups.items():
        render.out.rule(printable(name), align="left")
        for f in items:
            head = Text.assemble("  ", (f"{f.severity:<7}", _STYLE[f.severity]), " ", (printable(f.code), "dim"))
            render.out.print(head)
            render.out.line(" " * 11 + printable(f.message))
            if f.fix:
                render.out.line(" " * 11 + "→ " + printable(f.fix))
    errors = sum(f.severity == "error" for f in findings)
    warnings = sum(f.severity == "warning" for f in findings)
    more = f"; {render.count(hidden, 'note')} hidden (-v shows them)" if hidden else ""
    render.out.line(f"{render.count(errors, 'error')}, {render.count(warnings, 'warning')}{more}")
