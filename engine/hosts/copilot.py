"""Copilot CLI 1.0.102 as its binary behaves (docs/agents.md, section Copilot CLI; each rule below
names the case whose recording shows it): `.github`, `.agents` and `.claude` skills folders from
the start folder up to the git top, the user's `~/.copilot/skills` and `~/.agents/skills`, strict
YAML frontmatter with its own name rules, the first of a name wins, `disabledSkills` in the
user's settings, and an `<available_skills>` element cut at 15,000 UTF-16 units of elements."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import yaml

from ..base.bounds import yaml_problem
from ..base.jsondoc import JsonDocError, JsonObject, loads
from ..base.plainyaml import plain_mapping
from ..base.safeio import read_regular
from ..base.yamlload import Loader
from .host import SkillHost
from .model import HostSkill, Place, Refusal, Root, Scope, Status, Verdict
from .walk import WalkRules
from .xmlblock import Layout, available_skills

# Project folder kinds, in the order Copilot CLI loads them below the git top [order].
KINDS = (".github/skills", ".agents/skills", ".claude/skills")
# Without git it reads every folder up to the filesystem's root [monorepo_nogit]: bounded here,
# far past any real path's depth, so that a path of thousands of levels is not walked whole.
MAX_LEVELS = 64
# The sum of the sent elements' lengths (`<skill>` to `</skill>` and its line break, in UTF-16
# code units) stays within this: 50 elements of 300 fit (15,000) [many_250_d203], 95 of 158
# (15,010) do not [many_598_edge].
BUDGET = 15_000
NAMES_LINE = "Additional skills available (invoke by name): "
# Its own skills come after the user's [empty]. Their texts are Copilot's and never stored; their
# elements' lengths are the `own` chars of tests/oracle/recordings/agents/copilot/empty.json.
OWN_ELEMENTS = (("customize-cloud-agent", 444), ("github-pr-media", 325))
MAX_NAME = 64
MAX_DESCRIPTION = 1_024
SETTINGS_CAP = 4 * 1024 * 1024
LAYOUT = Layout(indent="", escape=True)  # no indent on `<skill>`, XML escaping [xml_characters]
# Any depth, the first folder with a SKILL.md is one skill [nesting_hidden], symlinks followed
# [symlinks], a loop read once [symlink_loop]; folders whose name starts with `.` are skipped,
# node_modules is read, seven folders down is read [nesting_deep].
RULES = WalkRules(depth=None, hidden=False, nested=False)
_FENCE = re.compile(r"---[ \t]*")  # spaces after a fence are fine [limits_yaml fence-spaces]
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:-]*")
_SPACES = re.compile(r"\s+")
_UNDERLINE = re.compile(r" {0,3}(?:-+|=+)[ \t]*")
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
    Copilot refuses it, PyYAML keeps the last). A `<<` key is only a key: Copilot's YAML merges
    nothing (`t14-merge-key` in [frontmatter_types] falls back to the body). Each node is visited
    once, so an alias adds nothing; yaml_problem has bounded the nesting and the aliases first."""
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
                if isinstance(key, yaml.ScalarNode):
                    if key.tag == "tag:yaml.org,2002:merge":
                        key.tag = "tag:yaml.org,2002:str"
                    if (key.tag, key.value) in keys:
                        raise _Duplicate(key.value, key.start_mark.line)
                    keys.add((key.tag, key.value))
                stack += [key, value]
        elif isinstance(node, yaml.SequenceNode):
            stack += node.value


def _parse(text: str) -> Any:
    """The frontmatter's value. The text ends without a line break (the fence's own is not in
    it), so a `|` or `>` block keeps no final one [frontmatter_quirks q10, q11], while `|+`, `>+`
    and a comment line after a block do [frontmatter_blocks b02, b04, b24]."""
    plain = plain_mapping(text.removesuffix("\n"))
    if plain is not None:  # the common frontmatter: plain text values, no parser needed
        return plain
    loader = Loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _no_duplicates(node)
        return loader.construct_document(node)
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
    """Without a description Copilot sends the body's first paragraph, its lines joined by spaces
    (`Body.`, q16 in [frontmatter_quirks]): blank lines and `#` headings before it are passed over
    (t29 in [frontmatter_types]), and a `---` or `===` line under it is the paragraph's last
    (t22, where the frontmatter closed at once and the body is the fields, the fence and `Body.`)."""
    taken: list[str] = []
    for line in body.split("\n"):
        text = line.strip()
        if not taken:
            if text and not text.startswith("#"):
                taken.append(text)
            continue
        if not text or text.startswith("#"):
            break
        taken.append(text)
        if _UNDERLINE.fullmatch(line):
            break
    return " ".join(taken)


