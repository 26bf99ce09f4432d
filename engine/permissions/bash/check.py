"""Deciding a Bash call: every command it runs, every file it writes, every folder it reaches.

Order, as for every tool: a deny on any part wins, then an ask on any part, then the line is
allowed only when every command it runs is allowed, nothing it does is unreadable, and every
path it names stays inside the working folders. Deny and ask rules see each command in every
form it could take (quotes removed, wrappers peeled, `bash -c` strings read); allow rules see
only what is really written, so that a rule never approves more than its text says.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..pathreach import expand_path, glob_budget, glob_reach, protected, real, shell_matches
from ..rulebook import Decision, RuleBook
from .asked import decided_when_run, unknown_said
from .asked import path_arguments as _arguments
from .commands import CHANGES_FOLDER, READS_PATHS, RECURSIVE, SEARCHES, WRITES_PATHS, Invocation, invocations
from .gitconfig import repository_runs_programs
from .hidden import assigned_forms, hidden_name, narrow_rule
from .mentions import places
from .parse import parse
from .readonly import Unsafe, read_only, uses
from .said import blocked_outside, change_needs_approval
from .syntax import Word

if TYPE_CHECKING:
    from ..settings import PlacedRule

# Wrappers that change how a command runs, not what it runs: the wrapped command alone decides.
NEUTRAL_WRAPPERS = frozenset({"timeout", "nice", "nohup", "time", "stdbuf", "!"})
# Their options that write a file: GNU time's `-o FILE` (bash's own `time` keyword has none, but
# `\\time` and `command time` run the program).
WRAPPER_WRITES = {"time": Unsafe("oa", frozenset({"output", "append"}))}
HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})


@dataclass
class _Paths:
    """What the line does to files: (tool, place, how it was written) for each path it names;
    a place of None cannot be known before the line runs."""

    reads: list[tuple[Path | None, str]]
    # Reads of whole folders (recursive commands, wildcards): a rule on anything inside counts.
    sweeps: list[tuple[Path | None, str]]
    # Redirection targets: a write the line itself makes, checked as a Write call.
    writes: list[tuple[Path | None, str]]
    # Paths given to commands that change files (rm, touch, mv...): their rule is the command's.
    changes: list[tuple[Path | None, str]]
    folders: list[tuple[Path | None, str]]
    # Every place a word could name (mentions.py), with the tools whose deny rules it meets and
    # whether the command may take a whole folder there: checked against deny rules only.
    mentions: list[tuple[Path, str, tuple[str, ...], bool]]
    # Words whose places cannot all be known (a wildcard past its bound): asked where a deny rule
    # on paths could be among them.
    unknown: list[str]


def _where(word: Word, cwd: Path | None, perms: RuleBook) -> Path | None:
    if not word.literal or word.value is None or cwd is None:
        return None
    value = word.value
    if word.tilde and not (value == "~" or value.startswith("~/")):
        return None  # ~user: another user's home
    if word.glob:
        return glob_reach(cwd, value, perms.home)
    if not word.tilde and value.startswith("~"):
        value = "./" + value  # a quoted ~ is a plain name
    return expand_path(value, cwd, perms.home)


def _where_all(word: Word, cwd: Path | None, perms: RuleBook) -> list[Path | None]:
    """Every place `word` names: for a wildcard, the folder it searches and each path it matches
    now (`cat */id_rsa` reads `docs/id_rsa`, which may lead through `docs -> ~/.ssh`); a place
    of None when the matches cannot be bounded."""
    reach = _where(word, cwd, perms)
    if reach is None or not word.glob or cwd is None or word.value is None:
        return [reach]
    pattern = word.glob_pattern or word.value
    value = pattern if word.tilde or not pattern.startswith("~") else "./" + pattern
    matches = shell_matches(cwd, value, perms.home)
    return [reach, *matches] if matches is not None else [None]


def _paths(invs: list[Invocation], perms: RuleBook) -> _Paths:
    found = _Paths([], [], [], [], [], [], [])
    # Where each command may run. A `cd` may fail (`cd nothere; cat ../x`) or run in a subshell
    # that does not outlive it (`(cd src); cat ../x`, `cd src | true`), so the folder before it
    # stays possible: every path is checked from every folder the line may be in.
    cwds: list[Path | None] = [perms.cwd]
    for inv in invs:
        name = inv.name
        args = _arguments(inv)
        if name in CHANGES_FOLDER:
            target = args[0] if args else None
            reached: list[Path | None] = []
            for cwd in cwds:
                if target is None:
                    reached.append(perms.home if name == "cd" else None)
                elif target.value == "-" or name == "popd":
                    reached.append(None)
                else:
                    reached.append(_where(target, cwd, perms))
            found.folders.extend((r, f"{name} {target.raw if target else ''}".strip()) for r in reached)
            cwds = list(dict.fromkeys([*cwds, *reached]))
            if len(cwds) > _MAX_FOLDERS:
                cwds = [None]
            continue
        for cwd in cwds:
            _named(found, inv, name, args, cwd, perms)
    return found


# Past this many possible folders a line is too twisted to follow: its paths become unknown.
_MAX_FOLDERS = 16


def _named(found: _Paths, inv: Invocation, name: str | None, args: list[Word], cwd: Path | None, perms: RuleBook) -> None:
    """What `inv`, run in `cwd`, reads, writes and changes."""
    for redirect in inv.command.redirects if not inv.peeled else ():
        if redirect.target is None or redirect.target.value in HARMLESS_TARGETS:
            continue
        for place in _where_all(redirect.target, cwd, perms):
            if redirect.writes:
                found.writes.append((place, redirect.target.raw))
            if redirect.reads or redirect.op == "<":
                found.reads.append((place, redirect.target.raw))
    if name in READS_PATHS:
        recursive = name in RECURSIVE or _recursive_flag(inv)
        for word in args:
            for place in _where_all(word, cwd, perms):
                read = (place, word.raw)
                found.reads.append(read)
                if word.glob or recursive:
                    found.sweeps.append(read)
        if recursive and name in SEARCHES and len(args) <= 1:
            # `grep -r KEY` with no folder searches the current one: every file under it.
            found.sweeps.append((cwd, "."))
    elif name in WRITES_PATHS:
        found.changes.extend((place, w.raw) for w in args for place in _where_all(w, cwd, perms))
    if cwd is not None:
        _mention(found, inv, cwd, perms)


def _mention(found: _Paths, inv: Invocation, cwd: Path, perms: RuleBook) -> None:
    """What `inv` could name beyond what `_paths` knows it reads and writes, for deny rules."""
    home = perms.home
    for redirect in inv.command.redirects if not inv.peeled else ():
        if redirect.target is not None:
            tools = ("Read", "Write") if redirect.op == "<>" else ("Read",) if not redirect.writes else ("Write",)
            for p in places(redirect.target, cwd, home):
                _mentioned(found, p, redirect.target.raw, tools, False)
    if read_only(inv):
        # Its options are known and harmless, its other words are not paths (echo, date), except
        # for what reads files: cat's `$HOME/x`, git's `HEAD:secrets/key.txt` and `-- secrets/`.
        if inv.name == "git" or inv.name in READS_PATHS:
            for word in _arguments(inv):
                for value in (word, *_after_colon(word)):
                    for p in places(value, cwd, home):
                        _mentioned(found, p, word.raw, ("Read",), p is not None and _is_dir(p))
        return
    # Any other program may read or write whatever its words name (`dd of=`, `sed -i`, `cp`).
    whole = inv.name in RECURSIVE or inv.name in WRITES_PATHS or _recursive_flag(inv)
    for word in inv.words:
        for place in places(word, cwd, home):
            _mentioned(found, place, word.raw, ("Read", "Write"), whole and (word.glob or (place is not None and _is_dir(place))))


def _mentioned(found: _Paths, place: Path | None, raw: str, tools: tuple[str, ...], within: bool) -> None:
    if place is None:
        found.unknown.append(raw)
    else:
        found.mentions.append((place, raw, tools, within))


def _is_dir(place: Path) -> bool:
    """Whether `place` is a folder now; False for whatever cannot be asked (a name over 255
    bytes, a loop of links), which Path.is_dir raises for."""
    try:
        return place.is_dir()
    except (OSError, ValueError):
        return False


def _after_colon(word: Word) -> list[Word]:
    """git's `REV:path`: the path part, which git reads from its own history."""
    if word.value is None or ":" not in word.value:
        return []
    rest = word.value.split(":", 1)[1]
    return [Word(rest, rest, word.glob)] if rest else []


