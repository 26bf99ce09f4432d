"""Where a path in a tool call really leads: `~` expanded, `..` folded, symlinks followed.

A model (or a cloned repository's skill) writes paths; rules and the working-folder boundary
are about places. `docs -> ~/.ssh` inside the project, `../` in a glob pattern and `~/` in a
file path all lead somewhere other than the text says; these helpers say where.
"""

from __future__ import annotations

import fnmatch
import itertools
import os
import re
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from pathlib import Path

from ..base.globmatch import ANY, NOT_SLASH, Alt, Char, Item, Opt, Pattern, Star, TooComplex

_GLOB = frozenset("*?[{")


def expand_path(path: str, cwd: Path, home: Path) -> Path:
    """`path` as an absolute path, `~` and `~/x` expanded to `home`, `..` folded (not resolved)."""
    if path == "~" or path.startswith("~/"):
        path = str(home) + path[1:]
    return Path(os.path.normpath(path if os.path.isabs(path) else cwd / path))


# Path components a shell would expand, which Claude Code's file tools take as the place they
# name when they meet deny rules, though they open the literal path (recorded,
# deny_through_expansions: Read of `~+/secrets/key.txt` and of `PROJECT/~+/secrets/key.txt` is
# denied by `Read(./secrets/**)`). `~-` and `$OLDPWD` (the previous folder) count as the working
# folder too: a deny may be met through either.
_AS_CWD = frozenset({"~+", "~-", "$PWD", "${PWD}", "$OLDPWD", "${OLDPWD}"})
_AS_HOME = frozenset({"~", "$HOME", "${HOME}"})


def shell_forms(path: Path, cwd: Path, home: Path) -> list[Path]:
    """Where `path` leads if a shell expanded one of its components (`x/~+/secrets` is
    `cwd/secrets`, `$HOME/.ssh` is `home/.ssh`), one place per such component."""
    parts = path.parts
    out: list[Path] = []
    for i, part in enumerate(parts):
        base = cwd if part in _AS_CWD else home if part in _AS_HOME else None
        if base is not None:
            out.append(Path(os.path.normpath(base.joinpath(*parts[i + 1 :]))))
    return out


def real(path: Path) -> Path:
    """`path` with every symlink followed (as far as it exists), as the kernel would open it."""
    return Path(os.path.realpath(path))


def inside(path: Path, folders: tuple[Path, ...]) -> bool:
    return any(path == folder or path.is_relative_to(folder) for folder in folders)


def split_glob(root: Path, pattern: str, home: Path) -> tuple[Path, str] | None:
    """A glob pattern searched from `root` as (the folder it starts in, the rest of the pattern):
    `../../*.md` is (`root/../..`, `*.md`), `/etc/*.conf` is (`/etc`, `*.conf`), `src/a.py` is
    (`root/src`, `a.py`). None when a `..` comes after a wildcard (`*/../../x`): no fixed folder
    bounds what that reaches."""
    if pattern == "~" or pattern.startswith("~/"):
        pattern = str(home) + pattern[1:]
    parts = [p for p in pattern.split("/") if p not in ("", ".")]
    fixed: list[str] = []
    for i, part in enumerate(parts):
        if any(ch in _GLOB for ch in part):
            # `*/../x`, and `{..,x}/*` or `[.][.]/*`, whose brace or wildcard may spell a `..`
            # that a later part climbs through (a last part names entries, it enters nothing).
            if ".." in parts[i:] or any(_may_climb(rest) for rest in parts[i:-1]):
                return None
            rest = "/".join(parts[i:])
            break
        fixed.append(part)
    else:
        rest = fixed.pop() if fixed else ""
    start = Path("/") if pattern.startswith("/") else root
    return Path(os.path.normpath(start.joinpath(*fixed))), rest


def _may_climb(part: str) -> bool:
    """Whether one `/`-separated part of a glob pattern may stand for `..`."""
    alternatives = brace_alternatives(part)
    if alternatives is None:
        return True
    # Braces read both ways: as Bash reads them, and as a glob library reads `{..}` (a choice of one).
    alternatives.append(part.replace("{", "").replace("}", ""))
    return any(".." in alt or (alt[:1] in ".[" and fnmatch.fnmatchcase("..", alt)) for alt in alternatives)


