"""At 80 columns the footer's keys stay apart (issue 34: `f Forka Run with args- Collapse all`)."""

from __future__ import annotations

from pathlib import Path

from tui.widgets.footer import KeysFooter

from .conftest import demo_app, loaded


async def test_at_80_columns_each_key_is_set_apart_from_the_last_description(tmp_path: Path) -> None:
    app = demo_app(tmp_path / "demo")
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        footer = app.query_one(KeysFooter)
        line = str(footer.render())
        assert "f Fork a Run with args - Collapse all" in line, line
        words = [key.words for key in footer.shown]
        assert all(w.endswith(" ") for w in words[:-1]), words
