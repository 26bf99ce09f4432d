"""skilldeck's engine: the headless core. It never imports textual or tui.

The public face is this module: build a `Workspace` from `Locations`, `load()` it into a
`Catalog`, and ask the catalog (or `build_listing`) what Claude Code would see; start a run with
`Workspace.session`, which tells its caller what happens through the RunEvent vocabulary
(engine/runevents.py). The routing lab (engine/evals): `load_evals`, `plan_evals`, `EvalRun`,
`what_if`. The app and the CLI import nothing else of the engine (a test says so).
"""

from .catalog import Catalog
from .compare import ClaudeCode, CompareError, Comparison, ComparisonCache, compare_with_claude, find_claude
from .compare import Row as CompareRow
from .conversation import Message, Transcript, parse_fork_result, state_dir
from .demo import make_demo
from .diagnostics import CODES
from .diff import CatalogDiff
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
from .llm import Backend, Request, Usage, listing_in_messages, resolve_model, run_environ
from .llm.offline import offline_request
from .locations import BUNDLED_DIR, Locations
from .model import Diagnostic, LoadedFrom, LoadStats, Severity, Shadowed, Skill, Source, SourceKind
from .permissions import Decision, Permissions, call_from_rule
from .runevents import Added, Ask, Call, Emit, Failed, Fork, Notice, Result, RunEvent, Sending, Streamed
from .runner import Runner
from .safeio import read_regular
from .sanitize import json_printable, printable
from .settings import PlacedRule, Settings, read_settings
from .settings_edit import EDITABLE_SCOPES, SettingsEditError
from .skilltree import skill_files
from .spec import with_missing_skill_md
from .toolcheck import suggested_rule
from .trust import Trust
from .watch import WatchHandle
from .why import Why, trace_why
from .why.find import close_names
from .workspace import Workspace, load_paths

__all__ = [
    "BUNDLED_DIR",
    "CODES",
    "EDITABLE_SCOPES",
    "OWN_SKILLS_NOTE",
    "Added",
    "Ask",
    "Backend",
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
    "Source",
    "SourceKind",
    "Streamed",
    "Transcript",
    "Trust",
    "Usage",
    "WatchHandle",
    "WhatIf",
    "Why",
    "Workspace",
    "build_listing",
    "call_from_rule",
    "close_names",
    "compare_listings",
    "compare_with_claude",
    "eval_files",
    "find_claude",
    "json_printable",
    "listing_in_messages",
    "load_evals",
    "load_paths",
    "make_demo",
    "next_to_lose",
    "offline_request",
    "parse_fork_result",
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
