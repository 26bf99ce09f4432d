"""What the conversation pane says in words: who decided a tool call, a skill's one-line hint,
and the offline request's summary. Pure functions of their input, kept apart from the pane."""

from __future__ import annotations

import re
from typing import Any

from rich.text import Text

from engine import listing_in_messages, printable
from tui.view import count

# The longest description the composer's hint shows: its first sentence, cut at a word past this.
HINT_CHARS = 160
# The most of each message part the offline summary shows (its first line).
OFFLINE_LINE = 100


def verdict_of(decision: str, reason: str) -> str:
    """What a tool call's title says was decided, before the user answers an "ask"."""
    if decision == "allow":
        return f"allowed by rule {reason.removeprefix('allow rule ')}" if reason.startswith("allow rule ") else "allowed"
    if decision == "deny":
        return f"denied by rule {reason.removeprefix('deny rule ')}" if reason.startswith("deny rule ") else f"denied: {reason}"
    return "asking you" if decision == "ask" else ""  # "": not known (a transcript from before verdicts were kept)


def first_sentence(text: str, limit: int = HINT_CHARS) -> str:
    """The first sentence of a description, whole when it is short, else cut at a word with `…`."""
    # A sentence ends before a capital (or the end), so "e.g. this" does not end one.
    match = re.search(r"[.!?](?=\s+[A-Z\"'(]|\s*$)", text)
    sentence = text[: match.start() + 1] if match else text
    if len(sentence) <= limit:
        return sentence
    cut = sentence[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def offline_summary(request: dict[str, Any]) -> Text:
    """Model, tools, the skill listing's size and this turn's messages (a line each): what the offline
    answer means, short enough to read in an 80x24 terminal."""
    tools = [t for t in request.get("tools") or [] if isinstance(t, dict)]
    everything = [m for m in request.get("messages") or [] if isinstance(m, dict)]
    # The listing is a system message (where Claude Code sends it); this turn's message is the last other one.
    listed = listing_in_messages(everything)
    messages = [m for m in everything if m.get("role") != "system"]
    text = Text.assemble(
        ("the request a model would get (offline: nothing was sent)\n", "dim"),
        ("model    ", "bold"), printable(str(request.get("model", ""))) + "\n",
        ("tools    ", "bold"), printable(", ".join(str(t.get("name", "")) for t in tools)) + "\n",
    )  # fmt: skip
    if listed is not None:
        entries = sum(1 for line in listed[1].splitlines() if line.startswith("- "))
        text.append("listing  ", "bold")
        text.append(f"{count(entries, 'skill')}, {len(listed[1]):,} characters in a system message\n")
    blocks = messages[-1].get("content") if messages else []
    if not isinstance(blocks, list):
        blocks = [{"type": "text", "text": str(blocks or "")}]
    earlier = f" (after {len(messages) - 1} earlier)" if len(messages) > 1 else ""
    text.append(f"message{earlier}\n", "bold")
    for n, block in enumerate(b for b in blocks if isinstance(b, dict)):
        body = str(block.get("text") if block.get("type") == "text" else block.get("content", block.get("type", "")))
        lines = [line for line in body.splitlines() if line.strip()]
        first = lines[0].strip() if lines else ""
        more = len(lines) > 1 or len(first) > OFFLINE_LINE
        text.append(f"  {n + 1}. ", "bold")
        text.append(printable(first[:OFFLINE_LINE]) + (" …" if more else "") + "\n")
    text.append("ctrl+t", "bold")
    text.append(" shows the whole request as JSON", "dim")
    return text
