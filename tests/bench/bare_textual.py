"""The bare library beside the app (bench_tui.py): a plain Textual app of the same shape, with the
same kinds of key, measured the same way. What it takes is what Textual itself takes for such a
frame on this machine: the floor under the app's figures.

The shape: a focusable list on the left (a bordered Static of 60 lines, its top rule restyled on
focus as the tiers' is), a TabbedContent on the right with four panes of 60-line Statics. The keys:
`j`/`k` redraw the first pane's text (a move shows another skill's details), `2 3 5 1` switch
pane and focus (a pane key), and typed letters update an Input and a Static of result lines (a
search narrowing), one at a time and five at once (a paste). Nothing here is skilldeck's.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Input, Static, TabbedContent, TabPane

LINES = 60


class BareApp(App[None]):
    CSS = """
    #left { width: 38%; border-top: solid $panel-lighten-2; }
    #left:focus { border-top: heavy $accent; }
    #results { height: 1fr; }
    """
    BINDINGS = [
        *(Binding(key, f"pane('{key}')", show=False) for key in "1235"),
        Binding("j", "move(1)", show=False),
        Binding("k", "move(-1)", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.painted = asyncio.Event()
        self.shown = 0
        # The query whose results the last painted frame shows.
        self.results_for = ""

    def compose(self) -> ComposeResult:
        with Horizontal():
            with Vertical(id="side"):
                yield Input(id="query")
                yield Static(id="results")
                left = Static(_lines("skill"), id="left")
                left.can_focus = True
                yield left
            with TabbedContent(id="panes"):
                for pane in "235":
                    with TabPane(f"{pane} pane", id=f"p{pane}"):
                        body = Static(_lines(f"pane {pane}"), id=f"body{pane}")
                        body.can_focus = True
                        yield body
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#query").display = False
        self.query_one("#left").focus()

    def _mark(self) -> None:
        self.call_after_refresh(self.painted.set)

    def action_pane(self, key: str) -> None:
        if key == "1":
            self.query_one("#left").focus()
        else:
            self.query_one(TabbedContent).active = f"p{key}"
            self.query_one(f"#body{key}").focus()
        self._mark()

    def action_move(self, step: int) -> None:
        self.shown += step
        self.query_one("#body2", Static).update(_lines(f"skill {self.shown} details"))
        self._mark()

    def on_input_changed(self, event: Input.Changed) -> None:
        words = [f"result {event.value} {i}: a description of the result" for i in range(LINES // 3)]
        self.query_one("#results", Static).update("\n".join(words))
        self.call_after_refresh(self._results_shown, event.value)

    def _results_shown(self, query: str) -> None:
        self.results_for = query
        self.painted.set()


def _lines(label: str) -> str:
    return "\n".join(f"{label} line {i}: some text that fills a line of the pane" for i in range(LINES))


async def browse(rounds: int = 25) -> dict[str, Any]:
    """The same keys as bench_tui.browse, as many times."""
    app = BareApp()
    out: dict[str, Any] = {}
    async with app.run_test(size=(160, 48)) as pilot:
        await pilot.pause()

        async def key(name: str) -> float:
            app.painted.clear()
            start = time.perf_counter()
            app.post_message(events.Key(name, name if len(name) == 1 else None))
            await asyncio.wait_for(app.painted.wait(), 10)
            return time.perf_counter() - start

        out["move"] = [await key(k) for _ in range(rounds) for k in "jjkk"]
        out["pane"] = [await key(k) for _ in range(rounds) for k in "2351"]
        field = app.query_one("#query", Input)
        field.display = True
        field.focus()
        await pilot.pause()
        out["search"] = []
        for _ in range(rounds // 8 + 1):
            out["search"] += [await key(letter) for letter in "skill-0"]
            for _ in range(7):
                await key("backspace")
        out["paste"] = []
        for _ in range(5):
            # Every letter posted at once; done at the frame that shows the whole word's results.
            app.painted.clear()
            start = time.perf_counter()
            for letter in "godot":
                app.post_message(events.Key(letter, letter))
            while app.results_for != "godot":
                app.painted.clear()
                await asyncio.wait_for(app.painted.wait(), 10)
            out["paste"].append(time.perf_counter() - start)
            for _ in range(5):
                await key("backspace")
    return out
