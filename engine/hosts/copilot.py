"""Copilot CLI 1.0.102 as its binary behaves (docs/agents.md, section Copilot CLI; each rule below
names the case whose recording shows it): `.github`, `.agents` and `.claude` skills folders from
the start folder up to the git top, the user's `~/.copilot/skills` and `~/.agents/skills`, strict
YAML frontmatter with its own name rules, the first of a name wins, `disabledSkills` in the
user's settings, and an `<available_skills>` element cut at 15,050 UTF-16 units of elements."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from ..base.bounds import yaml_problem
from ..base.jsondoc import JsonDocError, JsonObject, loads
from ..base.safeio import read_regular
from ..base.yamlload import Loader
from .host import SkillHost
from .model import HostSkill, Place, Refusal, Root, Scope, Status, Verdict
from .plainyaml import plain_mapping
from .walk import WalkRules
from .xmlblock import Layout, available_skills

# Project folder kinds, in the order Copilot CLI loads them below the git top [order].
KINDS = (".github/skills", ".agents/skills", ".claude/skills")
# Without git it reads every folder up to the filesystem's root [monorepo_nogit]: bounded here,
# far past any real path's depth, so that a path of thousands of levels is not walked whole.
MAX_LEVELS = 64
# The sum of the sent elements' lengths (`<skill>` to `</skill>` and its line break, in UTF-16
# code units) stays within this [many_250_d203]: 50 of 301 fit, 87 of 173 do not [many_250_d75].
BUDGET = 15_050
NAMES_LINE = "Additional skills available (invoke by name): "
# Its own skills come after the user's [empty]. Their texts are Copilot's and never stored; their
# elements' lengths are the `own` chars of tests/oracle/recordings/agents/copilot/empty.json.
OWN_ELEMENTS = (("customize-cloud-agent", 444), ("github-pr-media", 325))
MAX_NAME = 64
MAX_DESCRIPTION = 1_024
SETTINGS_CAP = 4 * 1024 * 1024
LAYOUT = Layout(indent="", escape=True)  # no indent on `<skill>`, XML escaping [xml_characters]
# Any depth, the first folder with a SKILL.md is one skill [nesting_hidden], symlinks followed
# [symlinks], a loop read once [symlink_loop]. Dot-folders: no recording yet (docs: open); the
# binary's own text for a skills root says it walks "skipping dot-directories".
RULES = WalkRules(depth=None, hidden=False, nested=False)
_FENCE = re.compile(r"---[ \t]*")  # spaces after a fence are fine [limits_yaml fence-spaces]
_CLAUDE_NOTE = re.compile(r" \([^()]*Claude Code[^()]*\)")
_YAML_FIX = "fix the YAML: quote a value that holds `: ` or starts with `[`, `{`, `*` or `&`; indent with spaces, not tabs"


class _Duplicate(Exception):
    def __init__(self, key: str, line: int) -> None:
        super().__init__(key)
        self.key = key
        self.line = line


def _refuse(why: str, fix: str, line: int | None = None) -> Refusal:
    return Refusal(f"Copilot CLI skips it: {why}", fix, line)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    return f"a {type(value).__name__}"


def _no_duplicates(root: yaml.Node) -> None:
    """Raise _Duplicate at the first mapping that holds a key twice (`dup-key` in [limits_yaml]:
    Copilot refuses it, PyYAML keeps the last). Each node is visited once, so an alias adds
    nothing; yaml_problem has bounded the nesting and the aliases before the parse."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, yaml.MappingNode):
            keys: set[tuple[str, str]] = set()
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and key.tag != "tag:yaml.org,2002:merge":
                    if (key.tag, key.value) in keys:
                        raise _Duplicate(key.value, key.start_mark.line)
                    keys.add((key.tag, key.value))
                stack += [key, value]
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value


def _parse(text: str) -> tuple[Any, dict[str, str]]:
    """The frontmatter's value and the style of each top-level key's scalar (`|`, `>`, ...)."""
    plain = plain_mapping(text.removesuffix("\n"))
    if plain is not None:  # the common frontmatter: plain text values, no parser needed
        return plain, dict.fromkeys(plain, "")
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}
        _no_duplicates(node)
        styles = {}
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if isinstance(key, yaml.ScalarNode) and isinstance(value, yaml.ScalarNode):
                    styles[key.value] = value.style or ""
        return loader.construct_document(node), styles
    finally:
        loader.dispose()


def _split(text: str) -> tuple[str, str] | Refusal:
    """The frontmatter between its fences and the body after it. A byte order mark and CRLF are
    fine [frontmatter_quirks q06, q07]; the first line must be the fence itself (an indented one
    or a blank line before it is no frontmatter: q28, `leading-blank`)."""
    lines = text.removeprefix("\ufeff").replace("\r\n", "\n").split("\n")
    if not _FENCE.fullmatch(lines[0]):
        return _refuse(
            "it does not start with a `---` line, so it has no frontmatter",
            "start the file with `---`, then `name:` and `description:`, then `---`",
        )
    for end in range(1, len(lines)):
        if _FENCE.fullmatch(lines[end]):
            return "\n".join(lines[1:end]), "\n".join(lines[end + 1 :])
    return _refuse("its frontmatter has no closing `---` line", "end the frontmatter with a line `---`")


