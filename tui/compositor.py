"""The main screen's compositor, without the second layout Textual's does after each reflow.

Textual's compositor keeps a map of every widget's place ("full map") and rebuilds it, arranging
every widget again, whenever it is marked stale and some widget's region is asked for (many are,
while drawing). `reflow` builds a new full map but leaves the stale mark as it was (a new
compositor starts marked, a scroll marks it), so in Textual 8.2 the frame after such a reflow laid
the whole screen out twice. Measured with tests/bench/bench_conversation.py before this: ~250 of
the ~300 frames of the stream did, ~5 ms each; after it, one arrangement per layout.
"""

from __future__ import annotations

from textual._compositor import Compositor, ReflowResult
from textual.geometry import Size
from textual.screen import Screen
from textual.widget import Widget


class KeptMapCompositor(Compositor):
    def reflow(self, parent: Widget, size: Size) -> ReflowResult:
        result = super().reflow(parent, size)
        # The map just built covers every widget (`visible_only=False`): it is the full map.
        self._full_map_invalidated = False
        return result


def keep_map(screen: Screen) -> Screen:
    """`screen`, given a KeptMapCompositor (before it is first laid out)."""
    screen._compositor = KeptMapCompositor()
    return screen