def _string(fields: dict[str, Any], key: str) -> str | Refusal | None:
    """The field as text; None when absent; a Refusal when it is not text (q24, q27, q30,
    `bool-desc`, `null-desc`)."""
    if key not in fields:
        return None
    value = fields[key]
    if not isinstance(value, str):
        return _refuse(f"its {key} must be a string, not {_kind(value)}", f"write the {key} as text (quote it)")
    return value


def _name_problem(name: str) -> Refusal | None:
    """Copilot's name rule, the pattern of its slash commands: an ASCII letter or digit, then
    letters, digits, `.`, `_`, `:` or `-`, at most 64 in all. Uppercase, a digit first, `--`,
    `t23:colon` pass; empty, over 64, non-ASCII, `/`, `<`, `&`, quotes, or a `-`, `_` or `~`
    first do not [frontmatter_quirks], [limits_yaml], [frontmatter_types], [xml_unicode_paths]."""
    fix = "use at most 64 ASCII letters, digits, `.`, `_`, `:` or `-`, starting with a letter or a digit"
    if not name:
        return _refuse("its name is empty", "give it a name, or drop the field to use the folder's name")
    if len(name) > MAX_NAME:
        return _refuse(f"its name is {len(name)} characters, over Copilot's {MAX_NAME}", fix)
    if not _NAME.fullmatch(name):
        odd = next((c for c in name if not (c.isascii() and (c.isalnum() or c in "._:-"))), name[0])
        return _refuse(f"its name `{name[:80]}` does not fit Copilot's pattern (`{odd}`)", fix)
    return None


def read_skill(data: bytes, path: str, root: Root) -> HostSkill | Refusal:
    # Bytes that are not UTF-8 become U+FFFD, as Node decodes them (t30 in [frontmatter_types]).
    split = _split(data.decode("utf-8", "replace"))
    if isinstance(split, Refusal):
        return split
    head, body = split
    problem = yaml_problem(head)
    if problem is not None:
        return _refuse(f"skilldeck does not parse this frontmatter: {_CLAUDE_NOTE.sub('', problem)}", "shorten the frontmatter")
    try:
        fields = _parse(head)
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
    name = _string(fields, "name")
    description = _string(fields, "description")
    if isinstance(name, Refusal):
        return name
    if isinstance(description, Refusal):
        return description
    # No name: the folder's [q01]. Trimmed (a `|` block's line break goes: b20 in
    # [frontmatter_blocks]), then each run of whitespace becomes one hyphen (q19; `t24 two  spaces`
    # is `t24-two-spaces`, and a name of spaces only is empty: [frontmatter_types]).
    name = _SPACES.sub("-", (os.path.basename(os.path.dirname(path)) if name is None else name).strip())
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


def _in_runs(place: Place, skills: list[HostSkill]) -> list[HostSkill]:
    """Copilot's order. The skills come in roots order (by kind, then level); each run of folders
    holding skills that are all at the start folder, or all above it, is one group, sorted by
    name; a user folder is a group of its own. So at the git top every project skill is sorted
    together [order_at_root], [creation_order]; below it `.github` of the start, `.github` of the
    levels above (`ac-root-gh`, `dd-root-gh`, `jj-packages-gh`), `.agents` of the start, ...
    [order]; and where the start holds no `.claude/skills` the levels above give their `.agents`
    and `.claude` skills as one group (`cl000` before `pa000` [many_250_spread], [symlinked_start])."""
    runs: list[list[HostSkill]] = []
    last: object = None
    for skill in skills:
        root = skill.root
        key = root.path.parent.parent == place.start if root.scope is Scope.PROJECT else root.kind
        if not runs or key != last:
            runs.append([])
            last = key
        runs[-1].append(skill)
    return [skill for run in runs for skill in sorted(run, key=lambda s: s.name)]  # stable: twins in walk order


