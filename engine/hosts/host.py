"""The interface every host implements, and the one pipeline that runs it.

A host answers four questions: where it looks (`roots`, in the order it loads them, with the walk
rules of each), how it reads one file (`read`: a HostSkill or a Refusal in its own words), which
skills it sends and in what order (`settle`: its clash rule, its switch-offs, its order), and what
it sends the model (`render`: the block, with its budget). `view` runs them for one Place.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from ..base.safeio import read_regular
from .model import HostSkill, HostView, Place, Refusal, Root, Status, Verdict
from .walk import WalkRules, walk

# No real SKILL.md comes near this; a larger file is refused, never read whole.
MAX_SKILL_BYTES = 1_000_000


class SkillHost(Protocol):
    key: str  # the --agent name: codex, gemini, opencode, copilot, claude-code
    title: str  # as its makers write it: Codex CLI, Gemini CLI, ...
    version: str  # the pinned version whose recordings this host reproduces
    builtin: tuple[str, ...]  # its own skills that are no files of the user's (names only)
    caveats: tuple[str, ...]  # what is true of every view (an order that is not fixed, ...)

    def roots(self, place: Place) -> list[tuple[Root, WalkRules]]: ...

    def read(self, data: bytes, path: str, root: Root, file: tuple[int, int] | None = None) -> HostSkill | Refusal:
        """The skill the host reads in `data` (the file at `path`; `file`: its device and inode, from
        the read's own stat), or why it will not."""
        ...

    def settle(self, place: Place, skills: list[HostSkill]) -> tuple[list[HostSkill], list[Verdict]]:
        """The skills it sends, in order, and a verdict for each it does not (shadowed, off)."""
        ...

    def render(self, place: Place, listed: list[HostSkill]) -> tuple[str | None, list[Verdict], list[str]]:
        """The block, a verdict for every listed skill (listed, cut, names-only, hidden) and the
        lines the host prints about its budget."""
        ...


def view(host: SkillHost, place: Place) -> HostView:
    roots: list[Root] = []
    skills: list[HostSkill] = []
    verdicts: list[Verdict] = []
    notes: list[str] = []
    for root, rules in host.roots(place):
        roots.append(root)
        walked = walk(root.path, rules)
        if walked.stopped:
            notes.append(f"{root.path}: {walked.stopped}; skilldeck read no further")
        for path in walked.files:
            try:
                data, info = read_regular(path, cap=MAX_SKILL_BYTES)
            except OSError as exc:
                read: HostSkill | Refusal = Refusal(f"cannot be read: {exc.strerror or exc}", "make it a readable file")
            else:
                read = host.read(data, path, root, (info.st_dev, info.st_ino))
            if isinstance(read, Refusal):
                where = Path(path)
                verdicts.append(Verdict(where, root, where.parent.name, Status.REFUSED, read.why, read.fix))
            else:
                skills.append(read)
    listed, dropped = host.settle(place, skills)
    block, sent, logs = host.render(place, listed)
    return HostView(
        host.key,
        host.title,
        host.version,
        roots,
        listed,
        [*sent, *dropped, *verdicts],
        block,
        [*host.caveats, *notes],
        logs,
        list(host.builtin),
    )
