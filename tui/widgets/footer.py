"""The app's footer, whose `? Keys` never falls off its end."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.containers import HorizontalGroup
from textual.widget import Widget
from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's footer lists the focused pane's keys before the app's: at 80 columns the pane's
    (Fork, Run with args, Collapse all...) pushed `? Keys`, the one that lists the others, off the
    line. Here it sits at the right end with the palette's key, and a key that would not fit whole
    before them is left out rather than cut (`q` without its `Quit`)."""

    def compose(self) -> ComposeResult:
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

    def _width(self, key: Widget) -> int:
        """The cells a key takes on the line, as Footer's styles lay it out (compact or not)."""
        shown, description = getattr(key, "key_display", ""), getattr(key, "description", "")
        words = len(description) + 1 if description else 0
        return len(shown) + words + (1 if self.compact else 2)

    def on_resize(self, event: events.Resize) -> None:
        # Below 100 columns the keys lose their padding: the tree's keys and `? Keys` fit 80.
        compact = event.size.width < 100
        if compact != self.compact:
            self.compact = compact
        else:
            self.call_after_refresh(self.recompose)
