"""`compare_with_claude` runs the real, pinned Claude Code (.oracle, `make test` installs it) on
oracle workspaces: the diff is empty where skilldeck is right, names each difference where the
case is made to differ, and a tree hash and marker files prove that nothing ran or changed."""

from __future__ import annotations

import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest
from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from engine import ClaudeCode, CompareError, Comparison, ComparisonCache, Locations, compare_with_claude, find_claude
from engine.compare import theirs
from engine.compare.claude import DUMMY_KEY, child_environ
from engine.compare.rows import AGREE, listing_rows
from engine.compare.server import MAX_BODY, RecordingServer
from engine.runner.invoke import parse_typed
from tests.oracle.record_listing import placeholders
from tests.oracle.replay import case_locations
from tests.oracle.workspace import HERE, Places, build, load_cases

REPO = Path(__file__).resolve().parents[3]
CLAUDE = REPO / ".oracle" / "node_modules" / ".bin" / "claude"
VERSION = (HERE / "VERSION").read_text().strip()


@pytest.fixture(scope="module")
def claude() -> ClaudeCode:
    assert CLAUDE.exists(), "the pinned Claude Code is missing: `make test` installs it into .oracle/"
    found = find_claude(CLAUDE)
    assert found.version == VERSION
    return found


def tree_hash(root: Path) -> str:
    """Every name, kind, mode, size, modification time, content and link target under `root`."""
    digest = hashlib.sha256()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for name in sorted(dirs + files):
            path = Path(folder, name)
            st = path.lstat()
            digest.update(f"{path.relative_to(root)}|{st.st_mode}|{st.st_size}|{st.st_mtime_ns}\n".encode())
            if path.is_symlink():
                digest.update(os.readlink(path).encode())
            elif path.is_file():
                digest.update(path.read_bytes())
    return digest.hexdigest()


def workspace(kind: str, name: str, tmp: Path) -> tuple[dict[str, Any], Places, Locations]:
    case = load_cases(kind)[name]
    places = build(case, Path(os.path.realpath(tmp)))
    return case, places, case_locations(case, places)


def disagreeing(comparison: Comparison) -> list[tuple[str, str, str]]:
    return [(r.status, r.name, r.difference) for r in (*comparison.listing, *comparison.invocation) if r.status not in AGREE]


LISTING_CASES = [
    "basics",
    "labels",
    "load_clash",
    "plugin_installed",
    "listing_overrides",
    "plugin_manifest_fields",
    "fm_file_size",
]
# A recorded debug line that says something went wrong (the routine ones compare leaves out).
TROUBLE = re.compile(r"\binvalid\b|fail|skip|error|warn|duplicate|budget|limit", re.IGNORECASE)


@pytest.mark.parametrize("name", LISTING_CASES)
def test_listing_is_identical_and_nothing_changes(name: str, claude: ClaudeCode, tmp_path: Path) -> None:
    _, places, locations = workspace("listing", name, tmp_path)
    before = tree_hash(places.root)
    comparison = compare_with_claude(claude, locations)
    assert tree_hash(places.root) == before
    assert comparison.contained
    assert disagreeing(comparison) == []
    assert comparison.identical
    # What compare read as Claude Code's listing is what the oracle recorded for the case.
    recording = json.loads((HERE / "recordings" / "listing" / f"{name}.json").read_text())
    recorded = recording["listing"]
    assert [r.claude for r in comparison.listing if r.status != "claude-own"] == recorded[:1] + recorded[2:]
    # Every skip, failure or warning the oracle recorded is among what compare says was skipped (the
    # figures aside: Claude Code's bundled skills, off in the recording, count in a budget line;
    # and not the MCP lines: compare starts no MCP server, and says so).
    said = {re.sub(r"\d+", "N", placeholders(line, places)) for line in comparison.skipped}
    wanted = [re.sub(r"\d+", "N", line) for line in recording["skipped"] if TROUBLE.search(line) and "for MCP" not in line]
    assert [line for line in wanted if line not in said] == []
    assert comparison.own, "Claude Code's own skills are named apart"
    # The home and the project are behind overlays (here /tmp's, which holds both).
    assert all(any(p.is_relative_to(o) for o in comparison.overlaid) for p in (places.home, places.project))


