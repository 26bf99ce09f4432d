"""The gates decided by what the load made of the file: parse (the file read into a skill),
dedup (the same file reached twice), shadowing (an earlier skill of the same name), overrides
(`skillOverrides`), invocation (flags and `paths:`) and permissions (`Skill(name)` rules on the
model's call). The budget gate, which ends in the verdict, is in `trace`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..catalog.model import Diagnostic, LoadedFrom, Severity, Skill, Source, SourceKind
from .result import Outcome, Status, Why
from .tracer import NOT_PARSE, SKILLS_TIERS, Tracer, clause, notes_of, quote


# Parse and dedup -----------------------------------------------------------------------------------
def _parse_sentence(skill: Skill) -> str:
    kind = "command" if skill.loaded_from is LoadedFrom.COMMANDS else "skill"
    if skill.description_source == "frontmatter":
        desc = "the description from its frontmatter"
    elif skill.description_source == "body":
        desc = "the first line of its body as the description (no description: in the frontmatter)"
    else:
        desc = "a placeholder description (no description and an empty body)"
    return f"Claude Code reads it as the {kind} /{skill.name}, with {desc}"


def parse_gate(
    tracer: Tracer,
    file: Path,
    source: Source,
    skill: Skill | None,
    expected: str | None,
    diags: list[Diagnostic],
    kind: str,
) -> Why | None:
    duplicate = next((d for d in diags if d.code == "duplicate-file"), None)
    if skill is None and duplicate is None:
        relevant = [d for d in diags if d.code not in NOT_PARSE and not d.code.startswith("spec-")]
        blocking = [d for d in relevant if d.severity is Severity.ERROR] or relevant or diags
        if blocking:
            reason = blocking[0].message
        elif source.kind is SourceKind.PLUGIN:
            # The one way a plugin leaves a file in its usual place unread, without a word.
            reason = "the plugin's manifest names its own `skills` or `commands` paths, which replace the default folders"
        else:
            reason = "skilldeck found no skill in it and no diagnostic says why"
        tracer.set("parse", Status.FAILED, f"the file does not load: {reason}", notes_of(diags))
        tracer.skip_rest("the file did not load")
        return tracer.result(
            kind,
            file,
            expected,
            Outcome.NEVER_LOADS,
            f"it never loads because Claude Code cannot use the file: {clause(reason)}",
        )
    tracer.set(
        "parse",
        Status.PASSED,
        _parse_sentence(skill) if skill is not None else "Claude Code reads it",
        notes_of(d for d in diags if d.code not in NOT_PARSE),
    )
    return None


def dedup_gate(
    tracer: Tracer, file: Path, skill: Skill | None, expected: str | None, diags: list[Diagnostic], kind: str
) -> Why | None:
    duplicate = next((d for d in diags if d.code == "duplicate-file"), None)
    if duplicate is not None:
        tracer.set("dedup", Status.FAILED, f"Claude Code loads a file reached twice only once: {duplicate.message}")
        tracer.skip_rest("the same file already loaded under another path")
        return tracer.result(
            kind,
            file,
            duplicate.skill or expected,
            Outcome.NEVER_LOADS,
            "it never loads from here because the same file already loaded from an earlier path",
        )
    assert skill is not None  # the parse gate stops a file that neither loaded nor is a duplicate
    twins = [d.path for d in tracer.catalog.diagnostics if d.code == "duplicate-file" and str(skill.path) in d.message]
    tracer.set(
        "dedup",
        Status.PASSED,
        "no earlier path reaches this same file",
        [f"also reached as {p}; Claude Code loads it once, from here" for p in twins],
    )
    return None


# Shadowing and overrides ---------------------------------------------------------------------------
def shadowing_gate(tracer: Tracer, skill: Skill, kind: str) -> Why | None:
    catalog = tracer.catalog
    name = skill.name
    shadow = catalog.shadowed_entry(skill.path)
    if shadow is not None:
        winner = shadow.shadowed_by
        tracer.set(
            "shadowing",
            Status.FAILED,
            f"/{name} is also the {winner.source.label} skill at {winner.path}, which comes first: Claude Code keeps that one",
        )
        tracer.skip_rest(f"the {winner.source.label} skill of the same name is the one that loads")
        return tracer.result(
            kind,
            skill.path,
            name,
            Outcome.NEVER_LOADS,
            f"it never loads because the {winner.source.label} skill /{name} at {winner.path} comes first",
        )
    hidden = [f"hides the {s.skill.source.label} skill at {s.skill.path}" for s in catalog.shadowing(skill)]
    scoped = next((d for d in tracer.diagnostics(skill.path) if d.code == "scoped"), None)
    if scoped is not None:
        tracer.set("shadowing", Status.PASSED, quote(scoped.message), hidden)
    else:
        tracer.set("shadowing", Status.PASSED, f"/{name} is the first skill of that name, so Claude Code keeps it", hidden)
    return None


def overrides_gate(tracer: Tracer, skill: Skill, overrides: dict[str, Any], kind: str) -> tuple[str, Why | None]:
    """The skill's skillOverrides setting ("on" when it has none), and the result when it is off."""
    name = skill.name
    setting = overrides.get(name)
    setting = setting if isinstance(setting, str) else "on"
    if setting == "off":
        tracer.set(
            "overrides",
            Status.FAILED,
            f"skillOverrides sets /{name} to off: Claude Code offers it neither in the listing nor as a command",
        )
        tracer.skip_rest("skillOverrides turns it off")
        return setting, tracer.result(
            kind, skill.path, name, Outcome.NEVER_LOADS, "it never loads because skillOverrides turns it off"
        )
    override_sentence = {
        "on": "no skillOverrides entry changes it",
        "name-only": "skillOverrides sets name-only: Claude Code lists its name without the description, whatever the budget",
        "user-invocable-only": "skillOverrides sets user-invocable-only: Claude Code leaves it out of the model's listing; "
        "typing it still runs it",
    }.get(setting, f"skillOverrides value `{quote(setting, 60)}` is not one Claude Code knows; it counts as on")
    tracer.set("overrides", Status.FAILED if setting == "user-invocable-only" else Status.PASSED, override_sentence)
    return setting, None


