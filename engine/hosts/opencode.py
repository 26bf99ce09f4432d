"""OpenCode 1.18.33 as its binary behaves (docs/agents.md, OpenCode): where it looks for skills,
how it reads one (opencode_fm), which it keeps when names clash, what its config switches off
(opencode_config), and the `<available_skills>` element it puts in the system prompt.

Where it looks, in the order it loads: `~/.claude/skills`, `~/.agents/skills`; `.claude/skills`
and `.agents/skills` in every folder from the start folder up to the top of the git repository
(without one, up to `/`); then `skill/` and `skills/` in each config folder (`$XDG_CONFIG_HOME/
opencode`, each `.opencode` from the start folder up, `~/.opencode`); then each folder of the
config's `skills.paths`. Every folder below a root is read, hidden ones and `node_modules` too,
except that in the config folders' `skill(s)` and in `skills.paths` a hidden folder is not (their
globs have no `dot`); every symlink is followed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from ..catalog.sources.collate import collation_key
from .model import HostSkill, Place, Refusal, Root, Scope, Status, Verdict
from .opencode_config import Rule, Settings, config_dirs, flag, load
from .opencode_fm import Unreadable, read_fields
from .walk import WalkRules
from .xmlblock import Layout, available_skills

OWN_SKILL = "customize-opencode"
# Folders between the start folder and the top of the walk that skilldeck reads at most. Without
# git OpenCode goes up to `/`, which no real path is this far from.
MAX_LEVELS = 64
LAYOUT = Layout(indent="  ", escape=False)
# The external folders (`.claude`, `.agents`): OpenCode globs them with `dot`.
EXTERNAL = WalkRules(hidden=True)
# Its config folders' `skill(s)`: globbed without `dot`, so a hidden folder below is not read.
CONFIG = WalkRules(hidden=False)

RACE = (
    "OpenCode reads every skill at once and, for a name found twice, keeps the file it happens to "
    "finish reading last, which can change from one run to the next; skilldeck shows the one OpenCode "
    "loads last (a run where the reads finish in order) and marks the others shadowed"
)
LOOP = (
    "a folder reached twice (a symlink loop) is read once here; OpenCode follows a loop some forty "
    "times and lists the skill once, at a `loop/loop/…` path that changes from run to run"
)


@dataclass(frozen=True)
class Unlisted(HostSkill):
    """A skill without a `description`: OpenCode loads it under its name, so it wins or loses a
    clash like any other, but never lists it."""


def _escape_location(text: str) -> str:
    """OpenCode escapes the location alone, with its own entity for `'`."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&#39;")


class OpenCodeHost:
    key = "opencode"
    title = "OpenCode"
    version = "1.18.33"
    builtin: tuple[str, ...] = (OWN_SKILL,)
    caveats: tuple[str, ...] = (RACE, LOOP)

    def _start(self, place: Place) -> Place:
        # OpenCode starts from process.cwd(), the folder with its symlinks resolved.
        return Place(Path(os.path.realpath(place.start)), place.home, place.environ)

    def _levels(self, place: Place) -> list[Path]:
        start = self._start(place)
        top = start.git_top()
        return start.levels(top)[:MAX_LEVELS]

    def roots(self, place: Place) -> list[tuple[Root, WalkRules]]:
        env, home = place.environ, place.home
        out: list[tuple[Root, WalkRules]] = []
        if not flag(env, "OPENCODE_DISABLE_EXTERNAL_SKILLS"):
            kinds = [".agents"] if _no_claude(env) else [".claude", ".agents"]
            out += [(Root(home / k / "skills", Scope.USER, f"~/{k}/skills"), EXTERNAL) for k in kinds]
            for level in self._levels(place):
                out += [(Root(level / k / "skills", Scope.PROJECT, f"{k}/skills"), EXTERNAL) for k in kinds]
        for folder in config_dirs(env, home, self._levels(place)):
            scope, kind = _config_kind(folder, home, env)
            out += [(Root(folder / sub, scope, f"{kind}/{sub}"), CONFIG) for sub in ("skill", "skills")]
        out += [(Root(folder, Scope.USER, "skills.paths"), CONFIG) for folder in self._extra(place)]
        # A folder reached as two roots (the start folder inside home) is one set of files to OpenCode.
        first: dict[Path, tuple[Root, WalkRules]] = {}
        for root, rules in out:
            first.setdefault(root.path, (root, rules))
        return list(first.values())

    def _extra(self, place: Place) -> list[Path]:
        """The folders `skills.paths` names, each globbed for `**/SKILL.md` (switched_off_patterns):
        `~/` is the home, a relative path is from the start folder; a path that is no folder is
        passed over (OpenCode warns `skill path not found`)."""
        start = self._start(place).start
        out: list[Path] = []
        for given in self._settings(place).skill_paths:
            path = place.home / given[2:] if given.startswith("~/") else start / given
            if os.path.isdir(path):
                out.append(Path(os.path.normpath(path)))
        return out

    def read(self, data: bytes, path: str, root: Root, file: tuple[int, int] | None = None) -> HostSkill | Refusal:
        try:
            fields = read_fields(data)
        except Unreadable as exc:
            return Refusal(str(exc), _fix(str(exc)))
        if fields.description is None:
            return Unlisted(fields.name, "", Path(path), root)
        return HostSkill(fields.name, fields.description, Path(path), root)

    def _settings(self, place: Place) -> Settings:
        return load(place.environ, place.home, self._levels(place))

    def settle(self, place: Place, skills: list[HostSkill]) -> tuple[list[HostSkill], list[Verdict]]:
        verdicts: list[Verdict] = []
        by_name: dict[str, list[HostSkill]] = {}
        paths: set[str] = set()
        for skill in skills:
            where = str(skill.path)  # a string's hash is cached; a Path's is made from its parts
            if where not in paths:  # one file reached through two roots is one match
                paths.add(where)
                by_name.setdefault(skill.name, []).append(skill)
        winners: list[HostSkill] = []
        for group in by_name.values():
            winner = group[-1]
            for other in group:
                if isinstance(other, Unlisted):
                    verdicts.append(_no_description(other))
                elif other is not winner:
                    verdicts.append(_shadowed(other, winner))
            if not isinstance(winner, Unlisted):
                winners.append(winner)
        settings = self._settings(place)
        off = settings.tool_off()
        decide = settings.decider()
        listed: list[HostSkill] = []
        for skill in winners:
            if settings.stop:
                why = f"OpenCode stops before it sends anything: {settings.stop}"
                verdicts.append(_verdict(skill, Status.OFF, why, "fix the file, or remove it"))
                continue
            rule = off or decide(skill.name)
            if rule.action == "deny":
                verdicts.append(_verdict(skill, Status.OFF, _denied(rule, off is not None), _undeny(rule)))
            else:
                listed.append(skill)
        listed.sort(key=lambda s: collation_key(s.name))
        return listed, verdicts

    def render(self, place: Place, listed: list[HostSkill]) -> tuple[str | None, list[Verdict], list[str]]:
        settings = self._settings(place)
        logs = [*settings.logs, *_missing(place, settings.skill_paths, self._start(place).start)]
        if settings.stop or settings.tool_off() is not None:
            return None, [], logs
        own_sent = settings.decide(OWN_SKILL).action != "deny"
        if not listed and not own_sent:
            # Nothing to list: OpenCode says "No skills are currently available." instead.
            return None, [], logs
        # OpenCode's own skill sits among these in name order; skilldeck never shows its text.
        elements = [LAYOUT.element(s.name, s.description, _escape_location(str(s.path))) for s in listed]
        sent = [Verdict(s.path, s.root, s.name, Status.LISTED, skill=s) for s in listed]
        return available_skills(elements), sent, logs