def _recursive_flag(inv: Invocation) -> bool:
    """`-r`, `-R`, `-rn`, `--recursive`, grep's `-d recurse` / `--directories=recurse` (also
    abbreviated, `--dir=recurse`): the command may read whole folders. Errs towards yes."""
    for word in inv.words[1:]:
        value = word.value or ""
        if value == "--":
            break
        if value.startswith("--"):
            name = value[2:].split("=", 1)[0]
            if name and any(long.startswith(name) for long in ("recursive", "directories", "dereference-recursive")):
                return True
        elif value.startswith("-") and any(letter in value for letter in "rRd"):
            return True
    return False


def _rule_for(perms: RuleBook, behavior: str, inv: Invocation, invs: list[Invocation]) -> tuple[PlacedRule, str] | None:
    for form in [*inv.forms(), *assigned_forms(invs, inv)]:
        placed = perms.first_rule(behavior, "Bash", {"command": form})
        if placed is not None:
            return placed, form
    return None


def _allowed(perms: RuleBook, inv: Invocation) -> PlacedRule | None:
    for form in inv.forms(for_allow=True):
        placed = perms.first_rule("allow", "Bash", {"command": form})
        if placed is not None:
            return placed
    return None


def decide_bash(perms: RuleBook, command: str) -> Decision:
    # Every wildcard of the line shares one bound on what it may read of the disk.
    with glob_budget():
        return _decide_bash(perms, command)


