"""`--agent NAME` on list, listing, why, validate and show, and `skilldeck agents`: what Codex CLI,
Gemini CLI, OpenCode and Copilot CLI make of the same folders (engine/hosts), each as its pinned
binary does, and the portability matrix of every skill across them and Claude Code."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from engine import HOST_KEYS, HostStatus, HostVerdict, HostView, Place, host_view, printable

from .jsonout import dump, dump_rows

if TYPE_CHECKING:
    from engine import Catalog, Locations

# rich (render) and Claude Code's loader are imported when a command needs them: `list --json
# --agent codex` on 15,000 skills runs at the floor's pace only without them.


def _out(text: str) -> None:
    from . import render

    render.out.line(text)


def _err(text: str) -> None:
    from . import render

    render.err.line(text)


def _plain() -> bool:
    from . import render

    return render.out.plain


MARKS = {
    "listed": "✓", "cut": "✂", "names-only": "…", "hidden": "–", "shadowed": "↷", "off": "○", "refused": "✗",
    "not-read": "·",
}  # fmt: skip
HELP = "listed ✓ · cut by its budget ✂ · name only … · hidden – · shadowed ↷ · switched off ○ · refused ✗ · folder not read ·"


def place_of(locations: Locations) -> Place:
    return Place.here(locations.project, locations.environ)


def views(locations: Locations, catalog: Catalog | None = None) -> list[HostView]:
    place = place_of(locations)
    return [host_view(key, place, locations, catalog) for key in HOST_KEYS]


def run(args: argparse.Namespace, locations: Locations) -> int:
    if args.command == "agents":
        return cmd_agents(args, locations)
    # --model (list, listing, why) reaches the agents whose block depends on it (args.model_problem).
    view = host_view(args.agent, place_of(locations), locations, model=getattr(args, "model", None))
    command = args.command
    if command == "list":
        return cmd_list(args, view)
    if command == "listing":
        return cmd_listing(args, view)
    if command == "validate":
        return cmd_validate(args, view)
    return cmd_find(args, view, args.query if command == "why" else args.name)


def _verdict_dict(v: HostVerdict) -> dict[str, Any]:
    return {"name": v.name, "status": v.status.value, "path": str(v.path), "root": str(v.root.path),
            "scope": v.root.scope.value, "kind": v.root.kind, "why": v.why, "fix": v.fix,
            "description": v.skill.description if v.skill else None}  # fmt: skip


def view_dict(view: HostView) -> dict[str, Any]:
    return {
        "agent": view.host, "title": view.title, "version": view.version,
        "roots": [{"path": str(r.path), "scope": r.scope.value, "kind": r.kind} for r in view.roots],
        "listed": [s.name for s in view.listed], "verdicts": [_verdict_dict(v) for v in view.verdicts],
        "block": view.block, "notes": view.notes, "logs": view.logs, "builtin": view.builtin,
    }  # fmt: skip


def _header(view: HostView) -> str:
    return f"{view.title} {view.version} (as its binary was recorded; docs/agents.md)"


def _notes(view: HostView) -> None:
    for note in view.notes:
        _err(f"note: {printable(note)}")
    if view.builtin:
        _err(f"note: {view.title} also sends its own skills {', '.join(view.builtin)}: no files of yours, not shown")
    for line in view.logs:
        _err(f"{view.title} prints: {printable(line)}")


def _verdict_line(v: HostVerdict) -> str:
    why = f"  {v.why}" if v.why else ""
    fix = f" → {v.fix}" if v.fix else ""
    return printable(f"{MARKS.get(v.status.value, '?')} {v.status.value:<10} {v.name}  {v.path}{why}{fix}")


def cmd_list(args: argparse.Namespace, view: HostView) -> int:
    if args.json:
        # Each verdict on a line of its own, by the C encoder: 15,000 of them at the floor's pace.
        # (dump_rows takes a string row as JSON text already: the lists of names are encoded here.)
        doc = view_dict(view)
        for key in ("listed", "notes", "logs", "builtin"):
            doc[key] = [json.dumps(item, ensure_ascii=False) for item in doc[key]]
        dump_rows(doc)
        return 0
    _out(_header(view))
    for root in view.roots:
        _out(printable(f"  reads {root.scope.value:<7} {root.path}"))
    for v in view.verdicts:
        _out(_verdict_line(v))
    sent = sum(v.sent for v in view.verdicts)
    _out(f"{sent} sent of {len(view.verdicts)} SKILL.md files it reached")
    _notes(view)
    return 0


def cmd_listing(args: argparse.Namespace, view: HostView) -> int:
    if args.json:
        dump(view_dict(view))
        return 0
    if view.block is None:
        _err(f"{view.title} sends no skills block here")
        _notes(view)
        return 0
    # The exact block, but a control in a description is shown, not sent to the terminal.
    _out(printable(view.block))
    counts: dict[str, int] = {}
    for v in view.verdicts:
        counts[v.status.value] = counts.get(v.status.value, 0) + 1
    _err(f"{_header(view)}: " + ", ".join(f"{n} {s}" for s, n in counts.items()))
    _notes(view)
    return 0


def cmd_validate(args: argparse.Namespace, view: HostView) -> int:
    chosen = [Path(os.path.abspath(p)) for p in args.paths]
    refused = [
        v for v in view.verdicts
        if v.status is HostStatus.REFUSED and (not chosen or any(v.path.is_relative_to(p) or v.path == p for p in chosen))
    ]  # fmt: skip
    if args.json:
        dump({"agent": view.host, "ok": not refused, "failing": len(refused), "refused": [_verdict_dict(v) for v in refused]})
        return 1 if refused else 0
    for v in refused:
        _out(printable(f"error: {view.title} refuses {v.path}: {v.why}" + (f" → {v.fix}" if v.fix else "")))
    _out(f"{len(refused)} file(s) {view.title} refuses" if refused else f"{view.title} reads every skill it reaches")
    _notes(view)
    return 1 if refused else 0


def cmd_find(args: argparse.Namespace, view: HostView, query: str) -> int:
    """`why` and `show` for one name or path under another agent: every copy it reached and its fate."""
    target = os.path.abspath(query)
    found = [
        v for v in view.verdicts if v.name == query.removeprefix("/") or str(v.path) == target or str(v.path.parent) == target
    ]
    if args.json:
        dump({"agent": view.host, "query": query, "found": [_verdict_dict(v) for v in found]})
        return 0 if any(v.sent for v in found) else 1
    if not found:
        # The folders it would read that are there (the rest: each folder kind it reads).
        there = [printable(str(r.path)) for r in view.roots if r.path.is_dir()]
        kinds = ", ".join(dict.fromkeys(r.kind for r in view.roots if r.kind))
        reads = f"{', '.join(dict.fromkeys(there)) or 'none of its folders here'} (it reads {kinds})"
        _out(f"{view.title} reaches no skill named {printable(query)}; it reads {reads}")
        from engine import close_names

        names = close_names(query, sorted({v.name for v in view.verdicts}))
        if names:
            _out("close: " + ", ".join(printable(n) for n in names))
        return 1
    _out(_header(view))
    for v in found:
        _out(_verdict_line(v))
        if args.command == "show" and v.skill is not None:
            _out(printable(f"    description as sent: {v.skill.description}"))
    _notes(view)
    return 0 if any(v.sent for v in found) else 1


def cmd_agents(args: argparse.Namespace, locations: Locations) -> int:
    from engine import Workspace, portability

    catalog = Workspace(locations).load()
    every = views(locations, catalog)
    rows = portability(every)
    if args.json:
        hosts = [{"agent": v.host, "title": v.title, "version": v.version, "notes": v.notes, "builtin": v.builtin,
                  "sent": sum(x.sent for x in v.verdicts)} for v in every]  # fmt: skip
        dump({"agents": hosts, "skills": [r.to_dict() for r in rows]})
        return 0
    keys = [v.host for v in every]
    _out("\t".join(["skill", *keys, "path"]) if _plain() else "  ".join([f"{'skill':<24}", *(f"{k:<11}" for k in keys), "path"]))
    for row in rows:
        marks = [f"{MARKS[row.cells[k].status]} {row.cells[k].status}" for k in keys]
        cells = [printable(row.name), *marks, printable(str(row.path))]
        _out("\t".join(cells) if _plain() else "  ".join([f"{cells[0]:<24}", *(f"{m:<11}" for m in marks), cells[-1]]))
        for key in keys:
            cell = row.cells[key]
            # Every fate but "listed" and "not my folder" (the marks say those) gets its reason.
            if cell.why and cell.status != "listed" and "does not read this folder" not in cell.why:
                _out(printable(f"    {key}: {cell.why}" + (f" → {cell.fix}" if cell.fix else "")))
    _out(HELP)
    for v in every:
        for note in v.notes:
            _err(printable(f"note ({v.title}): {note}"))
    return 0
