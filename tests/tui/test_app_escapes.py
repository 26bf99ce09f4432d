"""The app on a hostile skill: terminal controls in its text are shown, never written to the
terminal, and looking at the skill runs none of its `!` commands (issue 14, Security)."""

from __future__ import annotations

import json
from pathlib import Path

from textual.containers import VerticalScroll
from textual.widgets import Collapsible

from tests.conftest import Tree, skill_text, write
from tests.llm_server import MessagesServer, Reply
from tui.app import SkilldeckApp
from tui.conversation.pane import ConversationPane
from tui.screens.approve import ApproveScreen
from tui.screens.arguments import ArgumentsScreen
from tui.view import PathDisplay
from tui.widgets.markdown_body import MarkdownBody
from tui.widgets.search import ResultsList

from .conftest import loaded, run_done, served_app, until
from .test_app import _walk_to

# OSC 52 (clipboard write), OSC 0 (title), CSI 2J (clear), their one-byte C1 forms, DEL.
ESCAPES = "\x1b]52;c;cHduZWQ=\x07 \x1b]0;owned\x07 \x1b[2J \x9b2J \x9d0;t\x9c \x7f"
YAML_ESCAPES = r"\e]52;c;cHduZWQ=\a \e]0;owned\a \e[2J \x9b2J \x9d0;t\x9c \x7f"


def _controls(app: SkilldeckApp) -> list[str]:
    """Every control character in the text of what the screen would write now: Textual writes a
    segment's text between its own style sequences as it is, so any control here reaches the terminal."""
    found = []
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            found += [c for c in segment.text if ord(c) < 0x20 or 0x7F <= ord(c) <= 0x9F]
    return found


async def test_details_and_listing_show_controls_without_sending_them(tree: Tree) -> None:
    tree.skill(
        "evil",
        skill_text(
            body=f"Body {ESCAPES}\n\nNow: !`touch pwned`\n",
            name="evil",
            description=f'"Looks fine {YAML_ESCAPES}"',
            when_to_use=f'"Always {YAML_ESCAPES}"',
            argument__hint=f'"[x {YAML_ESCAPES}]"',
            model=f'"m{YAML_ESCAPES}"',
        ),
    )
    write(tree.skills() / "evil" / f"notes{ESCAPES[:9]}.md", "x")
    write(tree.user / "settings.json", json.dumps({"permissions": {"allow": ["Bash(touch *)"]}}))
    app = SkilldeckApp(tree.locations(environ={"XDG_STATE_HOME": str(tree.root / "state")}), PathDisplay.default([]), blink=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await loaded(pilot)
        for _ in range(10):
            data = app.tiers.current
            if data and data.skill and data.skill.name == "evil":
                break
            await pilot.press("j")
        body = app.query_one("#details-body", MarkdownBody)
        await until(pilot, lambda: "Body" in body.source, what="the body of evil")
        await pilot.pause()
        assert "^[]52;c;cHduZWQ=^G" in body.source
        assert _controls(app) == []
        await pilot.press("4")
        await pilot.pause()
        assert _controls(app) == []
    assert not (tree.project / "pwned").exists(), "looking at a skill runs none of its ! commands"


# What a hostile file or model writes: the controls above and markup that would crash
# (`[/b]`: MarkupError), link, run an action or draw nothing (`[$accent]`) if parsed.
HOSTILE = f"[/b][$accent]{ESCAPES} [link=https://evil.example]x[/link] [@click=app.quit]q[/] [Bold]y"
# How its start shows: the markup as written, the controls in caret notation.
SHOWN = "[/b][$accent]^[]52;c;cHduZWQ=^G"
# A description after Claude Code's cleaning: the markup kept as text, the controls gone.
CLEANED = "Looks fine [/b][$accent]"
# A folder name cannot hold `/`.
FOLDER = "ev" + HOSTILE.replace("/", "") + "il"


def _screen_text(app: SkilldeckApp) -> str:
    return "\n".join("".join(segment.text for segment in strip) for strip in app.screen._compositor.render_strips())


async def _clean(pilot, where: str, *shown: str) -> None:  # type: ignore[no-untyped-def]
    """After a frame: no control on the screen, and each of `shown` is on it (so the hostile
    text really was drawn, as `^[` ... and as the literal markup)."""
    await pilot.pause()
    assert _controls(pilot.app) == [], where
    screen = _screen_text(pilot.app)
    for text in shown:
        assert text in screen, f"{text!r} not shown on {where}"


def _hostile_tree(tree: Tree) -> None:
    yaml = HOSTILE.replace("\\", "\\\\").replace('"', '\\"')
    for raw, escaped in (
        ("\x1b", r"\e"),
        ("\x07", r"\a"),
        ("\x9b", r"\x9b"),
        ("\x9d", r"\x9d"),
        ("\x9c", r"\x9c"),
        ("\x7f", r"\x7f"),
    ):
        yaml = yaml.replace(raw, escaped)
    text = skill_text(
        body=f"Body {HOSTILE}\n",
        name=f'"{yaml}"',
        description=f'"Looks fine {yaml}"',
        argument__hint=f'"{yaml}"',
        allowed__tools=f'"Bash(echo {yaml})"',
        **{f'"bo{yaml}gus"': "1"},
    )
    # Loads as /evil: its `name:` is only a label, and Claude Code cleans the controls out of
    # its description and hint (the body, the tools and the unknown key keep them).
    write(tree.skills() / "evil" / "SKILL.md", text)
    # Never loads: Claude Code offers no name with controls in it; its diagnostic names the folder.
    write(tree.skills() / FOLDER / "SKILL.md", text)
    rule = f"Bash(echo {HOSTILE})"
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"allow": [rule], "deny": [rule]}}))


