"""Gemini CLI 0.61.0 as its binary behaves (docs/agents.md, Gemini CLI; its bundle's SkillManager):
four folders in a fixed order, the root's SKILL.md and one folder down, a lenient frontmatter
(gemini_frontmatter), the last skill of a name winning at the first one's place, names switched
off in its settings (gemini_config), and an `<available_skills>` element with no escaping and no
budget. Its own two skills are no files of the user's: they are named, never shown.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from .gemini_config import UNTRUSTED, cwd_of, home_of, read_config
from .gemini_frontmatter import fields, frontmatter
from .host import SkillHost
from .model import HostSkill, Place, Refusal, Root, Scope, Status, Verdict
from .walk import WalkRules
from .xmlblock import Layout, available_skills

# glob(["SKILL.md", "*/SKILL.md"]) without `dot`, ignoring node_modules: no hidden folders, no
# deeper skills; symlinks followed. A folder reached twice through a link is read twice, as
# glob does (depth 1 keeps a loop finite).
RULES = WalkRules(depth=1, hidden=False, skip=frozenset({"node_modules"}), once=False)
LAYOUT = Layout(indent="  ", escape=False)


def _load_order(skill: HostSkill) -> tuple[int, str]:
    """Inside one folder: the root's own SKILL.md first, then the skill folders in descending
    byte order of their names (the order Gemini CLI gives most often; see the caveats)."""
    if skill.path.parent == skill.root.path:
        return (1, "")
    return (0, skill.path.parent.name)


def _conflict(name: str, new: HostSkill, old: HostSkill) -> str:
    return f'Skill conflict detected: "{name}" from "{new.path}" is overriding the same skill from "{old.path}".'


class GeminiHost:
    key: str = "gemini"
    title: str = "Gemini CLI"
    version: str = "0.61.0"
    builtin: tuple[str, ...] = ("skill-creator", "antigravity-support")
    caveats: tuple[str, ...] = (
        "Gemini CLI loads the skills of one folder in an order that is not fixed from run to run: mostly "
        "descending byte order of the folder names (shown here), with neighbours sometimes swapped; "
        "so the order inside a folder, and which of two skills of one name in one folder wins, may differ.",
        "Shown as print mode (`gemini -p`) sees it; skills of Gemini CLI extensions, which load first, are not read.",
    )

    def roots(self, place: Place) -> list[tuple[Root, WalkRules]]:
        # Its own skills load first (builtin), then these four in this order. The project's are read
        # only in a trusted folder; they are walked anyway, so that settle can say why they are not sent.
        home, cwd = home_of(place), cwd_of(place)
        return [
            (Root(home / ".gemini" / "skills", Scope.USER, "~/.gemini/skills"), RULES),
            (Root(home / ".agents" / "skills", Scope.USER, "~/.agents/skills"), RULES),
            (Root(cwd / ".gemini" / "skills", Scope.PROJECT, ".gemini/skills"), RULES),
            (Root(cwd / ".agents" / "skills", Scope.PROJECT, ".agents/skills"), RULES),
        ]

    def read(self, data: bytes, path: str, root: Root, file: tuple[int, int] | None = None) -> HostSkill | Refusal:
        # Node's readFile(..., "utf-8"): bad bytes become U+FFFD, a BOM stays.
        block = frontmatter(data.decode("utf-8", "replace"))
        if isinstance(block, Refusal):
            return block
        found = fields(block)
        if isinstance(found, Refusal):
            return found
        name, description = found
        return HostSkill(name, description, Path(path), root)

    def settle(self, place: Place, skills: list[HostSkill]) -> tuple[list[HostSkill], list[Verdict]]:
        config = read_config(place)
        verdicts: list[Verdict] = []
        ordered: list[HostSkill] = []
        for _, group in itertools.groupby(skills, key=lambda s: s.root):
            ordered.extend(sorted(group, key=_load_order, reverse=True))
        if not config.enabled:
            why = f"skills.enabled is false in {config.enabled_in}: Gemini CLI loads no skills"
            fix = "remove `skills.enabled: false` from that settings.json"
            return [], [Verdict(s.path, s.root, s.name, Status.OFF, why, fix, s) for s in ordered]
        if not config.trusted:
            why = "the folder is not trusted, so Gemini CLI reads no project skills"
            fix = "set GEMINI_CLI_TRUST_WORKSPACE=true, or trust the folder in interactive mode"
            verdicts += [
                Verdict(s.path, s.root, s.name, Status.OFF, why, fix, s) for s in ordered if s.root.scope is Scope.PROJECT
            ]
            ordered = [s for s in ordered if s.root.scope is not Scope.PROJECT]
        # SkillManager's Map: its own skills first; a later skill of a name replaces the earlier one
        # in its place (logged when the two paths differ).
        slots: dict[str, HostSkill | None] = dict.fromkeys(self.builtin)
        shadowed: list[tuple[HostSkill, str]] = []
        for skill in ordered:
            old = slots.get(skill.name)
            if old is not None and old.path != skill.path:
                shadowed.append((old, _conflict(skill.name, skill, old)))
            slots[skill.name] = skill
        for old, line in shadowed:
            winner = slots[old.name]
            fix = f"Gemini CLI sends the one in {winner.path if winner else '?'}; rename one of them to send both"
            verdicts.append(Verdict(old.path, old.root, old.name, Status.SHADOWED, line, fix, old))
        listed: list[HostSkill] = []
        for name, kept in slots.items():
            if kept is None:
                continue
            source = config.disabled.get(name.lower())
            if source is None:
                listed.append(kept)
            else:
                why = f'"{name}" is in skills.disabled in {source} (any letter case)'
                verdicts.append(Verdict(kept.path, kept.root, name, Status.OFF, why, "remove it from skills.disabled", kept))
        return listed, verdicts

    def render(self, place: Place, listed: list[HostSkill]) -> tuple[str | None, list[Verdict], list[str]]:
        config = read_config(place)
        if config.errors:
            why = "Gemini CLI does not start: it cannot read its settings"
            fix = "fix the settings file named in the log"
            logs = [*config.errors, "Please fix the configuration file(s) and try again."]
            return None, [Verdict(s.path, s.root, s.name, Status.OFF, why, fix, s) for s in listed], logs
        if not config.trusted:
            why = f"print mode does not start in a folder Gemini CLI does not trust ({config.trust_why})"
            fix = "set GEMINI_CLI_TRUST_WORKSPACE=true, pass --skip-trust, or trust the folder in interactive mode"
            return None, [Verdict(s.path, s.root, s.name, Status.OFF, why, fix, s) for s in listed], [UNTRUSTED]
        own = [name for name in self.builtin if name.lower() not in config.disabled]
        if not config.enabled or not (listed or own):
            return None, [], []
        elements = [LAYOUT.element(s.name, s.description, str(s.path)) for s in listed]
        sent = [Verdict(s.path, s.root, s.name, Status.LISTED, skill=s) for s in listed]
        return available_skills(elements), sent, []


GEMINI: SkillHost = GeminiHost()