OFF = {"CLAUDE_CODE_DISABLE_BUNDLED_SKILLS": "1"}


@pytest.mark.parametrize(
    ("name", "environ", "own"),
    [("budget_model_default", {}, 13), ("corpus_plugins", {}, 13), ("budget_model_default", OFF, 1), ("corpus_plugins", OFF, 1)],
)
def test_a_listing_over_budget_is_identical(
    name: str, environ: dict[str, str], own: int, claude: ClaudeCode, tmp_path: Path
) -> None:
    """Over budget, with Claude Code's bundled skills on (its own entries, `claude-api`'s newlines
    and all, put in skilldeck's listing where they stood: the prompt skills whole, init and
    security-review through the greedy step) and off (its one built-in plugin skill stays)."""
    case = load_cases("listing")[name]
    places = build(case, Path(os.path.realpath(tmp_path)))
    comparison = compare_with_claude(claude, case_locations(case, places, environ))
    assert any("over budget" in line for line in comparison.skipped)
    assert disagreeing(comparison) == []
    assert len(comparison.own) == own


INVOKE_CASES = ["typed_args", "typed_shell_readonly", "typed_fork", "typed_not_user_invocable", "typed_named_args"]


@pytest.mark.parametrize("name", INVOKE_CASES)
def test_typed_skill_is_identical(name: str, claude: ClaudeCode, tmp_path: Path) -> None:
    case, places, locations = workspace("invoke", name, tmp_path)
    typed_name, args = parse_typed(places.fill(case["prompt"]))
    before = tree_hash(places.root)
    comparison = compare_with_claude(claude, locations, typed_name, args)
    assert tree_hash(places.root) == before
    assert comparison.invocation, "the typed skill's blocks (or its refusal) are compared"
    assert disagreeing(comparison) == []


def test_each_difference_is_named(claude: ClaudeCode, tmp_path: Path) -> None:
    """The workspace changes between Claude Code's run and skilldeck's load (at the progress line
    that says the comparison starts): each change shows as the difference it is."""
    case = {
        "trusted": True,
        "files": {
            "{project}/.claude/skills/same/SKILL.md": "---\ndescription: Stays the same\n---\nbody\n",
            "{project}/.claude/skills/edited/SKILL.md": "---\ndescription: Before the edit\n---\nbody\n",
            "{project}/.claude/skills/removed/SKILL.md": "---\ndescription: Gone after\n---\nbody\n",
            "{project}/.claude/skills/deploy/SKILL.md": "---\ndescription: Deploy\n---\nDeploy to $0.\n",
        },
    }
    places = build(case, Path(os.path.realpath(tmp_path)))
    skills = places.project / ".claude" / "skills"
    said: list[str] = []

    def progress(text: str) -> None:
        said.append(text)
        if text.startswith("comparing"):
            (skills / "edited" / "SKILL.md").write_text("---\ndescription: After the edit\n---\nbody\n")
            (skills / "removed" / "SKILL.md").unlink()
            (skills / "removed").rmdir()
            (skills / "added").mkdir()
            (skills / "added" / "SKILL.md").write_text("---\ndescription: New after\n---\nbody\n")
            (skills / "deploy" / "SKILL.md").write_text("---\ndescription: Deploy\n---\nShip to $0.\n")

    comparison = compare_with_claude(claude, case_locations(case, places), "deploy", "prod", progress=progress)
    assert said[0].startswith("running Claude Code") and said[-1].startswith("comparing")
    rows = {r.name: r for r in comparison.listing}
    assert rows["same"].status == "identical"
    assert rows["edited"].status == "differs"
    assert rows["edited"].claude == "- edited: Before the edit" and rows["edited"].skilldeck == "- edited: After the edit"
    assert "from character 11" in rows["edited"].difference
    assert rows["removed"].status == "only-claude"
    assert rows["added"].status == "only-skilldeck"
    blocks = [(r.status, r.name) for r in comparison.invocation]
    assert blocks == [("identical", "block 1"), ("differs", "block 2")]
    assert "Deploy to prod." in (comparison.invocation[1].claude or "")
    assert "Ship to prod." in (comparison.invocation[1].skilldeck or "")
    assert not comparison.identical


