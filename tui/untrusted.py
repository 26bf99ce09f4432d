"""Strings from files and models, made safe for the app's widgets.

Two hazards, one helper each. A skill file, a folder name, a settings file, a model's answer or
a tool's result can hold terminal controls (an OSC 52 clipboard write, a title change, a screen
clear, their one-byte C1 forms): Rich and Textual drop only BEL, BS, VT, FF and CR from a widget's
text and write ESC and C1 to the terminal as they are. And such a string can look like markup
(`[/b]` is a MarkupError, a crash; `[link=...]` a link nobody wrote) wherever an API parses `str`
as markup (a `Static` or a tree label given a `str`, a notification, a palette hit's help, a
`Collapsible` title).

Why at each widget and not at one choke point: no public Textual API sees every string before it
becomes terminal output. The driver (`App(driver_class=...)`) sees only the final bytes, where a
hostile ESC cannot be told from Textual's own drawing sequences; the compositor that joins the
widgets' lines is private (`Screen._compositor`); `Tree.process_label`, `Widget.render_line`,
`Widget.post_render` (Rich renderables only, not Content) and `App.notify` each cover one kind of
widget or text, and Textual's own widgets (Markdown, Toast, the command palette, Input) draw
through paths of their own. So every untrusted string goes through
`printable` where a widget takes it, as a `Text`/`Content` (never parsed as markup) or, where an
API takes only markup, escaped.
"""

from __future__ import annotations

from rich.text import Text
from textual.content import Content

from engine import printable


def text(value: object, style: str = "") -> Text:
    """A Rich `Text` of `value` with its controls shown (`^[`), never parsed as markup."""
    return Text(printable(str(value)), style)


def content(value: object, style: str = "") -> Content:
    """A Textual `Content` of `value` with its controls shown, never parsed as markup (for APIs
    such as `Collapsible(title=...)` that parse a `str` as markup but take a `Content` as it is)."""
    return Content.styled(printable(str(value)), style) if style else Content(printable(str(value)))


def markup(value: object) -> str:
    """`value` with its controls shown and every `[` escaped, for the few APIs that take only a
    markup `str` (a command palette hit's help). Not `textual.markup.escape`: it leaves `[$x]` (a
    variable, drawn as nothing) and `[Bold]` as markup; Textual reads every `\\[` as a plain `[`,
    whatever precedes it, so escaping each one shows the text exactly as written."""
    return printable(str(value)).replace("[", "\\[")