def brace_alternatives(text: str, cap: int = 256) -> list[str] | None:
    """`text` with its brace alternatives expanded as Bash expands them (`a{b,c}` is `ab`, `ac`;
    `{x}`, with no comma, stays as written; a backslash-escaped brace or comma is a character);
    None past `cap`, or for a sequence (`{1..3}`), whose members are not spelled out here."""
    open_at = _unescaped(text, "{", 0)
    if open_at < 0:
        return [text]
    depth = 0
    commas = []
    j = open_at
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                break
        elif text[j] == "," and depth == 1:
            commas.append(j)
        j += 1
    else:
        return [text]  # an unclosed brace is a plain character
    if not commas:
        if ".." in text[open_at + 1 : j]:
            return None
        # No comma: the braces are characters; expand what follows them.
        rest = brace_alternatives(text[j + 1 :], cap)
        return None if rest is None else [text[: j + 1] + alt for alt in rest]
    bounds = [open_at, *commas, j]
    out: list[str] = []
    for start, end in itertools.pairwise(bounds):
        alternatives = brace_alternatives(text[:open_at] + text[start + 1 : end] + text[j + 1 :], cap)
        if not alternatives:
            return None
        for alt in alternatives:
            if len(out) >= cap:
                return None
            out.append(alt)
    return out


def _unescaped(text: str, char: str, start: int) -> int:
    """The index of the first `char` at or after `start` that no backslash escapes, or -1."""
    i = start
    while i < len(text):
        if text[i] == "\\":
            i += 2
        elif text[i] == char:
            return i
        else:
            i += 1
    return -1


def glob_reach(root: Path, pattern: str, home: Path) -> Path | None:
    """The folder a glob pattern searched from `root` can reach (None: no fixed folder bounds it)."""
    split = split_glob(root, pattern, home)
    return split[0] if split else None


# Bounds of a shell glob's expansion (`shell_matches`): folder entries looked at and paths made,
# and matches, for one pattern, or for all the patterns of one line under `glob_budget`.
GLOB_ENTRIES = 20_000
GLOB_MATCHES = 2_000
# Parts of a pattern past which it is not followed (`*/*/.../x` three hundred deep).
GLOB_PARTS = 64


@dataclass
class GlobBudget:
    # Read when made, not when defined: the bounds are module settings (tests lower them).
    entries: int = field(default_factory=lambda: GLOB_ENTRIES)
    matches: int = field(default_factory=lambda: GLOB_MATCHES)


_budget: ContextVar[GlobBudget | None] = ContextVar("glob_budget", default=None)


@contextmanager
def glob_budget() -> Iterator[GlobBudget]:
    """One budget shared by every `shell_matches` inside (the patterns of one command line): a
    line of forty wildcards costs what one may, not forty times that."""
    budget = GlobBudget()
    token = _budget.set(budget)
    try:
        yield budget
    finally:
        _budget.reset(token)


def shell_matches(root: Path, pattern: str, home: Path) -> list[Path] | None:
    """The paths a shell's pathname expansion of `pattern`, run in `root`, names now: each part
    with a wildcard matched against a folder's entries, symlinked folders entered as the shell
    enters them. What it names, not where that leads: `*/id_rsa` is `docs/id_rsa` when `docs`
    links to `~/.ssh`, and the caller resolves it. Wider than Bash on purpose (hidden names match,
    `[^a]` negates as `[!a]` does, `**` is `*`): a wrong match only adds a path to check. None when
    no fixed folder bounds it (`split_glob`) or past GLOB_ENTRIES entries or GLOB_MATCHES matches."""
    split = split_glob(root, pattern, home)
    if split is None:
        return None
    start, rest = split
    parts = [p for p in rest.split("/") if p not in ("", ".")]
    if len(parts) > GLOB_PARTS:
        return None
    found = [start]
    budget = _budget.get() or GlobBudget()
    for part in parts:
        if not any(ch in _GLOB or ch == "\\" for ch in part):
            budget.entries -= len(found)
            if budget.entries < 0:
                return None
            found = [f / part for f in found]
            continue
        # No brace expansion here: a caller hands in each alternative of a word Bash would expand
        # (mentions.py), and a brace that reaches this point is a character (`{x}`, `'{a,b}'`).
        matcher = shell_part_pattern(part)
        if matcher is None:
            return None
        matchers = [matcher]
        matched: list[Path] = []
        for folder in found:
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        budget.entries -= 1
                        if budget.entries < 0:
                            return None
                        if any(m.fullmatch(entry.name) for m in matchers if m is not None):
                            matched.append(folder / entry.name)
                            budget.matches -= 1
                            if budget.matches < 0:
                                return None
            except OSError:
                continue  # not a folder, gone, unreadable: the shell matches nothing there
        found = matched
    return found


