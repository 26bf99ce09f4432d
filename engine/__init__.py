"""skilldeck's engine: the headless core. It never imports textual or tui.

The public face is this module: build a `Workspace` from `Locations`, `load()` it into a
`Catalog`, and ask the catalog (or `build_listing`) what Claude Code would see; start a run with
`Workspace.session`, which tells its caller what happens through the RunEvent vocabulary
(engine/runner/events.py). The routing lab (engine/evals): `load_evals`, `plan_evals`, `EvalRun`,
`what_if`. The app and the CLI import nothing else of the engine (a test says so).

Where each name comes from is `_WHERE` below, by room: base/ (safe reads, sanitising, the state
folder), catalog/ (Locations, Catalog, Skill, Diagnostic, ...), listing/ (build_listing, Listing),
reload/ (WatchHandle, CatalogDiff), permissions/ (Permissions, Decision, Settings, Trust, ...),
runner/ (Runner, the RunEvents, Transcript, Prompt), llm/ (Backend, resolve_model), why/,
compare/, evals/, usage/, doctor/, hosts/ (each agent's view: HostView, host_view, portability),
and the two loose modules: workspace (Workspace) and demo.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .base.safeio import read_regular
    from .base.sanitize import json_printable, printable
    from .base.state import state_dir
    from .catalog.assembly import Catalog
    from .catalog.diagnostics import CODES
    from .catalog.locations import BUNDLED_DIR, Locations
    from .catalog.model import Diagnostic, LoadedFrom, LoadStats, Severity, Shadowed, Skill, Source, SourceKind
    from .catalog.skilltree import skill_files
    from .catalog.spec import with_missing_skill_md
    from .compare import ClaudeCode, CompareError, Comparison, ComparisonCache, compare_with_claude, find_claude
    from .compare import Row as CompareRow
    from .demo import make_demo
    from .doctor import Finding, diagnose
    from .evals import Change as EvalChange
    from .evals import (
        CostActual,
        CostEstimate,
        DisableSkill,
        EvalCache,
        EvalCase,
        EvalPlan,
        EvalProblem,
        EvalReport,
        EvalRun,
        EvalSet,
        EvalStep,
        RaiseBudget,
        RouteOutcome,
        RoutingRequest,
        ShortenDescription,
        SkillScore,
        WhatIf,
        compare_listings,
        eval_files,
        load_evals,
        next_to_lose,
        plan_evals,
        run_evals,
        what_if,
    )
    from .evals import Detail as EvalDetail
    from .hosts.as_catalog import host_shapes
    from .hosts.model import HOST_KEYS, MODEL_KEYS, HostView, Place
    from .hosts.model import Status as HostStatus
    from .hosts.model import Verdict as HostVerdict
    from .hosts.portability import Row as PortabilityRow
    from .hosts.portability import matrix as portability
    from .hosts.refusals import refusals as agent_refusals
    from .hosts.registry import agent_roots, host_view
    from .listing.build import OWN_SKILLS_NOTE, Budget, Foreign, Listing, ListingEntry, build_listing
    from .listing.touch import TouchState, listing_update
    from .llm import Backend, Request, Usage, listing_in_messages, resolve_model, run_environ
    from .llm.offline import offline_request
    from .permissions.decide import Decision, Permissions, call_from_rule
    from .permissions.settings import PlacedRule, Settings, read_settings
    from .permissions.settings_edit import EDITABLE_SCOPES, SettingsEditError
    from .permissions.toolcheck import suggested_rule
    from .permissions.trust import Trust
    from .reload.diff import CatalogDiff
    from .reload.watch import WatchHandle
    from .runner.conversation import Block, Message, Transcript, parse_fork_result
    from .runner.events import Added, Ask, Call, Emit, Failed, Fork, Notice, Preparing, Result, RunEvent, Sending, Streamed
    from .runner.expand import ExpansionError
    from .runner.invoke import InvocationError, Prompt
    from .runner.loop import Runner
    from .runner.skillcalls import UNANSWERED
    from .usage import SkillUsage, UsageReport, collect_usage, parse_since, transcript_roots
    from .why import Why, trace_why
    from .why.find import close_names
    from .workspace import Workspace, load_paths

# Each name of the face -> (its module in the engine, its name there). Imported when first asked
# for (PEP 562): `skilldeck list` needs the loader, not the runner, the comparison with Claude Code
# or the routing lab, and importing all of them took about 0.3 s, half of a 1,000-skill listing.
_WHERE: dict[str, tuple[str, str]] = {
    "Catalog": ("catalog.assembly", "Catalog"),
    "ClaudeCode": ("compare", "ClaudeCode"),
    "CompareError": ("compare", "CompareError"),
    "Comparison": ("compare", "Comparison"),
    "ComparisonCache": ("compare", "ComparisonCache"),
    "compare_with_claude": ("compare", "compare_with_claude"),
    "find_claude": ("compare", "find_claude"),
    "CompareRow": ("compare", "Row"),
    "Block": ("runner.conversation", "Block"),
    "Message": ("runner.conversation", "Message"),
    "Transcript": ("runner.conversation", "Transcript"),
    "parse_fork_result": ("runner.conversation", "parse_fork_result"),
    "state_dir": ("base.state", "state_dir"),
    "make_demo": ("demo", "make_demo"),
    "CODES": ("catalog.diagnostics", "CODES"),
    "CatalogDiff": ("reload.diff", "CatalogDiff"),
    "EvalChange": ("evals", "Change"),
    "CostActual": ("evals", "CostActual"),
    "CostEstimate": ("evals", "CostEstimate"),
    "DisableSkill": ("evals", "DisableSkill"),
    "EvalCache": ("evals", "EvalCache"),
    "EvalCase": ("evals", "EvalCase"),
    "EvalPlan": ("evals", "EvalPlan"),
    "EvalProblem": ("evals", "EvalProblem"),
    "EvalReport": ("evals", "EvalReport"),
    "EvalRun": ("evals", "EvalRun"),
    "EvalSet": ("evals", "EvalSet"),
    "EvalStep": ("evals", "EvalStep"),
    "RaiseBudget": ("evals", "RaiseBudget"),
    "RouteOutcome": ("evals", "RouteOutcome"),
    "RoutingRequest": ("evals", "RoutingRequest"),
    "ShortenDescription": ("evals", "ShortenDescription"),
    "SkillScore": ("evals", "SkillScore"),
    "WhatIf": ("evals", "WhatIf"),
    "compare_listings": ("evals", "compare_listings"),
    "eval_files": ("evals", "eval_files"),
    "load_evals": ("evals", "load_evals"),
    "next_to_lose": ("evals", "next_to_lose"),
    "plan_evals": ("evals", "plan_evals"),
    "run_evals": ("evals", "run_evals"),
    "what_if": ("evals", "what_if"),
    "EvalDetail": ("evals", "Detail"),
    "ExpansionError": ("runner.expand", "ExpansionError"),
    "InvocationError": ("runner.invoke", "InvocationError"),
    "Prompt": ("runner.invoke", "Prompt"),
    "OWN_SKILLS_NOTE": ("listing.build", "OWN_SKILLS_NOTE"),
    "Budget": ("listing.build", "Budget"),
    "Foreign": ("listing.build", "Foreign"),
    "Listing": ("listing.build", "Listing"),
    "ListingEntry": ("listing.build", "ListingEntry"),
    "build_listing": ("listing.build", "build_listing"),
    "TouchState": ("listing.touch", "TouchState"),
    "listing_update": ("listing.touch", "listing_update"),
    "Backend": ("llm", "Backend"),
    "Request": ("llm", "Request"),
    "Usage": ("llm", "Usage"),
    "listing_in_messages": ("llm", "listing_in_messages"),
    "resolve_model": ("llm", "resolve_model"),
    "run_environ": ("llm", "run_environ"),
    "offline_request": ("llm.offline", "offline_request"),
    "BUNDLED_DIR": ("catalog.locations", "BUNDLED_DIR"),
    "Locations": ("catalog.locations", "Locations"),
    "Diagnostic": ("catalog.model", "Diagnostic"),
    "LoadedFrom": ("catalog.model", "LoadedFrom"),
    "LoadStats": ("catalog.model", "LoadStats"),
    "Severity": ("catalog.model", "Severity"),
    "Shadowed": ("catalog.model", "Shadowed"),
    "Skill": ("catalog.model", "Skill"),
    "Source": ("catalog.model", "Source"),
    "SourceKind": ("catalog.model", "SourceKind"),
    "Decision": ("permissions.decide", "Decision"),
    "Permissions": ("permissions.decide", "Permissions"),
    "call_from_rule": ("permissions.decide", "call_from_rule"),
    "Added": ("runner.events", "Added"),
    "Ask": ("runner.events", "Ask"),
    "Call": ("runner.events", "Call"),
    "Emit": ("runner.events", "Emit"),
    "Failed": ("runner.events", "Failed"),
    "Fork": ("runner.events", "Fork"),
    "Notice": ("runner.events", "Notice"),
    "Result": ("runner.events", "Result"),
    "RunEvent": ("runner.events", "RunEvent"),
    "Sending": ("runner.events", "Sending"),
    "Preparing": ("runner.events", "Preparing"),
    "Streamed": ("runner.events", "Streamed"),
    "Runner": ("runner.loop", "Runner"),
    "UNANSWERED": ("runner.skillcalls", "UNANSWERED"),
    "read_regular": ("base.safeio", "read_regular"),
    "json_printable": ("base.sanitize", "json_printable"),
    "printable": ("base.sanitize", "printable"),
    "PlacedRule": ("permissions.settings", "PlacedRule"),
    "Settings": ("permissions.settings", "Settings"),
    "read_settings": ("permissions.settings", "read_settings"),
    "EDITABLE_SCOPES": ("permissions.settings_edit", "EDITABLE_SCOPES"),
    "SettingsEditError": ("permissions.settings_edit", "SettingsEditError"),
    "skill_files": ("catalog.skilltree", "skill_files"),
    "with_missing_skill_md": ("catalog.spec", "with_missing_skill_md"),
    "suggested_rule": ("permissions.toolcheck", "suggested_rule"),
    "Trust": ("permissions.trust", "Trust"),
    "Finding": ("doctor", "Finding"),
    "diagnose": ("doctor", "diagnose"),
    "SkillUsage": ("usage", "SkillUsage"),
    "UsageReport": ("usage", "UsageReport"),
    "collect_usage": ("usage", "collect_usage"),
    "parse_since": ("usage", "parse_since"),
    "transcript_roots": ("usage", "transcript_roots"),
    "WatchHandle": ("reload.watch", "WatchHandle"),
    "Why": ("why", "Why"),
    "trace_why": ("why", "trace_why"),
    "close_names": ("why.find", "close_names"),
    "Workspace": ("workspace", "Workspace"),
    "HOST_KEYS": ("hosts.model", "HOST_KEYS"),
    "MODEL_KEYS": ("hosts.model", "MODEL_KEYS"),
    "host_shapes": ("hosts.as_catalog", "host_shapes"),
    "HostStatus": ("hosts.model", "Status"),
    "HostVerdict": ("hosts.model", "Verdict"),
    "HostView": ("hosts.model", "HostView"),
    "Place": ("hosts.model", "Place"),
    "PortabilityRow": ("hosts.portability", "Row"),
    "host_view": ("hosts.registry", "host_view"),
    "agent_roots": ("hosts.registry", "agent_roots"),
    "agent_refusals": ("hosts.refusals", "refusals"),
    "portability": ("hosts.portability", "matrix"),
    "load_paths": ("workspace", "load_paths"),
}


def __getattr__(name: str) -> Any:
    try:
        module, attr = _WHERE[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f".{module}", __name__), attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


__all__ = [
    "BUNDLED_DIR",
    "CODES",
    "EDITABLE_SCOPES",
    "HOST_KEYS",
    "MODEL_KEYS",
    "OWN_SKILLS_NOTE",
    "UNANSWERED",
    "Added",
    "Ask",
    "Backend",
    "Block",
    "Budget",
    "Call",
    "Catalog",
    "CatalogDiff",
    "ClaudeCode",
    "CompareError",
    "CompareRow",
    "Comparison",
    "ComparisonCache",
    "CostActual",
    "CostEstimate",
    "Decision",
    "Diagnostic",
    "DisableSkill",
    "Emit",
    "EvalCache",
    "EvalCase",
    "EvalChange",
    "EvalDetail",
    "EvalPlan",
    "EvalProblem",
    "EvalReport",
    "EvalRun",
    "EvalSet",
    "EvalStep",
    "ExpansionError",
    "Failed",
    "Finding",
    "Foreign",
    "Fork",
    "HostStatus",
    "HostVerdict",
    "HostView",
    "InvocationError",
    "Listing",
    "ListingEntry",
    "LoadStats",
    "LoadedFrom",
    "Locations",
    "Message",
    "Notice",
    "Permissions",
    "Place",
    "PlacedRule",
    "PortabilityRow",
    "Preparing",
    "Prompt",
    "RaiseBudget",
    "Request",
    "Result",
    "RouteOutcome",
    "RoutingRequest",
    "RunEvent",
    "Runner",
    "Sending",
    "Settings",
    "SettingsEditError",
    "Severity",
    "Shadowed",
    "ShortenDescription",
    "Skill",
    "SkillScore",
    "SkillUsage",
    "Source",
    "SourceKind",
    "Streamed",
    "TouchState",
    "Transcript",
    "Trust",
    "Usage",
    "UsageReport",
    "WatchHandle",
    "WhatIf",
    "Why",
    "Workspace",
    "agent_refusals",
    "agent_roots",
    "build_listing",
    "call_from_rule",
    "close_names",
    "collect_usage",
    "compare_listings",
    "compare_with_claude",
    "diagnose",
    "eval_files",
    "find_claude",
    "host_shapes",
    "host_view",
    "json_printable",
    "listing_in_messages",
    "listing_update",
    "load_evals",
    "load_paths",
    "make_demo",
    "next_to_lose",
    "offline_request",
    "parse_fork_result",
    "parse_since",
    "plan_evals",
    "portability",
    "printable",
    "read_regular",
    "read_settings",
    "resolve_model",
    "run_environ",
    "run_evals",
    "skill_files",
    "state_dir",
    "suggested_rule",
    "trace_why",
    "transcript_roots",
    "what_if",
    "with_missing_skill_md",
]
