"""skilldeck lists what Claude Code lists, byte for byte (tests/oracle/recordings/listing).

Each recorded case's workspace is rebuilt; skilldeck loads it and builds the listing with the
model the recording names and Claude Code's own entries put back where they stood (as
placeholders of the same length: their text is not ours to keep). Then: every listing line,
in order; the names Claude Code reported; a skilldeck diagnostic on every file Claude Code
logged as skipped or broken; and no diagnostic that says Claude Code lists what it did not.

`python -m tests.engine.listing.test_oracle_listing` prints how many lines agree, case by case.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from engine import Catalog, Workspace, read_settings
from engine.listing.build import Foreign, Listing
from tests.oracle.replay import case_locations, flag_values
from tests.oracle.workspace import HERE, Places, build, load_cases

RECORDINGS = HERE / "recordings" / "listing"
VERSION = (HERE / "VERSION").read_text().strip()
# Claude Code names the skill, not the file, when it drops a field.
NAMED = re.compile(r"Description invalid for (\S+) - omitting")
PATH = re.compile(r"\{(?:project|home|outside|root)\}[^\s'\",:)\]\\]*[^\s'\",:)\]\\.]")
# What a diagnostic says Claude Code does with a file: lists it as a line, or loads it unlisted.
LISTS_AS = re.compile(r"lists (?:this|it) as `([^`]+)`")
NOT_LISTED = re.compile(r"loads it as /(\S+) but does not list it")


def recordings() -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted(RECORDINGS.glob("*.json"))}


RECORDED = recordings()


def skilldeck_side(case: dict[str, Any], recording: dict[str, Any], root: Path) -> tuple[Catalog, Listing, Places, Workspace]:
    """Load the case's workspace as skilldeck and build its listing as the recorded run did."""
    now_ms = time.time() * 1000
    places = build(case, root, now_ms=int(now_ms))
    args = places.fill(case.get("args", []))
    locations = case_locations(case, places)
    workspace = Workspace(locations)
    catalog = workspace.load()
    foreign = [
        # A placeholder as long (UTF-16 units) and as wide as Claude Code's own entry was, and
        # whether it stays whole over budget (`fixed`: its bundled prompt skills, not init or
        # security-review; older recordings hold only plugin-authoring, which does:
        # budget_model_claude_haiku_4_5).
        Foreign(
            o["name"],
            placeholder(o["chars"], o.get("width", o["chars"]), len(f"- {o['name']}: ")),
            o["position"],
            fixed=o.get("fixed", True),
        )
        for o in recording["own"]
    ]
    # The model as asked for: the request drops a `[1m]` suffix that sized the budget.
    model = (flag_values(args, "--model") or [recording["model"]])[-1]
    return catalog, workspace.listing(catalog, model=model, now_ms=now_ms, foreign=foreign), places, workspace


def placeholder(chars: int, width: int, prefix: int) -> str:
    """A text that makes a line of `chars` UTF-16 units and `width` display width after a prefix:
    newlines take no width (claude-api's text holds two), a CJK character two."""
    if chars >= width:
        return "x" * (width - prefix) + "\n" * (chars - width)
    wide = width - chars
    return "x" * (chars - prefix - wide) + "漢" * wide


def our_lines(listing: Listing) -> list[str] | None:
    if not listing.text:
        return None
    body = [e.line for e in listing.entries if e.override != "foreign"]
    return listing.text.split("\n")[:2] + body