# Invocation ----------------------------------------------------------------------------------------
def _activation(skill: Skill) -> str:
    """When Claude Code makes the skill available: "start", "paths" (a `paths:` skill, once a
    matching file is touched) or "nested" (a `.claude/skills` below the start folder, once a file
    under it is touched). The loader's `activation` is the answer where it exists; without it, a
    `paths:` skill from a skills folder is conditional (recorded: a command or plugin skill with
    `paths:` is listed at start)."""
    value = getattr(skill, "activation", None)
    if isinstance(value, str):
        return value
    kind_ok = skill.loaded_from is LoadedFrom.SKILLS and skill.source.kind in SKILLS_TIERS
    return "paths" if skill.paths and kind_ok else "start"


def _later(skill: Skill) -> str | None:
    """When a skill that is not there at session start becomes available, or None when it is there."""
    activation = _activation(skill)
    if activation == "start":
        return None
    if activation == "paths":
        return f"once a file matching paths: {quote(', '.join(skill.paths[:3]), 120)} is read or edited"
    scope = getattr(skill, "scope", "") or getattr(skill.source, "scope", "") or skill.source.root.parent.parent.name
    return f"once a file under {scope}/ is read or edited (a .claude/skills below the start folder), as /{skill.name}"


def _flag_notes(skill: Skill) -> list[str]:
    notes = []
    if not skill.user_invocable:
        notes.append("user-invocable: false: not offered in the / menu")
    if skill.context == "fork":
        notes.append(f"context: fork: it runs in a subagent{f' ({skill.agent})' if skill.agent else ''}, not in the conversation")
    if skill.paths:
        notes.append("paths: " + ", ".join(skill.paths[:5]))
    if skill.model:
        notes.append(f"model: {skill.model} while it runs")
    return notes


def invocation_gate(tracer: Tracer, skill: Skill) -> str | None:
    """Sets the gate; returns when the skill becomes available if not at session start (see `_later`)."""
    flags = _flag_notes(skill)
    later = _later(skill)
    if skill.disable_model_invocation:
        tracer.set(
            "invocation",
            Status.FAILED,
            "disable-model-invocation: true, so Claude Code leaves it out of the model's listing "
            "and refuses the model's Skill call",
            flags,
        )
    elif later is not None:
        tracer.set("invocation", Status.FAILED, f"Claude Code holds it back: it loads only {later}", flags)
    else:
        tracer.set(
            "invocation",
            Status.PASSED,
            "the model may invoke it" + ("" if skill.user_invocable else "; user-invocable: false keeps it out of the / menu"),
            flags,
        )
    return later


# Permissions ---------------------------------------------------------------------------------------
def permission_gate(tracer: Tracer, skill: Skill) -> bool:
    """The model's Skill call as Claude Code 2.1.328 decides it (recorded: why_skill_calls): a
    deny rule refuses it; an allow rule runs it; an ask rule is not applied (the call ran); with
    no rule, a skill that sets allowed-tools or hooks is asked, any other runs without asking.
    True when the call is refused. (skilldeck's own runs are stricter: engine.permissions.decide asks
    where no rule allows.)"""
    name = skill.name
    permissions = tracer.permissions
    call = {"skill": name}
    deny = permissions.first_rule("deny", "Skill", call)
    if deny is not None:
        tracer.set(
            "permissions",
            Status.FAILED,
            f"the deny rule {deny.text} in {deny.file or deny.scope} makes Claude Code refuse the model's Skill call "
            f"for it; typing /{name} is not affected",
        )
        return True
    unreadable = permissions.settings.unreadable
    if unreadable:
        tracer.set(
            "permissions",
            Status.PASSED,
            f"{unreadable[0].path} could not be read, so whether a deny rule there refuses the model's Skill call is unknown",
        )
        return False
    allow = permissions.first_rule("allow", "Skill", call)
    ask = permissions.first_rule("ask", "Skill", call)
    asked = (
        f"; the ask rule {ask.text} in {ask.file or ask.scope} is not applied to it (a recorded session ran it)" if ask else ""
    )
    if allow is not None:
        sentence = f"the allow rule {allow.text} in {allow.file or allow.scope} lets the model's Skill call run without asking"
    else:
        risky = [f for f, v in (("allowed-tools", skill.allowed_tools), ("hooks", skill.hooks)) if v]
        if risky and not ask:
            sentence = (
                f"no Skill rule matches and it sets {' and '.join(risky)}, so Claude Code asks before the model's call runs it"
            )
        elif risky:
            sentence = f"it sets {' and '.join(risky)}, so Claude Code asks before the model's call runs it"
            asked = ""
        else:
            sentence = "no Skill rule is needed: it sets no allowed-tools or hooks, so the model's Skill call runs without asking"
    tracer.set("permissions", Status.PASSED, sentence + asked)
    return False
