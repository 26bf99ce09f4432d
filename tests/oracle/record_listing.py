"""Record what the pinned Claude Code loads and lists for every listing case: `make oracle`.

A listing case (tests/oracle/cases/listing/*.json) is a workspace as in workspace.py plus:

    "env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "500"},   # more environment (placeholders allowed)
    "args": ["--add-dir", "{outside}/extra"],           # more command-line flags
    "cc_bundled": true,                                 # keep Claude Code's bundled skills (default: off)
    "git": false                                        # the project is not a git repository

Claude Code runs once per case in print mode (`-p hi`, private HOME, loopback only) against a
server that answers every request with "ok", and the recording keeps only what skilldeck must
predict:

- `listing`: the listing's lines as sent (the header, the blank line, one line per entry), with
  the entries of Claude Code's own skills left out; `own` says where they were, how long (`chars`,
  UTF-16 units; `width`, as Claude Code sums it against the budget) and whether Claude Code
  keeps them whole over budget (`fixed`), never their text (Claude Code's texts stay out of the project), so that a budget can be
  replayed with them in place;
- `skills`, `commands`: the names the stream-json init event reports (the model-invocable
  ones, and all the slash commands), Claude Code's own left out;
- `loaded`: the counts from "Loaded N unique skills (...)"; `budget` from "Skill listing over
  budget" when the listing went over;
- `skipped`: the debug lines about skills it skipped, failed on or warned about, with the
  workspace folders as placeholders;
- `model`: the model the request named (its context window sizes the budget).

Claude Code's own skills are learnt by recording an empty workspace first (`baseline`).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from pathlib import Path
from typing import Any

from engine.catalog.frontmatter.js import utf16_len
from engine.compare.theirs import listing_in as listing_lines
from engine.listing.build import display_width
from tests.oracle.record import ORACLE, VERSION, chosen_cases, run_claude, stream_event
from tests.oracle.workspace import HERE, Places, build

RECORDINGS = HERE / "recordings" / "listing"
# Debug lines that say a skill file was skipped, failed, or loaded with a problem.
SKIP = re.compile(r"skill|command|frontmatter|plugin|manifest|budget|SKILL\.md|\.md\b|invalid|omitting", re.IGNORECASE)
NOISE = re.compile(
    r"hooks module|telemetry|\$\.fs\.|\$\.store|Plugin autoupdate|settings\.read|plugin\.register|engine\.create|"
    r"hooks native|cc-plugin-|installPluginsForHeadless|Total plugin|getPluginSkills|Checking plugin cc-|"
    r"Registered \d+ hooks|versioned plugins|Found \d+ plugins|installed_plugins\.json|output styles|"
    r"Watching for changes|ENOENT|\[STARTUP\]|Sending \d+ skills|Loading skills from|getSkills returning|Loaded \d+ unique"
)
STAMP = re.compile(r"^\S+Z \[(\w+)\] ")
LOADED = re.compile(
    r"Loaded (\d+) unique skills \((\d+) unconditional, (\d+) conditional, managed: (\d+), user: (\d+), "
    r"project: (\d+), additional: (\d+), legacy commands: (\d+)\)"
)
LOADED_KEYS = ("unique", "unconditional", "conditional", "managed", "user", "project", "additional", "legacy_commands")
OVER = re.compile(r"Skill listing over budget: (\d+) skills, (\d+) chars > (\d+) budget")


def init_event(stream: str) -> dict[str, Any]:
    """The stream-json init event: which skills and commands loaded."""
    return stream_event(stream, "system", "init")


def main_model(requests: list[dict[str, Any]]) -> str | None:
    for body in requests:
        if body.get("tools"):
            return body.get("model")
    return None


def placeholders(text: str, places: Places) -> str:
    for name, folder in (("project", places.project), ("home", places.home), ("outside", places.outside)):
        text = text.replace(str(folder), "{" + name + "}")
    return text.replace(str(places.root), "{root}")


def run(case: dict[str, Any], keep: Path, now_ms: int) -> dict[str, Any]:
    """Run Claude Code once on the case's workspace; what it sent, reported and logged."""
    with tempfile.TemporaryDirectory(prefix="oracle-") as tmp:
        places = build(case, Path(os.path.realpath(tmp)), now_ms=now_ms)
        proc, requests = run_claude(case, places, case.get("prompt", "hi"), [], keep)
        debug = keep / "debug.log"
        log = debug.read_text(errors="replace") if debug.exists() else ""
        init = init_event(proc.stdout)
        lines = [STAMP.sub(r"[\1] ", line) for line in log.splitlines()]
        return {
            "listing": listing_lines(requests),
            "skills": list(init.get("skills") or []),
            "commands": list(init.get("slash_commands") or []),
            "model": main_model(requests),
            "debug": [placeholders(line, places) for line in lines],
            "exit": proc.returncode,
        }