def _first_text(body: str) -> str:
    """Without a description Copilot sends the body's first text [frontmatter_quirks q16]."""
    for line in body.split("\n"):
        if line.strip():
            return line.strip()
    return ""


def _string(fields: dict[str, Any], styles: dict[str, str], key: str) -> str | Refusal | None:
    """The field as text, a block scalar's final line break dropped [frontmatter_quirks q10,
    q11]; None when absent; a Refusal when it is not text (q24, q27, q30, `bool-desc`, `null-desc`)."""
    if key not in fields:
        return None
    value = fields[key]
    if not isinstance(value, str):
        return _refuse(f"its {key} must be a string, not {_kind(value)}", f"write the {key} as text (quote it)")
    return value[:-1] if styles.get(key) in ("|", ">") and value.endswith("\n") else value


def _name_problem(name: str) -> Refusal | None:
    """Copilot's name rules [frontmatter_quirks], [limits_yaml]: uppercase, `_`, `.`, a digit
    first and `--` pass; empty, over 64 characters, non-ASCII or a `/` do not."""
    fix = "use at most 64 ASCII letters, digits, `-`, `_` or `.`"
    if not name:
        return _refuse("its name is empty", "give it a name, or drop the field to use the folder's name")
    if len(name) > MAX_NAME:
        return _refuse(f"its name is {len(name)} characters, over Copilot's {MAX_NAME}", fix)
    if not name.isascii():
        odd = next(c for c in name if not c.isascii())
        return _refuse(f"its name holds the non-ASCII character `{odd}`", fix)
    if "/" in name:
        return _refuse("its name holds a `/`", fix)
    return None


def read_skill(data: bytes, path: str, root: Root) -> HostSkill | Refusal:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return _refuse(f"it is not UTF-8 (byte {exc.start})", "save the file as UTF-8")
    split = _split(text)
    if isinstance(split, Refusal):
        return split
    head, body = split
    problem = yaml_problem(head)
    if problem is not None:
        return _refuse(f"skilldeck does not parse this frontmatter: {_CLAUDE_NOTE.sub('', problem)}", "shorten the frontmatter")
    try:
        fields, styles = _parse(head)
    except _Duplicate as dup:
        line = dup.line + 2  # the fence is line 1
        return _refuse(f"its frontmatter has the key `{dup.key}` twice (line {line})", "keep one of them", line)
    except yaml.MarkedYAMLError as exc:
        at = exc.problem_mark.line + 2 if exc.problem_mark else None
        where = f" (line {at})" if at else ""
        return _refuse(f"its frontmatter is not valid YAML: {exc.problem or exc.context}{where}", _YAML_FIX, at)
    except (yaml.YAMLError, ValueError, TypeError, RecursionError) as exc:
        return _refuse(f"its frontmatter is not valid YAML: {str(exc)[:200]}", _YAML_FIX)
    if fields is None:
        fields = {}
    if not isinstance(fields, dict):
        return _refuse(f"its frontmatter is {_kind(fields)}, not a mapping of fields", "write `name: ...` and `description: ...`")
    name = _string(fields, styles, "name")
    description = _string(fields, styles, "description")
    if isinstance(name, Refusal):
        return name
    if isinstance(description, Refusal):
        return description
    # No name: the folder's [q01]; spaces become hyphens [q19].
    name = (os.path.basename(os.path.dirname(path)) if name is None else name).replace(" ", "-")
    bad = _name_problem(name)
    if bad is not None:
        return bad
    description = _first_text(body) if description is None else description
    if len(description) > MAX_DESCRIPTION:
        return _refuse(
            f"its description is {len(description):,} characters, over Copilot's {MAX_DESCRIPTION:,}",
            f"shorten the description to {MAX_DESCRIPTION:,} characters",
        )
    return HostSkill(name, description, Path(path), root)


