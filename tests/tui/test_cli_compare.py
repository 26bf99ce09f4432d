"""`skilldeck compare`: the real pinned Claude Code on oracle workspaces (exit 0), and stand-in
`claude` programs for what the real one cannot be made to do on cue: send a listing that differs
(exit 1), be missing, too old, ask for a login, or meet a kernel without private namespaces (exit 2)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from engine.runner.invoke import parse_typed
from tests.oracle.workspace import HERE, Places, build, load_cases
from tui.cli.main import main

REPO = Path(__file__).resolve().parents[2]
CLAUDE = REPO / ".oracle" / "node_modules" / ".bin" / "claude"
VERSION = (HERE / "VERSION").read_text().strip()

# A stand-in `claude`: says its version and flags, and in print mode sends the recording server one
# main request whose listing holds `alpha` (with another text than the project's) and `ghost` when
# started in a folder with skills, an empty listing elsewhere (the baseline's empty home).
FAKE = """#!{python}
import json, os, sys, urllib.request
from pathlib import Path
mode = Path(__file__).with_name("mode").read_text().strip()
if sys.argv[1:] == ["--version"]:
    print("1.0.3 (Claude Code)" if mode == "old" else "{version} (Claude Code)")
    raise SystemExit(0)
if sys.argv[1:] == ["--help"]:
    print("--print --output-format --debug-file --no-session-persistence --strict-mcp-config --settings")
    raise SystemExit(0)
if mode == "login":
    print(json.dumps({{"type": "result", "result": "Invalid API key · Please run /login"}}))
    raise SystemExit(1)
lines = ["- alpha: other text", "- ghost: not here"] if (Path.cwd() / ".claude" / "skills").is_dir() else []
listing = "The following skills are available for use with the Skill tool:\\n\\n" + "\\n".join(lines)
body = {{"model": "fake-model", "stream": False, "tools": [{{"name": "Skill"}}], "system": [{{"type": "text", "text": "main"}}],
        "messages": [{{"role": "user", "content": "hi"}}, {{"role": "system", "content": listing}}]}}
request = urllib.request.Request(os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages", data=json.dumps(body).encode(),
                                 headers={{"x-api-key": os.environ["ANTHROPIC_API_KEY"], "content-type": "application/json"}})
urllib.request.urlopen(request, timeout=10).read()
print(json.dumps({{"type": "system", "subtype": "init", "session_id": "s"}}))
print(json.dumps({{"type": "result", "result": "ok"}}))
"""


def fake_claude(folder: Path, mode: str = "ok") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "mode").write_text(mode)
    path = folder / "claude"
    path.write_text(FAKE.format(python=sys.executable, version=VERSION))
    path.chmod(0o755)
    return path


def oracle_case(kind: str, name: str, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[dict, Places, list[str]]:
    case = load_cases(kind)[name]
    places = build(case, Path(os.path.realpath(tmp)))
    monkeypatch.setenv("HOME", str(places.home))
    flags = [
        "--project",
        str(places.project),
        "--user-dir",
        str(places.home / ".claude"),
        "--managed-dir",
        str(places.root / "managed"),
    ]
    return case, places, flags


def differing(tmp: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """A project with `alpha` and `beta`: the stand-in lists alpha otherwise, and ghost."""
    places = build(
        {"trusted": True, "files": {"{project}/.claude/skills/alpha/SKILL.md": "---\ndescription: Does alpha\n---\nx\n",
                                    "{project}/.claude/skills/beta/SKILL.md": "---\ndescription: Only ours\n---\nx\n"}},
        Path(os.path.realpath(tmp)),
    )  # fmt: skip
    monkeypatch.setenv("HOME", str(places.home))
    return ["--project", str(places.project), "--user-dir", str(places.home / ".claude"), "--managed-dir", str(places.root / "m")]


def test_identical_listing_exits_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    _, _, flags = oracle_case("listing", "basics", tmp_path, monkeypatch)
    assert main(["compare", "--claude", str(CLAUDE), *flags]) == 0
    out = capsys.readouterr().out
    assert f"Claude Code {VERSION} (" in out and "sealed off" in out
    assert "= - usr: user skill" in out and "= - alpha: Does &lt;alpha&gt; things & more" in out
    assert "Claude Code's own" in out
    assert out.rstrip().split("\n")[-1].startswith("identical · ")


def test_typed_skill_json_exits_0(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    case, places, flags = oracle_case("invoke", "typed_args", tmp_path, monkeypatch)
    name, args = parse_typed(places.fill(case["prompt"]))
    assert main(["--json", "compare", name, *args.split(), "--claude", str(CLAUDE), *flags]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["identical"] is True and out["contained"] is True
    assert out["claude_code"]["version"] == VERSION
    assert out["invoked"] == "/deploy staging now"
    assert [r["status"] for r in out["invocation"]] == ["identical", "identical"]
    assert {r["status"] for r in out["listing"]} <= {"identical", "claude-own"}


def test_each_difference_is_shown_and_exits_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    flags = differing(tmp_path / "ws", monkeypatch)
    claude = fake_claude(tmp_path / "bin")
    assert main(["compare", "--claude", str(claude), *flags]) == 1
    out = capsys.readouterr().out
    assert "≠ differs: from character 10: Claude Code 'other text', skilldeck 'Does alpha'" in out
    assert "    Claude Code: - alpha: other text" in out and "    skilldeck:   - alpha: Does alpha" in out
    assert "+ only in Claude Code: - ghost: not here" in out
    assert "- only in skilldeck: - beta: Only ours" in out
    assert main(["compare", "--json", "--claude", str(claude), *flags]) == 1
    rows = {r["name"]: r["status"] for r in json.loads(capsys.readouterr().out)["listing"]}
    assert rows == {"(header)": "identical", "alpha": "differs", "ghost": "only-claude", "beta": "only-skilldeck"}


def test_missing_claude_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    flags = differing(tmp_path / "ws", monkeypatch)
    assert main(["compare", "--claude", str(tmp_path / "nowhere" / "claude"), *flags]) == 2
    assert "not an executable file" in capsys.readouterr().err
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert main(["compare", *flags]) == 2
    assert "claude is not on PATH" in capsys.readouterr().err


def test_too_old_claude_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    flags = differing(tmp_path / "ws", monkeypatch)
    assert main(["compare", "--claude", str(fake_claude(tmp_path / "bin", "old")), *flags]) == 2
    assert "Claude Code 1.0.3 is too old" in capsys.readouterr().err


def test_a_login_request_exits_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    flags = differing(tmp_path / "ws", monkeypatch)
    assert main(["compare", "--claude", str(fake_claude(tmp_path / "bin", "login")), *flags]) == 2
    assert "asks for a login" in capsys.readouterr().err


def test_no_private_namespace_refuses_unless_allowed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without `unshare` (as on a kernel that refuses it) nothing runs, unless --allow-network;
    then the output says the run was not sealed off."""
    flags = differing(tmp_path / "ws", monkeypatch)
    claude = fake_claude(tmp_path / "bin")
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert main(["compare", "--claude", str(claude), *flags]) == 2
    err = capsys.readouterr().err
    assert "cannot run Claude Code sealed off" in err and "--allow-network" in err
    assert main(["compare", "--allow-network", "--claude", str(claude), *flags]) == 1
    out = capsys.readouterr().out
    assert "NOT sealed off" in out and "note: NOT CONTAINED (--allow-network)" in out
