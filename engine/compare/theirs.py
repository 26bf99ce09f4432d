"""What a recorded run shows: the listing as sent, Claude Code's own entries (those an empty
home lists too), the model, what its debug log says it skipped, and a typed skill's blocks."""

from __future__ import annotations

import re
from typing import Any

from .record import Run

HEADER = "The following skills are available for use with the Skill tool:"
REMINDER = "<system-reminder>"
# Debug lines about a skill or command file skipped, failed or loaded with a problem; and the
# routine lines that match those words but say nothing of the kind.
SKIP = re.compile(
    r"skill|command|frontmatter|plugin|manifest|budget|SKILL\.md|\.md\b|invalid|omitting|skipping|ignored|exceeds|duplicate",
    re.IGNORECASE,
)
NOISE = re.compile(
    r"hooks module|telemetry|\$\.fs\.|\$\.store|Plugin autoupdate|settings\.read|plugin\.register|engine\.create|"
    r"hooks native|cc-plugin-|installPluginsForHeadless|Total plugin|getPluginSkills|Checking plugin |"
    r"Registered \d+ hooks|versioned plugins|Found \d+ plugins|installed_plugins\.json|output styles|"
    r"Watching for changes|ENOENT|\[STARTUP\]|Sending \d+ skills|Loading skills from|getSkills returning|Loaded \d+ unique|"
    r"Attempting to load skills|Skipping plugin hooks|Loaded \d+ skills from plugin|Skipping skill dir discovery|"
    r"Plugin not available for MCP|is one plugin: |clearPluginCache|Applying permission update|\] Loaded "
)
STAMP = re.compile(r"^\S+Z \[(\w+)\] ")
# A path in a debug line: left out before SKIP is looked for (a folder named skilldeck or skills
# says nothing of a skill being skipped).
PATH = re.compile(r"(?:~|\.{1,2})?(?:/[^\s'\",:)]+)+")
LOGIN = re.compile(r"/login|not logged in|log in|invalid api key|authentication", re.IGNORECASE)


def texts(message: Any) -> list[str]:
    """A message's text blocks, in order (a string content is one block)."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [content]
    if isinstance(content, list):
        return [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
    return []


def is_subagent(body: dict[str, Any]) -> bool:
    system = body.get("system")
    first = system[0] if isinstance(system, list) and system else None
    return isinstance(first, dict) and "cc_is_subagent=true" in str(first.get("text", ""))


def main_requests(run: Run) -> list[dict[str, Any]]:
    """The main conversation's requests: they offer tools and are no subagent's."""
    return [b for b in run.requests if b.get("tools") and b.get("messages") and not is_subagent(b)]


def listing_lines(run: Run) -> list[str] | None:
    """The listing the first main request carried: the header, a blank line, one `- ` line per entry."""
    return listing_in(main_requests(run)[:1])


def listing_in(requests: list[dict[str, Any]]) -> list[str] | None:
    """The first listing these requests carry: the header, the blank line, then one item per
    entry. An entry starts with `- `; a non-empty line that does not continues the entry before it
    (Claude Code's own `claude-api` text holds newlines: lines starting `TRIGGER`, `SKIP`), and
    the item keeps those newlines. The listing ends at the first empty line (whatever follows
    is not the listing's)."""
    for body in requests:
        for message in body.get("messages") or []:
            for text in texts(message):
                if HEADER in text:
                    rest = text[text.index(HEADER) :].split("\n")
                    out = rest[:2]
                    for line in rest[2:]:
                        if line.startswith("- "):
                            out.append(line)
                        elif line and len(out) > 2:
                            out[-1] += "\n" + line
                        else:
                            break
                    return out
    return None


def entry_name(line: str) -> str:
    """`- name (label): text` -> name (a plugin's `plug:name` keeps its colon)."""
    head = line[2:].split(": ", 1)[0]
    return head.split(" (", 1)[0]


def entry_text(line: str) -> str:
    return line.split(": ", 1)[1] if ": " in line else ""


def model(run: Run) -> str | None:
    first = main_requests(run)[:1]
    return str(first[0].get("model")) if first else None


def skipped(run: Run) -> list[str]:
    """The debug lines that say a skill or command was skipped, failed, or loaded with a problem;
    once each, in the order logged."""
    seen: dict[str, None] = {}
    for raw in run.debug:
        line = STAMP.sub(r"[\1] ", raw)
        words = PATH.sub("", line)
        if SKIP.search(words) and not NOISE.search(words):
            seen.setdefault(line)
    return list(seen)


def user_blocks(body: dict[str, Any], ours: list[str]) -> list[str]:
    """The user messages' text blocks of a request, without Claude Code's own context reminders
    (its git status, its notes: a `<system-reminder>` block skilldeck does not send)."""
    out: list[str] = []
    for message in body.get("messages") or []:
        if isinstance(message, dict) and message.get("role") == "user":
            out += [t for t in texts(message) if not t.startswith(REMINDER) or t in ours]
    return out


def prompt_head(body: dict[str, Any]) -> str:
    """The opening of a request's own system prompt (its last system block): the main
    conversation's differs from a fork's or an agent's."""
    system = body.get("system")
    last = system[-1] if isinstance(system, list) and system else {}
    text = last.get("text", "") if isinstance(last, dict) else str(system or "")
    return str(text).strip()[:60]


def main_head(baseline: Run) -> str:
    """How the main conversation's system prompt opens, from a plain run."""
    first = main_requests(baseline)[:1]
    return prompt_head(first[0]) if first else ""


def invocation(run: Run, ours: list[str], head: str) -> tuple[str, list[str]] | None:
    """What a typed `/name args` sent: ("inline", the first main request's blocks) or ("fork",
    the subagent's task); None when it sent neither (refused: the result says why). `ours`:
    skilldeck's blocks, so that a reminder both send is kept; `head`: see main_head."""
    asked = [b for b in run.requests if b.get("tools") and b.get("messages")]
    main = [b for b in asked if prompt_head(b) == head and not is_subagent(b)] if head else main_requests(run)
    if main:
        return "inline", user_blocks(main[0], ours)
    forks = [b for b in asked if b not in main]
    if forks:
        return "fork", user_blocks(forks[0], ours)
    return None


def asks_for_login(run: Run) -> bool:
    """No request reached the server and Claude Code talks of logging in or of its key."""
    said = f"{run.result.get('result', '')}\n{run.stderr}"
    return not run.requests and bool(LOGIN.search(said))
