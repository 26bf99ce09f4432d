"""What a comparison must not do, with fake `claude` binaries (no real Claude Code needed): write
to a plugin folder outside the other protected ones, probe `claude --version` / `--help` on the
host network or with the user's home writable, or take longer than its 60 s in all."""

from __future__ import annotations

import os
import shutil
import socket
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import ClaudeCode, CompareError, Locations, find_claude
from engine.compare import record as record_module
from engine.compare.claude import NEEDED_FLAGS, PROBE_TIMEOUT_S
from engine.compare.comparison import compare_with_claude
from engine.compare.record import record, writable_folders
from tests.engine.compare.test_compare import VERSION, tree_hash
from tests.oracle.workspace import build


@pytest.fixture
def shm() -> Iterator[Path]:
    """A folder in /dev/shm: another file system, outside the home, the project and /tmp (the
    folders every comparison puts behind overlays), removed after the test."""
    folder = Path(tempfile.mkdtemp(prefix="skilldeck-safety-", dir="/dev/shm"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def _script(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(0o755)
    return path


def test_plugin_and_add_dirs_and_the_managed_folder_are_protected(shm: Path, tmp_path: Path) -> None:
    plugin, added, managed = shm / "plugin", shm / "added", shm / "managed"
    locations = Locations(project=tmp_path / "project", user_dir=tmp_path / "home" / ".claude", managed_dir=managed,
                          add_dirs=(added,), plugin_dirs=(plugin,), environ={"HOME": str(tmp_path / "home")})  # fmt: skip
    assert {plugin, added, managed} <= set(writable_folders(locations))


# Writes into every --plugin-dir it is given, as a plugin's hook or Claude Code itself could.
WRITER = '#!/bin/sh\nwhile [ $# -gt 0 ]; do [ "$1" = --plugin-dir ] && echo x > "$2/written"; shift; done\nexit 0\n'


def test_a_write_in_a_plugin_dir_outside_every_other_protected_folder_is_thrown_away(shm: Path, tmp_path: Path) -> None:
    plugin = shm / "plug"
    (plugin / "skills" / "p").mkdir(parents=True)
    (plugin / "skills" / "p" / "SKILL.md").write_text("---\ndescription: p\n---\nbody\n")
    places = build({"trusted": True}, Path(os.path.realpath(tmp_path / "ws")))
    fake = _script(tmp_path / "bin" / "claude", WRITER)
    locations = Locations(project=places.project, user_dir=places.home / ".claude", managed_dir=places.root / "managed",
                          plugin_dirs=(plugin,), bundled=False, environ={"HOME": str(places.home), "PATH": "/usr/bin:/bin"})  # fmt: skip
    before = tree_hash(shm)
    recorded = record(ClaudeCode(fake, VERSION), locations, [("listing", "hi")], timeout=20)
    assert recorded.runs["listing"].exit == 0, recorded.runs["listing"].stderr
    assert not (plugin / "written").exists()
    assert tree_hash(shm) == before
    assert str(plugin) in recorded.overlaid


# A fake `claude` for the probes: it says whether it reached a port on the host's loopback and
# tries to leave a file in the user's real home, in a folder no overlay covers (ARGS: the port,
# the home, the folder).
PROBER = """#!{python}
import os, socket, sys
port, home, out = {args!r}
flag = sys.argv[1]
try:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    reached = "reached"
except OSError:
    reached = "refused"
with open(os.path.join(out, "net" + flag), "w") as f:
    f.write(reached)
with open(os.path.join(out, "home" + flag), "w") as f:
    f.write(os.environ.get("HOME", ""))
try:
    with open(os.path.join(home, "probe-marker" + flag), "w") as f:
        f.write("written")
except OSError:
    pass
print("{version} (Claude Code)" if flag == "--version" else " ".join({flags!r}))
"""


def test_the_probes_run_sealed_off(shm: Path, tmp_path: Path) -> None:
    home = Path(os.path.realpath(tmp_path / "home"))
    (home / ".claude").mkdir(parents=True)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(4)
        port = listener.getsockname()[1]
        text = PROBER.format(python=sys.executable, args=(port, str(home), str(shm)), version=VERSION, flags=NEEDED_FLAGS)
        fake = _script(tmp_path / "bin" / "claude", text)
        before = tree_hash(home)
        found = find_claude(environ={"PATH": str(fake.parent), "HOME": str(home)})
    assert found.version == VERSION
    for flag in ("--version", "--help"):
        assert (shm / f"net{flag}").read_text() == "refused", "the probe reached the host network"
        assert (shm / f"home{flag}").read_text() != str(home), "the probe had the user's home as HOME"
    assert tree_hash(home) == before, "the probe's write in the home was not thrown away"


def test_probes_and_recording_together_stay_within_60_s(tmp_path: Path) -> None:
    assert PROBE_TIMEOUT_S + record_module.TIMEOUT_S <= 60
    assert compare_with_claude.__kwdefaults__["timeout"] == record_module.TIMEOUT_S
    # The probes share one budget: each alone would fit in it, both together do not.
    slow = _script(
        tmp_path / "bin" / "claude", f'#!/bin/sh\nsleep 1.5\necho "{VERSION} (Claude Code)"\necho {" ".join(NEEDED_FLAGS)}\n'
    )
    started = time.monotonic()
    with pytest.raises(CompareError, match="did not finish within"):
        find_claude(slow, {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}, timeout=2.5)
    assert time.monotonic() - started < 4
