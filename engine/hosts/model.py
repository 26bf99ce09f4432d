"""What a host is asked about and what it answers: the place a session starts (Place), the folders
it reads (Root), each SKILL.md it reached and what it did with it (Verdict), and the whole answer
(HostView), shared by every host so that the CLI, the app and the portability matrix read one shape."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from ..base.fastinit import init_by_slots

# Every --agent name, in the order screens list them: Claude Code first.
DEFAULT = "claude-code"
HOST_KEYS = (DEFAULT, "codex", "gemini", "opencode", "copilot")
# The agents whose skills block depends on the model they run with (Claude Code's budget: its
# listing's; Codex CLI's: its host's `model`). Gemini CLI, OpenCode and Copilot CLI: none.
MODEL_KEYS = (DEFAULT, "codex")


@dataclass(frozen=True)
class Place:
    """Where an agent is started and whose home it reads: `start` as the shell gives it (not
    resolved: agents differ in how they treat a symlinked start), `home` from HOME."""

    start: Path
    home: Path
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ), repr=False, compare=False)

    @classmethod
    def here(cls, start: Path, environ: Mapping[str, str] | None = None) -> Place:
        env = dict(os.environ) if environ is None else dict(environ)
        home = Path(env.get("HOME") or os.path.expanduser("~"))
        return cls(Path(os.path.abspath(start)), Path(os.path.abspath(home)), env)

    def marked_root(self) -> Path | None:
        """The nearest folder at or above the start that holds `.git` of any kind (even an empty
        folder): Codex's project root."""
        for folder in (self.start, *self.start.parents):
            if os.path.lexists(folder / ".git"):
                return folder
        return None

    def git_top(self) -> Path | None:
        """The top of the repository as git itself finds it: a `.git` folder that holds HEAD, or a
        `.git` file (a worktree or submodule). An empty `.git` folder is not a repository."""
        for folder in (self.start, *self.start.parents):
            dot = folder / ".git"
            if os.path.isfile(dot) or os.path.isfile(dot / "HEAD"):
                return folder
        return None

    def levels(self, top: Path | None) -> list[Path]:
        """The folders from the start up to `top` (both included), nearest first; every folder up to
        the filesystem's root when `top` is None."""
        out = []
        for folder in (self.start, *self.start.parents):
            out.append(folder)
            if top is not None and folder == top:
                break
        return out


class Scope(StrEnum):
    PROJECT = "project"
    USER = "user"
    OWN = "own"  # the agent's own skills (Codex's system skills, files in its home)


@dataclass(frozen=True)
class Root:
    """A folder a host reads skills from, and what kind of place it is in that host's words."""

    path: Path
    scope: Scope
    kind: str  # the folder's name as users write it: `.agents/skills`, `~/.codex/skills`, ...


class Status(StrEnum):
    LISTED = "listed"  # sent whole
    CUT = "cut"  # sent, its description shortened or dropped by the host's budget
    NAMES_ONLY = "names-only"  # past the budget: only its name is sent
    HIDDEN = "hidden"  # past the budget: not sent at all
    SHADOWED = "shadowed"  # another skill of the same name is sent instead
    OFF = "off"  # switched off in the host's own config
    REFUSED = "refused"  # the host will not read the file


SENT = frozenset({Status.LISTED, Status.CUT, Status.NAMES_ONLY})


@dataclass(frozen=True, slots=True)
class HostSkill:
    """A skill as one host reads it: the name and description it would send."""

    name: str
    description: str
    path: Path  # the SKILL.md as the host reached it (through symlinks, not resolved)
    root: Root
    # (device, inode) of the file as it was read, for a host that tells copies apart by it (Codex CLI).
    file: tuple[int, int] | None = None


@dataclass(frozen=True)
class Refusal:
    """Why a host will not read a file, in that host's terms, and what to do about it."""

    why: str
    fix: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    """What one host does with one SKILL.md it reached."""

    path: Path
    root: Root
    name: str  # the name it would send, else the folder's name
    status: Status
    why: str = ""  # one line in the host's terms ("" when simply listed)
    fix: str = ""
    skill: HostSkill | None = None

    @property
    def sent(self) -> bool:
        return self.status in SENT


# One of each per SKILL.md an agent reaches: 15,000 of each in a large catalog.
init_by_slots(HostSkill)
init_by_slots(Verdict)


@dataclass
class HostView:
    """Everything one host makes of one place: the block it sends, the skills in it in order,
    a verdict for every SKILL.md it reached, and notes that are true of the whole view."""

    host: str
    title: str
    version: str
    roots: list[Root]
    listed: list[HostSkill]
    verdicts: list[Verdict]
    block: str | None  # None: the host sends no skills block at all
    notes: list[str] = field(default_factory=list)
    # Lines the host itself prints about skills (Codex's budget warning), as it words them.
    logs: list[str] = field(default_factory=list)
    # The host's own skills that are no files of the user's: named, never shown as text.
    builtin: list[str] = field(default_factory=list)

    def verdicts_for(self, name: str) -> list[Verdict]:
        return [v for v in self.verdicts if v.name == name]
