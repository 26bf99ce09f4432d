"""One Claude Code transcript file read for skill use: streamed, bounded, never trusted.

Claude Code 2.1.328 appends every session to `<config>/projects/<folder>/<session>.jsonl`, and a
subagent's (a fork's) to `<session>/subagents/agent-<id>.jsonl` (recorded:
tests/oracle/recordings/usage). What marks a skill's use there:

- typed: a user record whose text holds `<command-name>/NAME</command-name>`; a typed fork in
  print mode is the bare text `/NAME` right after a `<local-command-caveat>` record of the same
  prompt;
- the model's call: an assistant record with a `tool_use` block named `Skill` (its `skill`
  input, a leading `/` aside); its `tool_result`, in a later user record, says whether it failed
  (`is_error`, with the text Claude Code wrote: "Unknown skill: x", "Skill execution blocked by
  permission rules", "Execute skill: x. The user can add the allow rule…").

A file of gigabytes is read in pieces, line by line; a line over MAX_LINE is skipped unread, and
only lines that can mark a use are parsed as JSON (a byte search first). A torn last line waits
for the next read; unknown record types are skipped. The reader can stop at a clean line end and
go on from there later (`Progress`), so a cache re-reads only what was appended.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any

from ..base.safeio import open_regular
from .codex import MARKERS as CODEX_MARKERS
from .codex import codex_record
from .records import Progress, make_use

# A record that marks a use is a few kilobytes; a line this long holds a file's content or a
# large tool result (skipped unparsed).
MAX_LINE = 1024 * 1024
CHUNK = 1024 * 1024
# The most of a failure's reason that is kept (Claude Code's own text, not the user's).
MAX_REASON = 200
_COMMAND = re.compile(r"<command-name>/?([^<\s]{1,200})</command-name>")
_BARE = re.compile(r"/([^\s/][^\s]{0,199})(?:\s|$)")
_ERROR_TAGS = re.compile(r"</?tool_use_error>")
# Claude Code's own commands that are not skills: typed, they are recorded like a skill's.
BUILTIN_COMMANDS = frozenset(
    [
        "add-dir",
        "agents",
        "bashes",
        "bug",
        "clear",
        "compact",
        "config",
        "context",
        "cost",
        "doctor",
        "exit",
        "export",
        "feedback",
        "help",
        "hooks",
        "ide",
        "install-github-app",
        "login",
        "logout",
        "mcp",
        "memory",
        "model",
        "output-style",
        "permissions",
        "plugin",
        "pr-comments",
        "privacy-settings",
        "release-notes",
        "resume",
        "rewind",
        "sandbox",
        "skills",
        "status",
        "statusline",
        "terminal-setup",
        "todos",
        "upgrade",
        "usage",
        "vim",
    ]
)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return "".join(str(b.get("text", "")) for b in value if isinstance(b, dict) and b.get("type") == "text")
    return ""


def _reason(block: dict[str, Any]) -> str:
    content = block.get("content")
    text = content if isinstance(content, str) else _text(content)
    return _ERROR_TAGS.sub("", text).strip()[:MAX_REASON] or "failed"


def _user(record: dict[str, Any], state: Progress) -> None:
    content = (record.get("message") or {}).get("content")
    if isinstance(content, list):
        for block in content:
            if isinstance(block, dict) and block.get("type") == "tool_result":
                at = state.pending.pop(str(block.get("tool_use_id")), None)
                if at is not None and block.get("is_error"):
                    state.uses[at].failed = _reason(block)
    text = _text(content)
    if record.get("isMeta"):
        if "<local-command-caveat>" in text:
            state.caveat = str(record.get("promptId", "")) or "?"
        return
    found = _COMMAND.search(text)
    if found:
        state.uses.append(make_use(record, found.group(1), "typed"))
        return
    bare = _BARE.match(text) if isinstance(content, str) else None
    if bare and state.caveat and state.caveat == str(record.get("promptId", "")):
        state.uses.append(make_use(record, bare.group(1), "typed"))


def _assistant(record: dict[str, Any], state: Progress) -> None:
    content = (record.get("message") or {}).get("content")
    for block in content if isinstance(content, list) else ():
        if not (isinstance(block, dict) and block.get("type") == "tool_use" and block.get("name") == "Skill"):
            continue
        given = block.get("input")
        name = given.get("skill") if isinstance(given, dict) else None
        if not isinstance(name, str) or not name.strip("/ "):
            continue
        use_id = str(block.get("id", ""))[:100]
        state.pending[use_id] = len(state.uses)
        # Told apart by the record and the call: the ids a server gives calls need not be unique.
        uuid = f"{str(record.get('uuid', ''))[:100]}/{use_id}"
        state.uses.append(make_use(record, name.strip().lstrip("/"), "model", uuid=uuid))


# What a line that can mark a use holds, each searched over a whole piece at once with
# bytes.find (a C loop, not one Python step per line): 1 GB costs little more than reading it.
# (`command-` stands for both `<command-name>` and `local-command-caveat`.)
# Claude Code writes compact JSON; a file written with spaces after `:` is read too.
_MARKERS = (b'"name":"Skill"', b'"name": "Skill"', b"command-", b'"content":"/', b'"content": "/', *CODEX_MARKERS)


def _marked(data: bytes) -> list[int]:
    """Where some marker is, in order."""
    found = []
    for marker in _MARKERS:
        at = data.find(marker)
        while at >= 0:
            found.append(at)
            at = data.find(marker, at + len(marker))
    return sorted(found)


def _line_at(data: bytes, at: int) -> tuple[int, int]:
    return data.rfind(b"\n", 0, at) + 1, (data.find(b"\n", at) + 1 or len(data) + 1) - 1


def _parse(line: bytes) -> dict[str, Any] | None:
    if len(line) > MAX_LINE:
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None  # torn or foreign: skipped, as Claude Code's own reader skips it
    return record if isinstance(record, dict) else None


def read_lines(data: bytes, state: Progress) -> None:
    """Every complete line of `data` (which starts at a line start) into `state`: first the lines
    that can mark a use, in order; then the results of the Skill calls still waiting for one."""
    seen: set[int] = set()
    for at in _marked(data):
        start, end = _line_at(data, at)
        if start in seen:
            continue
        seen.add(start)
        record = _parse(data[start:end])
        kind = record.get("type") if record else None
        if kind == "user":
            _user(record, state)  # type: ignore[arg-type]
        elif kind == "assistant":
            _assistant(record, state)  # type: ignore[arg-type]
        elif kind in ("session_meta", "response_item"):
            codex_record(record, state)  # type: ignore[arg-type]
    for use_id in list(state.pending):
        at = data.find(use_id.encode(), 0) if use_id else -1
        while at >= 0 and use_id in state.pending:
            start, end = _line_at(data, at)
            line = data[start:end]
            if b'"tool_result"' in line:
                record = _parse(line)
                if record and record.get("type") == "user":
                    _user(record, state)
            at = data.find(use_id.encode(), end)


def read_transcript(path: str, state: Progress, budget: int | None = None) -> Progress:
    """`state` carried on from its offset to the last complete line of the file (at most `budget`
    more bytes when given). A line longer than MAX_LINE is skipped without being held."""
    fd, st = open_regular(path)
    try:
        os.lseek(fd, state.offset, os.SEEK_SET)
        end = st.st_size if budget is None else min(st.st_size, state.offset + budget)
        carry = b""
        skipping = False
        while state.offset + len(carry) < end:
            piece = os.read(fd, min(CHUNK, end - state.offset - len(carry)))
            if not piece:
                break
            if skipping:
                # Inside an overlong line: drop bytes up to its end.
                cut = piece.find(b"\n")
                if cut < 0:
                    state.offset += len(piece)
                    continue
                state.offset += cut + 1
                piece, skipping = piece[cut + 1 :], False
            data = carry + piece
            cut = data.rfind(b"\n")
            if cut < 0:
                carry = data
                if len(carry) > MAX_LINE:
                    state.offset += len(carry)
                    carry, skipping = b"", True
                continue
            read_lines(data[:cut], state)
            state.offset += cut + 1
            carry = data[cut + 1 :]
    finally:
        os.close(fd)
    return state
