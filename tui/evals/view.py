"""What the evals tab draws, as Rich renderables made from the engine's pure data (a plan, a
report): no widget here, so each part can be read as text by a test.

Requests, skill names and the model's words come from files and from a model: all through
`printable`."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from engine import CostActual, CostEstimate, EvalDetail, EvalPlan, EvalReport, printable

# Where the eval file goes, and what one looks like: shown when the project has none.
EXAMPLE = """\
requests:
  - request: Ship the current branch to staging
    expect: deploy           # the skill the model should call
  - request: What is 17 times 23?
    expect: none             # no skill at all
  - request: Write a short poem about spring
    avoid: release-notes     # anything but this skill
"""
BAR_WIDTH = 10
# A request's text in the list: the rest is in its detail (enter).
SHOWN_REQUEST = 70


def how_to_start() -> Text:
    return Text.assemble(
        ("No eval file in this project.\n\n", "bold"),
        "Write ",
        (".claude/skill-evals.yaml", "bold cyan"),
        " (or evals.yaml beside a skill's SKILL.md, where expect defaults to that skill):\n\n",
        (EXAMPLE, "cyan"),
        "\nThen r reloads and this tab shows the requests a run would send and their cost; R runs them.",
    )


def estimate_line(estimate: CostEstimate) -> Text:
    money = ""
    if estimate.dollars is not None and estimate.dollars_max is not None:
        money = f", ~${estimate.dollars:.4f} (at most ${estimate.dollars_max:.4f})"
    cached = f"; {estimate.cached} answered from the cache" if estimate.cached else ""
    return Text.assemble(
        ("Estimate: ", "bold"),
        f"{estimate.requests} to send, ~{estimate.input_tokens:,} input and ~{estimate.output_tokens:,} output tokens "
        f"(at most {estimate.output_tokens_max:,}){money}{cached}",
        (" (counted locally, approximate)", "dim"),
    )


def actual_line(actual: CostActual, estimate: CostEstimate) -> Text:
    money = f", ${actual.dollars:.4f} at list price" if actual.dollars is not None else ""
    guessed = f"; estimated ~{estimate.input_tokens:,} in, ~{estimate.output_tokens:,} out" if estimate.requests else ""
    return Text.assemble(
        ("Usage: ", "bold"),
        f"{actual.requests} requests sent, {actual.input_tokens:,} input and {actual.output_tokens:,} output tokens{money}",
        (guessed, "dim"),
    )


def plan_summary(plan: EvalPlan) -> Text:
    listed = sum(1 for r in plan.requests if r.variant == "listed")
    unique = len(plan.unique())
    text = Text.assemble(
        (f"{len(plan.requests)} requests", "bold"),
        f" to {printable(plan.model)}: {listed} with the listing as it is, {len(plan.requests) - listed} with their "
        "skill's description dropped" + (f" ({unique} distinct)" if unique != len(plan.requests) else ""),
        f", {plan.runs} runs" if plan.runs > 1 else "",
    )
    for note in plan.notes:
        text.append(f"\nnote: {printable(note)}", "yellow")
    return text


def ran_summary(plan: EvalPlan) -> Text:
    """The plan in one line, once its report is shown."""
    return Text.assemble(
        (f"{len(plan.requests)} requests to {printable(plan.model)}", "bold"),
        (" · R runs them again (the cache answers what has not changed) · enter on a request: its detail", "dim"),
    )


def mark(detail: EvalDetail) -> tuple[str, str]:
    """The request's state in one character, and its style."""
    if detail.outcome is None:
        return "·", "dim"
    if detail.outcome.failed:
        return "!", "bold red"
    return ("✓", "green") if detail.met else ("✗", "red")


def request_prompt(detail: EvalDetail) -> Text:
    """One request as its row in the list, on one line: state, expected skill, where it went, the
    request (cut to fit), and its variant when its skill's description was dropped."""
    item = detail.request
    sign, style = mark(detail)
    went = printable(detail.outcome.label) if detail.outcome is not None else "…"
    text = Text.assemble(
        (sign, style),
        " ",
        (f"{printable(item.case.expected_label):<18}", "cyan"),
        " → ",
        (f"{went:<18}", style),
        " ",
        ("[dropped] " if item.variant != "listed" else "", "dim"),
        (f"run {item.run} " if item.run > 1 else "", "dim"),
        printable(item.case.request),
        no_wrap=True,
        overflow="ellipsis",
    )
    return text


