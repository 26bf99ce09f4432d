"""Typed arguments split into $0, $1, ... the way Claude Code 2.1.328 splits them.

Claude Code parses the argument string as a bash command line and takes the words of its first
simple command; only when that gives no word does it split on whitespace. What follows from that,
as recorded (tests/oracle/recordings/invoke/typed_*):

- quotes group words and are removed (`'a'"b"c` is `abc`); a backslash outside quotes keeps the
  next character (`a\\ b` is `a b`); inside double quotes nothing is unescaped;
- an unclosed quote runs to the end, kept as typed with its quote (`x "a b` is `x`, `"a b`);
- the first `;`, `|`, `&` or newline ends the command (`a;b c` is just `a`);
- later words stop at the first one holding `$(...)` or backquotes (`say !`id` x` is `say`);
  a lone `$VAR` or `${...}` word is left out; leading `NAME=value` words are skipped;
- a redirection (`> file`) is not an argument, and `#` starts a comment.
"""

from __future__ import annotations

import re

# Longer than this, Claude Code does not parse the text as a command: whitespace split.
PARSE_LIMIT = 10_000
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\+?=")
_DECLARATIONS = {"export", "declare", "typeset", "readonly", "local", "unset", "unsetenv"}
_ENDS = ";|&\n"
_SPACE = " \t\r"


def _closing(text: str, i: int, opener: str, closer: str) -> int:
    """The index after the `closer` that balances `opener` at `i` (quotes followed), or len(text)."""
    depth = 0
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c in "'\"" and opener != c:
            end = text.find(c, i + 1) if c == "'" else _dq_end(text, i)
            i = n if end < 0 else end + 1
            continue
        if c == opener and (opener != closer or depth == 0):
            depth += 1
        elif c == closer:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


def _dq_end(text: str, i: int) -> int:
    """The index of the `"` closing the double quote at `i`, or -1."""
    j = i + 1
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == '"':
            return j
        j += 1
    return -1


def _word(text: str, i: int) -> tuple[list[tuple[str, str]], int]:
    """The parts of the word at `i` as (kind, text), and where it ends."""
    parts: list[tuple[str, str]] = []
    n = len(text)
    plain = ""
    while i < n and text[i] not in _SPACE and text[i] not in _ENDS and text[i] not in "<>()":
        c = text[i]
        if c == "\\" and i + 1 < n:
            plain += text[i : i + 2]
            i += 2
            continue
        if c in "'\"`$" and plain:
            parts.append(("word", plain))
            plain = ""
        if c == "'":
            end = text.find("'", i + 1)
            stop = n if end < 0 else end + 1
            parts.append(("string", text[i:stop]))
            i = stop
        elif c == '"':
            end = _dq_end(text, i)
            stop = n if end < 0 else end + 1
            parts.append(("string", text[i:stop]))
            i = stop
        elif c == "`":
            end = text.find("`", i + 1)
            stop = n if end < 0 else end + 1
            parts.append(("substitution", text[i:stop]))
            i = stop
        elif c == "$" and i + 1 < n and text[i + 1] == "(":
            stop = _closing(text, i + 1, "(", ")")
            parts.append(("substitution", text[i:stop]))
            i = stop
        elif c == "$" and i + 1 < n and text[i + 1] == "{":
            stop = _closing(text, i + 1, "{", "}")
            parts.append(("expansion", text[i:stop]))
            i = stop
        elif c == "$" and i + 1 < n and re.match(r"[A-Za-z_0-9?$!#@*-]", text[i + 1]):
            m = re.match(r"\$(?:[A-Za-z_][A-Za-z0-9_]*|[0-9?$!#@*-])", text[i:])
            assert m is not None
            parts.append(("expansion", m.group()))
            i += m.end()
        else:
            plain += c
            i += 1
    if plain:
        parts.append(("word", plain))
    return parts, i


def _text(kind: str, text: str) -> str:
    if kind == "word":
        return re.sub(r"\\(.)", r"\1", text, flags=re.S)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        return text[1:-1]
    return text


def _first_command(text: str) -> list[str]:
    words: list[str] = []
    i = 0
    n = len(text)
    named = False
    while i < n:
        c = text[i]
        if c in _SPACE:
            i += 1
            continue
        if c in _ENDS or c in "()":
            break
        if c == "#":
            break
        if c in "<>" or (c.isdigit() and re.match(r"\d+[<>]", text[i:])):
            # A redirection and its target are not arguments.
            m = re.match(r"\d*(?:>>|<<<|<<|>&|<&|&>|>\||[<>])", text[i:])
            i += m.end() if m else 1
            while i < n and text[i] in _SPACE:
                i += 1
            _, i = _word(text, i)
            continue
        parts, end = _word(text, i)
        if end == i:
            i += 1
            continue
        i = end
        whole = "".join(t for _, t in parts)
        if not named:
            if _ASSIGNMENT.match(whole):
                continue  # an environment assignment before the command name
            if whole == "!" and len(parts) == 1:
                continue  # `! cmd` negates the command that follows
            named = True
            if whole in _DECLARATIONS:
                return [whole]
            if len(parts) > 1 and any(k == "substitution" for k, _ in parts):
                words.append(whole)
            else:
                words.append("".join(_text(k, t) for k, t in parts))
            continue
        kinds = {k for k, _ in parts}
        if "substitution" in kinds:
            break
        if len(parts) == 1 and parts[0][0] == "expansion":
            continue  # a lone $VAR is not one of the words Claude Code keeps
        words.append("".join(_text(k, t) for k, t in parts))
    return words


def split_arguments(args: str) -> list[str]:
    """$0, $1, ... for the typed (or passed) argument string."""
    if not args or not args.strip():
        return []
    words = _first_command(args) if len(args) <= PARSE_LIMIT else []
    return words or args.split()
