"""Whether a repository's own git config makes a read-only git command run a program.

`git status`, `git log`, `git diff` and `git show` run without a rule inside the working folder.
They read `.git/config`, and a repository that did not come from `git clone` (an archive, a
folder copied from someone else) can ship one: `core.fsmonitor` runs a program on every
`git status`, `diff.<driver>.textconv` and `diff.external` on every diff, `core.pager` whenever
there is a terminal. Such a repository's git commands are asked. The user's own config
(`~/.gitconfig`) is theirs and is not read here.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..safeio import read_regular_text

CONFIG_CAP = 256 * 1024
# Walking up to the repository root: a project is rarely deeper than this below it.
MAX_LEVELS = 64
# Keys whose value is a program that status, log, diff or show may run: core.fsmonitor,
# core.pager, diff.<driver>.textconv and .command, diff.external, filter.<name>.clean, .smudge
# and .process (filters run when git refreshes its index).
_RUNS = re.compile(r"^\s*(fsmonitor|pager|textconv|command|external|clean|smudge|process)\s*=", re.I | re.M)
# [include] and [includeIf] read another config file, which may set any of those.
_SECTIONS = re.compile(r"^\s*\[\s*(include|includeif)\b", re.I | re.M)
# A hook git status may run when it rewrites the index.
_HOOKS = ("post-index-change",)


def _git_folder(start: Path) -> Path | None:
    folder = start
    for _ in range(MAX_LEVELS):
        candidate = folder / ".git"
        if candidate.exists() or candidate.is_symlink():
            return candidate
        if folder.parent == folder:
            return None
        folder = folder.parent
    return None


def repository_runs_programs(cwd: Path) -> str | None:
    """Why git in `cwd` may run a program its repository names, or None."""
    found = _git_folder(cwd)
    if found is None:
        return None
    if not found.is_dir() or found.is_symlink():
        # A `.git` file (`gitdir: ...`, a worktree or submodule) or link: the config is elsewhere.
        return f"{found} points git at another folder, whose config is not read here"
    config = found / "config"
    try:
        text = read_regular_text(config, CONFIG_CAP, errors="replace")
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"{config} could not be read ({exc.strerror})"
    m = _RUNS.search(text) or _SECTIONS.search(text)
    if m is not None:
        return f"{config} sets `{m.group(0).strip().rstrip('=').strip()}`, which can make git run a program"
    for hook in _HOOKS:
        if (found / "hooks" / hook).exists():
            return f"{found / 'hooks' / hook} is a hook git status may run"
    return None
