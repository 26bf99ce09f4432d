"""Codex CLI 0.169.0 as its recordings show it (docs/agents.md, Codex CLI; tests/oracle/recordings/
agents/codex): where it looks, how it reads a SKILL.md (codex_read), what its user config switches
off (codex_config), its order, and the block it sends with its budget (codex_block).

Where it looks, in the order it loads (and numbers) its roots: the project's `.codex/skills` from
the start folder up to the top of the git repository, `$CODEX_HOME/skills`, `~/.agents/skills`,
its own skills in `$CODEX_HOME/skills/.system`, then the project's `.agents/skills` from the
nearest folder holding `.git` (any `.git`, even an empty folder) down to the start folder. Without
git, only the start folder's. The start folder and every root are taken with their symlinks
resolved, and one file reached through two roots is listed once, from the first. Every copy of a
name is listed: own skills first, then project, then user ones, each by name (byte order) then path.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path

from .codex_block import block
from .codex_config import codex_home, switches
from .codex_models import DEFAULT_MODEL, resolve
from .codex_read import Problem, read_skill
from .host import SkillHost
from .model import HostSkill, Place, Refusal, Root, Scope, Status, Verdict
from .walk import WalkRules

# Six folders down at most (`deep-6` is read, `deep-7` is not: nesting_deep), hidden folders skipped
# (node_modules read), symlinked folders followed once each, a SKILL.md that is itself a symlink not
# listed (nesting_hidden, symlinks, symlink_loop).
WALK = WalkRules(depth=6, hidden=False, follow_folders=True, file_links=False, nested=True, once=True)
# Codex writes its own skills itself and follows no symlink there.
OWN_WALK = WalkRules(hidden=False, follow_folders=False, file_links=False, nested=True, once=True)
_RANK = {Scope.OWN: 0, Scope.PROJECT: 1, Scope.USER: 2}


class Codex:
    key: str = "codex"
    title: str = "Codex CLI"
    version: str = "0.169.0"
    builtin: tuple[str, ...] = ()  # its own skills are files in its home, read like any other
    caveats: tuple[str, ...] = (
        f"Codex CLI's budget is 2% of its model's context window (its default, {DEFAULT_MODEL}: 5,440 tokens for "
        "the skill lines), less what its roots table costs past 35 tokens; the model is --model, else `model` in "
        "$CODEX_HOME/config.toml, else its default (a profile's model, `-c model=...` and a project's "
        "config.toml are not read)",
        "Codex CLI's own skills (imagegen, openai-docs, skill-creator, skill-installer) are files it writes "
        "into $CODEX_HOME/skills/.system on its first run: until Codex has run once they are not there",
        "Codex CLI lists every copy of a name, each with its own path: a clash hides nothing",
    )

    def __init__(self, model: str | None = None) -> None:
        # The model Codex runs with (`-m`); None: the one its config names, else its default.
        self.model = model

    def roots(self, place: Place) -> list[tuple[Root, WalkRules]]:
        # Codex works in the start folder's real path (symlinked_start) and canonicalizes each root
        # (a symlinked `.agents/skills` is shown as its target: symlinks_roots).
        place = Place(Path(os.path.realpath(place.start)), place.home, place.environ)
        home = codex_home(place)
        top = place.git_top()
        marked = place.marked_root()
        codex_levels = place.levels(top) if top is not None else [place.start]
        agents_levels = place.levels(marked) if marked is not None else [place.start]
        found = [(Root(level / ".codex" / "skills", Scope.PROJECT, ".codex/skills"), WALK) for level in codex_levels]
        found += [
            (Root(home / "skills", Scope.USER, "~/.codex/skills"), WALK),
            (Root(place.home / ".agents" / "skills", Scope.USER, "~/.agents/skills"), WALK),
            (Root(home / "skills" / ".system", Scope.OWN, "~/.codex/skills/.system"), OWN_WALK),
        ]
        found += [
            (Root(level / ".agents" / "skills", Scope.PROJECT, ".agents/skills"), WALK) for level in reversed(agents_levels)
        ]
        # A folder that is two roots at once (the home as the project) is read once, as the first.
        seen: set[str] = set()
        out = []
        for root, rules in found:
            key = os.path.realpath(root.path)
            if key not in seen:
                seen.add(key)
                out.append((Root(Path(key), root.scope, root.kind), rules))
        return out

    def read(self, data: bytes, path: str, root: Root, file: tuple[int, int] | None = None) -> HostSkill | Refusal:
        got = read_skill(data, os.path.basename(os.path.dirname(path)))
        if isinstance(got, Problem):
            return Refusal(got.why, got.fix, got.line)
        return HostSkill(got.name, got.description, Path(path), root, file)

    def settle(self, place: Place, skills: list[HostSkill]) -> tuple[list[HostSkill], list[Verdict]]:
        config = switches(place)
        listed: list[HostSkill] = []
        off: list[Verdict] = []
        first: dict[str, HostSkill] = {}
        for skill, real in zip(skills, _identities(skills), strict=True):
            # One file reached through two roots (a symlink in .codex/skills to a skill of
            # .agents/skills) is listed once, from the root read first (symlinks_roots).
            if real in first:
                why = f"the same file as {first[real].path}, which Codex CLI lists instead"
                off.append(Verdict(skill.path, skill.root, skill.name, Status.SHADOWED, why, "remove one of the links", skill))
            else:
                first[real] = skill
        for skill in sorted(first.values(), key=_order):
            rule = config.off(skill.name, _paths(skill.path)) if config.rules else None
            if rule is None:
                listed.append(skill)
                continue
            how = f'path = "{rule.value}"' if rule.by == "path" else f'name = "{rule.value}"'
            why = f"switched off in {config.path}: [[skills.config]] {how}, enabled = false"
            fix = f"set enabled = true in that entry of {config.path}, or remove the entry"
            off.append(Verdict(skill.path, skill.root, skill.name, Status.OFF, why, fix, skill))
        return listed, off

    def render(self, place: Place, listed: list[HostSkill]) -> tuple[str | None, list[Verdict], list[str]]:
        config = switches(place)
        model = resolve(self.model if self.model is not None else config.model, config.window)
        text, verdicts, logs = block([root for root, _ in self.roots(place)], listed, model)
        return text, verdicts, [*config.logs, *logs]


def _order(skill: HostSkill) -> tuple[int, str, tuple[str, ...]]:
    return _RANK[skill.root.scope], skill.name, skill.path.parts


def _identities(skills: list[HostSkill]) -> list[str]:
    """Each skill's file as Codex tells copies apart: its resolved path. Resolving costs a stat per
    folder of the path (150,000 for 15,000 skills), so only files that share their (device, inode)
    with another are resolved; every other file is told apart by its own path already. The
    (device, inode) is the read's own (`HostSkill.file`); a stat asks it only of a skill made
    without one (a sixth of a 15,000-skill view went to stats asking it again)."""
    keys: list[tuple[int, int] | None] = []
    for skill in skills:
        if skill.file is not None:
            keys.append(skill.file)
            continue
        try:
            info = os.stat(skill.path)
            keys.append((info.st_dev, info.st_ino))
        except (OSError, ValueError):
            keys.append(None)
    counts = Counter(keys)
    return [
        _paths(skill.path)[-1] if key is None or counts[key] > 1 else os.path.normpath(skill.path)
        for skill, key in zip(skills, keys, strict=True)
    ]


def _paths(path: Path) -> tuple[str, ...]:
    """The path as reached and as resolved: a `path =` switch-off may name either."""
    reached = os.path.normpath(path)
    try:
        return reached, os.path.realpath(path)
    except (OSError, ValueError):
        return (reached,)


CODEX: SkillHost = Codex()
