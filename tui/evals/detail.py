"""enter on a request in the evals tab: what was sent (the whole request, as JSON) and what the
model answered (the skill it called, its words, the tokens, or why it failed).

The request holds the listing (skills' descriptions) and the user's request, and the answer is a
model's: all shown through `printable`."""

from __future__ import annotations

import json

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine import EvalDetail, RouteOutcome, printable

from ..keys import keys_line


def answer_lines(outcome: RouteOutcome | None) -> list[Text]:
    if outcome is None:
        return [Text("Not asked yet: R runs the requests.", "dim")]
    if outcome.failed:
        return [Text(printable(f"Failed ({outcome.error_kind or 'error'}): {outcome.error}"), "bold red")]
    called = f"called the Skill tool for {outcome.skill}" if outcome.skill else "called no skill"
    if outcome.skill is None and outcome.tool:
        called += f" (it called {outcome.tool} itself)"
    lines = [
        Text.assemble(("The model ", "bold"), (printable(called), "bold cyan")),
        Text(
            f"stop: {printable(outcome.stop) or '—'} · {outcome.input_tokens:,} input, {outcome.output_tokens:,} output tokens"
            + (" · from the cache" if outcome.cached else ""),
            "dim",
        ),
    ]
    if outcome.text.strip():
        lines.append(Text(printable(outcome.text.strip())))
    return lines


def detail_renderable(detail: EvalDetail) -> Group:
    item = detail.request
    case = item.case
    met = {True: ("met", "green"), False: ("not met", "red"), None: ("", "")}[detail.met]
    head: list[RenderableType] = [
        Text(printable(case.request), "bold"),
        Text.assemble(
            (f"expected {printable(case.expected_label)}", "cyan"),
            f" · {item.variant} · run {item.run} · {printable(case.id)} · key {item.key[:12]}  ",
            met,
        ),
        Rule("What the model answered", align="left", style="dim"),
        *answer_lines(detail.outcome),
        Rule("What was sent (the whole request)", align="left", style="dim"),
        Text(printable(json.dumps(item.request.to_dict(), indent=2, ensure_ascii=False))),
    ]
    return Group(*head)


class EvalDetailScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "dismiss", "Close", id="evaldetail.close"),
        Binding("q", "dismiss", "Close", show=False, id="evaldetail.close2"),
    ]

    def __init__(self, detail: EvalDetail) -> None:
        super().__init__()
        self.detail = detail

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="evaldetail-box"):
            yield Static(detail_renderable(self.detail), id="evaldetail-text")
        yield keys_line(self.BINDINGS)  # type: ignore[arg-type]

    def on_mount(self) -> None:
        self.query_one("#evaldetail-box").focus()