# A POSIX class inside a bracket, as a regular expression class at least as wide as the shell's
# in any locale (`[:alpha:]` is every word character: wider is safe, it only adds paths to check).
_POSIX_CLASSES = {
    "alpha": r"\w",
    "alnum": r"\w",
    "upper": r"\w",
    "lower": r"\w",
    "digit": r"\d",
    "xdigit": r"\w",
    "word": r"\w",
    "space": r"\s",
    "blank": r"\s",
    "punct": r"\W_",
    "cntrl": r"\W",
    "graph": r"\s\S",
    "print": r"\s\S",
}


def shell_part_pattern(part: str) -> Pattern | None:
    """One `/`-free part of a shell glob as a pattern, as Bash reads it: `*`, `?`, `[...]` with
    `!` or `^` to negate, POSIX classes (`[[:alpha:]]`), equivalence and collating elements
    (`[[=a=]]`, `[[.a.]]`), and backslash escapes (a quoted `[` is the character). Wider than
    Bash where a locale decides; None where wider could be narrower (a negated bracket with a
    class in it) or the bracket cannot be read, or it is longer than MAX_PART_CHARS. Matched in
    linear time (engine/base/globmatch.py): `*a*a*a…Q` against a file named `aaaa…` hung a regular
    expression."""
    if len(part) > MAX_PART_CHARS:
        return None
    out: list[Item] = []
    i = 0
    while i < len(part):
        c = part[i]
        if c == "\\" and i + 1 < len(part):
            out.append(Char(part[i + 1]))
            i += 2
        elif c == "*":
            out.append(Star(ANY))
            i += 1
        elif c == "?":
            out.append(Char(ANY))
            i += 1
        elif c == "[":
            bracket = _bracket(part, i)
            if bracket is None:
                out.append(Char(c))  # no closing `]`: a plain `[`, as in Bash
                i += 1
                continue
            body, i, negated, classed = bracket
            if negated and classed:
                return None
            try:
                out.append(Char(re.compile(f"[{'^' if negated else ''}{body}]", re.S)))
            except re.error:
                return None
        else:
            out.append(Char(c))
            i += 1
    return Pattern(out)


def _bracket(part: str, start: int) -> tuple[str, int, bool, bool] | None:
    """The bracket expression at `start`: (its regex class body, the index after it, negated,
    whether it holds a POSIX class); None when it never closes (or a class is unknown)."""
    i = start + 1
    negated = i < len(part) and part[i] in "!^"
    i += negated
    body: list[str] = []
    classed = False
    first = True
    while i < len(part):
        c = part[i]
        if c == "]" and not first:
            return "".join(body), i + 1, negated, classed
        first = False
        if c == "[" and i + 1 < len(part) and part[i + 1] in ":=.":
            kind = part[i + 1]
            close = part.find(kind + "]", i + 2)
            if close < 0:
                return None
            name = part[i + 2 : close]
            if kind == ":":
                if name not in _POSIX_CLASSES:
                    return None
                body.append(_POSIX_CLASSES[name])
                classed = True
            else:
                body.append(re.escape(name))
            i = close + 2
        elif c == "\\" and i + 1 < len(part):
            body.append(re.escape(part[i + 1]))
            i += 2
        elif c == "-" and body and i + 1 < len(part) and part[i + 1] != "]":
            body.append("-")
            i += 1
        else:
            body.append(re.escape(c) if c != "-" else "\\-")
            i += 1
    return None


