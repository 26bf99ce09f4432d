"""skilldeck's engine: the headless core. It never imports textual or tui.

The public face is this module: build a `Workspace` from `Locations`, `load()` it into a
`Catalog`, and ask the catalog (or `build_listing`) what Claude Code would see; start a run with
`Workspace.session`, which tells its caller what happens through the RunEvent vocabulary
(engine/runevents.py). The routing lab (engine/evals): `load_evals`, `plan_evals`, `EvalRun`,
`what_if`. The app and the CLI import nothing else of the engine (a test says so).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .catalog import Catalog
    from .compare import ClaudeCode, CompareError, Comparison, ComparisonCache, compare_with_claude, find_claude
    from .compare import Row as CompareRow
    from .conversation import Block, Message, Transcript, parse_fork_result, state_dir
    from .demo import make_demo
    from .diagnostics import CODES
    from .diff import CatalogDiff
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
    from .expand import ExpansionError
    from .invoke import InvocationError, Prompt
    from .listing import OWN_SKILLS_NOTE, Budget, Foreign, Listing, ListingEntry, build_listing
    from .listing_touch import TouchState, listing_update
    from .llm import Backend, Request, Usage, listing_in_messages, resolve_model, run_environ
    from .llm.offline import offline_request
    from .locations import BUNDLED_DIR, Locations
    from .model import Diagnostic, LoadedFrom, LoadStats, Severity, Shadowed, Skill, Source, SourceKind
    from .permissions import Decision, Permissions, call_from_rule
    from .runevents import Added, Ask, Call, Emit, Failed, Fork, Notice, Preparing, Result, RunEvent, Sending, Streamed
    from .runner import Runner
    from .safeio import read_regular
    from .sanitize import json_printable, printable
    from .settings import PlacedRule, Settings, read_settings
    from .settings_edit import EDITABLE_SCOPES, SettingsEditError
    from .skillcalls import UNANSWERED
    from .skilltree import skill_files
    from .spec import with_missing_skill_md
    from .toolcheck import suggested_rule
    from .trust import Trust
    from .usage import SkillUsage, UsageReport, collect_usage, parse_since
    from .watch import WatchHandle
    from .why import Why, trace_why
    from .why.find import close_names
    from .workspace import Workspace, load_paths

# Each name of the face -> (its module in the engine, its name there). Imported when first asked
# for (PEP 562): `skilldeck list` needs the loader, not the runner, the comparison with Claude Code
# or the routing lab, and importing all of them took about 0.3 s, half of a 1,000-skill listing.
_WHERE: dict[str, tuple[str, str]] = {
    "Catalog": ("catalog", "Catalog"),
    "ClaudeCode": ("compare", "ClaudeCode"),
    "CompareError": ("compare", "CompareError"),
    "Comparison": ("compare", "Comparison"),
    "ComparisonCache": ("compare", "ComparisonCache"),
    "compare_with_claude": ("compare", "compare_with_claude"),
    "find_claude": ("compare", "find_claude"),
    "CompareRow": ("compare", "Row"),
    "Block": ("conversation", "Block"),
    "Message": ("conversation", "Message"),
    "Transcript": ("conversation", "Transcript"),
    "parse_fork_result": ("conversation", "parse_fork_result"),
    "state_dir": ("conversation", "state_dir"),
    "make_demo": ("demo", "make_demo"),
    "CODES": ("diagnostics", "CODES"),
    "CatalogDiff": ("diff", "CatalogDiff"),
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
    "ExpansionError": ("expand", "ExpansionError"),
    "InvocationError": ("invoke", "InvocationError"),
    "Prompt": ("invoke", "Prompt"),
    "OWN_SKILLS_NOTE": ("listing", "OWN_SKILLS_NOTE"),
    "Budget": ("listing", "Budget"),
    "Foreign": ("listing", "Foreign"),
    "Listing": ("listing", "Listing"),
    "ListingEntry": ("listing", "ListingEntry"),
    "build_listing": ("listing", "build_listing"),
    "TouchState": ("listing_touch", "TouchState"),
    "listing_update": ("listing_touch", "listing_update"),
    "Backend": ("llm", "Backend"),
    "Request": ("llm", "Request"),
    "Usage": ("llm", "Usage"),
    "listing_in_messages": ("llm", "listing_in_messages"),
    "resolve_model": ("llm", "resolve_model"),
    "run_environ": ("llm", "run_environ"),
    "offline_request": ("llm.offline", "offline_request"),
    "BUNDLED_DIR": ("locations", "BUNDLED_DIR"),
    "Locations": ("locations", "Locations"),
    "Diagnostic": ("model", "Diagnostic"),
    "LoadedFrom": ("model", "LoadedFrom"),
    "LoadStats": ("model", "LoadStats"),
    "Severity": ("model", "Severity"),
    "Shadowed": ("model", "Shadowed"),
    "Skill": ("model", "Skill"),
    "Source": ("model", "Source"),
    "SourceKind": ("model", "SourceKind"),
    "Decision": ("permissions", "Decision"),
    "Permissions": ("permissions", "Permissions"),
    "call_from_rule": ("permissions", "call_from_rule"),
    "Added": ("runevents", "Added"),
    "Ask": ("runevents", "Ask"),
    "Call": ("runevents", "Call"),
    "Emit": ("runevents", "Emit"),
    "Failed": ("runevents", "Failed"),
    "Fork": ("runevents", "Fork"),
    "Notice": ("runevents", "Notice"),
    "Result": ("runevents", "Result"),
    "RunEvent": ("runevents", "RunEvent"),
    "Sending": ("runevents", "Sending"),
    "Preparing": ("runevents", "Preparing"),
    "Streamed": ("runevents", "Streamed"),
    "Runner": ("runner", "Runner"),
    "UNANSWERED": ("skillcalls", "UNANSWERED"),
    "read_regular": ("safeio", "read_regular"),
    "json_printable": ("sanitize", "json_printable"),
    "printable": ("sanitize", "printable"),
    "PlacedRule": ("settings", "PlacedRule"),
    "Settings": ("settings", "Settings"),
    "read_settings": ("settings", "read_settings"),
    "EDITABLE_SCOPES": ("settings_edit", "EDITABLE_SCOPES"),
    "SettingsEditError": ("settings_edit", "SettingsEditError"),
    "skill_files": ("skilltree", "skill_files"),
    "with_missing_skill_md": ("spec", "with_missing_skill_md"),
    "suggested_rule": ("toolcheck", "suggested_rule"),
    "Trust": ("trust", "Trust"),
    "Finding": ("doctor", "Finding"),
    "diagnose": ("doctor", "diagnose"),
    "SkillUsage": ("usage", "SkillUsage"),
    "UsageReport": ("usage", "UsageReport"),
    "collect_usage": ("usage", "collect_usage"),
    "parse_since": ("usage", "parse_since"),
    "WatchHandle": ("watch", "WatchHandle"),
    "Why": ("why", "Why"),
    "trace_why": ("why", "trace_why"),
    "close_names": ("why.find", "close_names"),
    "Workspace": ("workspace", "Workspace"),
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
    "InvocationError",
    "Listing",
    "ListingEntry",
    "LoadStats",
    "LoadedFrom",
    "Locations",
    "Message",
    "Notice",
    "Permissions",
    "PlacedRule",
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
    "build_listing",
    "call_from_rule",
    "close_names",
    "collect_usage",
    "compare_listings",
    "compare_with_claude",
    "diagnose",
    "eval_files",
    "find_claude",
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
    "what_if",
    "with_missing_skill_md",
]