def _winners(place: Place, skills: list[HostSkill]) -> dict[str, HostSkill]:
    """The skill sent for each name: project before user; in the project the kind first
    (`.github`, `.agents`, `.claude`: the root's `.agents` `lint` over the package's `.claude`
    [name_clashes_monorepo]), then the nearest level (`same-gh` of apps over the root's
    [monorepo_deep]), then walk order (`twin` of folder `first` [name_clashes]); for the user
    `.copilot` before `.agents`."""
    depth = len(place.start.parts)

    def rank(skill: HostSkill) -> tuple[int, int, int]:
        root = skill.root
        if root.scope is Scope.PROJECT:
            return 0, KINDS.index(root.kind), depth - len(root.path.parent.parent.parts)
        return 1, int(root.kind != "~/.copilot/skills"), 0

    best: dict[str, tuple[tuple[int, int, int], HostSkill]] = {}
    for skill in skills:  # walk order: the first of equal rank stays
        key = rank(skill)
        if skill.name not in best or key < best[skill.name][0]:
            best[skill.name] = (key, skill)
    return {name: skill for name, (_, skill) in best.items()}


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


class CopilotCli:
    key: str = "copilot"
    title: str = "Copilot CLI"
    version: str = "1.0.102"
    builtin: tuple[str, ...] = tuple(name for name, _ in OWN_ELEMENTS)
    caveats: tuple[str, ...] = (
        "Copilot CLI also has its own skills, customize-cloud-agent and github-pr-media, sent after "
        "these; their elements count in its 15,000-unit budget.",
        "Copilot CLI's order when the start folder holds skills of some folder kinds only is drawn "
        "from a few recordings (docs/agents.md); which of two same-named user skills it sends cannot "
        "be recorded (both are `user`): skilldeck takes ~/.copilot/skills first.",
    )

    def roots(self, place: Place) -> list[tuple[Root, WalkRules]]:
        """By kind, the start folder, then the levels above it, nearest first, up to the git top
        [order]; without git up to the home when the start is inside it, whose `.claude/skills`
        is not read [start_in_home], else up to `/` [monorepo_nogit]. Then the user's `.copilot`,
        then `.agents` [every_folder]."""
        top = place.git_top()
        levels = place.levels(top)
        if top is None and place.home in levels:
            levels = levels[: levels.index(place.home) + 1]
        wanted = [
            (folder / kind, Scope.PROJECT, kind)
            for kind in KINDS
            for folder in levels[:MAX_LEVELS]
            if not (folder == place.home and kind == ".claude/skills")
        ]
        out: list[tuple[Root, WalkRules]] = []
        seen: set[Path] = set()
        wanted += [(place.home / ".copilot" / "skills", Scope.USER, "~/.copilot/skills")]
        wanted += [(place.home / ".agents" / "skills", Scope.USER, "~/.agents/skills")]
        for path, scope, kind in wanted:
            # A home inside the walk up (no git) holds `.agents/skills` once, read as the project's.
            if path not in seen:
                seen.add(path)
                out.append((Root(path, scope, kind), RULES))
        return out

    def read(self, data: bytes, path: str, root: Root, file: tuple[int, int] | None = None) -> HostSkill | Refusal:
        return read_skill(data, path, root)

    def settle(self, place: Place, skills: list[HostSkill]) -> tuple[list[HostSkill], list[Verdict]]:
        ordered = _in_runs(place, skills)
        off = disabled_skills(place.home)
        listed: list[HostSkill] = []
        dropped: list[Verdict] = []
        winners = _winners(place, skills)
        for skill in ordered:
            if skill.name in off:
                dropped.append(
                    Verdict(skill.path, skill.root, skill.name, Status.OFF,
                            "switched off: its name is in disabledSkills of ~/.copilot/settings.json",
                            "remove the name from disabledSkills there", skill)
                )  # fmt: skip
            elif winners[skill.name] is not skill:
                winner = winners[skill.name]
                dropped.append(
                    Verdict(skill.path, skill.root, skill.name, Status.SHADOWED,
                            f"Copilot CLI sends one skill named {skill.name}, {winner.path} "
                            f"({winner.root.kind}), and says nothing of this one",
                            "rename one of them, or remove the one you do not want", skill)
                )  # fmt: skip
            else:
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