def disabled_skills(home: Path) -> frozenset[str]:
    """`disabledSkills` of `{home}/.copilot/settings.json` [switched_off]: exact names, a `*`
    is only a name [switched_off_all]. A file that cannot be read switches nothing off."""
    try:
        data, _ = read_regular(home / ".copilot" / "settings.json", SETTINGS_CAP)
        doc = loads(data.decode("utf-8").removeprefix("\ufeff"))
    except (OSError, UnicodeDecodeError, JsonDocError):
        return frozenset()
    names = doc.get("disabledSkills") if isinstance(doc, JsonObject) else None
    return frozenset(n for n in names if isinstance(n, str)) if isinstance(names, list) else frozenset()


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class CopilotCli:
    key: str = "copilot"
    title: str = "Copilot CLI"
    version: str = "1.0.102"
    builtin: tuple[str, ...] = tuple(name for name, _ in OWN_ELEMENTS)
    caveats: tuple[str, ...] = (
        "Copilot CLI also has its own skills, customize-cloud-agent and github-pr-media, sent after "
        "these; their elements count in its 15,050-unit budget.",
        "Folders whose name starts with `.` inside a skills folder are skipped, as Copilot CLI's "
        "own help says; no recording shows it yet.",
    )

    def roots(self, place: Place) -> list[tuple[Root, WalkRules]]:
        """Below the git top (or without git): by kind, the start folder first, then the other
        levels from the top down (settle sorts these together by name) [order], [order_nogit];
        at the top only that folder. Then the user's `.copilot`, then `.agents` [every_folder]."""
        levels = place.levels(place.git_top())[:MAX_LEVELS]
        order = [levels[0], *reversed(levels[1:])]
        out: list[tuple[Root, WalkRules]] = []
        seen: set[Path] = set()
        wanted = [(folder / kind, Scope.PROJECT, kind) for kind in KINDS for folder in order]
        wanted += [(place.home / ".copilot" / "skills", Scope.USER, "~/.copilot/skills")]
        wanted += [(place.home / ".agents" / "skills", Scope.USER, "~/.agents/skills")]
        for path, scope, kind in wanted:
            # A home inside the walk up (no git) holds `.agents/skills` once, read as the project's.
            if path not in seen:
                seen.add(path)
                out.append((Root(path, scope, kind), RULES))
        return out

    def read(self, data: bytes, path: str, root: Root) -> HostSkill | Refusal:
        return read_skill(data, path, root)

    def settle(self, place: Place, skills: list[HostSkill]) -> tuple[list[HostSkill], list[Verdict]]:
        # Per kind, the start folder's skills by name, then the other levels' together by name
        # (`ac-root-gh`, `dd-root-gh`, `jj-packages-gh` [order]); the skills come in roots order.
        groups: dict[tuple[Scope, str, bool], list[HostSkill]] = {}
        for skill in skills:
            at_start = skill.root.scope is Scope.PROJECT and skill.root.path.parent.parent == place.start
            groups.setdefault((skill.root.scope, skill.root.kind, at_start), []).append(skill)
        ordered: list[HostSkill] = []
        for group in groups.values():
            ordered += sorted(group, key=lambda s: s.name)  # stable: a folder's twins in walk order
        if place.git_top() == place.start:
            # At the git top every project skill by name, kinds mixed [order_at_root], [creation_order].
            project = sorted((s for s in ordered if s.root.scope is Scope.PROJECT), key=lambda s: s.name)
            ordered = project + [s for s in ordered if s.root.scope is not Scope.PROJECT]
        off = disabled_skills(place.home)
        listed: list[HostSkill] = []
        dropped: list[Verdict] = []
        winners: dict[str, HostSkill] = {}
        for skill in ordered:
            if skill.name in off:
                dropped.append(
                    Verdict(skill.path, skill.root, skill.name, Status.OFF,
                            "switched off: its name is in disabledSkills of ~/.copilot/settings.json",
                            "remove the name from disabledSkills there", skill)
                )  # fmt: skip
            elif skill.name in winners:
                winner = winners[skill.name]
                dropped.append(
                    Verdict(skill.path, skill.root, skill.name, Status.SHADOWED,
                            f"Copilot CLI sends the first skill named {skill.name}, {winner.path} "
                            f"({winner.root.kind}), and says nothing of this one",
                            "rename one of them, or remove the one you do not want", skill)
                )  # fmt: skip
            else:
                winners[skill.name] = skill
                listed.append(skill)
        return listed, dropped

    def render(self, place: Place, listed: list[HostSkill]) -> tuple[str | None, list[Verdict], list[str]]:
        """Elements in order while their total stays within BUDGET; from the first that does not
        fit on, every name (its own included) on one line [many_long_then_short], [many_250]."""
        elements: list[str] = []
        verdicts: list[Verdict] = []
        rest: list[str] = []
        used = 0
        for skill in listed:
            element = LAYOUT.element(skill.name, skill.description, skill.root.scope.value)
            length = _utf16(element)  # a rocket counts 2 [many_250_emoji]
            if not rest and used + length <= BUDGET:
                used += length
                elements.append(element)
                verdicts.append(Verdict(skill.path, skill.root, skill.name, Status.LISTED, skill=skill))
                continue
            rest.append(skill.name)
            verdicts.append(
                Verdict(skill.path, skill.root, skill.name, Status.NAMES_ONLY,
                        f"past Copilot CLI's budget of {BUDGET:,} UTF-16 units of skill elements: "
                        "only its name is sent, on the line of additional skills",
                        "shorten the descriptions of the skills sent before it, or switch some off "
                        "in disabledSkills", skill)
            )  # fmt: skip
        for name, length in OWN_ELEMENTS:
            # Its own elements are never shown (their texts are Copilot's), but they take their room.
            if not rest and used + length <= BUDGET:
                used += length
            else:
                rest.append(name)
        tail = NAMES_LINE + ", ".join(rest) + "\n" if rest else ""
        return available_skills(elements, tail), verdicts, []


COPILOT: SkillHost = CopilotCli()