def test_order_differences_are_named() -> None:
    theirs = [("a", "- a: x"), ("b", "- b: y"), ("c", "- c: z")]
    ours = [("b", "- b: y"), ("a", "- a: x"), ("c", "- c: z")]
    rows = listing_rows(theirs, ours, set())
    # Two entries changed places: one of them is out of order (either one; the rest is in order).
    moved = [r for r in rows if r.status == "differs"]
    assert len(moved) == 1 and moved[0].name in "ab" and moved[0].difference.startswith("order: entry ")
    assert [r.status for r in rows if r is not moved[0]] == ["identical", "identical"]


def test_an_entry_whose_text_holds_newlines_is_one_entry() -> None:
    """Claude Code's own `claude-api` text holds newlines (lines starting `TRIGGER`, `SKIP`): they
    continue its entry, the entries after it are still read, and the listing ends at a blank line."""
    sent = (
        "# Environment\n - Platform: linux\n\n"
        f"{theirs.HEADER}\n\n- a: one\n- claude-api: Reference.\nTRIGGER — read it.\nSKIP only when not.\n"
        "- b: two\n- c\n\nToday's date is 2026-11-26.\n- d: not an entry"
    )
    body = {"tools": [{}], "messages": [{"role": "user", "content": [{"type": "text", "text": sent}]}]}
    lines = theirs.listing_in([body])
    assert lines == [theirs.HEADER, "", "- a: one", "- claude-api: Reference.\nTRIGGER — read it.\nSKIP only when not.",
                     "- b: two", "- c"]  # fmt: skip
    assert theirs.entry_text(lines[3]) == "Reference.\nTRIGGER — read it.\nSKIP only when not."
    assert [theirs.entry_name(line) for line in lines[2:]] == ["a", "claude-api", "b", "c"]


HOOK = "touch {markers}/"


def _hook(marker: str) -> list[dict[str, Any]]:
    return [{"hooks": [{"type": "command", "command": HOOK + marker}]}]


# Each of these writes a marker file in {markers} when it runs: a folder in /dev/shm, which no
# overlay covers (the workspace is under /tmp, whose writes a comparison throws away).
HOOKED = {
    "trusted": True,
    "settings": {
        "user": {
            "hooks": {"SessionStart": _hook("session-start"), "UserPromptSubmit": _hook("prompt-submit")},
            # So that a plain run may run the skill's `touch` there (outside the project).
            "permissions": {"additionalDirectories": ["{markers}"]},
        },
        "project": {"enableAllProjectMcpServers": True},
    },
    "claude_json": {"mcpServers": {"usermcp": {"command": "sh", "args": ["-c", HOOK + "mcp-user; sleep 30"]}}},
    "files": {
        "{project}/.mcp.json": json.dumps(
            {"mcpServers": {"projmcp": {"command": "sh", "args": ["-c", HOOK + "mcp-project; sleep 30"]}}}
        ),
        "{outside}/plug/.claude-plugin/plugin.json": json.dumps({"name": "plug"}),
        "{outside}/plug/hooks/hooks.json": json.dumps({"hooks": {"SessionStart": _hook("plugin-hook")}}),
        "{outside}/plug/skills/pskill/SKILL.md": "---\ndescription: A plugin skill\n---\nplugin body\n",
        "{project}/.claude/skills/sh/SKILL.md": "---\ndescription: Runs a command\nallowed-tools: Bash(touch:*)\n---\nA: !`"
        + HOOK
        + "skill-shell`\n",
    },
    "args": ["--plugin-dir", "{outside}/plug"],
}


