"""Each pane at 80x24 and 160x48, drawn from the demo workspace (paths shown as <demo>)."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import demo_app, loaded, until

PANES = {
    "details": ["j", "j", "j", "j", "j"],
    "broken": ["j", "j", "j", "j", "j", "j"],
    "diagnostics": ["3"],
    "listing": ["4"],
    "rules": ["j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "5"],
    "search": ["slash", "r", "e", "v"],
    "help": ["question_mark"],
}


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=["80x24", "160x48"])
@pytest.mark.parametrize("pane", list(PANES))
def test_pane(snap_compare, tmp_path: Path, pane: str, size: tuple[int, int]) -> None:  # type: ignore[no-untyped-def]
    app = demo_app(tmp_path / "demo")

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await loaded(pilot)
        await pilot.press(*PANES[pane])
        # The body is read after the cursor rests; wait for it rather than for time.
        await until(pilot, lambda: app.settled and app.permissions is not None, what="the details to settle")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=run_before)
