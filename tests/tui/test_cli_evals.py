"""`skilldeck evals` against the local Messages API server: the report, exit codes, offline."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import Tree, write
from tests.engine.evals.test_evals_helpers import make_tree, router
from tests.llm_server import MessagesServer, Reply
from tui.cli.main import main


@pytest.fixture
def server(tree: Tree, monkeypatch: pytest.MonkeyPatch) -> Iterator[MessagesServer]:
    with MessagesServer() as running:
        monkeypatch.setenv("ANTHROPIC_BASE_URL", running.url)
        monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
        monkeypatch.setenv("XDG_STATE_HOME", str(tree.root / "state"))
        monkeypatch.delenv("ANTHROPIC_MODEL", raising=False)
        monkeypatch.delenv("SLASH_COMMAND_TOOL_CHAR_BUDGET", raising=False)
        running.choose = router()
        yield running


def _args(tree: Tree, *extra: str) -> list[str]:
    where = ["--project", str(tree.project), "--user-dir", str(tree.user), "--managed-dir", str(tree.managed), "--no-bundled"]
    return ["evals", *extra, *where]


def test_json_report_and_exit_1_when_a_route_is_missed(
    tree: Tree, server: MessagesServer, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(tree)
    code = main(_args(tree, "--json", "--model", "haiku", "--concurrency", "2"))
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and report["model"] == "claude-haiku-5-5" and not report["all_met"]
    deploy = next(s for s in report["skills"] if s["skill"] == "deploy")
    assert (deploy["recall"], deploy["precision"], deploy["stolen_by"]) == (0.5, 0.5, {"lint": 1})
    assert [(c["request"], c["listed"], c["dropped"]) for c in report["changed_when_dropped"]] == [("ship it", "deploy", "none")]
    assert report["estimate"]["estimate"] is True and report["usage"]["requests"] == 9 and len(server.requests) == 9
    # Again: every answer from the cache, nothing sent.
    assert main(_args(tree, "--json", "--model", "haiku")) == 1
    assert json.loads(capsys.readouterr().out)["cached"] == 9 and len(server.requests) == 9


def test_exit_0_when_every_route_is_met_and_the_text_report(
    tree: Tree, server: MessagesServer, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(tree, "requests:\n  - request: ship it\n    expect: deploy\n  - request: what is 2+2\n    expect: none\n")
    assert main(_args(tree, "--runs", "2")) == 0
    captured = capsys.readouterr()
    assert "every request went where expected" in captured.out and "≠ skill-evals.yaml:2: 'ship it' deploy → none" in captured.out
    assert "estimate: 6 requests" in captured.err and "counted locally, approximate" in captured.err
    assert "usage: 6 requests sent, 66 input and 42 output tokens" in captured.out


def test_a_failed_request_is_reported_and_fails_the_run(
    tree: Tree, server: MessagesServer, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(tree, "requests:\n  - request: ship it\n    expect: deploy\n  - request: fix the lint\n    expect: lint\n")
    server.choose = router({"fix the lint": Reply(status=529)})
    assert main(_args(tree, "--listed-only")) == 1
    out = capsys.readouterr().out
    assert "1 requests failed (the report is partial)" in out and "overloaded" in out.lower()


def test_bad_input_exits_2_and_names_the_line(tree: Tree, server: MessagesServer, capsys: pytest.CaptureFixture[str]) -> None:
    make_tree(tree, "requests:\n  - request: ship it\n    expect: deplyo\n")
    assert main(_args(tree)) == 2
    assert "skill-evals.yaml:2: no skill is named deplyo (did you mean deploy?)" in capsys.readouterr().err
    assert main(_args(tree, "--file", str(tree.root / "absent.yaml"))) == 2
    assert server.requests == []


def test_offline_shows_the_requests_and_the_estimate(
    tree: Tree, server: MessagesServer, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(tree)
    assert main(_args(tree, "--offline")) == 0
    out = capsys.readouterr().out
    assert '"max_tokens": 256' in out and "9 requests" in out and "estimate: 9 requests" in out
    assert main(_args(tree, "--offline", "--json")) == 0
    plan = json.loads(capsys.readouterr().out)
    assert plan["offline"] and len(plan["plan"]["requests"]) == 9 and plan["plan"]["requests"][0]["sent"]["max_tokens"] == 256
    assert server.requests == []


def test_no_key_shows_the_plan_and_exits_2(
    tree: Tree, server: MessagesServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    make_tree(tree)
    monkeypatch.delenv("ANTHROPIC_API_KEY")
    assert main(_args(tree)) == 2
    assert "no API key: nothing was sent" in capsys.readouterr().err and server.requests == []


def test_the_demo_ships_an_eval_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path))
    assert main(["--demo", "evals", "--offline", "--json"]) == 0
    plan = json.loads(capsys.readouterr().out)["plan"]
    expected = [c["expect"] for c in plan["cases"]]
    assert None in expected and "security-review" in expected and len(expected) >= 8


def test_runs_and_concurrency_are_bounded(tree: Tree, server: MessagesServer, capsys: pytest.CaptureFixture[str]) -> None:
    write(tree.project / ".claude" / "skill-evals.yaml", "requests: []\n")
    with pytest.raises(SystemExit):
        main(_args(tree, "--runs", "0"))
    with pytest.raises(SystemExit):
        main(_args(tree, "--concurrency", "1000"))
    capsys.readouterr()