async def test_every_pane_search_and_palette_show_a_hostile_skill_without_sending_controls(tree: Tree) -> None:
    _hostile_tree(tree)
    app = SkilldeckApp(tree.locations(environ={"XDG_STATE_HOME": str(tree.root / "state")}), PathDisplay.default([]), blink=False)
    async with app.run_test(size=(200, 60)) as pilot:
        await loaded(pilot)
        await until(pilot, lambda: app.tiers.current is not None and app.tiers.current.skill is not None, what="a skill")
        await _clean(pilot, "the tiers tree", "evil")
        for key, where, shown in (
            ("2", "the details pane", [CLEANED]),
            ("3", "the diagnostics pane", [f"bo{SHOWN}", "ev[b][$accent]^[]52;c;cHduZWQ=^G"]),
            ("4", "the listing pane", [CLEANED]),
            ("5", "the rules pane", [f"Bash(echo {SHOWN}"]),
            ("1", "the tiers pane", ["evil"]),
            ("6", "the conversation pane", []),
        ):
            await pilot.press(key)
            await _clean(pilot, where, *shown)
        # The arguments modal shows the skill's name and hint.
        app.tiers.focus()
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, ArgumentsScreen), what="the arguments modal")
        await _clean(pilot, "the arguments modal", "hint: [/b][$accent]")
        await pilot.press("escape")
        # The composer's hint for a typed /name shows the skill's hint and description.
        await pilot.press("6")
        composer = app.query_one("#composer")
        composer.focus()
        await pilot.press(*"/ev")
        await _clean(pilot, "the composer's completion")
        composer.value = ""
        app.tiers.focus()
        await pilot.press("slash", *"looks fine")
        await until(pilot, lambda: bool(app.query_one(ResultsList).results), what="search results")
        await _clean(pilot, "search", "evil")
        await pilot.press("escape", "ctrl+p", *"ev")
        await until(pilot, lambda: "Go to /ev" in _screen_text(app), what="the palette's hits")
        await _clean(pilot, "the command palette", "Go to /evil", CLEANED)
        await pilot.press("escape")
    assert not (tree.project / "pwned").exists()


async def _scroll_clean(pilot, log: VerticalScroll, where: str) -> str:  # type: ignore[no-untyped-def]
    """Scroll `log` from top to bottom, a page at a time, finding no control on any screen; all
    the text seen."""
    log.scroll_home(animate=False)
    seen = []
    while True:
        await _clean(pilot, where)
        seen.append(_screen_text(pilot.app))
        if log.scroll_y >= log.max_scroll_y:
            return "\n".join(seen)
        log.scroll_page_down(animate=False)


async def test_a_hostile_model_and_tool_results_are_shown_without_sending_controls(
    tmp_path: Path, server: MessagesServer
) -> None:
    app = served_app(tmp_path, server)
    project = tmp_path / "demo" / "acme-app"
    hostile_file = project / ("notes" + HOSTILE.replace("/", "") + ".txt")
    write(hostile_file, f"File {HOSTILE}\n")
    markdown = f"Answer {HOSTILE}\n\n## Heading {HOSTILE}\n\n- item {HOSTILE}\n\n```\ncode {HOSTILE}\n```\n"
    calls = [
        {"id": "r", "name": "Read", "input": {"file_path": str(hostile_file)}},
        {"id": "s", "name": "Skill", "input": {"skill": "release-notes", "args": HOSTILE}},
        {"id": "b", "name": "Bash", "input": {"command": f"env printf '{HOSTILE}'", "description": HOSTILE}},
    ]
    server.script(Reply(text=markdown, tool_uses=calls, chunk=3), Reply(text=f"Done {HOSTILE}"), Reply(text=f"Fork {HOSTILE}"))
    async with app.run_test(size=(160, 50)) as pilot:
        await loaded(pilot)
        app.query_one("#composer").focus()
        await pilot.press(*"hi", "enter")
        pane = app.query_one(ConversationPane)
        asked = []
        while not (run_done(app) and pane.settled and len(server.requests) == 2):
            if isinstance(app.screen, ApproveScreen):
                await _clean(pilot, f"the approval of {app.screen.tool}", SHOWN)
                asked.append(app.screen.tool)
                await pilot.press("d" if app.screen.tool == "Bash" else "o")
            await pilot.pause(0.02)
        assert "Bash" in asked
        for block in app.query(Collapsible):
            block.collapsed = False
        await pilot.press("ctrl+t")
        await until(pilot, lambda: bool(app.query(".context")), what="the request context")
        seen = await _scroll_clean(pilot, pane.transcript, "the conversation")
        for shown in (
            f"Answer {SHOWN}",
            f"Heading {SHOWN}",
            f"code {SHOWN}",
            f"File {SHOWN}",
            f"model invoked /release-notes {SHOWN}",
        ):
            assert shown in seen, f"{shown!r} not shown in the conversation"
        # A fork's answer shows in its own block.
        app.tiers.focus()
        await pilot.press("g")
        await _walk_to(pilot, "research")
        await pilot.press("enter")
        await until(pilot, lambda: run_done(app) and bool(app.query(".fork-result")), what="the fork's result")
        assert f"Fork {SHOWN}" in await _scroll_clean(pilot, pane.transcript, "the fork")
