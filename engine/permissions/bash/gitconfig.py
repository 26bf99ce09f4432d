"""Whether a repository's own git config makes a read-only git command run a program, and the
environment that keeps it from doing so.

`git status`, `git log`, `git diff` and `git show` run without a rule inside the working folder.
They read the repository's config, and a repository that did not come from `git clone` (an
archive, a folder copied from someone else) can ship one. Two defences, both applied:

- The line runs with `guard_env`: config given in the environment beats every config file (and
  whatever they include), so `core.fsmonitor`, `core.hooksPath` (a `post-index-change` hook),
  `log.showSignature` with `gpg.program`, credential helpers and the `ext::` transport are
  switched off, and a partial clone fetches nothing it lacks (`GIT_NO_LAZY_FETCH`, git 2.45+).
- What the environment cannot switch off is asked (`repository_runs_programs`): a diff or filter
  driver a `.gitattributes` names (`textconv`, `command`, `clean`, `smudge`, `process`),
  `diff.external`, a config that includes another file, a partial clone (older git fetches
  lazily whatever the environment says), a `.git/commondir` (Claude Code asks too) or a `.git`
  file pointing elsewhere, in the repository's config, its `config.worktree` and its
  submodules' configs.

Claude Code 2.1.328 runs four of five such repositories' programs (issue 32: only commondir is
asked): skilldeck is safer here on purpose. The user's own config (`~/.gitconfig`) is theirs
and is not read here.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from pathlib import Path

from ...base.safeio import read_regular_text
from .commands import invocations
from .parse import parse
from .readonly import read_only

CONFIG_CAP = 256 * 1024
# Walking up to the repository root: a project is rarely deeper than this below it.
MAX_LEVELS = 64
# Submodule configs read under .git/modules before the repository is asked about as a whole.
MAX_MODULES = 64
# Keys whose value is a program that status, log, diff or show may run and that the environment
# cannot switch off (their section names are the repository's own: diff.<driver>.textconv),
# and the keys of a partial clone (its lazy fetch may run a transport or core.sshCommand).
_RUNS = re.compile(r"^\s*(fsmonitor|pager|textconv|command|external|clean|smudge|process|promisor|partialclone)\s*=", re.I | re.M)
# [include] and [includeIf] read another config file, which may set any of those.
_SECTIONS = re.compile(r"^\s*\[\s*(include|includeif)\b", re.I | re.M)
# A hook git status may run when it rewrites the index.
_HOOKS = ("post-index-change",)

# Config that beats every file of the repository (GIT_CONFIG_COUNT), switching off what would
# run a program during status, log, diff or show.
GUARD_CONFIG = (
    ("core.fsmonitor", "false"),
    ("core.hooksPath", "/dev/null"),
    ("log.showSignature", "false"),
    # `--show-signature` given on the line: the verifier is `false`, which checks nothing.
    ("gpg.program", "false"),
    ("gpg.openpgp.program", "false"),
    ("gpg.x509.program", "false"),
    ("gpg.ssh.program", "false"),
    ("core.pager", "cat"),
    ("credential.helper", ""),
    ("protocol.ext.allow", "never"),
)
GUARD_VARIABLES = {"GIT_NO_LAZY_FETCH": "1", "GIT_PAGER": "cat", "GIT_EDITOR": ":", "GIT_SEQUENCE_EDITOR": ":"}


def runs_read_only_git(command: str) -> bool:
    """Whether the line runs git status, log, diff or show (the commands no rule is needed for)."""
    invs, _ = invocations(parse(command))
    return any(inv.name == "git" and read_only(inv) for inv in invs)


def guard_env(command: str, environ: Mapping[str, str] | None = None) -> dict[str, str] | None:
    """The environment to run `command` in: `environ` (default os.environ) with the guard added
    when the line runs a read-only git command; None when nothing needs changing."""
    if not runs_read_only_git(command):
        return None
    env = dict(os.environ if environ is None else environ)
    count = env.get("GIT_CONFIG_COUNT", "0")
    start = int(count) if count.isdigit() and len(count) < 6 else 0
    for i, (key, value) in enumerate(GUARD_CONFIG, start):
        env[f"GIT_CONFIG_KEY_{i}"] = key
        env[f"GIT_CONFIG_VALUE_{i}"] = value
    env["GIT_CONFIG_COUNT"] = str(start + len(GUARD_CONFIG))
    env.update(GUARD_VARIABLES)
    return env


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


def _config_files(gitdir: Path) -> list[Path] | str:
    """The config files git reads in `gitdir` and its submodules' folders, or why they cannot
    all be known."""
    files = [gitdir / "config", gitdir / "config.worktree"]
    modules = gitdir / "modules"
    if modules.is_dir() and not modules.is_symlink():
        seen = 0
        for root, dirs, names in os.walk(modules):
            dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(root, d))]
            if "config" in names:
                seen += 1
                if seen > MAX_MODULES:
                    return f"{modules} holds more than {MAX_MODULES} submodules, whose configs are not all read"
                files.append(Path(root) / "config")
    return files


def repository_runs_programs(cwd: Path) -> str | None:
    """Why git in `cwd` may run a program its repository names, or None."""
    found = _git_folder(cwd)
    if found is None:
        return None
    if not found.is_dir() or found.is_symlink():
        # A `.git` file (`gitdir: ...`, a worktree or submodule) or link: the config is elsewhere.
        return f"{found} points git at another folder, whose config is not read here"
    if (found / "commondir").exists() or (found / "commondir").is_symlink():
        return f"{found / 'commondir'} points git at another folder's config"
    files = _config_files(found)
    if isinstance(files, str):
        return files
    for config in files:
        try:
            text = read_regular_text(config, CONFIG_CAP, errors="replace")
        except FileNotFoundError:
            continue
        except OSError as exc:
            return f"{config} could not be read ({exc.strerror or exc})"
        m = _RUNS.search(text) or _SECTIONS.search(text)
        if m is not None:
            return f"{config} sets `{m.group(0).strip().rstrip('=').strip()}`, which can make git run a program"
    for hook in _HOOKS:
        if (found / "hooks" / hook).exists():
            return f"{found / 'hooks' / hook} is a hook git status may run"
    return None