def _missing(place: Place, given: list[str], start: Path) -> list[str]:
    out = []
    for text in given:
        path = place.home / text[2:] if text.startswith("~/") else start / text
        if not os.path.isdir(path):
            out.append(f'level=WARN message="skill path not found" path={os.path.normpath(path)}')
    return out


def _no_claude(env: Mapping[str, str]) -> bool:
    return flag(env, "OPENCODE_DISABLE_CLAUDE_CODE") or flag(env, "OPENCODE_DISABLE_CLAUDE_CODE_SKILLS")


def _config_kind(folder: Path, home: Path, env: Mapping[str, str]) -> tuple[Scope, str]:
    if folder == home / ".opencode":
        return Scope.USER, "~/.opencode"
    if folder.name == ".opencode":
        return Scope.PROJECT, ".opencode"
    if str(folder) == env.get("OPENCODE_CONFIG_DIR"):
        return Scope.USER, "$OPENCODE_CONFIG_DIR"
    return Scope.USER, "$XDG_CONFIG_HOME/opencode" if env.get("XDG_CONFIG_HOME") else "~/.config/opencode"


def _verdict(skill: HostSkill, status: Status, why: str, fix: str) -> Verdict:
    return Verdict(skill.path, skill.root, skill.name, status, why, fix, skill)


def _shadowed(skill: HostSkill, winner: HostSkill) -> Verdict:
    if isinstance(winner, Unlisted):
        why = (
            f"another `{skill.name}` ({winner.path}) has no description and takes its place, so OpenCode lists "
            "neither; which of them it keeps can change between runs"
        )
    else:
        why = (
            f"another `{skill.name}` ({winner.path}) is listed instead: OpenCode keeps whichever of them it "
            "finishes reading last, so the winner can change between runs"
        )
    return _verdict(skill, Status.SHADOWED, why, "rename one of them, or remove the copies you do not want")


def _no_description(skill: HostSkill) -> Verdict:
    why = "has no `description`: OpenCode loads it under its name but never lists it"
    return _verdict(skill, Status.REFUSED, why, "add a `description:` line to its frontmatter")


def _denied(rule: Rule, whole_tool: bool) -> str:
    where = f" in {rule.source}" if rule.source else ""
    if whole_tool:
        return f'`permission` sets the `{rule.permission}` tool to "deny"{where}: OpenCode offers no skills at all'
    key = "skill" if rule.permission == "skill" else f'"{rule.permission}"'
    return f'`permission.{key}` matches it with "{rule.pattern}": "deny"{where}'


def _undeny(rule: Rule) -> str:
    return f'remove the "{rule.pattern}" rule, or add a later one for this name set to "allow" (or "ask", which keeps it listed)'


def _fix(why: str) -> str:
    if "no frontmatter" in why:
        return "start the file with a `---` line, the `name:` and `description:` lines, and a closing `---`"
    if "`name`" in why:
        return "give it a `name:` line whose value is text"
    if "`description`" in why:
        return "make `description:` a line of text (quote it if it looks like a number, a date or true/false)"
    return "fix the frontmatter so that it is valid YAML (quote values that hold `: `, `#`, `[` or `{`)"


OPENCODE = OpenCodeHost()
