"""Approving a tool call no rule allows: once, always (a rule is written), or deny.

Everything shown is the model's (its command, paths, file contents in a diff, the reason and rule,
which quote them): terminal controls show as `^[` (engine.printable), so a command cannot clear
the screen over the question or write the clipboard while the user reads it."""

from __future__ import annotations

import difflib
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from engine import json_printable, printable, read_regular

from ..keys import keys_line

if TYPE_CHECKING:
    from rich.syntax import Syntax

# How much of a file the diff preview reads, and the most lines it diffs: difflib is quadratic
# in the worst case and a model may name a log of gigabytes.
PREVIEW_BYTES = 256 * 1024
PREVIEW_LINES = 2000


def _before(path: Path) -> str | None:
    """The file as it is now ("" when absent), or None when it cannot be shown."""
    try:
        data, _ = read_regular(path, PREVIEW_BYTES)
    except FileNotFoundError:
        return ""
    except OSError:
        return None
    return data.decode("utf-8", "replace")


def preview(tool: str, tool_input: dict[str, Any], cwd: Path) -> Text | Syntax:
    """The command for Bash, a diff for Edit and Write, the input otherwise. It reads the file an
    Edit or Write names (bounded): call it in a worker thread, not on the UI loop."""
    # Imported here, in that thread: Rich's Syntax brings Pygments, some 15 ms of every start.
    from rich.syntax import Syntax

    if tool == "Bash":
        return Syntax(printable(str(tool_input.get("command", ""))), "bash", word_wrap=True)
    if tool in ("Edit", "Write"):
        path = Path(str(tool_input.get("file_path", ""))).expanduser()
        path = path if path.is_absolute() else cwd / path
        before = _before(path)
        if before is not None:
            if tool == "Write":
                after = str(tool_input.get("content", ""))
            else:
                old, new = str(tool_input.get("old_string", "")), str(tool_input.get("new_string", ""))
                after = before.replace(old, new) if tool_input.get("replace_all") else before.replace(old, new, 1)
            if max(before.count("\n"), after.count("\n")) <= PREVIEW_LINES:
                diff = "".join(difflib.unified_diff(before.splitlines(True), after.splitlines(True), str(path), str(path)))
                return Syntax(printable(diff) or "(no change)", "diff", word_wrap=True)
        note = Text(printable(f"{path}: not a regular file, or too large to show as a diff; the call's input:\n"), "yellow")
        return note + Text(json_printable(json.dumps(tool_input, indent=2, ensure_ascii=False))[:PREVIEW_BYTES])
    # json.dumps escapes C0 controls; json_printable escapes DEL and C1 too: the same JSON value.
    return Text(json_printable(json.dumps(tool_input, indent=2, ensure_ascii=False))[:PREVIEW_BYTES])


class ApproveScreen(ModalScreen[str]):
    BINDINGS = [
        Binding("o", "answer('once')", "Allow once", id="approve.once"),
        Binding("a", "answer('always')", "Allow always", id="approve.always"),
        Binding("d", "answer('deny')", "Deny", id="approve.deny"),
        Binding("escape", "answer('deny')", "Deny", show=False, id="approve.escape"),
    ]

    def __init__(self, tool: str, tool_input: dict[str, Any], reason: str, rule: str, shown: Text | Syntax) -> None:
        """`shown` is `preview(...)`, made in a worker thread by the caller."""
        super().__init__()
        self.tool, self.tool_input, self.reason, self.rule, self.shown = tool, tool_input, reason, rule, shown

    def compose(self) -> ComposeResult:
        with Vertical(id="approve-box"):
            yield Static(
                Text.assemble(
                    ("Allow ", "bold"), (printable(self.tool), "bold cyan"), ("?  ", "bold"), (printable(self.reason), "dim")
                )
            )
            with VerticalScroll(id="approve-preview"):
                yield Static(self.shown)
            yield Static(
                Text.assemble(
                    ("allow always writes ", "dim"), (printable(self.rule), "bold"), (" to .claude/settings.local.json", "dim")
                )
            )
            yield Static(Text("o: allow once · a: allow always · d or escape: deny", "bold"))
        yield keys_line(self.BINDINGS)  # type: ignore[arg-type]

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)
