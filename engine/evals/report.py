"""The numbers of a run: per skill recall and precision, who steals its requests, which requests
change outcome when a description is dropped, what failed, and what it cost. Pure data, built
from a plan and whatever answers there are (a partial run gives a partial report, that says so).

Counted on the `listed` variant (the listing as it is), one count per request and run. For a
skill S: recall = requests expecting S that went to S / requests expecting S; precision =
requests that went to S and expected it / requests that went to S (an `avoid: S` request that
went to S counts against it). `stolen_by` counts where S's requests went instead (`none`: no skill).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .cost import CostActual, CostEstimate
from .format import EvalCase
from .outcome import NONE, RouteOutcome
from .requests import DROPPED, LISTED, EvalPlan, RoutingRequest


@dataclass(frozen=True, slots=True)
class SkillScore:
    skill: str
    expected: int
    hits: int
    chosen: int
    # Requests that went to this skill and should not have (expected another, none, or avoided it).
    wrong: int
    stolen_by: Mapping[str, int] = field(default_factory=dict)

    @property
    def recall(self) -> float | None:
        return self.hits / self.expected if self.expected else None

    @property
    def precision(self) -> float | None:
        return (self.chosen - self.wrong) / self.chosen if self.chosen else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "skill": self.skill,
            "expected": self.expected,
            "hits": self.hits,
            "chosen": self.chosen,
            "wrong": self.wrong,
            "recall": self.recall,
            "precision": self.precision,
            "stolen_by": dict(self.stolen_by),
        }


@dataclass(frozen=True, slots=True)
class Detail:
    """One request of the plan and what came of it (None: not answered, in a partial run)."""

    request: RoutingRequest
    outcome: RouteOutcome | None

    @property
    def met(self) -> bool | None:
        if self.outcome is None or self.outcome.failed:
            return None
        return self.request.case.met(self.outcome.skill)

    def to_dict(self, full: bool = False) -> dict[str, Any]:
        return {
            **self.request.to_dict(full),
            "expected": self.request.case.expected_label,
            "met": self.met,
            "outcome": self.outcome.to_dict() if self.outcome else None,
        }


@dataclass(frozen=True, slots=True)
class Change:
    """A request whose route differs when its skill's description is dropped."""

    case: EvalCase
    run: int
    listed: str
    dropped: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "case": self.case.id,
            "request": self.case.request,
            "run": self.run,
            "expected": self.case.expected_label,
            "listed": self.listed,
            "dropped": self.dropped,
        }


@dataclass(frozen=True)
class EvalReport:
    plan: EvalPlan
    details: tuple[Detail, ...]
    skills: tuple[SkillScore, ...]
    # expected label -> chosen label -> count (listed variant; `avoid` cases are not in it).
    matrix: Mapping[str, Mapping[str, int]]
    changes: tuple[Change, ...]
    failed: tuple[Detail, ...]
    pending: int
    cached: int
    estimate: CostEstimate
    actual: CostActual
    offline: bool = False
    finished: bool = True

    @property
    def all_met(self) -> bool:
        """Every listed request answered and routed as expected."""
        listed = [d for d in self.details if d.request.variant == LISTED]
        return bool(listed) and all(d.met is True for d in listed)

    @property
    def partial(self) -> bool:
        return bool(self.failed) or self.pending > 0

    def to_dict(self, full: bool = False) -> dict[str, Any]:
        return {
            "model": self.plan.model,
            "runs": self.plan.runs,
            "offline": self.offline,
            "finished": self.finished,
            "all_met": self.all_met,
            "partial": self.partial,
            "pending": self.pending,
            "cached": self.cached,
            "notes": list(self.plan.notes),
            "skills": [s.to_dict() for s in self.skills],
            "matrix": {k: dict(v) for k, v in self.matrix.items()},
            "changed_when_dropped": [c.to_dict() for c in self.changes],
            "failed": [d.to_dict() for d in self.failed],
            "requests": [d.to_dict(full) for d in self.details],
            "estimate": self.estimate.to_dict(),
            "usage": self.actual.to_dict(),
        }


def build_report(
    plan: EvalPlan, outcomes: Mapping[str, RouteOutcome], *, offline: bool = False, finished: bool = True
) -> EvalReport:
    details = tuple(Detail(r, outcomes.get(r.key)) for r in plan.requests)
    listed = [d for d in details if d.request.variant == LISTED and d.outcome is not None and not d.outcome.failed]
    expected: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    chosen: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    stolen: dict[str, Counter[str]] = {}
    matrix: dict[str, Counter[str]] = {}
    for detail in listed:
        case, outcome = detail.request.case, detail.outcome
        assert outcome is not None
        route = outcome.skill
        if route is not None:
            chosen[route] += 1
            if not (case.expect == route and case.avoid is None):
                wrong[route] += 1
        if case.avoid is not None:
            expected.setdefault(case.avoid, 0)
            continue
        row = case.expect or NONE
        matrix.setdefault(row, Counter())[route or NONE] += 1
        if case.expect is not None:
            expected[case.expect] += 1
            if route == case.expect:
                hits[case.expect] += 1
            else:
                stolen.setdefault(case.expect, Counter())[route or NONE] += 1
    names = sorted(set(expected) | set(chosen), key=lambda n: (n not in expected, n))
    skills = tuple(
        SkillScore(n, expected[n], hits[n], chosen[n], wrong[n], dict(stolen.get(n, Counter()).most_common())) for n in names
    )
    # The same key answers both variants when they sent the same text: no change to report there.
    by_case: dict[tuple[int, int], dict[str, Detail]] = {}
    for detail in details:
        by_case.setdefault((id(detail.request.case), detail.request.run), {})[detail.request.variant] = detail
    changes = []
    for pair in by_case.values():
        a, b = pair.get(LISTED), pair.get(DROPPED)
        if a is None or b is None or a.outcome is None or b.outcome is None or a.outcome.failed or b.outcome.failed:
            continue
        if a.outcome.skill != b.outcome.skill:
            changes.append(Change(a.request.case, a.request.run, a.outcome.label, b.outcome.label))
    unique = plan.unique()
    failed = tuple(Detail(r, outcomes[r.key]) for r in unique if r.key in outcomes and outcomes[r.key].failed)
    pending = sum(1 for r in unique if r.key not in outcomes)
    answered = [outcomes[r.key] for r in unique if r.key in outcomes]
    sent = [o for o in answered if not o.cached]
    cached = len(answered) - len(sent)
    actual = CostActual(plan.model, len(sent), sum(o.input_tokens for o in sent), sum(o.output_tokens for o in sent))
    estimate = plan.estimate({r.key for r in unique if r.key in outcomes and outcomes[r.key].cached})
    return EvalReport(
        plan,
        details,
        skills,
        {k: dict(v) for k, v in matrix.items()},
        tuple(changes),
        failed,
        pending,
        cached,
        estimate,
        actual,
        offline,
        finished,
    )