def hooked(markers: Path) -> dict[str, Any]:
    return cast(dict[str, Any], json.loads(json.dumps(HOOKED).replace("{markers}", str(markers))))


@pytest.fixture
def markers() -> Iterator[Path]:
    """A folder in /dev/shm for the markers, removed after the test."""
    folder = Path(tempfile.mkdtemp(prefix="skilldeck-markers-", dir="/dev/shm"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


MARKERS = {"session-start", "prompt-submit", "mcp-user", "mcp-project", "plugin-hook", "skill-shell"}


def test_a_plain_run_would_fire_every_marker(markers: Path, tmp_path: Path) -> None:
    """The hooked workspace is live: Claude Code run plainly (offline, no safe flags) writes
    every marker, so their absence below means something."""
    case = hooked(markers)
    places = build(case, Path(os.path.realpath(tmp_path)))
    env = {"PATH": os.environ["PATH"], "HOME": str(places.home), "ANTHROPIC_API_KEY": "dummy",
           "ANTHROPIC_BASE_URL": "http://127.0.0.1:9", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1"}  # fmt: skip
    argv = [
        "unshare",
        "-n",
        "-r",
        str(CLAUDE),
        "-p",
        "/sh",
        "--no-session-persistence",
        "--plugin-dir",
        str(places.outside / "plug"),
    ]
    proc = subprocess.Popen(argv, cwd=places.project, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            stdin=subprocess.DEVNULL, start_new_session=True)  # fmt: skip
    # Woken by the markers' inotify events, or by Claude Code's exit; no polling.
    done = threading.Event()

    class Written(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if set(os.listdir(markers)) == MARKERS:
                done.set()

    observer = Observer()
    observer.schedule(Written(), str(markers))
    observer.start()
    threading.Thread(target=lambda: (proc.wait(), done.set()), daemon=True).start()
    try:
        if set(os.listdir(markers)) != MARKERS:
            done.wait(60)
    finally:
        observer.stop()
        observer.join()
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    assert set(os.listdir(markers)) == MARKERS


def test_no_hook_mcp_server_plugin_hook_or_command_runs(claude: ClaudeCode, markers: Path, tmp_path: Path) -> None:
    case = hooked(markers)
    places = build(case, Path(os.path.realpath(tmp_path)))
    locations = case_locations(case, places)
    before = tree_hash(places.root)
    comparison = compare_with_claude(claude, locations, "sh")
    assert os.listdir(markers) == []
    assert tree_hash(places.root) == before
    assert disagreeing(comparison) == []
    assert {r.name for r in comparison.listing} >= {"sh", "plug:pskill"}
    assert "[shell command execution disabled by policy]" in (comparison.invocation[1].claude or "")
    notes = " ".join(comparison.notes)
    assert "no hook ran" in notes and "no MCP server started" in notes and "! commands did not run" in notes


def test_the_users_keys_never_reach_claude_code(claude: ClaudeCode, tmp_path: Path) -> None:
    """Keys and tokens in the environment and in a settings file's `env`: every request carries the
    dummy key (compare refuses a run where one did not)."""
    case = {"trusted": True, "settings": {"user": {"env": {"ANTHROPIC_API_KEY": "sk-ant-from-settings"}}},
            "files": {"{project}/.claude/skills/k/SKILL.md": "---\ndescription: k\n---\nk\n"}}  # fmt: skip
    places = build(case, Path(os.path.realpath(tmp_path)))
    secrets = {"ANTHROPIC_API_KEY": "sk-ant-user", "ANTHROPIC_AUTH_TOKEN": "tok-user", "CLAUDE_CODE_OAUTH_TOKEN": "oauth-user",
               "AWS_SECRET_ACCESS_KEY": "aws-user"}  # fmt: skip
    locations = case_locations(case, places, secrets)
    assert not set(secrets.values()) & set(child_environ(locations.environ, "http://127.0.0.1:1").values())
    assert child_environ(locations.environ, "http://127.0.0.1:1")["ANTHROPIC_API_KEY"] == DUMMY_KEY
    comparison = compare_with_claude(claude, locations)
    assert comparison.identical


def test_a_run_past_its_timeout_is_stopped(tmp_path: Path) -> None:
    fake = tmp_path / "claude"
    fake.write_text("#!/bin/sh\nexec sleep 120\n")
    fake.chmod(0o755)
    places = build({"trusted": True}, Path(os.path.realpath(tmp_path / "ws")))
    with pytest.raises(CompareError, match="did not finish within"):
        compare_with_claude(ClaudeCode(fake, VERSION), case_locations({}, places), timeout=4)


def test_the_cache_keeps_a_comparison_per_claude_code_folder_and_invocation(tmp_path: Path) -> None:
    cache = ComparisonCache()
    old, new = ClaudeCode(tmp_path / "claude", "2.1.0"), ClaudeCode(tmp_path / "claude", "2.1.1")
    here, there = Locations(project=tmp_path / "a"), Locations(project=tmp_path / "b")
    kept = Comparison(old, True, "m", [], [], [], [], 1.0)
    cache.put(cache.key(old, here), kept)
    assert cache.get(cache.key(old, here)) is kept
    assert cache.get(cache.key(new, here)) is None
    assert cache.get(cache.key(old, there)) is None
    assert cache.get(cache.key(old, here, "deploy", "prod")) is None
    cache.clear()
    assert cache.get(cache.key(old, here)) is None


def test_a_config_folder_on_another_file_system_is_overlaid_too(claude: ClaudeCode, markers: Path, tmp_path: Path) -> None:
    """The user tier in /dev/shm (another file system, outside /tmp): a second overlay, whose layers
    must be reached past the first one; its skill is compared and the folder does not change."""
    config = markers / "config"
    (config / "skills" / "far").mkdir(parents=True)
    (config / "skills" / "far" / "SKILL.md").write_text("---\ndescription: From afar\n---\nbody\n")
    places = build({"trusted": True}, Path(os.path.realpath(tmp_path)))
    locations = Locations(project=places.project, user_dir=config, managed_dir=places.root / "managed",
                          bundled=False, environ={"HOME": str(places.home), "PATH": os.environ["PATH"]})  # fmt: skip
    before = tree_hash(config), tree_hash(places.root)
    comparison = compare_with_claude(claude, locations)
    assert (tree_hash(config), tree_hash(places.root)) == before
    assert str(config) in comparison.overlaid
    assert [(r.status, r.claude) for r in comparison.listing if r.name == "far"] == [("identical", "- far: From afar")]


def test_the_recorder_bounds_what_it_reads_and_names_no_key() -> None:
    """A body past MAX_BODY is refused unread; a kept request notes only whether its key was the dummy."""
    with RecordingServer() as server:
        host, port = server.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        connection.putrequest("POST", "/v1/messages")
        connection.putheader("content-length", str(MAX_BODY + 1))
        connection.endheaders()
        assert connection.getresponse().status == 413
        connection.close()
        for key in (DUMMY_KEY, "sk-ant-someone-else"):
            connection = http.client.HTTPConnection(host, int(port), timeout=10)
            connection.request("POST", "/v1/messages", body=b'{"model": "m"}', headers={"x-api-key": key})
            assert json.loads(connection.getresponse().read())["content"][0]["text"] == "ok"
            connection.close()
    assert server.requests == [{"model": "m"}, {"model": "m"}]
    assert server.keys == {"dummy", "other"}
