"""`skilldeck evals`: which skill the model calls for each request of the project's eval files.

Exit 0 when every request went where expected, 1 when not (or a request failed), 2 on bad input
(an eval file with errors, no eval file) or when nothing can run (no API key without --offline).
"""

from __future__ import annotations

import argparse
import asyncio
import json

from rich.table import Table
from rich.text import Text

from engine import (
    CostActual,
    CostEstimate,
    EvalCache,
    EvalPlan,
    EvalReport,
    EvalRun,
    EvalSet,
    EvalStep,
    Workspace,
    load_evals,
    plan_evals,
    printable,
)

from . import render
from .jsonout import dump


def run(args: argparse.Namespace, workspace: Workspace) -> int:
    catalog = workspace.load()
    listing = workspace.listing(catalog, model=args.model)
    evals = load_evals(workspace.locations, catalog, args.file, listing)
    _problems(evals)
    if not evals.ok or not evals.cases:
        if evals.ok:
            render.err.print("[red]skilldeck evals: no requests to run[/]")
        return 2
    backend = workspace.backend("offline" if args.offline else args.backend)
    variants = ("listed",) if args.listed_only else ("listed", "dropped")
    plan = plan_evals(workspace, catalog, evals.cases, model=args.model, runs=args.runs, variants=variants)
    cache = None if args.no_cache else EvalCache.at(workspace.locations.environ)
    if cache is not None:
        cache.load()
    estimate = plan.estimate(cache if cache is not None else ())
    for note in plan.notes:
        render.err.print(Text(f"note: {note}", style="yellow"))
    if backend.name == "offline":
        return _offline(args, plan, estimate)
    if not args.json:
        render.err.print(Text(_estimate_line(estimate), style="dim"))
    evalrun = EvalRun(plan, backend, concurrency=args.concurrency, cache=cache)
    try:
        report = asyncio.run(evalrun.run(None if args.json else _progress))
    except KeyboardInterrupt:
        render.err.print("[yellow]stopped: the report below is partial[/]")
        report = evalrun.report()
    if args.json:
        dump(report.to_dict(full=True))
    else:
        show(report)
    return 0 if report.all_met else 1


def _problems(evals: EvalSet) -> None:
    for problem in evals.problems:
        style = "red" if problem.severity == "error" else "yellow"
        render.err.print(Text(printable(str(problem)), style=style))


def _estimate_line(estimate: CostEstimate) -> str:
    money = ""
    if estimate.dollars is not None and estimate.dollars_max is not None:
        money = f", about ${estimate.dollars:.4f} (at most ${estimate.dollars_max:.4f})"
    cached = f"; {estimate.cached} answered from the cache" if estimate.cached else ""
    return (
        f"estimate: {estimate.requests} requests to {estimate.model}, ~{estimate.input_tokens:,} input tokens, "
        f"~{estimate.output_tokens:,} output tokens (at most {estimate.output_tokens_max:,}){money}{cached} "
        "— counted locally, approximate"
    )


def _actual_line(actual: CostActual) -> str:
    money = f", ${actual.dollars:.4f} at list price" if actual.dollars is not None else ""
    return (
        f"usage: {actual.requests} requests sent, {actual.input_tokens:,} input and {actual.output_tokens:,} output tokens{money}"
    )


def _progress(step: EvalStep) -> None:
    if render.err.plain:
        return
    case = step.request.case
    render.err.print(
        Text(
            f"[{step.done}/{step.total}] {printable(case.request)[:60]} ({step.request.variant}) → {step.outcome.label}",
            style="dim",
        )
    )


def _offline(args: argparse.Namespace, plan: EvalPlan, estimate: CostEstimate) -> int:
    """Nothing sent: the requests as they would go, and what they would cost."""
    explicit = args.offline or args.backend == "offline"
    if args.json:
        dump({"offline": True, "estimate": estimate.to_dict(), "plan": plan.to_dict(full=True)})
    else:
        unique = plan.unique()
        if unique:
            render.out.rule("the first request, exactly as it would be sent", align="left")
            render.out.line(printable(json.dumps(unique[0].request.to_dict(), indent=2, ensure_ascii=False)))
        render.out.rule(f"{len(unique)} requests (the same but for the message and the listing variant)", align="left")
        for item in unique:
            render.out.line(printable(f"run {item.run} {item.variant:8} listing {item.listing_hash[:10]}  {item.case.request}"))
        render.out.print(Text(_estimate_line(estimate)))
    if explicit:
        return 0
    render.err.print("[yellow]no API key: nothing was sent. Set ANTHROPIC_API_KEY (or use --offline to preview on purpose).[/]")
    return 2


def _rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def _bar(value: float | None, width: int = 10) -> str:
    if value is None:
        return ""
    filled = round(value * width)
    return "█" * filled + "·" * (width - filled)


def show(report: EvalReport) -> None:
    out = render.out
    table = Table(title="per skill (the listing as it is)", title_justify="left")
    for column in ("skill", "recall", "", "precision", "expected", "went elsewhere"):
        table.add_column(column)
    for score in report.skills:
        stolen = ", ".join(f"{name} {count}" for name, count in score.stolen_by.items())
        cells = (_rate(score.recall), _bar(score.recall), _rate(score.precision), str(score.expected), printable(stolen))
        table.add_row(printable(score.skill), *cells)
    out.print(table)
    _matrix(report)
    misses = [d for d in report.details if d.request.variant == "listed" and d.met is False]
    if misses:
        out.rule("requests that went elsewhere", align="left")
        for detail in misses:
            assert detail.outcome is not None
            case = detail.request.case
            said = f' (said: "{detail.outcome.text.strip()[:80]}")' if detail.outcome.text.strip() else ""
            where = f"expected {case.expected_label}, went to {detail.outcome.label}{said}"
            out.print(Text(printable(f"✗ {case.id} run {detail.request.run}: {case.request!r} {where}")))
    if report.changes:
        out.rule("requests whose route changes when the skill's description is dropped", align="left")
        for change in report.changes:
            out.print(Text(printable(f"≠ {change.case.id}: {change.case.request!r} {change.listed} → {change.dropped}")))
    if report.failed:
        out.rule(f"{len(report.failed)} requests failed (the report is partial)", align="left")
        for detail in report.failed:
            assert detail.outcome is not None
            out.print(
                Text(printable(f"! {detail.request.case.id} ({detail.request.variant}): {detail.outcome.error}"), style="red")
            )
    if report.pending:
        out.print(Text(f"{report.pending} requests were not answered (stopped early): the report is partial", style="yellow"))
    if report.cached:
        out.print(Text(f"{report.cached} answers came from the cache", style="dim"))
    out.print(Text(_actual_line(report.actual), style="dim"))
    verdict = "every request went where expected" if report.all_met else "some requests did not go where expected"
    out.print(Text(verdict, style="bold green" if report.all_met else "bold red"))


def _matrix(report: EvalReport) -> None:
    if not report.matrix:
        return
    columns = sorted({c for row in report.matrix.values() for c in row} | set(report.matrix))
    table = Table(title="expected (rows) → called (columns)", title_justify="left")
    table.add_column("")
    for column in columns:
        table.add_column(printable(column), justify="right")
    for row in sorted(report.matrix):
        counts = report.matrix[row]
        cells = [(str(counts[c]) if counts.get(c) else "·") for c in columns]
        styled = [
            Text(cell, style="green" if c == row and cell != "·" else ("red" if cell != "·" else "dim"))
            for cell, c in zip(cells, columns, strict=True)
        ]
        table.add_row(printable(row), *styled)
    render.out.print(table)
