"""Rich text made into Textual strips, for the widgets drawn a line at a time."""

from __future__ import annotations

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.strip import Strip


def text_strip(text: Text, console: Console, width: int, base: Style) -> Strip:
    """`text` as one line `width` cells wide, over the widget's own style `base`. Rich's
    `Text.render` leaves a text's own style to its caller when the text has no spans (a result's
    dim description came out in full white): it is made a span under the others first."""
    if text.style:
        text.stylize_before(text.style)
    return Strip(list(text.render(console))).apply_style(base).crop_extend(0, width, base)
