"""`@file` references in a skill's text, attached as Claude Code 2.1.328 attaches them.

Claude Code reads each file a skill's text mentions (`@README.md`, `@"a b.md"`, `@src/x.py#L3-9`)
and puts a Read call and its result in front of the skill as two reminders each (recorded:
typed_at_file, typed_at_file_one, run_skill_at_file). Its rule, learnt from the binary: a mention
is a whitespace-separated word that starts with `@` (or has it after a CJK full stop, comma,
question or exclamation mark), up to its last letter, digit or `_`; or `@"..."` for a path with
spaces; each once, at most 100.

A skill comes from a repository somebody cloned, so a mention may name `~/.ssh/id_rsa`, `/etc`,
a FIFO or a file of gigabytes. skilldeck attaches only what the permission rules let Read open
without asking (inside the working folders, no deny rule), regular files only, through the Read
tool's own bounded reader; everything else is left out and said why. Claude Code also attaches a
mention outside the project (it counts as typed by the person) and lists a mentioned folder;
skilldeck does neither (README, "Running skills").
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..permissions.pathreach import expand_path
from .conversation import Message
from .tools.files import READ_LIMIT, read_result

MAX_MENTIONS = 100  # Claude Code reads the first 100
_BEFORE = "\u3002\u3001\uff1f\uff01"  # what may stand right before the @ inside a word
_QUOTED = re.compile(r"(?:^|(?<=[\s" + _BEFORE + r']))@"([^"]+)"')
_LINES = re.compile(r"^([^#]+)(?:#L(\d+)(?:-(\d+))?)?(?:#[^#]*)?$")


def _wordy(text: str, index: int) -> bool:
    """ASCII letter, digit or underscore at `index` (False past the end), as Claude Code tests it."""
    return index < len(text) and (text[index].isascii() and (text[index].isalnum() or text[index] == "_"))


def mentioned(text: str) -> list[str]:
    """The `@` mentions of `text`, in Claude Code's order (quoted ones first), each once."""
    found = [m.group(1) for m in _QUOTED.finditer(text) if not m.group(1).endswith(" (agent)")]
    if "@" in text:
        for word in text.split():
            at = word.find("@")
            while at > 0 and word[at - 1] not in _BEFORE:
                at = word.find("@", at + 1)
            if at == -1:
                continue
            end = len(word)
            while end >= at + 2 and _wordy(word, end - 1) == _wordy(word, end):
                end -= 1
            if end >= at + 2 and not word[at + 1 :].startswith('"'):
                found.append(word[at + 1 : end])
    return list(dict.fromkeys(found))[:MAX_MENTIONS]


@dataclass(frozen=True)
class Mention:
    text: str  # as written after the @
    path: Path  # the file it names
    attached: bool
    why: str = ""  # why it was left out


def _lines(mention: str) -> tuple[str, int | None, int | None]:
    """The file name and the `#L3` or `#L3-9` line range of a mention."""
    match = _LINES.match(mention)
    if not match:
        return mention, None, None
    start = int(match.group(2)) if match.group(2) else None
    end = int(match.group(3)) if match.group(3) else start
    return match.group(1), start, end


def attachments(
    text: str, cwd: Path, home: Path, may_read: Callable[[Path], tuple[bool, str]]
) -> tuple[list[Message], list[Mention]]:
    """The messages Claude Code puts before a skill whose text is `text` (a Read call and its
    result per attached file), and what became of every mention. Blocking: run in a thread."""
    messages: list[Message] = []
    seen: list[Mention] = []
    for written in mentioned(text):
        name, start, end = _lines(written)
        path = expand_path(name, cwd, home)
        allowed, why = may_read(path)
        if not allowed:
            seen.append(Mention(written, path, False, why))
            continue
        if not path.is_file():
            # Claude Code skips a missing file silently (recorded: typed_at_file's @missing.md).
            seen.append(Mention(written, path, False, "not a file" if path.exists() else "no such file"))
            continue
        limit = (end - start + 1) if start is not None and end is not None and end >= start else READ_LIMIT
        result, _ = read_result(path, cwd, start or 1, limit)
        if result.is_error:
            seen.append(Mention(written, path, False, result.text))
            continue
        call: dict[str, object] = {"file_path": str(path)}
        if start is not None:
            call |= {"offset": start, "limit": limit}
        arguments = json.dumps(call, ensure_ascii=False, separators=(",", ":"))
        messages.append(reminder(f"Called the Read tool with the following input: {arguments}"))
        messages.append(reminder(f"Result of calling the Read tool:\n{result.text}"))
        seen.append(Mention(written, path, True))
    return messages, seen


def reminder(text: str) -> Message:
    return Message.user(f"<system-reminder>\n{text}\n</system-reminder>", meta=True, kind="attachment")
