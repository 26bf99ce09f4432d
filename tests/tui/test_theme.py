"""The chosen theme is remembered across runs (a broken file is ignored), and the light theme's
offline note reads."""

from __future__ import annotations

import os
import re
from pathlib import Path

from textual.color import Color

from tui.app import SkilldeckApp
from tui.conversation.pane import ConversationPane
from tui.theme import theme_file

from .conftest import loaded, run_done, served_app, until
from .test_app import _walk_to


def _state(tmp_path: Path) -> dict[str, str]:
    return {"XDG_STATE_HOME": str(tmp_path / "state")}


async def test_the_chosen_theme_is_remembered(tmp_path: Path) -> None:
    saved = theme_file(_state(tmp_path))
    app = served_app(tmp_path, None)
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        assert app.theme != "textual-light"
        app.theme = "textual-light"
        await until(pilot, lambda: saved.is_file() and saved.read_text().strip() == "textual-light", what="the theme saved")
    assert not [p for p in saved.parent.iterdir() if p.name.startswith(".theme-")]  # no temporary left behind
    again = served_app(tmp_path, None)
    async with again.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        assert again.theme == "textual-light"


async def _starts_plain(app: SkilldeckApp) -> None:
    async with app.run_test(size=(100, 30)) as pilot:
        await loaded(pilot)
        assert app.theme == "textual-dark"


async def test_a_broken_theme_file_is_ignored(tmp_path: Path) -> None:
    saved = theme_file(_state(tmp_path))
    saved.parent.mkdir(parents=True)
    for content in (b"\xff\xfe not utf-8", b"no-such-theme\n", b"textual-light" * 100, b""):
        saved.write_bytes(content)
        await _starts_plain(served_app(tmp_path, None))
    saved.unlink()
    saved.mkdir()  # a folder where the file should be
    await _starts_plain(served_app(tmp_path, None))
    saved.rmdir()
    os.symlink("/dev/zero", saved)  # never read without end
    await _starts_plain(served_app(tmp_path, None))


def _luminance(colour: Color) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)


def _contrast(a: Color, b: Color) -> float:
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def test_the_offline_note_reads_on_the_light_theme(tmp_path: Path) -> None:
    app = served_app(tmp_path, None)
    async with app.run_test(size=(120, 30)) as pilot:
        await loaded(pilot)
        app.theme = "textual-light"
        # The note shows once a run has chosen the (offline) backend.
        await _walk_to(pilot, "release-notes")
        await pilot.press("enter")
        await until(pilot, lambda: run_done(app), what="the offline run")
        pane = app.query_one(ConversationPane)
        await until(pilot, lambda: pane.offline and app.query_one("#conversation-note").display, what="the offline note")
        await pilot.pause()
        svg = app.export_screenshot()
        background = app.query_one("#conversation-note").background_colors[1]
    # The note's first word, as the screenshot draws it, and the colour of its class.
    classes = dict(re.findall(r"\.(terminal-[\w-]+) \{ fill: (#[0-9a-f]{6})", svg))
    drawn = re.search(r'<text class="(terminal-[\w-]+)"[^>]*>Offline:', svg)
    assert drawn is not None
    ink = Color.parse(classes[drawn.group(1)])
    assert _contrast(ink, background) >= 4.5, (ink.hex, background.hex)