def compare(name: str, root: Path) -> dict[str, Any]:
    """What skilldeck and the recording say for one case, side by side."""
    recording = RECORDED[name]
    case = load_cases("listing")[name]
    catalog, listing, places, workspace = skilldeck_side(case, recording, root)
    skipped = {m.group() for line in recording["skipped"] for m in PATH.finditer(line)}
    flagged = {places.fill(p) for p in skipped}
    settings = read_settings(workspace.locations)
    diagnosed = {str(d.path) for d in (*catalog.diagnostics, *settings.diagnostics)}
    missing = sorted(
        p for p in flagged if not any(d == p or d.startswith(p + os.sep) or p.startswith(d + os.sep) for d in diagnosed)
    )
    named = {m.group(1) for line in recording["skipped"] if (m := NAMED.search(line))}
    missing += sorted(f"skill {n}" for n in named if not any(d.skill == n for d in catalog.diagnostics))
    lines = recording["listing"] or []
    contradicting = []
    for d in catalog.diagnostics:
        said = LISTS_AS.search(d.message)
        if said and not any(line.startswith(f"- {said.group(1)}") for line in lines):
            contradicting.append(f"{d.code}: says Claude Code lists `{said.group(1)}`; it does not")
        unlisted = NOT_LISTED.search(d.message)
        if unlisted and any(line.split(":")[0] == f"- {unlisted.group(1)}" for line in lines):
            contradicting.append(f"{d.code}: says Claude Code does not list /{unlisted.group(1)}; it does")
    return {
        "contradicting": contradicting,
        "theirs": recording["listing"],
        "ours": our_lines(listing),
        # Claude Code's own entries: where each stood and whether it kept its text.
        "own_theirs": [(o["name"], o["position"], o["full"]) for o in recording["own"]],
        "own_ours": [(e.name, i, not e.trimmed) for i, e in enumerate(listing.entries) if e.override == "foreign"],
        "commands_theirs": recording["commands"],
        "commands_ours": [s.name for s in workspace.slash_commands(catalog)],
        "undiagnosed": missing,
        # The whole listing's width as Claude Code logs it when over budget ("N chars > B budget").
        "wanted_theirs": (recording.get("budget") or {}).get("chars"),
        "wanted_ours": listing.wanted,
    }


def test_every_case_is_recorded_with_the_pinned_version() -> None:
    cases = load_cases("listing")
    assert set(RECORDED) == set(cases), "run `make oracle` after adding or removing a listing case"
    assert {r["claude_code_version"] for r in RECORDED.values()} == {VERSION}


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_listing_equals_claude_code(name: str, tmp_path: Path) -> None:
    seen = compare(name, Path(os.path.realpath(tmp_path)))
    assert seen["ours"] == seen["theirs"]
    assert seen["own_ours"] == seen["own_theirs"]


@pytest.mark.parametrize("name", sorted(n for n, r in RECORDED.items() if r.get("budget")))
def test_width_over_budget_equals_claude_code(name: str, tmp_path: Path) -> None:
    """The width skilldeck sums for a listing over budget is the one Claude Code logged: per
    visible cluster (emoji sequences, flags, keycaps, combining marks), ANSI escapes left out
    (recorded: width_*)."""
    seen = compare(name, Path(os.path.realpath(tmp_path)))
    assert seen["wanted_ours"] == seen["wanted_theirs"]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_slash_commands_equal_claude_code(name: str, tmp_path: Path) -> None:
    seen = compare(name, Path(os.path.realpath(tmp_path)))
    assert seen["commands_ours"] == seen["commands_theirs"]


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_every_file_claude_code_skips_has_a_diagnostic(name: str, tmp_path: Path) -> None:
    seen = compare(name, Path(os.path.realpath(tmp_path)))
    assert seen["undiagnosed"] == []


@pytest.mark.parametrize("name", sorted(RECORDED))
def test_no_diagnostic_contradicts_the_recording(name: str, tmp_path: Path) -> None:
    """What a diagnostic says Claude Code lists (or loads but does not list) is what it listed."""
    assert compare(name, Path(os.path.realpath(tmp_path)))["contradicting"] == []


def main() -> int:
    same = total = 0
    for name in sorted(RECORDED):
        with tempfile.TemporaryDirectory() as tmp:
            seen = compare(name, Path(os.path.realpath(tmp)))
        theirs, ours = seen["theirs"] or [], seen["ours"] or []
        agree = sum(1 for a, b in zip(theirs, ours, strict=False) if a == b)
        same += agree
        total += max(len(theirs), len(ours))
        marks = "" if theirs == ours else "  LISTING DIFFERS"
        marks += "" if seen["commands_ours"] == seen["commands_theirs"] else "  NAMES DIFFER"
        marks += f"  UNDIAGNOSED {seen['undiagnosed']}" if seen["undiagnosed"] else ""
        print(f"{name}: {agree}/{max(len(theirs), len(ours))} lines{marks}")
    print(f"all: {same}/{total} listing lines identical ({100 * same / max(total, 1):.1f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