# A real glob is a few dozen characters; past these a pattern is refused (Glob, Grep) or asked
# (a shell's wildcard), as its cost per path grows with its length.
MAX_GLOB_CHARS = 1024
MAX_PART_CHARS = 1024


def glob_pattern(pattern: str, anywhere: bool = False) -> Pattern:
    """A glob pattern for paths relative to the searched folder: `**` crosses folders, `*` and
    `?` stay in one, `[...]` and `{a,b}` as in a shell. With `anywhere`, a pattern without a `/`
    matches a file's name at any depth, as ripgrep's `--glob` does (Grep); without, it matches
    in the searched folder only (Glob). Matched in linear time (engine/base/globmatch.py). Raises
    TooComplex past MAX_GLOB_CHARS or MAX_ALTERNATIVES: each character of each path costs the
    pattern's length, and a walk meets up to 200,000 paths."""
    if len(pattern) > MAX_GLOB_CHARS:
        raise TooComplex(f"longer than {MAX_GLOB_CHARS:,} characters")
    items, _ = _glob_items(pattern, 0, 0)
    if anywhere and "/" not in pattern:
        items = [Opt((Star(ANY), Char("/"))), *items]
    return Pattern(items)


def _glob_items(pattern: str, i: int, depth: int) -> tuple[list[Item], int]:
    """The items from `i` to the end, or (inside braces) to the `,` or `}` that ends this choice."""
    out: list[Item] = []
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append(Opt((Star(ANY), Char("/"))))
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(Star(ANY))
            i += 2
            continue
        if c == "*":
            out.append(Star(NOT_SLASH))
        elif c == "?":
            out.append(Char(NOT_SLASH))
        elif c == "[" and (close := pattern.find("]", i + 2)) >= 0:
            body = pattern[i + 1 : close].replace("\\", "\\\\")
            try:
                out.append(Char(re.compile("[" + ("^" + body[1:] if body.startswith("!") else body) + "]", re.S)))
            except re.error:
                out.extend(Char(ch) for ch in pattern[i : close + 1])
            i = close
        elif c == "{" and depth < GLOB_PARTS:
            choices: list[tuple[Item, ...]] = []
            while True:
                choice, i = _glob_items(pattern, i + 1, depth + 1)
                choices.append(tuple(choice))
                if i >= len(pattern) or pattern[i] == "}":
                    break
            out.append(Alt(tuple(choices)))
        elif c in ",}" and depth:
            return out, i
        else:
            out.append(Char(c))
        i += 1
    return out, i


# Files that configure what runs next: Claude Code asks before any write to them, even under a
# rule that allows every Edit or every Bash command (recorded, tests/oracle: `.claude/`,
# `.git/hooks/`, `.mcp.json`, `~/.bashrc`). The list errs wide: asking costs a keypress.
PROTECTED_FOLDERS = frozenset({".claude", ".git", ".ssh", ".gnupg", ".vscode", ".idea"})
PROTECTED_FILES = frozenset(
    {".mcp.json", ".claude.json", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile", ".zshrc"}
    | {".zshenv", ".zprofile", ".zlogin", ".gitconfig", ".gitmodules", ".npmrc", ".pypirc", ".netrc", ".envrc"}
)


def protected(path: Path) -> str | None:
    """Why writing `path` is always asked, or None. `path` is absolute (as written or resolved)."""
    # Compared without case and in one Unicode form: on macOS `.Claude/` and `.claude/` are one
    # folder, and a name in decomposed form is the same file as the composed one.
    parts = [unicodedata.normalize("NFC", part).casefold() for part in path.parts]
    for part in parts[:-1]:
        if part in PROTECTED_FOLDERS:
            return f"it is inside a {part}/ folder, which configures what runs next"
    if parts and (parts[-1] in PROTECTED_FILES or parts[-1] in PROTECTED_FOLDERS):
        return f"{parts[-1]} configures what runs next"
    return None
