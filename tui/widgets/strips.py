"""The widgets drawn a line at a time: Rich text made into Textual strips, over a style worked out once a pass."""

from __future__ import annotations

from collections.abc import Callable, Hashable

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget


def text_strip(text: Text, console: Console, width: int, base: Style) -> Strip:
    """`text` as one line `width` cells wide, over the widget's own style `base`. Rich's
    `Text.render` leaves a text's own style to its caller when the text has no spans (a result's
    dim description came out in full white): it is made a span under the others first."""
    if text.style:
        text.stylize_before(text.style)
    return Strip(list(text.render(console))).apply_style(base).crop_extend(0, width, base)


class LineWidget(Widget):
    """A widget drawn a line at a time (Textual's line API), whose lines are drawn over its own
    style. Textual works `rich_style` out afresh, over every ancestor, each time it is asked: once
    per line was a fifth of a pane key's time. Here it is worked out once per render pass.

    Mixed in last (`class Tree(ScrollView, LineWidget)`): Textual takes a widget's CSS (its
    DEFAULT_CSS, its type names) from the first base only, and a ScrollView put after it lost its
    scrollbars."""

    _pass_style: Style | None = None
    # Lines kept drawn, by everything their look depends on (a few screens of them): scrolling
    # back, a change of focus, or a search letter that keeps most results draws none again.
    KEPT_LINES = 500
    _kept_lines: dict[Hashable, Strip] | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        self._pass_style = self.rich_style
        return super().render_lines(crop)

    @property
    def line_base(self) -> Style:
        """The widget's style as of this render pass (or now, asked outside of one)."""
        return self._pass_style if self._pass_style is not None else self.rich_style

    def kept_line(self, key: Hashable, draw: Callable[[], Strip]) -> Strip:
        """The line kept for `key`, drawn by `draw` the first time (all forgotten past KEPT_LINES)."""
        kept = self._kept_lines
        if kept is None:
            kept = self._kept_lines = {}
        strip = kept.get(key)
        if strip is None:
            if len(kept) >= self.KEPT_LINES:
                kept.clear()
            strip = kept[key] = draw()
        return strip

    def forget_lines(self) -> None:
        """What the kept lines show changed beyond their keys."""
        if self._kept_lines:
            self._kept_lines.clear()
