"""The listing's text, drawn a row at a time: wrapped at spaces like the Static it replaces, and
only the rows on screen are made (tui/widgets/textlines.py)."""

from __future__ import annotations

from pathlib import Path

from rich.console import Console
from rich.style import Style
from rich.text import Text

from engine import printable
from tui.app import SkilldeckApp
from tui.widgets.strips import text_strip
from tui.widgets.textlines import TextLines, breaks, row_count

from .conftest import until


def _rows(line: str, width: int) -> list[str]:
    cuts = [*breaks(line, width), len(line)]
    return [line[cuts[i] : cuts[i + 1]].rstrip(" ") for i in range(len(cuts) - 1)]


def test_lines_wrap_at_spaces_and_a_long_word_is_cut_where_the_row_is_full() -> None:
    assert _rows("- deploy: Ship the branch to staging", 16) == ["- deploy: Ship", "the branch to", "staging"]
    assert _rows("ab abcdefghijklmnopqrstuvwxyz cd", 10) == ["ab", "abcdefghij", "klmnopqrst", "uvwxyz cd"]
    assert _rows("", 10) == [""] and _rows("  indented", 20) == ["  indented"]
    # Wide characters take two cells each.
    assert _rows("技能技能技能", 5) == ["技能", "技能", "技能"]


def test_the_quick_count_of_rows_agrees_with_wrapping() -> None:
    lines = ["- deploy: Ship the branch", "x" * 16, "x" * 17, "技能技能技能", "a\tb c", "esc \x1b[31m red", "", "é" * 16]
    for line in lines:
        for width in (1, 5, 16, 17, 40):
            assert row_count(line, width) == len(breaks(printable(line), width)), (line, width)


async def test_a_big_listing_is_drawn_only_where_it_is_on_screen(tmp_path: Path) -> None:
    from tests.bench.bench_catalog import make_tree

    app = SkilldeckApp(make_tree(tmp_path / "big", 3_000), blink=False, watch=False)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(pilot, lambda: app.loaded_once, timeout=120, what="the catalog")
        text = app.query_one("#listing-text", TextLines)
        drawn: list[int] = []
        real = text.render_line
        text.render_line = lambda y: (drawn.append(y), real(y))[1]  # type: ignore[method-assign]
        await pilot.press("4")
        await until(pilot, lambda: bool(drawn), what="the listing drawn")
        await pilot.pause()
        assert len(text.lines) > 3_000 and text.size.height > 3_000
        assert max(drawn) < 36, "rows below the screen were never made"


def test_a_text_with_a_style_of_its_own_and_no_spans_keeps_it() -> None:
    # Rich's Text.render leaves a text's own style to its caller when it has no spans: the
    # listing's first line (bold) and a search result's description (dim) came out plain.
    base = Style.parse("#e0e0e0 on #121212")
    for text, kept in ((Text("The following skills", "bold"), "bold"), (Text("  A description", "dim"), "dim")):
        strip = text_strip(text, Console(), 30, base)
        styles = [segment.style for segment in strip if segment.text.strip()]
        assert styles and all(getattr(style, kept) for style in styles), (text.plain, styles)
        assert strip.cell_length == 30
