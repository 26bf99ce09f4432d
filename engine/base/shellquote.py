"""Quote a value into a shell command template so that it stays one inert word.

A skill's `!` command is written by the skill's author, but the values substituted into it (the
arguments a user types or a model passes, the project folder's name) are anybody's: a folder
named `repo-$(touch x)` must not run `touch`. `shlex.quote` alone is right only where the
placeholder stands unquoted: inside the author's `"..."` its single quotes would be literal and
`$(...)` would still run, and inside a `# comment` a newline in the value would start a new
command. So the quoting state of the template is followed up to each placeholder, and the
value is written to fit it: `"` + quoted + `"` inside double quotes (close, quote, reopen), the
same with `'` inside single quotes. Where the state cannot be followed with confidence (a here-
document, `${...}`, backquotes), a value that needs quoting is refused: nothing is guessed.
"""

from __future__ import annotations

import re
import shlex

PLAIN, SINGLE, DOUBLE, COMMENT, UNKNOWN = "plain", "single", "double", "comment", "unknown"
# shlex.quote leaves these alone: none is special to the shell in any context.
_SAFE = re.compile(r"[\w@%+=:,./-]+", re.ASCII)


class UnquotableError(ValueError):
    """The value needs quoting where the template's quoting state is not known."""


def contexts(template: str, positions: list[int]) -> list[str]:
    """The quoting state of `template` at each of the (sorted) `positions`."""
    found: list[str] = []
    # A stack of frames: "top" and "cmd" ($(...)) are unquoted; "dq" is double quotes; "brace"
    # (${...}) and "bq" (backquotes) are followed only to find where they end.
    stack: list[str] = ["top"]
    depth: list[int] = [0]  # open parentheses inside each frame
    heredoc = False
    comment = False
    wanted = iter(positions)
    target = next(wanted, None)
    i = 0
    n = len(template)
    while target is not None:
        if i >= target:  # (a skipped escape can step over it: the state is the same)
            frame = stack[-1]
            if heredoc or frame in ("brace", "bq"):
                found.append(UNKNOWN)
            elif comment:
                found.append(COMMENT)
            elif frame == "sq":
                found.append(SINGLE)
            elif frame == "dq":
                found.append(DOUBLE)
            else:
                found.append(PLAIN)
            target = next(wanted, None)
            continue
        if i >= n:
            break
        c = template[i]
        frame = stack[-1]
        nxt = template[i + 1] if i + 1 < n else ""
        if comment:
            comment = c != "\n"
        elif frame == "sq":
            if c == "'":
                stack.pop()
        elif c == "\\":
            i += 2  # the next character is escaped (in double quotes too, for what matters here)
            continue
        elif frame == "brace":
            if c == "}":
                stack.pop()
        elif c == "$" and nxt in ("(", "{"):
            # $(...) and ${...} open the same way in double quotes and outside them.
            stack.append("cmd" if nxt == "(" else "brace")
            if nxt == "(":
                depth.append(0)
            i += 2
            continue
        elif frame == "dq":
            if c == '"':
                stack.pop()
            elif c == "`":
                stack.append("bq")
        else:  # top, cmd, bq: unquoted
            if c == "'":
                stack.append("sq")
            elif c == '"':
                stack.append("dq")
            elif c == "`":
                if frame == "bq":
                    stack.pop()
                else:
                    stack.append("bq")
            elif c == "(":
                depth[-1] += 1
            elif c == ")" and frame == "cmd":
                if depth[-1]:
                    depth[-1] -= 1
                else:
                    stack.pop()
                    depth.pop()
            elif c == "<" and nxt == "<":
                heredoc = True  # its body's quoting is another language: stop trusting the state
            elif c == "#" and (i == 0 or template[i - 1] in " \t\n;&|()"):
                comment = True
        i += 1
    if target is not None:
        found.append(UNKNOWN)
    found.extend(UNKNOWN for _ in wanted)
    return found


def quote_in(value: str, context: str) -> str:
    """`value` as one inert word at a place of `context` in a command."""
    if _SAFE.fullmatch(value):
        return value
    if context == PLAIN:
        return shlex.quote(value)
    if context == COMMENT:
        return shlex.quote(value.replace("\n", " "))
    if context == DOUBLE:
        return '"' + shlex.quote(value) + '"'
    if context == SINGLE:
        return "'" + shlex.quote(value) + "'"
    raise UnquotableError(value)
