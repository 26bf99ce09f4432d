"""The app's footer: one line of text for the keys that apply, whose `? Keys` never falls off its
end, and which a change of focus or tab redraws as one line, in the same frame.

Textual's footer is a widget per key, mounted afresh on every change of focus or tab after the
frame that showed the change: a second frame with a layout of the screen on every pane key (and
some 300 ms a pane switch on 2 cores before the lines were kept). Here the keys are drawn as text
by the footer itself, when the screen says its bindings changed; a click on a key presses it."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events
from textual.app import RenderResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widget import Widget


@dataclass(frozen=True)
class ShownKey:
    """A key on the footer line: what it does, how it is drawn (`shown` in the key's style, then
    `words` in the description's) and the cells it takes (`start` to `end`)."""

    key: str
    action: str
    enabled: bool
    shown: str
    words: str
    start: int

    @property
    def end(self) -> int:
        return self.start + cell_len(self.shown) + cell_len(self.words)


class KeysFooter(Widget, can_focus=False):
    """The focused pane's keys, then the app's, as Textual's footer lists them; `? Keys` (the one
    that lists the others) and the palette's key at the right end, and a key that would not fit
    whole before them left out rather than cut. Below 100 columns the keys lose their padding."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"footer-key--key", "footer-key--description"}
    DEFAULT_CSS = """
    KeysFooter {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
        & > .footer-key--key {
            color: $footer-key-foreground;
            background: $footer-key-background;
            text-style: bold;
        }
        & > .footer-key--description {
            color: $footer-description-foreground;
            background: $footer-description-background;
        }
    }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.shown: list[ShownKey] = []
        self._signature: Hashable = None

    def on_mount(self) -> None:
        # At once, not after the next frame: the keys change in the frame that shows the change.
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed, immediate=True)
        self._update()

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def on_resize(self, event: events.Resize) -> None:
        self._update()

    def _bindings_changed(self, screen: Screen[object]) -> None:
        if screen is self.screen:
            self._update()

    def _keys(self) -> tuple[list[tuple[Binding, bool]], list[tuple[Binding, bool]]]:
        """The keys to show, as Textual's footer picks them (one per action, `show` ones), split
        into the line's start and its right end."""
        keys: list[tuple[Binding, bool]] = []
        end: list[tuple[Binding, bool]] = []
        actions: set[str] = set()
        palette = self.app.COMMAND_PALETTE_BINDING
        for _, binding, enabled, _ in self.screen.active_bindings.values():
            if binding.key == palette and self.app.ENABLE_COMMAND_PALETTE:
                end.append((binding, enabled))
            elif binding.show and binding.action not in actions:
                actions.add(binding.action)
                (end if binding.action == "help" else keys).append((binding, enabled))
        end.sort(key=lambda item: item[0].key == palette)  # the palette's key last
        return keys, end

    def _update(self) -> None:
        if not self.is_attached:
            return
        keys, end = self._keys()
        width = self.size.width
        compact = width < 100
        signature = (tuple((b.key, b.action, b.description, b.key_display, e) for b, e in keys + end), width)
        if signature == self._signature:
            return
        self._signature = signature
        room = width - sum(self._key(binding, True, compact, 0).end for binding, _ in end) if width else None
        shown: list[ShownKey] = []
        x = 0
        for binding, enabled in keys:
            key = self._key(binding, enabled, compact, x)
            if room is not None and key.end > room:
                break  # whole or not at all
            shown.append(key)
            x = key.end
        x = max(x, room or x)
        for binding, enabled in end:
            shown.append(self._key(binding, enabled, compact, x))
            x = shown[-1].end
        self.shown = shown
        self.refresh()

    def _key(self, binding: Binding, enabled: bool, compact: bool, start: int) -> ShownKey:
        display = self.app.get_key_display(binding)
        shown = display if compact else f" {display} "
        if binding.key == self.app.COMMAND_PALETTE_BINDING:
            shown = "▏" + shown.lstrip()  # set apart from the keys of the app
        # Compact, a space after the words still sets the next key apart (`f Fork a Run`, not `f Forka Run`).
        words = (f" {binding.description} " if compact else f"{binding.description} ") if binding.description else ""
        return ShownKey(binding.key, binding.action, enabled, shown, words, start)

    def render(self) -> RenderResult:
        # Styled here, not when the keys change: a change of theme restyles the line.
        key_style = self.get_component_rich_style("footer-key--key", partial=True)
        words_style = self.get_component_rich_style("footer-key--description", partial=True)
        line = Text()
        for key in self.shown:
            line.append(" " * (key.start - line.cell_len))
            part = Text.assemble((key.shown, key_style), (key.words, words_style))
            if not key.enabled:
                part.stylize("dim")
            line.append_text(part)
        return line

    def on_click(self, event: events.Click) -> None:
        for key in self.shown:
            if key.start <= event.x < key.end:
                if key.enabled:
                    self.app.simulate_key(key.key)
                else:
                    self.app.bell()
                return
