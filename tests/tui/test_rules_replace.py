"""Rules pane: `a` and `d` replace the opposite rule of the selected skill (issue 34, major 5).
`a`, `d`, `a` left both an allow and a deny rule, the second `a` said "already in", and the skill
stayed denied (in Claude Code a deny beats an allow)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import write
from tui.rules.pane import RulesTree

from .conftest import demo_app, fake_editor, loaded, until
from .test_app import _walk_to


async def test_allow_deny_allow_leaves_one_allow_rule_and_every_other_key(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    local = tmp_path / "demo" / "acme-app" / ".claude" / "settings.local.json"
    others = {
        "env": {"DEPLOY_TARGET": "staging"},
        "permissions": {"ask": ["Bash(git push)"], "additionalDirectories": ["../shared"], "defaultMode": "default"},
        "hooks": {},
    }
    write(local, json.dumps(others))
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "daily-notes")
        await until(pilot, lambda: app.permissions is not None, what="the settings")
        said: list[str] = []

        async def press(key: str) -> str:
            def rules_said() -> list[str]:
                return [n.message for n in app.notices if n.title in ("Rules", "Not written")]

            seen = len(rules_said())
            await pilot.press(key)
            await until(pilot, lambda: len(rules_said()) > seen, what=f"the toast after {key}")
            said.append(rules_said()[-1])
            return said[-1]

        await pilot.press("5")
        assert (await press("a")).startswith("allow Skill(daily-notes) written to ")
        assert "replacing the allow rule" in await press("d")
        assert "replacing the deny rule" in await press("a")
        written = json.loads(local.read_text())
        assert written["permissions"]["allow"] == ["Skill(daily-notes)"]
        assert written["permissions"].get("deny", []) == []
        assert {k: v for k, v in written["permissions"].items() if k not in ("allow", "deny")} == others["permissions"]
        assert written["env"] == others["env"] and written["hooks"] == {}
        await until(pilot, lambda: app.permissions is not None and _decision(app) == "allow", what="the settings read again")


def _decision(app) -> str:  # type: ignore[no-untyped-def]
    permissions = app.permissions
    return permissions.decide_skill("daily-notes").decision  # type: ignore[no-any-return]


async def test_e_on_a_settings_files_line_opens_that_file(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Issue 34: `e` on a settings file's line in Rules opened the selected skill instead."""
    record = fake_editor(tmp_path, monkeypatch)
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.permissions is not None, what="the settings")
        await pilot.press("5")
        tree = app.query_one(RulesTree)
        while "settings.json" not in str(tree.cursor_node.label if tree.cursor_node else ""):
            await pilot.press("k")
        assert tree.current is None, "a file's line, not a rule"
        await pilot.press("e")
        await until(pilot, record.exists, what="the editor to run")
        assert record.read_text().split("\n")[1] == str(tmp_path / "demo" / "acme-app" / ".claude" / "settings.json")


async def test_an_edit_of_the_pane_is_said_once_not_again_as_a_change_on_disk(tmp_path: Path) -> None:
    """Issue 34: `a` said "allow ... written", then the watcher's "Changed on disk: 1 settings file
    changed" said it again."""
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "daily-notes")
        await until(pilot, lambda: app.permissions is not None, what="the settings")
        before = app.view
        await pilot.press("5", "a")
        await until(pilot, lambda: app.view is not before, what="the watcher's new snapshot")
        await pilot.pause()
        assert [n.title for n in app.notices if n.title in ("Rules", "Changed on disk")] == ["Rules"]
        # A change the pane did not make is still said.
        local = tmp_path / "demo" / "acme-app" / ".claude" / "settings.local.json"
        before = app.view
        local.write_text(local.read_text().replace("daily-notes", "deploy"))
        await until(pilot, lambda: app.view is not before, what="the snapshot after an outside edit")
        await until(pilot, lambda: any(n.title == "Changed on disk" for n in app.notices), what="the toast")
