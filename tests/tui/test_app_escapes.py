"""The app on a hostile skill: terminal controls in its text are shown, never written to the
terminal, and looking at the skill runs none of its `!` commands (issue 14, Security)."""

from __future__ import annotations

import json

from textual.widgets import Markdown

from tests.conftest import Tree, skill_text, write
from tui.app import SkilldeckApp
from tui.view import PathDisplay

from .conftest import loaded, until

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
            data = app.tree.current
            if data and data.skill and data.skill.name == "evil":
                break
            await pilot.press("j")
        body = app.query_one("#details-body", Markdown)
        await until(pilot, lambda: "Body" in body.source, what="the body of evil")
        await pilot.pause()
        assert "^[]52;c;cHduZWQ=^G" in body.source
        assert _controls(app) == []
        await pilot.press("4")
        await pilot.pause()
        assert _controls(app) == []
    assert not (tree.project / "pwned").exists(), "looking at a skill runs none of its ! commands"
