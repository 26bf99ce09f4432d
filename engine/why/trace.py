"""The walk: one file through every gate in the order Claude Code meets them, and the verdict.

The path gates (`path_gates`) come before Claude Code reads the file, the catalog gates
(`catalog_gates`) after; a gate that stops the file ends the walk with its own verdict, and a
file that passes them all ends at the budget: the listing line the model sees, or why not.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..catalog.model import Skill, Source
from ..listing.build import OWN_SKILLS_NOTE
from .catalog_gates import dedup_gate, invocation_gate, overrides_gate, parse_gate, permission_gate, shadowing_gate
from .path_gates import reserved_gate, root_gate, size_gate
from .result import Outcome, Status, Why
from .tracer import Tracer, clause, quote


def trace_file(
    tracer: Tracer,
    file: Path,
    folder: Path | None,
    source: Source,
    skill: Skill | None,
    overrides: dict[str, Any],
    kind: str = "path",
    found_as: str | None = None,
) -> Why:
    """Every gate for one file in `source`; `skill` is what the load made of it (None when it did
    not load). `found_as` replaces the root gate's sentence when the file was found by name."""
    diags = tracer.diagnostics(file, *(() if folder is None else (folder,)))
    expected, stop = root_gate(tracer, file, source, skill, diags, kind, found_as)
    stop = (
        stop
        or reserved_gate(tracer, file, source, kind)
        or size_gate(tracer, file, source, skill, expected, kind)
        or parse_gate(tracer, file, source, skill, expected, diags, kind)
        or dedup_gate(tracer, file, skill, expected, diags, kind)
    )
    if stop is not None:
        return stop
    assert skill is not None  # the dedup gate stops a file that did not load
    return trace_skill(tracer, skill, overrides, kind)


def trace_skill(tracer: Tracer, skill: Skill, overrides: dict[str, Any], kind: str) -> Why:
    """The gates after the load, for a skill that loaded."""
    stop = shadowing_gate(tracer, skill, kind)
    if stop is not None:
        return stop
    setting, stop = overrides_gate(tracer, skill, overrides, kind)
    if stop is not None:
        return stop
    later = invocation_gate(tracer, skill)
    denied = permission_gate(tracer, skill)
    return budget_and_verdict(tracer, skill, setting, later, kind, denied)


def budget_and_verdict(tracer: Tracer, skill: Skill, setting: str, later: str | None, kind: str, denied: bool) -> Why:
    listing = tracer.listing
    name = skill.name
    entry = next((e for e in listing.entries if e.name == name), None)
    refused = f"; Claude Code refuses the model's Skill call (a deny rule), so only typing /{name} runs it" if denied else ""
    figures = f"{listing.used:,} of {listing.budget:,.0f} characters, budget from {listing.budget_source or 'the default'}"
    own = [] if listing.own_counted else [OWN_SKILLS_NOTE]
    if skill.disable_model_invocation or setting == "user-invocable-only":
        why = "disable-model-invocation is set" if skill.disable_model_invocation else "skillOverrides sets user-invocable-only"
        tracer.set("budget", Status.NOT_APPLICABLE, "not in the listing, so it takes none of the budget")
        typed = f"; typing /{name} runs it" if skill.user_invocable else ""
        return tracer.result(
            kind, skill.path, name, Outcome.HIDDEN, f"it loads, but the model never sees it because {why}{typed}"
        )
    if later is not None:
        # Held back at start whatever a listing built without `activation` says (recorded:
        # load_synced_paths lists no `paths:` skill).
        tracer.set(
            "budget", Status.NOT_APPLICABLE, "not in the listing at the start of a session, so it takes none of the budget"
        )
        return tracer.result(
            kind,
            skill.path,
            name,
            Outcome.CONDITIONAL,
            f"the model sees it only {later}; until then it is not listed{refused}",
        )
    if entry is None:
        reason = (listing.left_out or {}).get(name, "skilldeck's listing does not hold it")
        tracer.set("budget", Status.NOT_APPLICABLE, f"not in the listing: {reason}")
        return tracer.result(
            kind, skill.path, name, Outcome.HIDDEN, f"it loads, but the model never sees it because {clause(reason)}"
        )
    if entry.trimmed:
        tracer.set(
            "budget",
            Status.FAILED,
            f"the listing is over its budget ({figures}): Claude Code keeps the text of the most used skills first, "
            "and this one drops to its name",
            own,
        )
        return tracer.result(
            kind,
            skill.path,
            name,
            Outcome.NAME_ONLY,
            f"the model sees it as `{quote(entry.line, 200)}` (over budget, no description){refused}",
            line=entry.line,
        )
    if setting == "name-only":
        tracer.set("budget", Status.PASSED, f"a name-only line always stays whole ({figures})", own)
        return tracer.result(
            kind,
            skill.path,
            name,
            Outcome.NAME_ONLY,
            f"the model sees it as `{quote(entry.line, 200)}` (name only, by skillOverrides){refused}",
            line=entry.line,
        )
    capped = "; its text is cut at the description cap" if entry.capped else ""
    tracer.set("budget", Status.PASSED, f"it keeps its description ({figures}){capped}", own)
    verdict = f"the model sees it as `{quote(entry.line, 200)}`{refused}"
    return tracer.result(kind, skill.path, name, Outcome.LISTED, verdict, line=entry.line)
