"""Claude Code behind the hosts' interface (engine/hosts/claude_code.py): it looks where
skilldeck's loader looks, reads a file as the loader reads it, and its view is the catalog and
listing the rest of skilldeck shows, in the hosts' terms."""

from __future__ import annotations

import os
from pathlib import Path

from engine import Locations, Workspace
from engine.hosts.claude_code import ClaudeCodeHost
from engine.hosts.model import HostSkill, Place, Refusal, Root, Scope, Status


def _skill(folder: Path, text: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "SKILL.md").write_text(text)
    return folder / "SKILL.md"


def test_read_answers_as_the_loader_does(tmp_path: Path) -> None:
    root = Root(tmp_path, Scope.PROJECT, ".claude/skills")
    good = _skill(tmp_path / "good", "---\nname: good\ndescription: Fine.\n---\nBody.\n")
    (tmp_path / "bad").mkdir()
    bad = tmp_path / "bad" / "SKILL.md"
    os.mkfifo(bad)  # never read: Claude Code's reader refuses what is not a regular file
    read = ClaudeCodeHost().read(b"", str(good), root)
    assert isinstance(read, HostSkill) and read.description == "Fine."
    refused = ClaudeCodeHost().read(b"", str(bad), root)
    assert isinstance(refused, Refusal) and refused.why


def test_view_is_the_catalog_and_listing_in_the_hosts_terms(tmp_path: Path) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    (project / ".git").mkdir(parents=True)
    _skill(project / ".claude" / "skills" / "deploy", "---\nname: deploy\ndescription: Ship it.\n---\nBody.\n")
    _skill(home / ".claude" / "skills" / "deploy", "---\nname: deploy\ndescription: Mine.\n---\nBody.\n")
    _skill(project / ".agents" / "skills" / "shared", "---\nname: shared\ndescription: Not Claude Code's.\n---\nB.\n")
    place = Place(project, home, {"HOME": str(home)})
    locations = Locations(project=project, user_dir=home / ".claude", managed_dir=tmp_path / "managed", bundled=False,
                          environ={"HOME": str(home)})  # fmt: skip
    view = ClaudeCodeHost(locations).view(place)
    workspace = Workspace(locations)
    assert view.block == workspace.listing(workspace.load()).text
    assert [s.name for s in view.listed] == ["deploy"]
    statuses = {(v.name, v.path.parent.parent.parent.parent.name, v.status) for v in view.verdicts}
    # The user's deploy comes first in Claude Code's precedence: the project's is shadowed.
    assert ("deploy", "home", Status.LISTED) in statuses and ("deploy", "project", Status.SHADOWED) in statuses
    assert all(v.name != "shared" for v in view.verdicts)
    assert ".claude/skills" in [r.kind for r, _ in ClaudeCodeHost(locations).roots(place)]
