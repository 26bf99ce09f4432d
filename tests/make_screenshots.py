"""`make screenshots`: an SVG of each pane of the demo workspace, into screenshots/.

The demo is built in a fixed place and shown as <demo>, so the pictures only change when
the screens do.
"""

from __future__ import annotations

import asyncio
import shutil
import sys
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from engine.demo import make_demo  # noqa: E402
from tui.app import SkilldeckApp  # noqa: E402
from tui.view import PathDisplay  # noqa: E402

Steps = Callable[[object], Awaitable[None]]


def demo_app(folder: Path) -> SkilldeckApp:
    return SkilldeckApp(make_demo(folder), PathDisplay.default([(folder, "<demo>")]), blink=False)


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    for _ in range(500):
        if pilot.app.settled and pilot.app.permissions is not None:
            break
        await pilot.pause(0.01)
    await pilot.pause()


SHOTS: list[tuple[str, list[str]]] = [
    ("tiers-and-details", ["down", "down", "down"]),
    ("broken-skill", ["down", "down", "down", "down", "down", "down", "down"]),
    ("diagnostics", ["3"]),
    ("listing", ["4"]),
    ("rules", ["j", "j", "j", "j", "j", "j", "j", "j", "j", "j", "5"]),
    ("search", ["slash", "r", "e", "v"]),
    ("help", ["question_mark"]),
]


async def shoot(out: Path, size: tuple[int, int]) -> None:
    for name, keys in SHOTS:
        folder = Path(tempfile.mkdtemp(prefix="skilldeck-shot-"))
        try:
            app = demo_app(folder)
            async with app.run_test(size=size) as pilot:
                await settle(pilot)
                for key in keys:
                    await pilot.press(key)
                await settle(pilot)
                app.save_screenshot(str(out / f"{name}.svg"))
        finally:
            shutil.rmtree(folder, ignore_errors=True)
        print(f"screenshots/{name}.svg")


if __name__ == "__main__":
    target = ROOT / "screenshots"
    target.mkdir(exist_ok=True)
    asyncio.run(shoot(target, (120, 36)))
