"""`--marketplace DIR`: what installing a marketplace's plugins would give, marked as a preview in
every pane and never mixed with what Claude Code loads (issue 34, major 2). The marketplace file
is someone else's: a source outside the folder (absolute, `..`, a symlink out) is not read, and a
source Claude Code would fetch from the network is named as such."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from textual.widgets import Static

from engine import Locations
from tests.conftest import write
from tui.app import SkilldeckApp
from tui.view import PathDisplay

from .conftest import loaded, until
from .test_app import text_of

EXE = Path(sys.executable).parent / "skilldeck"


def _marketplace(root: Path) -> Path:
    """A project with a skill of its own, and beside it a marketplace with one good plugin and
    four sources that cannot be previewed."""
    write(root / "project" / ".claude" / "skills" / "own-skill" / "SKILL.md", "---\ndescription: The project's own.\n---\nx\n")
    (root / "project" / ".git").mkdir()
    market = root / "market"
    write(market / "plugins" / "tidy" / ".claude-plugin" / "plugin.json", '{"name": "tidy"}')
    write(market / "plugins" / "tidy" / "skills" / "sweep" / "SKILL.md", "---\ndescription: Sweep the floor.\n---\nSweep.\n")
    write(root / "elsewhere" / ".claude-plugin" / "plugin.json", '{"name": "elsewhere"}')
    write(root / "elsewhere" / "skills" / "leak" / "SKILL.md", "---\ndescription: Outside.\n---\nx\n")
    os.symlink(root / "elsewhere", market / "plugins" / "linked")
    listing = {
        "name": "acme-market",
        "plugins": [
            {"name": "tidy", "source": "./plugins/tidy"},
            {"name": "up", "source": "../elsewhere"},
            {"name": "absolute", "source": str(root / "elsewhere")},
            {"name": "linked", "source": "./plugins/linked"},
            {"name": "remote", "source": {"source": "github", "repo": "acme/remote-plugin"}},
        ],
    }
    write(market / ".claude-plugin" / "marketplace.json", json.dumps(listing))
    return market


def _locations(root: Path, market: Path) -> Locations:
    environ = {"XDG_STATE_HOME": str(root / "state"), "HOME": str(root)}
    return Locations(root / "project", user_dir=root / "user", managed_dir=root / "managed", marketplace=market,
                     bundled=False, environ=environ)  # fmt: skip


async def test_every_pane_marks_the_preview_and_shows_only_the_marketplace(tmp_path: Path) -> None:
    market = _marketplace(tmp_path)
    app = SkilldeckApp(_locations(tmp_path, market), PathDisplay.default([(tmp_path, "<tmp>")]), blink=False)
    async with app.run_test(size=(160, 48)) as pilot:
        await loaded(pilot)
        assert app.view is not None
        catalog = app.view.catalog
        assert list(catalog.skills) == ["tidy:sweep"], "the project's own skill and nothing from outside the folder"
        assert "PREVIEW of the marketplace" in app.sub_title
        assert [t.source.label for t in app.view.tiers if t.skills] == ["preview: plugin tidy"]
        await until(pilot, lambda: app.tiers.current is not None and app.tiers.current.skill is not None, what="a skill")
        await until(pilot, lambda: app.settled, what="the details")
        assert "preview: not installed" in text_of(app.query_one("#details-title", Static))
        assert text_of(app.query_one("#listing-summary", Static)).startswith("Preview: ")
        said = {d.message for d in catalog.diagnostics}
        for name in ("up", "linked"):
            assert any(f"plugin `{name}`" in m and "leads outside the marketplace folder" in m for m in said), said
        assert any("plugin `absolute`" in m and "absolute path" in m for m in said)
        assert any("plugin `remote` comes from github acme/remote-plugin" in m for m in said)
        await pilot.press("enter")
        await until(pilot, lambda: any(n.title == "Preview" for n in app.notices), what="the refusal to run")
        assert app.session.runner is None and not app.session.running, "nothing of a preview runs"


def test_the_cli_lists_the_preview_and_refuses_to_run_it(tmp_path: Path) -> None:
    market = _marketplace(tmp_path)
    flags = ["--project", str(tmp_path / "project"), "--user-dir", str(tmp_path / "user"), "--no-bundled"]
    env = {**os.environ, "COLUMNS": "1000", "XDG_STATE_HOME": str(tmp_path / "state")}

    def skilldeck(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(EXE), *argv, *flags], capture_output=True, text=True, timeout=60, env=env)

    listed = skilldeck("list", "--marketplace", str(market))
    assert listed.returncode == 0, listed.stderr
    assert [row.split("\t")[:2] for row in listed.stdout.splitlines()] == [["tidy:sweep", "preview: plugin tidy"]]
    assert "Preview (--marketplace)" in listed.stderr
    ran = skilldeck("run", "tidy:sweep", "--marketplace", str(market))
    assert ran.returncode == 2 and "--marketplace is a preview: `run`" in ran.stderr, ran.stderr
    # As Claude Code 2.1.328: a marketplace folder given as --plugin-dir loads nothing.
    plugin_dir = skilldeck("list", "--plugin-dir", str(market))
    assert plugin_dir.returncode == 0 and "tidy:sweep" not in plugin_dir.stdout
    helped = subprocess.run([str(EXE), "--help"], capture_output=True, text=True, timeout=60, env=env).stdout
    assert "--marketplace DIR" in helped and "preview a marketplace folder" in " ".join(helped.split())
