"""What a pane's number key focuses when the pane is a scrolling container full of widgets.

Textual restyles a widget and everything in it each time its focus changes. A pane that takes the
focus itself is restyled whole on its key and again on the key that leaves it: the details pane
with a long body's Markdown blocks (some 130 widgets, 100 to 300 ms at 15,000 skills), the listing
pane with its budget bar and sections. A `PaneKeys` of no size at the top of the pane takes the
focus instead: the pane's own keys (its bindings: scrolling, compare, what-if) are next up the focus
chain, so they still apply, and only this one widget is restyled.

`PaneKeysScreen` is the app's screen: Textual's `Screen.focused` repaints the whole screen each
time the focus moves (docs/upstream/focus-full-repaint.md), every line of every widget on it cut
and joined again, where the widgets that gain or lose the focus, and those whose style follows it,
refresh themselves. Declared without the repaint, a pane key draws what changed (at 15,000
skills, the whole screen was a fifth of a pane key)."""

from __future__ import annotations

from textual import events
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget


class PaneKeys(Widget, can_focus=True):
    DEFAULT_CSS = "PaneKeys { height: 0; }"

    def focus(self, scroll_visible: bool = True) -> PaneKeys:
        # At the top of the pane: scrolling to it would lose the reader's place.
        super().focus(scroll_visible=False)
        return self


def focus_keys_on_click(pane: Widget, event: events.Click) -> None:
    """A click in the pane gives it the keys, as a click on a focusable pane did."""
    pane.query_one(PaneKeys).focus()


class PaneKeysScreen(Screen[None]):
    # The same reactive as Screen's, its watcher (the footer's keys) kept, without repaint=True.
    focused: Reactive[Widget | None] = Reactive(None, repaint=False)
