"""Claude Code's own skills, recorded by a comparison, counted in every listing of the project
afterwards (engine/listing/claude_own.py), and a hostile or stale record ignored."""

from __future__ import annotations

import json
import os
from pathlib import Path

from engine import Workspace, make_demo
from engine.listing.build import Foreign
from engine.listing.claude_own import load_own, own_path, read_own, save_own, stale_own

OWN = [Foreign("update-config", "Change Claude Code's settings. " * 4, 0, True), Foreign("dataviz", "Draw charts.", 5, True)]


def _workspace(tmp_path: Path) -> Workspace:
    return Workspace(make_demo(tmp_path / "demo", {"XDG_STATE_HOME": str(tmp_path / "state")}))


def test_a_recorded_comparison_puts_claude_codes_own_skills_in_every_listing_with_its_version(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    catalog = workspace.load()
    before = workspace.listing(catalog)
    assert not before.own_counted and before.own_from == ""
    locations = workspace.locations
    assert save_own(locations.environ, locations.project, "2.1.328", OWN) == own_path(locations.environ, locations.project)
    after = workspace.listing(catalog)
    assert after.own_counted and after.own_from.startswith("Claude Code 2.1.328 (recorded ")
    names = [e.name for e in after.entries]
    assert names[0] == "update-config" and "dataviz" in names
    assert after.used > before.used, "their lines share the budget"
    # A listing told what to put in (a comparison's own run) does not add the recording too.
    assert not workspace.listing(catalog, recorded_own=False).own_counted


def test_a_broken_or_foreign_record_is_ignored(tmp_path: Path) -> None:
    workspace = _workspace(tmp_path)
    env, project = workspace.locations.environ, workspace.locations.project
    path = own_path(env, project)
    path.parent.mkdir(parents=True)
    for content in ("{not json", "[]", json.dumps({"project": "/elsewhere", "version": "1", "recorded_ms": 1, "entries": []})):
        path.write_text(content)
        assert load_own(env, project) is None
    entries = [{"name": "ok", "text": "x" * 10_000, "position": 1}, {"name": 3}, "junk", {"name": "", "text": "", "position": 0}]
    path.write_text(
        json.dumps({"project": str(project), "format": 2, "version": "2.1.328", "recorded_ms": 1, "entries": entries})
    )
    own = load_own(env, project)
    assert own is not None and [e.name for e in own.entries] == ["ok"] and len(own.entries[0].text) == 2_000
    path.unlink()
    os.mkfifo(path)  # a FIFO where the record should be: not read (it would block), no record
    assert load_own(env, project) is None


def test_which_entries_stay_whole_is_kept_and_an_older_record_is_stale(tmp_path: Path) -> None:
    """Each entry says whether Claude Code keeps it whole over budget (its bundled prompt skills)
    or drops it to its name like a user skill (its init and security-review). A record kept by an
    older skilldeck says neither, and read `claude-api` only to its first newline: stale."""
    workspace = _workspace(tmp_path)
    env, project = workspace.locations.environ, workspace.locations.project
    text = "Reference.\nTRIGGER — read it first.\nSKIP only when not."
    own = [Foreign("claude-api", text, 0, fixed=True), Foreign("init", "Initialize a new CLAUDE.md file", 1, fixed=False)]
    save_own(env, project, "2.1.328", own)
    kept = load_own(env, project)
    assert kept is not None and list(kept.entries) == own
    listing = workspace.listing(workspace.load(), budget=1)
    assert {e.name: e.line for e in listing.entries if e.override == "foreign"} == {
        "claude-api": f"- claude-api: {text}",
        "init": "- init",
    }
    path = own_path(env, project)
    record = json.loads(path.read_text())
    del record["format"]
    for entry in record["entries"]:
        del entry["fixed"]
    path.write_text(json.dumps(record))
    old = read_own(env, project)
    assert old is not None and load_own(env, project) is None
    assert "run `skilldeck compare` again" in (stale_own(env, old) or "")
    assert not workspace.listing(workspace.load()).own_counted


def _claude(folder: Path, version: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    binary = folder / "claude"
    binary.write_text(f"#!/bin/sh\necho '{version} (Claude Code)'\n")
    binary.chmod(0o755)
    return binary


def test_a_record_from_another_claude_code_is_stale_and_not_counted(tmp_path: Path) -> None:
    """Kept with the binary that listed them: an upgrade (the file rewritten, or the link on PATH
    moved to another version's file) makes the record stale, told without running `claude`."""
    bin_dir = tmp_path / "bin"
    old = _claude(tmp_path / "versions" / "2.1.328", "2.1.328")
    bin_dir.mkdir()
    (bin_dir / "claude").symlink_to(old)
    workspace = Workspace(make_demo(tmp_path / "demo", {"XDG_STATE_HOME": str(tmp_path / "state"), "PATH": str(bin_dir)}))
    env, project = workspace.locations.environ, workspace.locations.project
    catalog = workspace.load()
    save_own(env, project, "2.1.328", OWN, old)
    own = read_own(env, project)
    assert own is not None and stale_own(env, own) is None
    assert workspace.listing(catalog).own_counted
    # The link on PATH now leads to another version's file.
    new = _claude(tmp_path / "versions" / "2.1.400", "2.1.400")
    (bin_dir / "claude").unlink()
    (bin_dir / "claude").symlink_to(new)
    assert load_own(env, project) is None
    listing = workspace.listing(catalog)
    assert not listing.own_counted
    note = stale_own(env, own)
    assert note is not None and "2.1.328" in note and "run `skilldeck compare` again" in note
    # The listing says why (the pane and `skilldeck listing` show it): they did not just vanish.
    assert listing.own_stale == note and listing.to_dict()["claude_code_own_skills_stale"] == note
    # Back to the recorded file, then upgraded in place: stale again.
    (bin_dir / "claude").unlink()
    (bin_dir / "claude").symlink_to(old)
    assert load_own(env, project) is not None
    old.write_text("#!/bin/sh\necho '2.1.500 (Claude Code)' # a longer, newer build\n")
    assert load_own(env, project) is None
    assert "changed since" in (stale_own(env, own) or "")


def test_without_a_binary_on_path_the_recorded_one_is_checked(tmp_path: Path) -> None:
    binary = _claude(tmp_path / "opt", "2.1.328")
    env = {"XDG_STATE_HOME": str(tmp_path / "state")}
    project = tmp_path / "project"
    save_own(env, project, "2.1.328", OWN, binary)
    assert load_own(env, project) is not None
    binary.unlink()
    assert load_own(env, project) is None
    # A record kept before binaries were noted names none: stale once a claude is on PATH.
    path = own_path(env, project)
    record = json.loads(path.read_text())
    del record["binary"]
    path.write_text(json.dumps(record))
    assert load_own(env, project) is not None
    _claude(tmp_path / "bin", "2.1.400")
    assert load_own({**env, "PATH": str(tmp_path / "bin")}, project) is None
