"""Editing settings files: atomic, order-keeping, refusing to touch what does not parse, and
safe when two processes write at once."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from engine import SettingsEditError, Workspace
from engine.permissions.settings_edit import SETTINGS_CAP, add_rule, remove_rule
from tests.conftest import Tree, run_as_nobody, write

ORIGINAL = {
    "model": "opus",
    "permissions": {"deny": ["Bash(rm *)"], "defaultMode": "default"},
    "env": {"A": "1"},
    "hooks": {"PreToolUse": []},
}


def test_new_file_is_created_with_two_spaces_and_a_final_newline(tree: Tree) -> None:
    workspace = Workspace(tree.locations())
    assert workspace.add_rule("Skill(deploy)", "allow") is True
    path = tree.project / ".claude" / "settings.local.json"
    assert path.read_text() == '{\n  "permissions": {\n    "allow": [\n      "Skill(deploy)"\n    ]\n  }\n}\n'
    assert workspace.add_rule("Skill(deploy)", "allow") is False, "no duplicates"


def test_other_keys_keep_their_values_and_order(tmp_path: Path) -> None:
    path = write(tmp_path / "settings.json", json.dumps(ORIGINAL, indent=4))
    path.chmod(0o640)
    assert add_rule(path, "Bash(git *)", "allow")
    data = json.loads(path.read_text())
    assert list(data) == list(ORIGINAL)
    assert list(data["permissions"]) == ["deny", "defaultMode", "allow"]
    assert data["permissions"]["allow"] == ["Bash(git *)"] and data["env"] == {"A": "1"}
    assert path.stat().st_mode & 0o777 == 0o640
    assert remove_rule(path, "Bash(rm *)") == ["deny"]
    assert json.loads(path.read_text())["permissions"]["deny"] == []
    assert remove_rule(path, "Bash(rm *)") == []


def test_a_corrupt_file_is_never_overwritten(tmp_path: Path) -> None:
    text = '{\n  "permissions": {"allow": ["Skill(a)",]},\n  "model": "opus"\n}\n'
    path = write(tmp_path / "settings.json", text)
    with pytest.raises(SettingsEditError, match=r"line 2, column 40"):
        add_rule(path, "Skill(b)", "allow")
    with pytest.raises(SettingsEditError):
        remove_rule(path, "Skill(a)")
    assert path.read_text() == text
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json"], "no lock or temporary file is left behind"


@pytest.mark.parametrize(("rule", "behavior"), [("Bash()", "allow"), ("not a rule!", "deny"), ("Skill(x)", "permit")])
def test_bad_rules_are_refused(tmp_path: Path, rule: str, behavior: str) -> None:
    path = write(tmp_path / "settings.json", "{}\n")
    with pytest.raises(SettingsEditError):
        add_rule(path, rule, behavior)
    assert path.read_text() == "{}\n"


WRITER = """
import sys
from pathlib import Path
sys.path.insert(0, {root!r})
from engine.permissions.settings_edit import add_rule
path, who = Path(sys.argv[1]), sys.argv[2]
for i in range(100):
    add_rule(path, f"Bash(job-{{who}}-{{i}} *)", "allow")
"""


def test_two_processes_adding_at_once_lose_nothing(tmp_path: Path) -> None:
    path = write(tmp_path / "settings.json", json.dumps(ORIGINAL, indent=2) + "\n")
    code = WRITER.format(root=str(Path(__file__).resolve().parents[3]))
    writers = [subprocess.Popen([sys.executable, "-c", code, str(path), who]) for who in ("a", "b")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    data = json.loads(path.read_text())
    allow = data["permissions"]["allow"]
    assert len(allow) == 200 and len(set(allow)) == 200
    assert {k: v for k, v in data.items() if k != "permissions"} == {k: v for k, v in ORIGINAL.items() if k != "permissions"}
    assert data["permissions"]["deny"] == ["Bash(rm *)"]


# An editor that truncates then writes ------------------------------------------------------
EDITOR = """
import ctypes, os, sys
path, content = sys.argv[1], sys.argv[2].encode()
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(path, os.O_WRONLY)
watch = libc.inotify_init1(0)
assert watch >= 0 and libc.inotify_add_watch(watch, path.encode(), 0x10) >= 0  # IN_CLOSE_NOWRITE
os.ftruncate(fd, 0)
print("truncated", flush=True)
os.read(watch, 4096)  # until someone has read the empty file and closed it
os.write(fd, content)
os.close(fd)
"""


def test_an_editor_between_its_truncate_and_its_write_loses_nothing(tmp_path: Path) -> None:
    """The editor truncates, skilldeck reads the empty file, then the editor writes: skilldeck
    used to take the empty file as {} and rename `{"permissions": ...}` over the editor's work."""
    content = json.dumps(ORIGINAL, indent=2) + "\n"
    path = write(tmp_path / "settings.json", content)
    editor = subprocess.Popen([sys.executable, "-c", EDITOR, str(path), content], stdout=subprocess.PIPE, text=True)
    try:
        assert editor.stdout is not None and editor.stdout.readline() == "truncated\n"
        assert add_rule(path, "Bash(make *)", "allow") is True
        assert editor.wait(timeout=30) == 0
    finally:
        editor.kill()
    data = json.loads(path.read_text())
    assert data["env"] == {"A": "1"} and data["model"] == "opus" and data["hooks"] == {"PreToolUse": []}
    assert data["permissions"] == {"deny": ["Bash(rm *)"], "defaultMode": "default", "allow": ["Bash(make *)"]}