def _path_deny(perms: RuleBook) -> PlacedRule | None:
    """A deny or ask rule on some paths of a file tool (Read, Edit...), if any."""
    for behavior in ("deny", "ask"):
        for placed in perms.settings.rules_for(behavior):
            if placed.rule.tool in ("Read", "Edit", "Write") and placed.rule.specifier not in (None, "*"):
                return placed
    return None


def _decide_bash(perms: RuleBook, command: str) -> Decision:

    parsed = parse(command)
    invs, opaque = invocations(parsed)
    whole = command.strip()
    several = len(invs) > 1

    # 1. Deny, then ask: a rule on the whole line as written, or on any command inside it.
    for behavior in ("deny", "ask"):
        placed = perms.first_rule(behavior, "Bash", {"command": whole})
        if placed is not None:
            return Decision(behavior, placed, f"{behavior} rule {placed.text} ({placed.scope})")
        for inv in invs:
            found = _rule_for(perms, behavior, inv, invs)
            if found is not None:
                placed, form = found
                where = f" (for `{form}`)" if several or form != whole else ""
                return Decision(behavior, placed, f"{behavior} rule {placed.text} ({placed.scope}){where}")

    # 2. Files: what it reads meets Read rules, what it writes meets Edit rules.
    paths = _paths(invs, perms)
    checks = [
        ("Read", paths.reads, False),
        ("Read", paths.sweeps, True),
        ("Write", paths.writes, False),
        ("Write", paths.changes, True),
    ]
    for tool, named, within in checks:
        for place, raw in named:
            if place is None:
                continue
            decision = perms.decide_path(tool, place, within)
            if decision.decision == "deny":
                return Decision("deny", decision.rule, f"{decision.reason} (for `{raw}`)")
    for place, raw, tools, within in paths.mentions:
        for tool in tools:
            decision = perms.decide_path(tool, place, within)
            if decision.decision == "deny":
                return Decision("deny", decision.rule, f"{decision.reason} (for `{raw}`)")
    # What a word names that could not be checked (`*/../x`, a wildcard past its bound) may be the
    # very file a deny on paths names, even under a rule that allows every command.
    unknown = next((raw for place, raw in [*paths.reads, *paths.sweeps] if place is None), None)
    unknown = unknown or next(iter(paths.unknown), None)
    guarded = _path_deny(perms) if unknown is not None else None
    if guarded is not None:
        return Decision(
            "ask", None, f"`{unknown}` names places that cannot all be checked, which may include what "
            f"{guarded.text} ({guarded.scope}) forbids, so it is asked",
        )  # fmt: skip
    # Writes to what configures the next run are asked whatever the rules (as in Claude Code).
    for place, raw in [*paths.writes, *paths.changes]:
        if place is None:
            return Decision("ask", None, f"it writes to `{raw}`, a place that cannot be known before it runs, so it is asked")
        why = protected(place) or protected(real(place))
        if why:
            return Decision("ask", None, f"it writes to `{raw}`, which is always asked: {why} (as in Claude Code)")
    # A rule for the whole tool (`Bash`) is the user's choice to run anything, however written.
    blanket = perms.blanket("Bash")
    if blanket is not None:
        hidden = hidden_name(invs, opaque)
        narrow = narrow_rule(perms)
        if hidden and narrow is not None:
            # `Bash` allows anything, but `c?rl`, `$x` or an alias may be the very command a deny
            # rule names: the rule cannot be checked, so the line is asked rather than allowed.
            return Decision("ask", None, f"{hidden}, which may be what {narrow.text} ({narrow.scope}) forbids, so it is asked")
        return Decision("allow", blanket, f"allow rule {blanket.text} ({blanket.scope}) allows every command")
    for place, raw in paths.writes:
        decision = perms.decide_path("Write", place)
        if decision.decision != "allow":
            return Decision("ask", decision.rule, f"it writes to `{raw}`, which no rule allows, so Claude Code asks")

    # 3. What cannot be read is never taken as allowed.
    if opaque:
        unreadable = "; ".join(dict.fromkeys(opaque))
        return Decision(
            "ask", None, f"the command has {unreadable}: Claude Code asks before running such a line, and so does skilldeck"
        )

    # What Claude Code asks whatever the rules: a wildcard in what a command changes, a `$` in a path.
    odd = decided_when_run(invs)
    if odd is not None:
        return Decision("ask", None, f"`{odd}` is decided when the line runs, so Claude Code asks")

    # 4. Every command it runs must be allowed by a rule, or only read.
    rules: list[PlacedRule] = []
    for inv in invs:
        placed = _allowed(perms, inv)
        if placed is None and not inv.peeled:
            # `timeout 5 echo hi` is allowed by `Bash(echo *)`: a neutral wrapper changes how
            # the command runs, not what runs. (The peeled `echo hi` is checked on its own.)
            inner = _innermost(invs, inv)
            if inner is not inv and _neutral(invs, inv):
                placed = _allowed(perms, inner)
        if placed is None and inv.name == "git" and read_only(inv):
            why = _git_runs_programs(perms, paths)
            if why:
                return Decision("ask", None, f"`{inv.command.text}` is asked: {why}")
        if placed is not None:
            rules.append(placed)
        elif not (read_only(inv) and not inv.command.assignments):
            part = inv.command.text if not inv.peeled else " ".join(w.raw for w in inv.words)
            why = f"no rule allows `{part}`" + (", so the whole command is asked" if several else ", so Claude Code asks")
            return Decision("ask", None, why, said=_change_said(perms, inv) or unknown_said(inv.command.text))

    # 5. And stay inside the working folders, whatever a rule allows.
    for place, raw in [*paths.folders, *paths.reads, *paths.changes]:
        if place is None:
            why = f"`{raw}` leads to a place that cannot be known before it runs, so Claude Code asks"
            return Decision("ask", None, why, said=unknown_said(raw))
        if not perms.is_inside(place) and not ((place, raw) in paths.reads and _read_rule_allows(perms, place)):
            resolved = real(place)
            shown = f"`{raw}`" if raw == str(resolved) else f"`{raw}` (that is {resolved})"
            said = next((blocked_outside(i.name, place, perms.dirs) for i in invs if i.name and _names(i, raw)), "")
            return Decision("ask", None, f"{shown} is outside the working folder, so Claude Code asks", said=said)
    if not invs:
        return Decision("ask", None, "nothing to run")
    if not rules:
        return Decision("allow", None, "read-only inside the working folder: Claude Code does not ask")
    names = ", ".join(dict.fromkeys(p.text for p in rules))
    return Decision("allow", rules[0], f"allowed by {names}")


