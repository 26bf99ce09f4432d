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
from pathlib import Path

_GLOB = frozenset("*?[{")


def expand_path(path: str, cwd: Path, home: Path) -> Path:
    """`path` as an absolute path, `~` and `~/x` expanded to `home`, `..` folded (not resolved)."""
    if path == "~" or path.startswith("~/"):
        path = str(home) + path[1:]
    return Path(os.path.normpath(path if os.path.isabs(path) else cwd / path))


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
    return any(".." in alt or (alt[:1] in ".[" and fnmatch.fnmatchcase("..", alt)) for alt in alternatives)


def brace_alternatives(text: str, cap: int = 256) -> list[str] | None:
    """`text` with its brace alternatives expanded (`a{b,c}` is `ab`, `ac`); None past `cap`."""
    open_at = text.find("{")
    if open_at < 0:
        return [text]
    depth = 0
    commas = []
    for j in range(open_at, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                break
        elif text[j] == "," and depth == 1:
            commas.append(j)
    else:
        return [text]  # an unclosed brace is a plain character
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


def glob_reach(root: Path, pattern: str, home: Path) -> Path | None:
    """The folder a glob pattern searched from `root` can reach (None: no fixed folder bounds it)."""
    split = split_glob(root, pattern, home)
    return split[0] if split else None


# Bounds of a shell glob's expansion (`shell_matches`): folder entries looked at, and matches.
GLOB_ENTRIES = 20_000
GLOB_MATCHES = 2_000


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
    found = [start]
    budget = GLOB_ENTRIES
    for part in (p for p in rest.split("/") if p not in ("", ".")):
        if not any(ch in _GLOB for ch in part):
            found = [f / part for f in found]
            continue
        alternatives = brace_alternatives(part)
        if alternatives is None:
            return None
        matchers = [re.compile(fnmatch.translate(alt.replace("[^", "[!").replace("**", "*")), re.S) for alt in alternatives]
        matched: list[Path] = []
        for folder in found:
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        budget -= 1
                        if budget < 0:
                            return None
                        if any(m.match(entry.name) for m in matchers):
                            matched.append(folder / entry.name)
                            if len(matched) > GLOB_MATCHES:
                                return None
            except OSError:
                continue  # not a folder, gone, unreadable: the shell matches nothing there
        found = matched
    return found


def glob_regex(pattern: str, anywhere: bool = False) -> re.Pattern[str]:
    """A glob pattern for paths relative to the searched folder, as a regular expression:
    `**` crosses folders, `*` and `?` stay in one, `[...]` and `{a,b}` as in a shell. With
    `anywhere`, a pattern without a `/` matches a file's name at any depth, as ripgrep's
    `--glob` does (Grep); without, it matches in the searched folder only (Glob)."""
    out: list[str] = []
    i = 0
    depth = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            close = pattern.find("]", i + 2)
            if close < 0:
                out.append(re.escape(c))
            else:
                body = pattern[i + 1 : close].replace("\\", "\\\\")
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                i = close
        elif c == "{":
            depth += 1
            out.append("(?:")
        elif c == "}" and depth:
            depth -= 1
            out.append(")")
        elif c == "," and depth:
            out.append("|")
        else:
            out.append(re.escape(c))
        i += 1
    regex = "".join(out) + ")" * depth
    if anywhere and "/" not in pattern:
        regex = "(?:.*/)?" + regex
    try:
        return re.compile(regex, re.S)
    except re.error:
        return re.compile(re.escape(pattern))


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
