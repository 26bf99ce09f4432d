"""Editing settings files: atomic, order-keeping, refusing to touch what does not parse, and
safe when two processes write at once."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine import SettingsEditError, Workspace
from engine.settings_edit import add_rule, remove_rule
from tests.conftest import Tree, write

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
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings.json", "settings.json.lock"]


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
from engine.settings_edit import add_rule
path, who = Path(sys.argv[1]), sys.argv[2]
for i in range(100):
    add_rule(path, f"Bash(job-{{who}}-{{i}} *)", "allow")
"""


def test_two_processes_adding_at_once_lose_nothing(tmp_path: Path) -> None:
    path = write(tmp_path / "settings.json", json.dumps(ORIGINAL, indent=2) + "\n")
    code = WRITER.format(root=str(Path(__file__).resolve().parents[2]))
    writers = [subprocess.Popen([sys.executable, "-c", code, str(path), who]) for who in ("a", "b")]
    assert [w.wait(timeout=120) for w in writers] == [0, 0]
    data = json.loads(path.read_text())
    allow = data["permissions"]["allow"]
    assert len(allow) == 200 and len(set(allow)) == 200
    assert {k: v for k, v in data.items() if k != "permissions"} == {k: v for k, v in ORIGINAL.items() if k != "permissions"}
    assert data["permissions"]["deny"] == ["Bash(rm *)"]
