"""The routing lab against the local Messages API server: the report's numbers, the cache, the
concurrency bound (counted by the server), failures mid-run and a cancelled run."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from engine import EvalCache, EvalRun, EvalStep, load_evals, plan_evals, run_evals
from tests.conftest import Tree, skill_text
from tests.engine.evals.test_evals_helpers import dropped, make_tree, request_text, router, workspace
from tests.llm_server import MessagesServer, Reply


@pytest.fixture
def server() -> Iterator[MessagesServer]:
    with MessagesServer() as running:
        yield running


def _plan(tree: Tree, server: MessagesServer, **kw: object):  # type: ignore[no-untyped-def]
    ws = workspace(tree, server)
    catalog = ws.load()
    evals = load_evals(ws.locations, catalog, listing=ws.listing(catalog))
    assert evals.ok, evals.problems
    return ws, plan_evals(ws, catalog, evals.cases, **kw)  # type: ignore[arg-type]


async def test_the_report_counts_each_skills_recall_precision_and_thieves(tree: Tree, server: MessagesServer) -> None:
    make_tree(tree)
    server.choose = router()
    ws, plan = _plan(tree, server, model="haiku")
    report = await run_evals(plan, ws.backend())
    # Five cases listed; four name a skill (deploy twice, lint, deploy avoided), so four dropped variants.
    assert len(plan.requests) == 9 and len(server.requests) == 9
    scores = {s.skill: s for s in report.skills}
    deploy, lint = scores["deploy"], scores["lint"]
    assert (deploy.expected, deploy.hits, deploy.chosen, deploy.wrong) == (2, 1, 2, 1)
    assert (deploy.recall, deploy.precision, dict(deploy.stolen_by)) == (0.5, 0.5, {"lint": 1})
    assert (lint.expected, lint.hits, lint.chosen, lint.wrong, lint.recall, lint.precision) == (1, 1, 2, 1, 1.0, 0.5)
    assert report.matrix == {"deploy": {"deploy": 1, "lint": 1}, "lint": {"lint": 1}, "none": {"none": 1}}
    assert [(c.case.request, c.listed, c.dropped) for c in report.changes] == [("ship it", "deploy", "none")]
    assert not report.all_met and not report.partial and report.cached == 0
    # What was sent: the request alone, single turn, a small max_tokens, the model asked for.
    body = next(b for b in server.requests if request_text(b) == "ship it" and not dropped(b, "deploy"))
    # The listing as Claude Code 2.1.328 sends it: a system message after the request, the Skill tool last.
    listing = plan.listing.text
    assert body["messages"] == [
        {"role": "user", "content": [{"type": "text", "text": "ship it"}]},
        {"role": "system", "content": [{"type": "text", "text": listing}]},
    ]
    assert "- deploy: Deploy the app to staging or production." in listing.split("\n")
    assert body["tools"][-1]["name"] == "Skill" and "- deploy" not in body["tools"][-1]["description"]
    assert body["max_tokens"] == 256 and body["model"] == "claude-haiku-5-5"
    # The real usage is what the server reported (11 in, 7 out per answer).
    assert (report.actual.requests, report.actual.input_tokens, report.actual.output_tokens) == (9, 99, 63)
    detail = next(d for d in report.details if d.request.case.request == "push to prod" and d.request.variant == "listed")
    assert detail.outcome is not None and detail.outcome.skill == "lint" and detail.met is False


async def test_runs_repeat_each_request(tree: Tree, server: MessagesServer) -> None:
    make_tree(tree)
    server.choose = router()
    ws, plan = _plan(tree, server, runs=3, variants=("listed",))
    report = await run_evals(plan, ws.backend())
    assert len(server.requests) == 15
    assert {s.skill: (s.expected, s.hits) for s in report.skills}["deploy"] == (6, 3)


async def test_a_rerun_asks_nothing_and_an_edit_reasks_only_what_it_changes(tree: Tree, server: MessagesServer) -> None:
    make_tree(tree)
    server.choose = router()
    ws, plan = _plan(tree, server)
    await run_evals(plan, ws.backend(), cache=EvalCache.at(ws.locations.environ))
    assert len(server.requests) == 9
    again = await run_evals(plan, ws.backend(), cache=EvalCache.at(ws.locations.environ))
    assert len(server.requests) == 9 and again.cached == 9 and again.actual.requests == 0
    assert [s.to_dict() for s in again.skills] == [s.to_dict() for s in (await run_evals(plan, ws.backend())).skills]
    before = len(server.requests)
    # Editing deploy's description changes every listing but the ones where deploy's line is its
    # name alone: the three dropped-deploy requests are answered from the cache.
    tree.skill("deploy", skill_text(name="deploy", description="Deploy the app anywhere."))
    ws, edited = _plan(tree, server)
    report = await run_evals(edited, ws.backend(), cache=EvalCache.at(ws.locations.environ))
    asked = server.requests[before:]
    assert len(asked) == 6 and report.cached == 3
    assert not any(dropped(b, "deploy") for b in asked)


async def test_the_concurrency_bound_is_what_the_server_sees(tree: Tree, server: MessagesServer) -> None:
    evals = "requests:\n" + "".join(f"  - request: job {n}\n    expect: none\n" for n in range(12))
    make_tree(tree, evals)
    server.choose = router()
    ws, plan = _plan(tree, server)
    for width in (3, 5):
        server.max_in_flight = 0
        server.gate(width, len(server.requests) + 12)
        report = await run_evals(plan, ws.backend(), concurrency=width)
        assert server.max_in_flight == width and report.all_met


async def test_a_failure_mid_run_keeps_the_rest_and_says_what_failed(tree: Tree, server: MessagesServer) -> None:
    make_tree(tree)
    server.choose = router({"fix the lint": Reply(status=500), "what is 2+2": Reply(text="4", drop_after=5)})
    ws, plan = _plan(tree, server, variants=("listed",))
    cache = EvalCache.at(ws.locations.environ)
    report = await run_evals(plan, ws.backend(), cache=cache)
    assert report.partial and not report.all_met and report.pending == 0
    failed = {d.request.case.request: d.outcome for d in report.failed}
    assert set(failed) == {"fix the lint", "what is 2+2"}
    assert failed["fix the lint"] is not None and failed["fix the lint"].error_kind == "server"
    assert "500" in (failed["fix the lint"].error or "")
    assert failed["what is 2+2"] is not None and failed["what is 2+2"].error_kind == "connection"
    assert {s.skill: s.hits for s in report.skills}["deploy"] == 1
    # A failure is never cached: the next run asks exactly the two that failed.
    server.choose = router()
    before = len(server.requests)
    again = await run_evals(plan, ws.backend(), cache=EvalCache.at(ws.locations.environ))
    assert sorted(request_text(b) for b in server.requests[before:]) == ["fix the lint", "what is 2+2"]
    assert not again.partial and again.cached == 3


async def test_a_cancelled_run_reports_what_it_has(tree: Tree, server: MessagesServer) -> None:
    make_tree(tree)
    server.choose = router({"a poem": Reply(hang=True)})
    ws, plan = _plan(tree, server, variants=("listed",))
    run = EvalRun(plan, ws.backend(), concurrency=2, cache=EvalCache.at(ws.locations.environ))
    four = asyncio.Event()

    def progress(step: EvalStep) -> None:
        if step.done == 4:
            four.set()

    task = asyncio.create_task(run.run(progress))
    await asyncio.wait_for(four.wait(), 30)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    report = run.report()
    assert report.pending == 1 and report.partial and not report.finished
    # The four answers received before the cancel were kept.
    assert len(EvalCache.at(ws.locations.environ).path.read_text().splitlines()) == 4


async def test_offline_sends_nothing(tree: Tree, server: MessagesServer) -> None:
    make_tree(tree)
    ws, plan = _plan(tree, server)
    report = await run_evals(plan, ws.backend("offline"))
    assert server.requests == [] and report.offline and report.pending == len(plan.unique())
    assert report.estimate.requests == 9 and report.estimate.input_tokens > 9 * 350


async def test_a_skill_call_cut_by_max_tokens_names_no_skill(tree: Tree, server: MessagesServer) -> None:
    make_tree(tree, "requests:\n  - request: ship it\n    expect: deploy\n")
    cut = Reply(tool_uses=[{"id": "s", "name": "Skill", "raw": '{"skill": "dep'}], stop_reason="max_tokens")
    server.choose = router({"ship it": cut})
    ws, plan = _plan(tree, server, variants=("listed",))
    report = await run_evals(plan, ws.backend())
    outcome = report.details[0].outcome
    assert outcome is not None and outcome.skill is None and outcome.stop == "max_tokens" and not report.all_met


async def test_another_tool_is_no_skill_and_is_named(tree: Tree, server: MessagesServer) -> None:
    make_tree(tree, "requests:\n  - request: what is 2+2\n    expect: none\n")
    server.choose = router({"what is 2+2": Reply(tool_uses=[{"id": "b", "name": "Bash", "input": {"command": "echo 4"}}])})
    ws, plan = _plan(tree, server)
    report = await run_evals(plan, ws.backend())
    outcome = report.details[0].outcome
    assert outcome is not None and (outcome.skill, outcome.tool) == (None, "Bash") and report.all_met
