"""The `skilldeck` CLI, in-process for speed and once through the installed command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import Tree, skill_text, write
from tui.cli.main import main


def _args(tree: Tree, *extra: str) -> list[str]:
    return [
        *extra,
        "--project",
        str(tree.project),
        "--user-dir",
        str(tree.user),
        "--managed-dir",
        str(tree.managed),
        "--no-bundled",
    ]


def _json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict]:
    code = main(argv)
    return code, json.loads(capsys.readouterr().out)


def test_list_json_shape(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    tree.skill("x", skill_text(name="x", description="project x"))
    tree.skill("x", skill_text(name="x", description="user x"), tier="user")
    tree.skill("broken", '---\ndescription: "open\n---\nbody\n')
    code, out = _json(capsys, _args(tree, "list", "--json"))
    assert code == 0
    assert {"skills", "shadowed", "diagnostics"} <= set(out)
    required = {"name", "display_name", "description", "description_source", "source", "loaded_from", "path", "base_dir",
                "user_invocable", "model_invocable", "context", "agent", "model", "allowed_tools", "argument_hint", "when_to_use"}  # fmt: skip
    assert all(required <= set(s) for s in out["skills"])
    assert [s["name"] for s in out["skills"]] == ["x", "broken"]
    assert out["shadowed"][0]["shadowed_by"]["source"] == "user"
    diag = next(d for d in out["diagnostics"] if d["code"] == "yaml-invalid")
    assert set(diag) >= {"severity", "code", "path", "line", "column", "message", "hint", "skill"}
    assert diag["skill"] == "broken"


def test_location_flags_before_the_subcommand(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    tree.skill("x", skill_text(name="x", description="d"))
    code, out = _json(capsys, [*_args(tree), "list", "--json"])
    assert code == 0 and [s["name"] for s in out["skills"]] == ["x"]


def test_show(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    tree.skill("x", skill_text(body="Body here.\n", name="x", description="d"))
    tree.skill("x", skill_text(name="x", description="user"), tier="user")
    code, out = _json(capsys, _args(tree, "show", "/x", "--json"))
    assert code == 0 and out["source"] == "user" and out["shadows"][0]["source"] == "project"
    assert main(_args(tree, "show", "x")) == 0
    text = capsys.readouterr().out
    assert "/x" in text and "shadows" in text
    assert main(_args(tree, "show", "xy")) == 1
    assert "did you mean x" in capsys.readouterr().err


def test_validate_exit_codes(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    good = tree.skill("good", skill_text(name="good", description="Good."))
    assert main(_args(tree, "validate", str(good.parent))) == 0
    warn = tree.skill("warn", skill_text(name="warn", description="Warn.", allowed_tools="Read"))
    assert main(_args(tree, "validate", str(warn))) == 0
    assert main(_args(tree, "validate", str(warn), "--strict")) == 1
    spec = tree.skill("spec", skill_text(name="spec", description="Spec.", model="opus"))
    assert main(_args(tree, "validate", str(spec.parent))) == 0
    assert main(_args(tree, "validate", str(spec.parent), "--strict")) == 1
    tree.skill("bad", '---\ndescription: "open\n---\n')
    capsys.readouterr()
    code, out = _json(capsys, _args(tree, "validate", str(tree.skills()), "--json"))
    assert code == 1 and out["ok"] is False
    assert {d["code"] for d in out["diagnostics"] if d["fails"]} == {"yaml-invalid"}
    assert main(_args(tree, "validate")) == 1
    assert "FAIL" in capsys.readouterr().out


def test_listing_prints_exact_text_and_summary_to_stderr(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    tree.skill("a", skill_text(description="x" * 50))
    tree.skill("b", skill_text(description="y" * 50))
    assert main(_args(tree, "listing", "--budget", "70")) == 0
    captured = capsys.readouterr()
    assert captured.out.splitlines()[1:] == ["", "- a: " + "x" * 50, "- b"]
    assert "1 description dropped" in captured.err
    assert "Claude Code adds its own skills" in captured.err
    code, out = _json(capsys, _args(tree, "listing", "--budget", "70", "--json"))
    assert code == 0 and out["over_budget"] is True and out["budget"] == {"chars": 70, "source": "--budget"}
    assert [(e["name"], e["description_dropped"]) for e in out["entries"]] == [("a", False), ("b", True)]


def test_demo_workspace(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--demo", "list", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    names = {s["name"] for s in out["skills"]}
    assert {
        "deploy",
        "research",
        "api-conventions",
        "shared-lint",
        "demo-tools:format-check",
        "git:commit",
        "skill-author",
    } <= names
    assert [s["name"] for s in out["shadowed"]] == ["security-review"]
    errors = {d["code"] for d in out["diagnostics"] if d["severity"] == "error"}
    assert errors == {"yaml-invalid", "skill-file-lowercase"}
    kinds = {s["source"] for s in out["skills"]}
    assert kinds == {"managed", "user", "project", "add-dir", "plugin", "commands", "bundled"}


def test_the_app_without_a_terminal_says_so_and_exits(tmp_path: Path) -> None:
    """From a pipe or /dev/null Textual's key reader would spin a core at the end of stdin."""
    exe = shutil.which("skilldeck", path=str(Path(sys.executable).parent))
    assert exe
    done = subprocess.run(
        [exe, "--project", str(tmp_path), "--user-dir", str(tmp_path / "u"), "--no-bundled"],
        capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    assert done.returncode == 2
    assert "needs a terminal" in done.stderr and "skilldeck list" in done.stderr


def test_installed_command_runs(tmp_path: Path) -> None:
    exe = shutil.which("skilldeck", path=str(Path(sys.executable).parent))
    assert exe, "the skilldeck console script is installed next to the interpreter"
    write(tmp_path / "p" / ".claude" / "skills" / "hello" / "SKILL.md", skill_text(name="hello", description="Hi."))
    result = subprocess.run(
        [exe, "list", "--json", "--project", str(tmp_path / "p"), "--user-dir", str(tmp_path / "u"), "--no-bundled"],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert [s["name"] for s in json.loads(result.stdout)["skills"]] == ["hello"]
    assert result.stderr == ""


def test_watch_json_prints_one_line_per_change(tmp_path: Path) -> None:
    import selectors
    import signal

    exe = Path(sys.executable).parent / "skilldeck"
    project = tmp_path / "p"
    (project / ".git").mkdir(parents=True)
    proc = subprocess.Popen(
        [str(exe), "watch", "--json", "--project", str(project), "--user-dir", str(tmp_path / "u"), "--no-bundled"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        # ctrl+c as a terminal gives it: a suite started in the background of a shell without job
        # control (nohup ... &) has SIGINT ignored, and an ignored signal stays ignored in every
        # child, so the command never saw it (it is right to respect that: so does any program).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        assert proc.stderr is not None and proc.stdout is not None
        assert "watching 0 skills" in proc.stderr.readline()
        write(project / ".claude" / "skills" / "hello" / "SKILL.md", skill_text(name="hello", description="Hi."))
        selector = selectors.DefaultSelector()
        selector.register(proc.stdout, selectors.EVENT_READ)
        assert selector.select(timeout=10), "no change reported within 10 s"
        change = json.loads(proc.stdout.readline())
        assert change["added"] == ["hello"] and change["removed"] == [] and change["changed"] == {}
        keys = {"added", "removed", "changed", "diagnostics_added", "diagnostics_cleared", "settings", "elapsed_ms"}
        assert set(change) == keys
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()


def test_rules_check_allow_unrule(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(_args(tree, "deny", "Bash(rm *)")) == 0
    assert main(_args(tree, "allow", "Bash(git *)", "--scope", "project")) == 0
    capsys.readouterr()
    code, out = _json(capsys, _args(tree, "check", "Bash(git status && rm -rf /)", "--json"))
    assert code == 2 and out["decision"] == "deny" and out["rule"] == "Bash(rm *)"
    assert out["file"] == str(tree.project / ".claude" / "settings.local.json")
    assert set(out) >= {"decision", "rule", "file", "reason"}
    code, out = _json(capsys, _args(tree, "check", "Skill(deploy)", "--json"))
    assert (code, out["decision"], out["rule"]) == (1, "ask", None)
    code, out = _json(capsys, _args(tree, "rules", "--json"))
    assert [(r["rule"], r["behavior"], r["scope"]) for r in out["rules"]] == [
        ("Bash(rm *)", "deny", "local"),
        ("Bash(git *)", "allow", "project"),
    ]
    assert main(_args(tree, "unrule", "Bash(rm *)")) == 0
    assert main(_args(tree, "unrule", "Bash(rm *)")) == 1
    assert main(_args(tree, "allow", "Bash()")) == 2, "a usage error, as in check"
    assert "'Bash()' is not a rule" in capsys.readouterr().err
    write(tree.project / ".claude" / "settings.json", "{ broken")
    assert main(_args(tree, "allow", "Skill(x)", "--scope", "project")) == 1
    assert (tree.project / ".claude" / "settings.json").read_text() == "{ broken"


def test_prompt_prints_what_would_be_sent(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    tree.skill("fix", skill_text(body="Fix $0 ($1) in ${CLAUDE_PROJECT_DIR}.\n", name="fix", description="d"))
    code, out = _json(capsys, _args(tree, "prompt", "fix", "7", "two words", "--json"))
    assert code == 0 and out["context"] == "inline" and out["args"] == "7 'two words'"
    assert [(m["visible"], m["kind"]) for m in out["messages"]] == [(True, "command"), (False, "skill")]
    assert out["messages"][1]["text"].endswith(f"Fix 7 (two words) in {tree.project}.\n")
    code, out = _json(capsys, _args(tree, "prompt", "fix", '8 "as typed"', "--fork", "--json"))
    assert out["context"] == "fork" and out["messages"][0]["text"].endswith(f"Fix 8 (as typed) in {tree.project}.\n")
    assert main(_args(tree, "prompt", "fix", "x")) == 0
    assert "meta (sent, not shown)" in capsys.readouterr().out
    assert main(_args(tree, "prompt", "nope")) == 1
    assert "Unknown skill: nope" in capsys.readouterr().err


def test_run_streams_json_events_against_a_local_server(tree: Tree, tmp_path: Path) -> None:
    from tests.llm_server import MessagesServer, Reply

    tree.skill("hello", skill_text(body="Say hi to $ARGUMENTS.\n", name="hello", description="Greets."))
    exe = Path(sys.executable).parent / "skilldeck"
    with MessagesServer() as server:
        server.script(Reply(tool_uses=[{"id": "t", "name": "Bash", "input": {"command": "echo hi"}}]), Reply(text="Hi, world!"))
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(tmp_path),
            "ANTHROPIC_BASE_URL": server.url,
            "ANTHROPIC_API_KEY": "k",
            "XDG_STATE_HOME": str(tmp_path / "state"),
        }
        done = subprocess.run(
            [str(exe), "run", "hello", "world", "--json", "--allow", "Bash(echo *)",
             "--project", str(tree.project), "--user-dir", str(tree.user), "--managed-dir", str(tree.managed), "--no-bundled"],
            env=env, capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        events = [json.loads(line) for line in done.stdout.splitlines()]
        kinds = [e["type"] for e in events]
        # First the skill being made ready (its `!` commands would run here), then its two messages.
        assert events[0] == {"type": "preparing", "skill": "hello", "args": "world"}
        assert kinds[1:3] == ["message", "message"] and [e["meta"] for e in events[1:3]] == [False, True]
        call = next(e for e in events if e["type"] == "tool_call")
        assert (call["decision"], call["reason"]) == ("allow", "allowed by Bash(echo *)")
        assert "".join(e["text"] for e in events if e["type"] == "text") == "Hi, world!"
        assert server.requests[1]["messages"][-1]["content"][0]["content"] == "hi"


def test_demo_passes_on_only_the_run_environment_and_base_url_comes_first(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.llm_server import MessagesServer, Reply

    monkeypatch.setenv("ANTHROPIC_API_KEY", "k")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    # The user's own Claude Code folder must not leak into the demo.
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "mine"))
    write(tmp_path / "mine" / "skills" / "private" / "SKILL.md", skill_text(name="private", description="Mine."))
    with MessagesServer() as server:
        server.script(Reply(text="Notes ready."))
        assert main(["--demo", "--base-url", server.url, "run", "release-notes", "--json"]) == 0
        events = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert "".join(e["text"] for e in events if e["type"] == "text") == "Notes ready."
        assert server.headers[0]["authorization"] == "Bearer k", "this SDK sends the key as a bearer token"
        listing = server.requests[0]["messages"][1]
        assert listing["role"] == "system" and "- release-notes" in listing["content"][0]["text"]
        assert "private" not in json.dumps(server.requests[0]), "the user's own skills stay out of the demo"
        assert main(["--demo", "run", "release-notes", "--backend", "offline", "--json"]) == 0
        assert "Offline backend: nothing was sent" in capsys.readouterr().out
        assert len(server.requests) == 1
    assert list((tmp_path / "state" / "skilldeck" / "sessions").glob("*.jsonl")), "sessions go to XDG_STATE_HOME"


def test_show_survives_a_body_that_became_a_fifo_after_the_load(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    """`show` reads the body again after the load: by then the file may be a FIFO."""
    import os

    from tui.cli import render

    path = tree.skill("deploy", description="Deploy.")
    catalog = tree.load()
    path.unlink()
    os.mkfifo(path)
    render.skill_detail(catalog.skills["deploy"], catalog, None)
    assert "cannot read the body" in capsys.readouterr().out


def test_trust_says_and_records_it(tree: Tree) -> None:
    """A cloned project: `rules` says its allow rules are ignored, `trust --yes` trusts it."""
    exe = Path(sys.executable).with_name("skilldeck")
    tree.distrust()
    write(tree.project / ".claude" / "settings.json", json.dumps({"permissions": {"allow": ["Bash(make *)"]}}))
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tree.root), "XDG_STATE_HOME": str(tree.root / "state")}
    flags = ["--project", str(tree.project), "--user-dir", str(tree.user), "--managed-dir", str(tree.managed)]

    def skilldeck(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(exe), *argv, *flags], env=env, capture_output=True, text=True, timeout=60)

    assert json.loads(skilldeck("check", "Bash(make test)", "--json").stdout)["decision"] == "ask"
    rules = skilldeck("rules")
    assert "ignored" in rules.stdout and "not trusted" in rules.stdout
    assert skilldeck("trust").returncode == 1
    done = skilldeck("trust", "--yes", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["trusted"], done.stderr
    assert json.loads(skilldeck("check", "Bash(make test)", "--json").stdout)["decision"] == "allow"
    assert not tree.trust_file.exists(), "Claude Code's own file is never written"


def test_held_back_skills_are_shown_as_such(tree: Tree, capsys: pytest.CaptureFixture[str]) -> None:
    tree.skill("later", skill_text(description="Docs only.", paths="docs/**"))
    tree.skill("now", skill_text(description="Now."))
    code, out = _json(capsys, _args(tree, "list", "--json"))
    assert code == 0
    assert [s["name"] for s in out["skills"]] == ["now"]
    assert [(s["name"], s["activation"]) for s in out["deferred"]] == [("later", "paths")]
    assert main(_args(tree, "list")) == 0
    assert "held back (paths)" in capsys.readouterr().out
    code, out = _json(capsys, _args(tree, "listing", "--json"))
    assert out["left_out"]["later"].startswith("a paths: skill")
