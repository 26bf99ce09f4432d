"""The app's footer, whose `? Keys` never falls off its end, and which costs nothing when a key
changes focus or tab.

Textual's footer mounts a fresh widget per key on every change of focus or tab, and again for each
such change in the same frame (four on a pane key): some 300 ms a pane switch on 2 cores. Here each
distinct line of keys is built once, kept, and shown again when the same keys apply (a handful of
lines: one per pane and state); a change that leaves the keys as they are does nothing."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from textual import events
from textual.app import ComposeResult
from textual.compose import compose
from textual.containers import HorizontalGroup
from textual.widget import Widget
from textual.widgets import Footer

# Lines of keys kept for showing again; the least recently shown goes first.
KEPT_LINES = 16


class KeysFooter(Footer):
    """Textual's footer lists the focused pane's keys before the app's: at 80 columns the pane's
    (Fork, Run with args, Collapse all...) pushed `? Keys`, the one that lists the others, off the
    line. Here it sits at the right end with the palette's key, and a key that would not fit whole
    before them is left out rather than cut (`q` without its `Quit`)."""

    DEFAULT_CSS = """
    KeysFooter > .keys-line {
        width: 1fr;
        height: 1;
    }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        # Every line built, by what it shows (keys, width, compactness), the one shown last.
        self._lines: dict[Hashable, Widget] = {}
        self._shown: Hashable | None = None

    def compose(self) -> ComposeResult:
        # Nothing of its own: the keys are in lines (`recompose`).
        return iter(())

    def _keys(self) -> ComposeResult:
        keys: list[Widget] = []
        end: list[Widget] = []
        for widget in super().compose():
            # A FooterKey (Textual does not export the class): its action names it.
            if getattr(widget, "action", None) == "help" or widget.has_class("-command-palette"):
                end.append(widget)
            else:
                keys.append(widget)
        room = self.size.width - sum(self._width(key) for key in end) - 2
        for key in keys:
            room -= self._width(key)
            if room < 0 and self.size.width:
                break
            yield key
        if end:
            yield HorizontalGroup(*end, id="footer-end")

    def _signature(self) -> Hashable:
        """What a line of keys depends on: the keys that show, as Footer draws them, and the room."""
        keys = tuple(
            (binding.key, binding.action, binding.description, binding.key_display, binding.group, enabled, tooltip)
            for (_, binding, enabled, tooltip) in self.screen.active_bindings.values()
            if binding.show or binding.key == self.app.COMMAND_PALETTE_BINDING
        )
        return keys, self.size.width, self.compact, self.show_command_palette

    async def recompose(self) -> None:
        """Show the line of the keys that apply now: the one shown already, a kept one, or a new one."""
        if not self.is_attached:
            return
        wanted = self._signature()
        if wanted == self._shown:
            return
        line = self._lines.pop(wanted, None)
        if line is None:
            line = HorizontalGroup(*compose(self, self._keys()), classes="keys-line")
            await self.mount(line)
        self._lines[wanted] = line  # last: the most recently shown
        self._shown = wanted
        for other in self._lines.values():
            other.display = other is line
        while len(self._lines) > KEPT_LINES:
            oldest = next(iter(self._lines))
            await self._lines.pop(oldest).remove()

    def _width(self, key: Widget) -> int:
        """The cells a key takes on the line, as Footer's styles lay it out (compact or not)."""
        shown, description = getattr(key, "key_display", ""), getattr(key, "description", "")
        words = len(description) + 1 if description else 0
        return len(shown) + words + (1 if self.compact else 2)

    def on_resize(self, event: events.Resize) -> None:
        # Below 100 columns the keys lose their padding: the tree's keys and `? Keys` fit 80.
        self.compact = event.size.width < 100
        self.call_after_refresh(self.recompose)
