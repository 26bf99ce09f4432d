"""`skilldeck listing --agent A` prints exactly the block agent A's pinned binary sent on each
recorded case (tests/oracle/recordings/agents), through the real command line in-process; and the
other commands that take --agent, and `skilldeck agents`, on one workspace with every folder."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from engine.base.sanitize import printable
from tests.engine.hosts.test_host_recordings import CASES, RACES, RECORDED, UNFIXED, as_recorded, host_view, recording
from tests.oracle.agents import build_case, workspace_folder, xdg
from tests.oracle.workspace import start_folder
from tui.cli.main import main


def _environ(monkeypatch: pytest.MonkeyPatch, env: dict[str, str]) -> None:
    for key in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_TRUST_WORKSPACE", "XDG_CONFIG_HOME"):
        monkeypatch.delenv(key, raising=False)
    for key, value in env.items():
        monkeypatch.setenv(key, value)


@pytest.mark.parametrize(("agent", "name"), RECORDED)
def test_listing_prints_the_recorded_block(
    agent: str, name: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The command prints the engine's block (tests/engine/hosts compares that with the recording
    for every case), and, where the agent's block does not change from run to run, the recording.
    The workspace is built where the recorder builds it (Codex's budget counts its roots' paths)."""
    with workspace_folder() as folder:
        _listing_is_recorded(agent, name, folder, monkeypatch, capsys)


def _listing_is_recorded(
    agent: str, name: str, folder: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    case = CASES[name]
    got, places, env = host_view(agent, name, folder)
    _environ(monkeypatch, {**xdg(places), **env})
    # The model the recorder ran the agent with, through --model as a user gives it.
    model = ["--model", case["model"][agent]] if agent in case.get("model", {}) else []
    code = main(["listing", "--agent", agent, *model, "--project", str(start_folder(case, places))])
    out = capsys.readouterr().out
    assert code == 0
    want = recording(agent, name)
    if want["block"] is None:
        assert out == "" and got.block is None
        return
    # A control character in a description (U+0085: b18 of frontmatter_blocks) is shown, not sent.
    assert out == f"{printable(got.block)}\n"
    if name not in UNFIXED.get(agent, set()) | RACES.get(agent, set()):
        assert as_recorded(agent, out.removesuffix("\n"), places)[0] == printable(want["block"])


def _every_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    case = CASES["every_folder"]
    places = build_case(case, Path(os.path.realpath(tmp_path)))
    _environ(monkeypatch, {**xdg(places), "GEMINI_CLI_TRUST_WORKSPACE": "true"})
    return places.project


def test_agents_matrix_names_every_agent_for_each_skill(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _every_folder(monkeypatch, tmp_path)
    assert main(["agents", "--json", "--project", str(project), "--no-bundled"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [a["agent"] for a in out["agents"]] == ["claude-code", "codex", "gemini", "opencode", "copilot"]
    rows = {
        Path(r["path"]).relative_to(project).as_posix(): r["hosts"] for r in out["skills"] if r["path"].startswith(str(project))
    }
    # One skill in .agents/skills: every agent but Claude Code reads it; .claude/skills: Claude Code does.
    agents_row = next(v for k, v in rows.items() if k.startswith(".agents/skills/"))
    assert agents_row["claude-code"]["status"] == "not-read" and ".claude/skills" in agents_row["claude-code"]["fix"]
    assert {agents_row[k]["status"] for k in ("codex", "gemini", "opencode", "copilot")} == {"listed"}
    claude_row = next(v for k, v in rows.items() if k.startswith(".claude/skills/"))
    assert claude_row["claude-code"]["status"] == "listed" and claude_row["codex"]["status"] == "not-read"


def test_why_under_an_agent_says_which_folders_it_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _every_folder(monkeypatch, tmp_path)
    code = main(["why", "no-such-skill", "--agent", "codex", "--project", str(project)])
    out = capsys.readouterr().out
    assert code == 1 and "Codex CLI reaches no skill named no-such-skill" in out and ".agents/skills" in out


def test_an_agent_flag_on_a_command_it_does_not_change_is_a_usage_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _every_folder(monkeypatch, tmp_path)
    assert main(["rules", "--agent", "codex", "--project", str(project)]) == 2
    assert "is Claude Code's alone" in capsys.readouterr().err


def test_list_under_codex_takes_the_model_that_sizes_its_budget(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same 250 skills (without Codex's own four): cut to 50 or 54 characters under the
    default model (as many_250), to 126 under gpt-6.1-terra's larger window (model_terra, where
    its own four take their share: 122 or 126)."""
    with workspace_folder() as folder:
        case = CASES["many_250"]
        places = build_case(case, folder)
        _environ(monkeypatch, xdg(places))
        project = str(start_folder(case, places))
        cut: dict[str, list[str]] = {}
        for model in (None, "gpt-6.1-terra"):
            flag = ["--model", model] if model else []
            assert main(["list", "--agent", "codex", "--json", *flag, "--project", project]) == 0
            verdicts = json.loads(capsys.readouterr().out)["verdicts"]
            cut[model or "default"] = [v["why"] for v in verdicts if v["status"] == "cut"]
    assert len(cut["default"]) == len(cut["gpt-6.1-terra"]) == 250
    assert all("(gpt-6.1-sol: 5,440 tokens)" in why for why in cut["default"])
    assert all("(gpt-6.1-terra: 10,000 tokens)" in why for why in cut["gpt-6.1-terra"])
    kept = {model: {int(why.split(" of ")[0].rsplit(" ", 1)[1]) for why in whys} for model, whys in cut.items()}
    assert kept == {"default": {50, 54}, "gpt-6.1-terra": {126}}


@pytest.mark.parametrize(
    ("words", "error"),
    [
        (["listing", "--agent", "gemini", "--model", "x"], "Gemini CLI sends the same skills block whatever the model"),
        (["why", "x", "--agent", "copilot", "--model", "x"], "Copilot CLI sends the same skills block whatever the model"),
        (["list", "--model", "sonnet"], "Claude Code's `list` has no budget"),
        (["listing", "--agent", "codex", "--budget", "900"], "Codex CLI's is not set in characters (its budget is its model's"),
        (["listing", "--agent", "opencode", "--budget", "900"], "OpenCode's is not set in characters"),
    ],
)
def test_a_model_or_budget_an_agent_does_not_take_is_a_usage_error(
    words: list[str], error: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _every_folder(monkeypatch, tmp_path)
    assert main([*words, "--project", str(project)]) == 2
    assert error in capsys.readouterr().err


def test_validate_warns_of_a_skill_another_agent_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "long-one"
    folder.mkdir()
    (folder / "SKILL.md").write_text(f"---\nname: long-one\ndescription: {'word ' * 220}\n---\nBody.\n")
    code = main(["validate", "--json", str(folder), "--no-bundled", "--project", str(tmp_path)])
    out = json.loads(capsys.readouterr().out)
    refused = [d for d in out["diagnostics"] if d["code"] == "agent-refused"]
    # Copilot CLI refuses a description over 1,024 characters; Claude Code loads it: a warning.
    assert any(d["message"].startswith("Copilot CLI 1.0.102 refuses it") and d["severity"] == "warning" for d in refused)
    assert code == 0 and not any(d["fails"] for d in refused)