def rate(value: float | None) -> str:
    return "—" if value is None else f"{value:.0%}"


def bar(value: float | None, style: str) -> Text:
    if value is None:
        return Text("·" * BAR_WIDTH, "dim")
    filled = round(value * BAR_WIDTH)
    return Text.assemble(("█" * filled, style), ("·" * (BAR_WIDTH - filled), "dim"))


def skill_table(report: EvalReport) -> Table:
    table = Table(title="Per skill (the listing as it is)", title_justify="left", box=None, padding=(0, 1))
    for column in ("skill", "recall", "", "precision", "", "expected", "stolen by"):
        table.add_column(column, no_wrap=column != "stolen by")
    for score in report.skills:
        stolen = ", ".join(f"{name} {count}" for name, count in score.stolen_by.items())
        table.add_row(
            printable(score.skill),
            rate(score.recall),
            bar(score.recall, "green"),
            rate(score.precision),
            bar(score.precision, "cyan"),
            str(score.expected),
            Text(printable(stolen), "red"),
        )
    return table


def matrix_table(report: EvalReport) -> Table | None:
    """Rows: the skill each request expected; columns: the skill the model called, numbered as
    the rows are (a skill's name as a column heading made the table too wide for 80 columns)."""
    if not report.matrix:
        return None
    labels = sorted(set(report.matrix) | {c for row in report.matrix.values() for c in row})
    number = {label: str(i) for i, label in enumerate(labels, 1)}
    table = Table(title="Expected (rows) → called (columns)", title_justify="left", box=None, padding=(0, 1))
    table.add_column("expected", no_wrap=True)
    for label in labels:
        table.add_column(number[label], justify="right")
    for row in labels:
        counts = report.matrix.get(row, {})
        cells = []
        for column in labels:
            n = counts.get(column, 0)
            style = "dim" if not n else "bold green" if column == row else "bold red"
            cells.append(Text(str(n) if n else "·", style))
        table.add_row(Text.assemble((f"{number[row]:>2} ", "dim"), printable(row)), *cells)
    return table


def report_parts(report: EvalReport, stale: bool = False) -> RenderableType:
    """The whole report: its state and cost first, then the matrix, per-skill bars, the routes that
    change with a description dropped, and what failed."""
    parts: list[RenderableType] = []
    if stale:
        parts.append(Text("stale: the catalog changed since this run; R runs the new requests", "bold yellow"))
    if report.pending:
        parts.append(Text(f"Partial: {report.pending} requests not answered (cancelled)", "bold yellow"))
    if report.failed:
        parts.append(Text(f"Partial: {len(report.failed)} requests failed (listed at the end)", "bold red"))
    if report.finished and not report.partial:
        verdict = "Every request went where expected." if report.all_met else "Some requests did not go where expected."
        parts.append(Text(verdict, "bold green" if report.all_met else "bold red"))
    usage = actual_line(report.actual, report.estimate)
    if report.cached:
        usage.append(f"; {report.cached} answers came from the cache", "dim")
    parts.append(usage)
    matrix = matrix_table(report)
    if matrix is not None:
        parts.append(matrix)
    if report.skills:
        parts.append(skill_table(report))
    if report.changes:
        parts.append(Rule("Routes that change when the skill's description is dropped", align="left", style="dim"))
        for change in report.changes:
            parts.append(
                Text.assemble(
                    ("≠ ", "yellow"),
                    printable(change.case.request),
                    (f"  {printable(change.listed)} → {printable(change.dropped)}", "yellow"),
                )
            )
    if report.failed:
        parts.append(Rule("Failed", align="left", style="dim"))
        for detail in report.failed:
            assert detail.outcome is not None
            said = f"! {detail.request.case.request} ({detail.request.variant}): {detail.outcome.error}"
            parts.append(Text(printable(said), "red"))
    return Group(*parts)