def entry_name(line: str) -> str:
    """`- name (label): text` -> name."""
    head = line[2:].split(":", 1)[0] if ": " in line else line[2:]
    return head.split(" (", 1)[0]


def record(name: str, case: dict[str, Any], own: dict[str, Any], now_ms: int) -> dict[str, Any]:
    keep = ORACLE / "runs" / "listing" / name
    keep.mkdir(parents=True, exist_ok=True)
    seen = run(case, keep, now_ms)
    listing = seen["listing"]
    kept: list[str] | None = None
    own_entries = []
    if listing is not None:
        kept = listing[:2]
        theirs = own["listing"] - case_names(case)
        for index, line in enumerate(listing[2:]):
            entry = entry_name(line)
            if entry in theirs:
                # Where it stood, how long its full line is (UTF-16 units, as Claude Code counts),
                # whether it was sent whole, and whether it is a bundled skill (never shortened);
                # never its text.
                own_entries.append({"name": entry, "position": index, "chars": own["chars"].get(entry, utf16_len(line)),
                                    "width": own["width"].get(entry, display_width(line)), "full": ": " in line,
                                    "bundled": entry in own["bundled"], "fixed": entry in own["fixed"]})  # fmt: skip
            else:
                kept.append(line)
    loaded = next((m.groups() for line in seen["debug"] if (m := LOADED.search(line))), None)
    over = next((m.groups() for line in seen["debug"] if (m := OVER.search(line))), None)
    return {
        "claude_code_version": VERSION,
        "case": name,
        "about": case.get("about", ""),
        "model": seen["model"],
        "listing": kept,
        "own": own_entries,
        "skills": [s for s in seen["skills"] if s not in own["skills"]],
        "commands": [c for c in seen["commands"] if c not in own["commands"]],
        "loaded": dict(zip(LOADED_KEYS, map(int, loaded), strict=True)) if loaded else None,
        "budget": dict(zip(("skills", "chars", "budget"), map(int, over), strict=True)) if over else None,
        # Sorted and once each: Claude Code logs from parallel loaders in no fixed order.
        "skipped": sorted({line for line in seen["debug"] if SKIP.search(line) and not NOISE.search(line)}),
        "exit": seen["exit"],
    }


def case_names(case: dict[str, Any]) -> set[str]:
    """Names the case's own files could give (a folder or file stem), so a case skill that shares a
    name with one of Claude Code's is never taken for Claude Code's."""
    out: set[str] = set()
    for path in case.get("files", {}):
        parts = Path(path).parts
        out.add(parts[-2] if parts[-1] == "SKILL.md" else Path(parts[-1]).stem)
    return out


def baseline(now_ms: int) -> dict[str, Any]:
    """Claude Code's own skills and commands: what an empty workspace lists and reports, with and
    without its bundled skills; for each listed one the length and width of its full line; and
    which it keeps whole at a budget of 1 (`fixed`: its bundled prompt skills, not init or
    security-review)."""
    keep = ORACLE / "runs" / "listing" / "_baseline"
    keep.mkdir(parents=True, exist_ok=True)
    out: dict[str, Any] = {"listing": set(), "skills": set(), "commands": set(), "chars": {}, "width": {}, "bundled": set()}
    tight = run({"cc_bundled": True, "env": {"SLASH_COMMAND_TOOL_CHAR_BUDGET": "1"}}, keep, now_ms)
    out["fixed"] = {entry_name(line) for line in (tight["listing"] or [])[2:] if ": " in line}
    for bundled in (False, True):
        seen = run({"cc_bundled": bundled}, keep, now_ms)
        names = {entry_name(line) for line in (seen["listing"] or [])[2:]}
        if bundled:
            # Listed only when the bundled skills are on: those are the bundled ones (always kept whole).
            out["bundled"] = names - out["listing"]
        out["listing"] |= names
        out["chars"].update({entry_name(line): utf16_len(line) for line in (seen["listing"] or [])[2:]})
        out["width"].update({entry_name(line): display_width(line) for line in (seen["listing"] or [])[2:]})
        out["skills"] |= set(seen["skills"])
        out["commands"] |= set(seen["commands"])
    return out


def main() -> int:
    chosen = chosen_cases("listing", "tests.oracle.record_listing", __doc__)
    if chosen is None:
        return 2
    now_ms = int(time.time() * 1000)
    own = baseline(now_ms)
    RECORDINGS.mkdir(parents=True, exist_ok=True)
    for name, case in chosen.items():
        recording = record(name, case, own, now_ms)
        (RECORDINGS / f"{name}.json").write_text(json.dumps(recording, indent=2, ensure_ascii=False) + "\n")
        count = len(recording["listing"] or []) - 2
        print(f"listing {name}: {count} entries, {len(recording['skipped'])} skip lines")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
