"""The browser under Textual's pilot: navigation, details, search, diagnostics, reload, keys."""

from __future__ import annotations

import os
from pathlib import Path

from textual.widgets import Static, TabbedContent

from tui.app import SkilldeckApp
from tui.editor import editor_command
from tui.rules.pane import RulesPane, RulesTree
from tui.screens.confirm import ConfirmScreen
from tui.screens.help import HelpScreen
from tui.widgets.diagnostics import DiagnosticsTree
from tui.widgets.markdown_body import MarkdownBody
from tui.widgets.search import ResultsList, SearchBox

from .conftest import demo_app, fake_editor, loaded, until


def _selected(app: SkilldeckApp) -> str | None:
    data = app.tiers.current
    return data.skill.name if data and data.skill else None


async def _walk_to(pilot, name: str) -> None:  # type: ignore[no-untyped-def]
    """Press j until the named skill is under the cursor, as a user would."""
    for _ in range(60):
        if _selected(pilot.app) == name:
            return
        await pilot.press("j")
    raise AssertionError(f"{name} not reached with j")


def text_of(widget: Static) -> str:
    """The plain text a Static shows, whatever renderable it holds."""
    from rich.console import Console

    console = Console(width=300, record=True, file=open(os.devnull, "w"))  # noqa: SIM115
    console.print(widget.content)
    return console.export_text()


def _title(app: SkilldeckApp) -> str:
    return text_of(app.query_one("#details-title", Static))


def _body(app: SkilldeckApp) -> str:
    return app.query_one("#details-body", MarkdownBody).source


