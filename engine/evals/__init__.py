"""The routing lab: for a set of user requests, which skill does the model call?
May import base/, catalog/, listing/, llm/, permissions/, runner/ and workspace.

Load the eval files (`load_evals`), plan the exact requests (`plan_evals`: nothing is sent; the
plan has the cost estimate), run them (`EvalRun`/`run_evals`: bounded concurrency, a disk cache,
progress, cancellable) into an `EvalReport` (recall, precision, confusion, what changes when a
description is dropped, failures, real usage). `what_if` answers listing questions with no model.
"""

from .cache import EvalCache
from .cost import CostActual, CostEstimate
from .format import EvalCase, EvalProblem, parse_evals
from .load import EvalSet, eval_files, load_evals
from .outcome import RouteOutcome
from .report import Change, Detail, EvalReport, SkillScore, build_report
from .requests import DROPPED, LISTED, ROUTING_MAX_TOKENS, EvalPlan, RoutingRequest, plan_evals
from .run import DEFAULT_CONCURRENCY, EvalRun, EvalStep, run_evals
from .whatif import DisableSkill, ListingChange, RaiseBudget, ShortenDescription, WhatIf, compare_listings, next_to_lose, what_if

__all__ = [
    "DEFAULT_CONCURRENCY",
    "DROPPED",
    "LISTED",
    "ROUTING_MAX_TOKENS",
    "Change",
    "CostActual",
    "CostEstimate",
    "Detail",
    "DisableSkill",
    "EvalCache",
    "EvalCase",
    "EvalPlan",
    "EvalProblem",
    "EvalReport",
    "EvalRun",
    "EvalSet",
    "EvalStep",
    "ListingChange",
    "RaiseBudget",
    "RouteOutcome",
    "RoutingRequest",
    "ShortenDescription",
    "SkillScore",
    "WhatIf",
    "build_report",
    "compare_listings",
    "eval_files",
    "load_evals",
    "next_to_lose",
    "parse_evals",
    "plan_evals",
    "run_evals",
    "what_if",
]
