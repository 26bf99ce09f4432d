"""Approving a tool call no rule allows: once, always (a rule is written), or deny."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import Any

from rich.syntax import Syntax
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


def preview(tool: str, tool_input: dict[str, Any]) -> Text | Syntax:
    """The command for Bash, a diff for Edit and Write, the input otherwise."""
    if tool == "Bash":
        return Syntax(str(tool_input.get("command", "")), "bash", word_wrap=True)
    if tool in ("Edit", "Write"):
        path = Path(str(tool_input.get("file_path", "")))
        try:
            before = path.read_text(encoding="utf-8") if path.is_file() else ""
        except OSError:
            before = ""
        if tool == "Write":
            after = str(tool_input.get("content", ""))
        else:
            old, new = str(tool_input.get("old_string", "")), str(tool_input.get("new_string", ""))
            after = before.replace(old, new) if tool_input.get("replace_all") else before.replace(old, new, 1)
        diff = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), str(path), str(path)))
        return Syntax(diff or "(no change)", "diff", word_wrap=True)
    return Text(json.dumps(tool_input, indent=2, ensure_ascii=False))


class ApproveScreen(ModalScreen[str]):
    BINDINGS = [
        Binding("o", "answer('once')", "Allow once", id="approve.once"),
        Binding("a", "answer('always')", "Allow always", id="approve.always"),
        Binding("d", "answer('deny')", "Deny", id="approve.deny"),
        Binding("escape", "answer('deny')", "Deny", show=False, id="approve.escape"),
    ]

    def __init__(self, tool: str, tool_input: dict[str, Any], reason: str, rule: str) -> None:
        super().__init__()
        self.tool, self.tool_input, self.reason, self.rule = tool, tool_input, reason, rule

    def compose(self) -> ComposeResult:
        with Vertical(id="approve-box"):
            yield Static(Text.assemble(("Allow ", "bold"), (self.tool, "bold cyan"), ("?  ", "bold"), (self.reason, "dim")))
            with VerticalScroll(id="approve-preview"):
                yield Static(preview(self.tool, self.tool_input))
            yield Static(
                Text.assemble(("allow always writes ", "dim"), (self.rule, "bold"), (" to .claude/settings.local.json", "dim"))
            )
            yield Static(Text("o: allow once · a: allow always · d or escape: deny", "bold"))

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)