def _names(inv: Invocation, raw: str) -> bool:
    """Whether `inv` names `raw` among its arguments."""
    return any(w.raw == raw for w in _arguments(inv))


def _change_said(perms: RuleBook, inv: Invocation) -> str:
    """Claude Code's words for a command that changes the files it names, with no rule for it."""
    if inv.name not in WRITES_PATHS:
        return ""
    place = next((p for p in (_where(w, perms.cwd, perms) for w in _arguments(inv)) if p is not None), None)
    if place is None:
        return ""
    return change_needs_approval(inv.name, place, perms.is_inside(place), perms.dirs)


def _git_runs_programs(perms: RuleBook, paths: _Paths) -> str | None:
    """Why git, run in any folder the line may be in, may run a program its repository names."""
    for folder in dict.fromkeys([perms.cwd, *(place for place, _ in paths.folders)]):
        if folder is None:
            return "it runs in a folder that cannot be known before the line runs, whose repository may configure programs"
        why = repository_runs_programs(folder)
        if why:
            return why
    return None


def _read_rule_allows(perms: RuleBook, place: Path) -> bool:
    """Whether a Read allow rule (not the no-rule pass) covers a place outside the working folder:
    `cat /data/x` under `Read(//data/**)` runs (recorded)."""
    decision = perms.decide_path("Read", place)
    return decision.decision == "allow" and decision.rule is not None


def _neutral(invs: list[Invocation], inv: Invocation) -> bool:
    """Whether every wrapper around the command `inv` runs is neutral: named bare (`/tmp/x/time`
    is whatever that file is), and without an option that writes (`\\time -o FILE`, GNU time)."""
    levels = [i for i in invs if i.command is inv.command]
    for outer, inner in itertools.pairwise(levels):
        name = outer.name
        if name not in NEUTRAL_WRAPPERS or outer.words[0].value != name:
            return False
        options = [w.value or "" for w in outer.words[1 : len(outer.words) - len(inner.words)]]
        if name in WRAPPER_WRITES and uses(options, WRAPPER_WRITES[name]):
            return False
    return True


def _innermost(invs: list[Invocation], inv: Invocation) -> Invocation:
    """The last invocation peeled from the same command as `inv` (the command a wrapper runs)."""
    same = [i for i in invs if i.command is inv.command]
    return same[-1] if same else inv