async def test_first_screen_shows_tiers_and_selects_the_first_skill(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        tiers = [t.tier.source.label for t in app.tiers.tiers]
        assert tiers == [
            "managed",
            "user",
            "project",
            "add-dir shared-skills",
            # Claude Code's order (recorded: load_order_tiers, plugin_order): legacy commands,
            # then plugins.
            "commands (project)",
            "plugin demo-tools",
            "bundled",
        ]
        await until(pilot, lambda: _selected(app) == "security-review", what="first skill")
        assert "/security-review" in _title(app)
        assert "15 skills" in app.sub_title


async def test_vim_keys_move_and_details_follow(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: _selected(app) == "security-review")
        await pilot.press("j", "j")
        assert _selected(app) == "daily-notes"
        assert "/daily-notes" in _title(app)
        await pilot.press("k")
        assert app.tiers.current is not None and app.tiers.current.skill is None  # the user tier's line
        await pilot.press("G")
        assert _selected(app) == "skill-doctor"
        await pilot.press("g")
        assert app.tiers.cursor_line == 0


async def test_body_renders_once_the_cursor_rests(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("j", "j", "j", "j", "j")
        assert _selected(app) == "api-conventions"
        await until(pilot, lambda: "pydantic" in _body(app), what="the body of api-conventions")
        assert "---" not in _body(app), "the frontmatter is not part of the body"


async def test_shadowed_skill_says_who_wins(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("j", "j", "j")
        assert app.tiers.current.shadow is not None
        relations = text_of(app.query_one("#details-relations", Static))
        assert "Shadowed by the managed skill" in relations
        # enter and f say which skill runs instead; nothing runs.
        for said, key in enumerate(("enter", "f"), 1):
            await pilot.press(key)
            await until(pilot, lambda n=said: sum(t.title == "Shadowed" for t in app.notices) == n, what=f"{key}'s toast")
        shown = next(n.message for n in app.notices if n.title == "Shadowed")
        assert "/security-review runs the managed one" in shown and "this one never runs" in shown
        assert not app.session.running and app.session.runner is None


async def test_search_ranks_narrows_and_jumps(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("slash")
        box = app.query_one(SearchBox)
        assert box.display and not app.tiers.display
        await pilot.press(*"dep")
        results = app.query_one(ResultsList)
        assert [r.skill.name for r in results.results] == ["deploy"]
        await pilot.press("backspace", "backspace", "backspace", *"review")
        assert len(results.results) >= 2
        first, last = results.results[0], results.results[-1]
        assert first.skill.name == "security-review" and first.skill.source.label == "managed"
        assert last.skill.name == "security-review" and last.shadowed, "shadowed skills come last"
        await pilot.press("down", "up", "enter")
        assert not box.display and app.tiers.display
        await until(
            pilot, lambda: _selected(app) == "security-review" and app.tiers.current.shadow is None, what="the managed review"
        )


async def test_search_escape_returns_to_the_tree(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("slash", "x", "escape")
        assert not app.query_one(SearchBox).display
        assert app.focused is app.tiers


async def test_diagnostics_jump_and_filter(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("3")
        assert app.query_one(TabbedContent).active == "diagnostics"
        tree = app.query_one(DiagnosticsTree)
        assert app.focused is tree
        await pilot.press("f")  # errors only
        files = [str(path) for path in tree.files]
        assert len(files) == 2 and any("broken-yaml" in f for f in files)
        while not (tree.current and tree.current.code == "yaml-invalid" and tree.cursor_data is tree.current):
            await pilot.press("j")
        await pilot.press("enter")
        assert app.query_one(TabbedContent).active == "details"
        await until(pilot, lambda: _selected(app) == "broken-yaml", what="jump to broken-yaml")
        assert "yaml-invalid" in text_of(app.query_one("#details-diagnostics", Static))


async def test_disk_changes_show_in_place_and_keep_the_cursor(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "deploy")
        skill_file = tmp_path / "demo" / "acme-app" / ".claude" / "skills" / "deploy" / "SKILL.md"
        skill_file.write_text(skill_file.read_text().replace("Deploy the app to staging or production.", "Ship it."))
        await until(pilot, lambda: "Ship it." in text_of(app.query_one("#details-facts", Static)), what="the new description")
        assert _selected(app) == "deploy"
        assert any(n.title == "Changed on disk" and "1 changed" in n.message for n in app.notices)
        broken = tmp_path / "demo" / "acme-app" / ".claude" / "skills" / "broken-yaml" / "SKILL.md"
        broken.write_text("---\nname: broken-yaml\ndescription: fixed now\n---\nBody.\n")
        await until(pilot, lambda: any("1 error fixed" in n.message for n in app.notices), what="the fix toast")
        await until(pilot, lambda: _selected(app) == "deploy", what="the cursor back on deploy")


async def test_r_reads_everything_again(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await _walk_to(pilot, "deploy")
        await pilot.press("r")
        await until(pilot, lambda: any(n.title == "Reload" for n in app.notices), what="the reload toast")
        assert _selected(app) == "deploy"


async def test_copy_path_and_edit_at_the_diagnostic_line(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    record = fake_editor(tmp_path, monkeypatch)
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("c")
        assert app.clipboard.endswith("etc/claude-code/.claude/skills/security-review/SKILL.md")
        await pilot.press("3", "f")
        tree = app.query_one(DiagnosticsTree)
        while not (tree.current and tree.current.code == "yaml-invalid" and tree.cursor_data is tree.current):
            await pilot.press("j")
        await pilot.press("e")
        await until(pilot, record.exists, what="the editor to run")
        args = record.read_text().split("\n")
        assert args[0] == "+5" and args[1].endswith("broken-yaml/SKILL.md")


def test_editor_command_forms() -> None:
    path = Path("/x/SKILL.md")
    assert editor_command({"EDITOR": "nvim"}, path, 3) == ["nvim", "+3", "/x/SKILL.md"]
    assert editor_command({"VISUAL": "code -w", "EDITOR": "vi"}, path, 3) == ["code", "-w", "--goto", "/x/SKILL.md:3"]
    assert editor_command({"EDITOR": "ed"}, path, 3) == ["ed", "/x/SKILL.md"]
    assert editor_command({}, path, 3) is None


async def test_edit_without_editor_says_so(app: SkilldeckApp, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        assert any("$EDITOR" in n.message for n in app.notices)


async def test_help_lists_every_app_key(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(str(row) for _, rows in app.screen.sections for row in rows)
        for binding in app.BINDINGS:
            assert binding.description in text  # type: ignore[union-attr]
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_the_conversations_keys_do_not_reach_through_a_modal(app: SkilldeckApp) -> None:
    # The app finds its panes once; under the help screen its conversation keys still do not
    # apply (ctrl+t would have toggled the transcript behind it).
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("6")
        await until(pilot, lambda: app.panes.active == "conversation", what="the conversation tab")
        assert app.check_action("toggle_meta", ())
        await pilot.press("escape", "question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert not app.check_action("toggle_meta", ())
        await pilot.press("escape")
        assert app.check_action("toggle_meta", ())


async def test_pane_keys(app: SkilldeckApp) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        tabs = app.query_one(TabbedContent)
        await pilot.press("4")
        assert tabs.active == "listing"
        await pilot.press("2")
        assert tabs.active == "details"
        await pilot.press("1")
        assert app.focused is app.tiers


async def test_palette_goes_to_a_skill(app: SkilldeckApp) -> None:
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"research")
        await until(
            pilot,
            lambda: (
                "Go to /research" in str(app.screen.query("CommandList").first().get_option_at_index(0).prompt)
                if app.screen.query("CommandList") and app.screen.query("CommandList").first().option_count
                else False
            ),
            what="palette hit",
        )
        await pilot.press("enter")
        await until(pilot, lambda: _selected(app) == "research", what="research selected")


async def test_rules_pane_decides_for_the_skill_and_edits_settings(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    local = tmp_path / "demo" / "acme-app" / ".claude" / "settings.local.json"
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.permissions is not None, what="the settings")
        await _walk_to(pilot, "release-notes")
        await pilot.press("5")
        assert app.query_one(TabbedContent).active == "rules"
        # Worked out in a thread (deciding reads the disk): wait for it.
        await until(pilot, lambda: app.query_one(RulesPane).settled, what="the rules summary")
        summary = text_of(app.query_one("#rules-skill", Static))
        assert "Model's Skill tool: allow" in summary and "Skill(release-notes)" in summary
        assert "Bash(git log *): pre-approved" in summary
        assert "Skill rules only gate the model" in summary
        await pilot.press("d")
        await until(pilot, lambda: local.exists() and "Skill(release-notes)" in local.read_text(), what="the deny rule on disk")
        await until(
            pilot, lambda: "Model's Skill tool: deny" in text_of(app.query_one("#rules-skill", Static)), what="the new decision"
        )
        tree = app.query_one(RulesTree)
        tree.focus()
        while not (tree.current and tree.current.behavior == "deny" and tree.current.text == "Skill(release-notes)"):
            await pilot.press("j")
        await pilot.press("x")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await until(pilot, lambda: "Skill(release-notes)" not in local.read_text(), what="the rule removed")
        await until(
            pilot, lambda: "Model's Skill tool: allow" in text_of(app.query_one("#rules-skill", Static)), what="back to allow"
        )


async def test_rules_pane_refuses_a_corrupt_settings_file(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    local = tmp_path / "demo" / "acme-app" / ".claude" / "settings.local.json"
    local.write_text("{ not json")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.permissions is not None, what="the settings")
        await pilot.press("5", "a")
        await until(pilot, lambda: any(n.title == "Not written" for n in app.notices), what="the refusal")
        assert local.read_text() == "{ not json"
        assert "invalid JSON" in str(app.query_one(RulesTree).root.children[1].label)


async def test_a_layout_elsewhere_does_not_repaint_the_tree(app: SkilldeckApp) -> None:
    """The tree draws a line only when that line changes: a frame of a streamed answer (a layout
    of the conversation) draws none of it."""
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.pause()
        drawn: list[int] = []
        real = app.tiers.row_text
        app.tiers.row_text = lambda line: (drawn.append(line), real(line))[1]  # type: ignore[method-assign]
        for n in range(3):
            await app.query_one("#conversation-log").mount(Static(f"line {n}"))
            await pilot.pause()
        assert drawn == []
        await pilot.press("j")  # the cursor's move draws the two lines it changes
        await until(pilot, lambda: bool(drawn), what="the cursor's lines drawn")
        assert len(set(drawn)) <= 2


async def test_settings_read_as_the_app_closes_are_let_go(tmp_path: Path) -> None:
    """The rules pane's read of the settings can finish as the app closes, its panes already gone:
    its message (PermissionsLoaded) found no conversation to give the rules to and the app ended
    on NoMatches (seen under load in make test, at the end of a rules test)."""
    from tui.conversation.pane import ConversationPane
    from tui.messages import PermissionsLoaded

    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(140, 40)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.permissions is not None, what="the settings")
        permissions = app.permissions
        assert permissions is not None
        await app.query_one(ConversationPane).remove()  # as the closing app removes its panes
        app.post_message(PermissionsLoaded(permissions))
        await pilot.pause()
    assert app.return_code in (0, None), "the app ended by an exception"


async def test_a_change_on_disk_while_a_dialog_is_open_is_shown(tmp_path: Path) -> None:
    """A load that arrives while a dialog is open (the keys, the palette, a confirmation) is shown
    in the panes under it: the app finds its panes on its own screen, not on the dialog, and does
    not take itself for closing (`alive`) and drop the catalog."""
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(120, 36)) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        folder = tmp_path / "demo" / "acme-app" / ".claude" / "skills" / "brand-new"
        folder.mkdir()
        (folder / "SKILL.md").write_text("---\nname: brand-new\ndescription: Written while the keys were shown.\n---\nBody.\n")
        await until(pilot, lambda: app.view is not None and "brand-new" in app.view.catalog.skills, what="the new load")
        assert isinstance(app.screen, HelpScreen), "still under the dialog"
        await pilot.press("escape")
        await _walk_to(pilot, "brand-new")
