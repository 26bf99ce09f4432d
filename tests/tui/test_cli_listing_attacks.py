"""`skilldeck listing`, `listing --json`, `why` and `list` under a hostile ~/.claude.json, settings and
budget: the installed command exits normally, prints valid JSON, and no control reaches the terminal
(issue 14)."""

from __future__ import annotations

import json
import subprocess

import pytest

from tests.conftest import Tree, skill_text, write
from tests.tui.test_cli_escapes import _clean
from tests.tui.test_cli_escapes import _skilldeck as run_skilldeck

OSC = "\x1b]0;owned\x07"
HUGE = "1" + "0" * 400


def _hostile(tree: Tree) -> None:
    tree.skill("alpha", skill_text(description="Does alpha."))
    tree.skill("beta", skill_text(description="Does beta."))
    usage = {
        "alpha": {"usageCount": 2, "lastUsedAt": 1e300},
        "beta": {"usageCount": 10**400, "lastUsedAt": -(10**400)},
        **{f"gone-{i}{OSC}": {"usageCount": [i], "lastUsedAt": {"x": i}} for i in range(2_000)},
    }
    config = {"projects": {str(tree.project): {"hasTrustDialogAccepted": True}}, "skillUsage": usage}
    tree.trust_file.write_text(json.dumps(config))
    settings = {
        "skillOverrides": {f"k{i}{OSC}": "off" for i in range(2_000)},
        "skillListingMaxDescChars": 10**12,
        "model": f"claude-opus-4-5{OSC}",
    }
    write(tree.user / "settings.json", json.dumps(settings))


def _skilldeck(tree: Tree, *argv: str, budget: str = "0x" + "f" * 300) -> subprocess.CompletedProcess[bytes]:
    return run_skilldeck(tree, *argv, env={"SLASH_COMMAND_TOOL_CHAR_BUDGET": budget})


@pytest.mark.parametrize(
    "argv",
    [
        ("listing",),
        ("listing", "--budget", HUGE),
        ("why", "alpha"),
        ("why", "alpha", "--budget", HUGE),
        ("why", "alpah"),
        ("list",),
    ],
)
def test_hostile_numbers_and_names_neither_crash_nor_reach_the_terminal(tree: Tree, argv: tuple[str, ...]) -> None:
    _hostile(tree)
    done = _skilldeck(tree, *argv)
    assert b"Traceback" not in done.stderr, done.stderr.decode()
    assert done.returncode in (0, 1)
    _clean(done.stdout)
    _clean(done.stderr)


@pytest.mark.parametrize("budget", ["0x" + "f" * 300, "1e999", "-0", "  ", "\x1b[2J" + "9" * 10_000])
def test_listing_json_is_valid_json_whatever_the_budget(tree: Tree, budget: str) -> None:
    _hostile(tree)
    done = _skilldeck(tree, "listing", "--json", budget=budget)
    assert done.returncode == 0, done.stderr.decode()
    _clean(done.stdout)
    data = json.loads(done.stdout, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))
    assert {e["name"] for e in data["entries"]} == {"alpha", "beta"}
    scores = {e["name"]: e["usage_score"] for e in data["entries"]}
    # A last use far in the future scores Infinity; a count past the float range is null to Claude Code.
    assert scores == {"alpha": "Infinity", "beta": 0.0}


def test_why_json_under_a_huge_budget_is_valid(tree: Tree) -> None:
    _hostile(tree)
    done = _skilldeck(tree, "why", "alpha", "--json", "--budget", HUGE)
    assert done.returncode == 0, done.stderr.decode()
    data = json.loads(done.stdout, parse_constant=lambda name: pytest.fail(f"{name} is not JSON"))
    assert data["verdict"] == "the model sees it as `- alpha: Does alpha.`"