LOOPING_EDITOR = """
import os, sys
path, stop, content = sys.argv[1], sys.argv[2], sys.argv[3]
half = len(content) // 2
while not os.path.exists(stop):
    with open(path, "w") as fh:
        fh.write(content[:half])
        fh.flush()
        fh.write(content[half:])
"""


def test_a_program_rewriting_the_file_in_a_loop_never_loses_a_key(tmp_path: Path) -> None:
    content = json.dumps(ORIGINAL, indent=2) + "\n"
    path = write(tmp_path / "settings.json", content)
    stop = tmp_path / "stop"
    editor = subprocess.Popen([sys.executable, "-c", LOOPING_EDITOR, str(path), str(stop), content])
    written = refused = 0
    try:
        for i in range(40):  # each edit may wait up to 0.5 s on an empty file: the loop stays short
            try:
                add_rule(path, f"Bash(job-{i} *)", "allow")
                written += 1
            except SettingsEditError as exc:
                assert "settings.json" in str(exc)
                refused += 1
            try:
                seen = json.loads(path.read_text())
            except json.JSONDecodeError:
                continue  # the editor is between its truncate and its write
            assert {k: seen[k] for k in ("model", "env", "hooks")} == {k: ORIGINAL[k] for k in ("model", "env", "hooks")}
            assert seen["permissions"]["deny"] == ["Bash(rm *)"]
    finally:
        stop.touch()
        assert editor.wait(timeout=30) == 0
    assert written, f"every edit was refused ({refused})"
    assert add_rule(path, "Bash(last *)", "allow")
    data = json.loads(path.read_text())
    assert data["env"] == {"A": "1"} and "Bash(last *)" in data["permissions"]["allow"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json", "stop"]


# Exact round trips -------------------------------------------------------------------------
ROUND_TRIP = (
    "{\n"
    '  "a": 1.10,\n'
    '  "big": 1e999,\n'
    '  "int": 12345678901234567890123,\n'
    '  "negative zero": -0,\n'
    '  "exp": 2.5E-3,\n'
    f'  "digits": {"9" * 5000},\n'
    '  "list": [\n    0.0,\n    -1e+2,\n    100\n  ],\n'
    '  "env": {\n    "A": "1",\n    "A": "2"\n  },\n'
    '  "text": "caf\u00e9 \\ud800 \\"q\\" \\u0000"\n'
    "}\n"
)


def test_numbers_and_duplicate_keys_round_trip_exactly(tmp_path: Path) -> None:
    path = write(tmp_path / "settings.json", ROUND_TRIP)
    assert add_rule(path, "Skill(x)", "allow")
    text = path.read_text()
    assert text == ROUND_TRIP[:-3] + ',\n  "permissions": {\n    "allow": [\n      "Skill(x)"\n    ]\n  }\n}\n'
    assert remove_rule(path, "Skill(x)") == ["allow"]
    assert path.read_text() == ROUND_TRIP[:-3] + ',\n  "permissions": {\n    "allow": []\n  }\n}\n'


# Links -------------------------------------------------------------------------------------
def test_a_symlinked_file_is_edited_at_its_target(tmp_path: Path) -> None:
    real = write(tmp_path / "dotfiles" / "settings.json", json.dumps(ORIGINAL, indent=2) + "\n")
    real.chmod(0o640)
    link = tmp_path / "project" / ".claude" / "settings.json"
    link.parent.mkdir(parents=True)
    link.symlink_to(Path("..") / ".." / "dotfiles" / "settings.json")
    assert add_rule(link, "Skill(x)", "allow")
    assert link.is_symlink() and str(link.readlink()) == "../../dotfiles/settings.json"
    data = json.loads(real.read_text())
    assert data["permissions"]["allow"] == ["Skill(x)"] and data["env"] == {"A": "1"}
    assert real.stat().st_mode & 0o777 == 0o640
    assert remove_rule(link, "Skill(x)") == ["allow"] and link.is_symlink()
    assert [p.name for p in real.parent.iterdir()] == ["settings.json"]
    assert [p.name for p in link.parent.iterdir()] == ["settings.json"]


def test_a_hard_linked_file_is_refused_and_both_names_keep_it(tmp_path: Path) -> None:
    real = write(tmp_path / "a" / "settings.json", json.dumps(ORIGINAL) + "\n")
    other = tmp_path / "b.json"
    other.hardlink_to(real)
    with pytest.raises(SettingsEditError, match=r"settings\.json has 2 hard links.*symlinks"):
        add_rule(real, "Skill(x)", "allow")
    assert real.stat().st_nlink == 2 and real.stat().st_ino == other.stat().st_ino
    assert real.read_text() == json.dumps(ORIGINAL) + "\n"
    assert [p.name for p in real.parent.iterdir()] == ["settings.json"]


# Refusals ----------------------------------------------------------------------------------
def _within(seconds: float, work: Callable[[], Any]) -> Any:
    """`work()` in a thread: a FIFO used to block the edit for ever, and the test must fail, not hang."""
    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = work()
        except BaseException as exc:
            result["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if "error" in result:
        raise result["error"]
    return result["value"]


def _state(folder: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for p in folder.iterdir():
        st = p.lstat()
        if p.is_symlink():
            out[p.name] = ("link", os.readlink(p))
        elif stat.S_ISREG(st.st_mode):
            out[p.name] = ("file", p.read_bytes(), st.st_ino)
        else:
            out[p.name] = (stat.S_IFMT(st.st_mode), st.st_ino)
    return out


def _fifo(path: Path) -> None:
    os.mkfifo(path)


HOSTILE: dict[str, Callable[[Path], object]] = {
    "a FIFO": _fifo,
    "a folder": lambda p: p.mkdir(),
    "over the size cap": lambda p: p.write_text('{"a": "' + "x" * SETTINGS_CAP + '"}'),
    "not UTF-8": lambda p: p.write_bytes(b'{"a": "\xff"}'),
    "nested 5,000 deep": lambda p: p.write_text('{"a": ' + "[" * 5000 + "]" * 5000 + "}"),
    "NaN": lambda p: p.write_text('{"a": NaN}'),
    "-Infinity": lambda p: p.write_text('{"permissions": {"allow": []}, "a": [-Infinity]}'),
    "permissions twice": lambda p: p.write_text('{"permissions": {"deny": ["Bash"]}, "permissions": {"allow": ["Skill(x)"]}}'),
    "allow twice": lambda p: p.write_text('{"permissions": {"allow": ["Skill(x)"], "allow": ["Skill(y)"]}}'),
    "empty": lambda p: p.write_text(""),
    "only whitespace": lambda p: p.write_text(" \n"),
    "a dangling symlink": lambda p: p.symlink_to(p.parent / "nowhere.json"),
    "a symlink loop": lambda p: (p.symlink_to(p.parent / "loop.json"), (p.parent / "loop.json").symlink_to(p)),
}


@pytest.mark.parametrize("case", list(HOSTILE))
@pytest.mark.parametrize("edit", ["add", "remove"])
def test_hostile_files_are_refused_with_a_message_and_left_alone(tmp_path: Path, case: str, edit: str) -> None:
    path = tmp_path / "settings.local.json"
    HOSTILE[case](path)
    before = _state(tmp_path)
    if edit == "add":
        work: Callable[[], Any] = partial(add_rule, path, "Skill(x)", "allow")
    else:
        work = partial(remove_rule, path, "Skill(x)")
    with pytest.raises(SettingsEditError) as refused:
        _within(10, work)
    message = str(refused.value)
    assert "settings.local.json" in message or "loop.json" in message or "nowhere.json" in message, message
    assert "nothing was written" in message or "left untouched" in message, message
    assert _state(tmp_path) == before


def test_legacy_lock_files_are_cleared_and_no_new_ones_made(tmp_path: Path) -> None:
    path = write(tmp_path / "settings.json", "{}\n")
    write(tmp_path / "settings.json.lock", "")
    assert add_rule(path, "Skill(x)", "allow")
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


def test_files_and_folders_we_may_not_write_are_refused_with_a_message() -> None:
    base = Path(tempfile.mkdtemp(prefix="skilldeck-settings-"))
    try:
        base.chmod(0o755)
        roots = write(base / "root" / "settings.json", '{"env": {}}\n')  # root's file in root's folder
        roots.parent.chmod(0o755)
        roots.chmod(0o644)
        mine = write(base / "ro" / "settings.json", '{"env": {}}\n')  # nobody's file in a read-only folder
        os.chown(mine, 65534, 65534)
        mine.parent.chmod(0o555)
        hidden = base / "hidden" / "settings.json"  # a folder nobody may enter
        hidden.parent.mkdir()
        hidden.parent.chmod(0o700)

        def edit() -> dict[str, Any]:
            out = {}
            for name, path in (("root", roots), ("ro", mine), ("hidden", hidden)):
                try:
                    add_rule(path, "Skill(x)", "allow")
                    out[name] = "written"
                except Exception as exc:
                    out[name] = [type(exc).__name__, str(exc)]
            return out

        result = run_as_nobody(edit)
        assert "error" not in result, result
        for name in ("root", "ro", "hidden"):
            kind, message = result[name]
            assert kind == "SettingsEditError" and "settings.json" in message, result
        assert "read-only" in result["root"][1] and "make the folder writable" in result["ro"][1]
        assert roots.read_text() == mine.read_text() == '{"env": {}}\n'
        assert sorted(p.name for p in mine.parent.iterdir()) == ["settings.json"]
    finally:
        for folder in (base / "ro", base / "hidden"):
            folder.chmod(0o755)
        shutil.rmtree(base)


def test_a_projects_settings_link_out_of_the_project_is_never_edited(tmp_path: Path) -> None:
    """A cloned repository's `.claude/settings.local.json -> ~/.config/other/config.json`: "allow
    always" must not write `permissions` into another program's file."""
    from engine import Locations, SettingsEditError, Workspace

    project = tmp_path / "repo"
    (project / ".claude").mkdir(parents=True)
    other = tmp_path / "home" / ".config" / "other" / "config.json"
    other.parent.mkdir(parents=True)
    other.write_text('{"theme": "dark"}\n')
    (project / ".claude" / "settings.local.json").symlink_to(other)
    workspace = Workspace(Locations(project, user_dir=tmp_path / "user", managed_dir=tmp_path / "m", bundled=False, environ={}))
    with pytest.raises(SettingsEditError, match="outside the project"):
        workspace.add_rule("Bash(ls *)", "allow", "local")
    assert other.read_text() == '{"theme": "dark"}\n'
    # The same through a linked .claude folder.
    (project / ".claude" / "settings.local.json").unlink()
    (project / ".claude").rmdir()
    (project / ".claude").symlink_to(other.parent)
    with pytest.raises(SettingsEditError, match="outside the project"):
        workspace.add_rule("Bash(ls *)", "allow", "project")
    assert sorted(p.name for p in other.parent.iterdir()) == ["config.json"]


# An editor killed (SIGKILL) after its temporary file is written and before the rename: its fsync never returns.
KILLED_MID_WRITE = """
import os, sys, threading
from pathlib import Path
from engine.permissions.settings_edit import add_rule
real = os.fsync
def stuck(fd):
    if os.path.basename(os.readlink(f"/proc/self/fd/{fd}")).endswith(".tmp"):
        print("writing", flush=True)
        threading.Event().wait()
    real(fd)
os.fsync = stuck
add_rule(Path(sys.argv[1]), "Skill(killed)", "allow")
"""


def test_a_temporary_file_left_by_a_killed_edit_is_removed_by_the_next_and_nothing_else(tmp_path: Path) -> None:
    """kill -9 of an edit leaves its `.settings.local.json.XXXXXXXX.tmp` (16 in 40 runs were left
    for ever): the next edit of that folder removes it once it is old enough that no live edit can
    own it, and never a file that is not one of ours."""
    path = write(tmp_path / "settings.local.json", '{"permissions": {"allow": ["Skill(a)"]}}\n')
    editor = subprocess.Popen(
        [sys.executable, "-c", KILLED_MID_WRITE, str(path)], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parents[3]
    )
    try:
        assert editor.stdout is not None and editor.stdout.readline() == "writing\n"
    finally:
        editor.kill()
        editor.wait()
    [left] = [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert left.name.startswith(".settings.local.json.")
    old = 1_000_000_000
    os.utime(left, (old, old))
    # Not ours, or not old: kept.
    theirs = [
        write(tmp_path / ".settings.local.json.backup.tmp", "a user's own"),
        write(tmp_path / ".settings.local.json.abcd1234.tmp.keep", "a user's own"),
        write(tmp_path / "settings.local.json.abcd1234.tmp", "a user's own"),
        write(tmp_path / ".settings.local.json.folder12.tmp" / "x", "in a folder named as ours"),
    ]
    young = write(tmp_path / ".settings.local.json.young123.tmp", "{}")
    linked = tmp_path / ".settings.local.json.linked12.tmp"
    linked.symlink_to(theirs[0])
    os.utime(linked, (old, old), follow_symlinks=False)
    for p in theirs:
        os.utime(p, (old, old))
    os.utime(theirs[-1].parent, (old, old))
    assert add_rule(path, "Skill(b)", "allow")
    assert not left.exists()
    assert all(p.exists() for p in [*theirs, young]) and linked.is_symlink()
    assert json.loads(path.read_text())["permissions"]["allow"] == ["Skill(a)", "Skill(b)"]
