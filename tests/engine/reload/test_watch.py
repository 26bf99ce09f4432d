"""Hot reload with real files and real inotify events: nothing here sleeps, it waits on the
watcher's callbacks (a condition variable) with a timeout."""

from __future__ import annotations

import os
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import engine.catalog.assembly as catalog_module
from engine import Catalog, CatalogDiff, WatchHandle, Workspace
from tests.conftest import Tree, make_chain, remove_chain, run_as_nobody, skill_text, write

# A frontmatter cut off mid-quote, as a half-written save leaves it.
HALF = '---\nname: a\ndescription: "half\n---\n'


class Recorder:
    """Collects the watcher's callbacks and lets a test wait for one that satisfies it."""

    def __init__(self) -> None:
        self.changes: list[CatalogDiff] = []
        self.catalog: Catalog | None = None
        self._cond = threading.Condition()

    def __call__(self, catalog: Catalog, change: CatalogDiff) -> None:
        with self._cond:
            self.catalog = catalog
            self.changes.append(change)
            self._cond.notify_all()

    def wait(self, predicate: Callable[[Catalog], bool], timeout: float = 10.0) -> Catalog:
        with self._cond:
            ok = self._cond.wait_for(lambda: self.catalog is not None and predicate(self.catalog), timeout)
            assert ok, f"timed out; last catalog: {sorted(self.catalog.skills) if self.catalog else None}"
            assert self.catalog is not None
            return self.catalog


@pytest.fixture
def watched(tree: Tree) -> Iterator[tuple[Tree, Recorder, list[WatchHandle]]]:
    handles: list[WatchHandle] = []
    yield tree, Recorder(), handles
    for handle in handles:
        handle.stop()


def _start(tree: Tree, recorder: Recorder, handles: list[WatchHandle], **kw: object) -> WatchHandle:
    handle = Workspace(tree.locations(**kw)).watch(recorder)  # type: ignore[arg-type]
    handles.append(handle)
    return handle


def test_a_settings_write_is_a_change(watched) -> None:  # type: ignore[no-untyped-def]
    """A settings file written (here by skilldeck's own "allow always", a write and a rename)
    reaches the callback though no skill changed: the Rules pane and `watch` must show it."""
    tree, rec, handles = watched
    tree.skill("a", skill_text(name="a", description="one"))
    _start(tree, rec, handles)
    Workspace(tree.locations()).add_rule("Bash(make test)", "allow", "local")
    local = str(tree.project / ".claude" / "settings.local.json")
    with rec._cond:
        assert rec._cond.wait_for(lambda: any(local in c.settings for c in rec.changes), 10.0), rec.changes
    change = next(c for c in rec.changes if local in c.settings)
    assert not change.empty and "1 settings file changed" in change.summary() and change.to_dict()["settings"] == [local]


def _desc(catalog: Catalog, name: str) -> str | None:
    skill = catalog.skills.get(name)
    return skill.description if skill else None


def test_edit_in_place_reports_the_changed_fields(watched) -> None:  # type: ignore[no-untyped-def]
    tree, rec, handles = watched
    path = tree.skill("a", skill_text(name="a", description="one"))
    handle = _start(tree, rec, handles)
    assert _desc(handle.catalog, "a") == "one"
    path.write_text(skill_text(name="a", description="two", model="opus"))
    rec.wait(lambda c: _desc(c, "a") == "two")
    assert set(rec.changes[-1].changed["a"]) == {"description", "model"}
    assert handle.catalog is rec.catalog


def test_editor_write_then_rename(watched) -> None:  # type: ignore[no-untyped-def]
    tree, rec, handles = watched
    path = tree.skill("a", skill_text(name="a", description="one"))
    _start(tree, rec, handles)
    temp = path.with_name(".SKILL.md.swp")
    temp.write_text(skill_text(name="a", description="saved by rename"))
    os.replace(temp, path)
    rec.wait(lambda c: _desc(c, "a") == "saved by rename")


def test_truncate_then_write_and_a_fixed_parse_error_does_not_linger(watched) -> None:  # type: ignore[no-untyped-def]
    tree, rec, handles = watched
    path = tree.skill("a", skill_text(name="a", description="one"))
    _start(tree, rec, handles)
    with open(path, "w") as fh:
        fh.write(HALF)
        fh.flush()
        os.fsync(fh.fileno())
    rec.wait(lambda c: any(d.code == "yaml-invalid" for d in c.diagnostics))
    with open(path, "w") as fh:
        fh.write(skill_text(name="a", description="whole"))
    final = rec.wait(lambda c: _desc(c, "a") == "whole")
    assert not any(d.code == "yaml-invalid" for d in final.diagnostics)
    assert any(d.code == "yaml-invalid" for d in rec.changes[-1].diagnostics_cleared)


def test_new_skill_folder_and_new_tier_folders(watched, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tree, rec, handles = watched
    handle = _start(tree, rec, handles)
    assert dict(handle.catalog.skills) == {}
    # The project has no .claude/ yet: creating it (and a skill in it) is seen.
    tree.skill("fresh", skill_text(name="fresh", description="new"))
    rec.wait(lambda c: "fresh" in c.skills)
    # The user config folder has no skills/ yet either.
    tree.skill("mine", skill_text(name="mine", description="user"), tier="user")
    rec.wait(lambda c: "mine" in c.skills)
    write(tree.project / ".claude" / "commands" / "git" / "push.md", "Push.\n")
    rec.wait(lambda c: "git:push" in c.skills)
    assert rec.changes[-1].added == ("git:push",)


def test_deleting_a_whole_tier(watched) -> None:  # type: ignore[no-untyped-def]
    tree, rec, handles = watched
    for name in ("a", "b", "c"):
        tree.skill(name, skill_text(name=name, description=name))
    tree.skill("u", skill_text(name="u", description="u"), tier="user")
    _start(tree, rec, handles)
    shutil.rmtree(tree.project / ".claude")
    final = rec.wait(lambda c: set(c.skills) == {"u"})
    assert set(rec.changes[-1].removed) == {"a", "b", "c"}
    tree.skill("back", skill_text(name="back", description="again"))
    assert "back" in rec.wait(lambda c: "back" in c.skills).skills
    assert final is not None


def test_a_burst_is_one_reload(watched) -> None:  # type: ignore[no-untyped-def]
    tree, rec, handles = watched
    for i in range(200):
        tree.skill(f"s{i:03d}", skill_text(name=f"s{i:03d}", description="before"))
    handle = Workspace(tree.locations()).watch(rec, debounce=0.3)
    handles.append(handle)
    for i in range(200):
        (tree.skills() / f"s{i:03d}" / "SKILL.md").write_text(skill_text(name=f"s{i:03d}", description="after"))
    rec.wait(lambda c: all(s.description == "after" for s in c.skills.values()))
    assert len(rec.changes) == 1
    assert len(rec.changes[0].changed) == 200


def test_only_the_changed_folder_is_read_again(watched, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    tree, rec, handles = watched
    for i in range(50):
        tree.skill(f"s{i:02d}", skill_text(name=f"s{i:02d}", description="x"))
    _start(tree, rec, handles)
    reads: list[Path] = []
    real = catalog_module.load_entry

    def counting(entry, *args):  # type: ignore[no-untyped-def]
        reads.append(entry.path)
        return real(entry, *args)

    monkeypatch.setattr(catalog_module, "load_entry", counting)
    path = tree.skills() / "s07" / "SKILL.md"
    path.write_text(skill_text(name="s07", description="y"))
    rec.wait(lambda c: _desc(c, "s07") == "y")
    assert reads == [path]


def test_symlinked_skill_follows_its_target(watched, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tree, rec, handles = watched
    target = write(tmp_path / "elsewhere" / "linked" / "SKILL.md", skill_text(name="linked", description="one"))
    tree.skills().mkdir(parents=True)
    os.symlink(target.parent, tree.skills() / "linked")
    handle = _start(tree, rec, handles)
    assert _desc(handle.catalog, "linked") == "one"
    target.write_text(skill_text(name="linked", description="two"))
    rec.wait(lambda c: _desc(c, "linked") == "two")


def test_enabling_a_plugin_in_settings(watched, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import json

    tree, rec, handles = watched
    root = tree.user / "plugins" / "cache" / "mk" / "tools"
    write(root / ".claude-plugin" / "plugin.json", json.dumps({"name": "tools"}))
    write(root / "skills" / "lint" / "SKILL.md", skill_text(name="lint", description="Lint."))
    registry = {"version": 2, "plugins": {"tools@mk": [{"scope": "user", "installPath": str(root)}]}}
    write(tree.user / "plugins" / "installed_plugins.json", json.dumps(registry))
    handle = _start(tree, rec, handles)
    assert "tools:lint" not in handle.catalog.skills
    write(tree.user / "settings.json", json.dumps({"enabledPlugins": {"tools@mk": True}}))
    rec.wait(lambda c: "tools:lint" in c.skills)
    (root / "skills" / "lint" / "SKILL.md").write_text(skill_text(name="lint", description="Lint harder."))
    rec.wait(lambda c: _desc(c, "tools:lint") == "Lint harder.")


def test_full_reload_on_request(watched) -> None:  # type: ignore[no-untyped-def]
    tree, rec, handles = watched
    tree.skill("a", skill_text(name="a", description="one"))
    handle = _start(tree, rec, handles)
    handle.reload_all()
    rec.wait(lambda c: "a" in c.skills)
    assert rec.changes[-1].empty


def test_polling_fallback_when_inotify_is_refused(tmp_path: Path) -> None:
    """Run the watcher as another user whose inotify instances are all taken, so that the
    kernel itself refuses: the roots are polled, a diagnostic says so, changes still arrive."""
    import ctypes
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="skilldeck-poll-"))
    base.chmod(0o777)

    def watch_without_inotify() -> dict[str, object]:
        libc = ctypes.CDLL(None, use_errno=True)
        taken = []
        while len(taken) < 100_000 and (fd := libc.inotify_init1(0)) >= 0:
            taken.append(fd)
        tree = Tree(base / "w")
        tree.skill("a", skill_text(name="a", description="a"))
        rec = Recorder()
        handle = Workspace(tree.locations()).watch(rec)
        try:
            assert handle.catalog is not None
            found = [d.hint for d in handle.catalog.diagnostics if d.code == "watch-limit"][:1]
            tree.skill("b", skill_text(name="b", description="b"))
            rec.wait(lambda c: "b" in c.skills, timeout=15)
            return {"polled": len(handle.polled), "diagnostic": found, "added": list(rec.changes[-1].added)}
        finally:
            handle.stop()

    try:
        result = run_as_nobody(watch_without_inotify)
    finally:
        shutil.rmtree(base, ignore_errors=True)
    assert "error" not in result, result
    assert result["polled"] > 0
    assert "max_user_watches" in result["diagnostic"][0]
    assert result["added"] == ["b"]


def equal_to_cold_load(tree: Tree, rec: Recorder, handle: WatchHandle, what: str) -> None:
    """Wait until the watched catalog is a cold load's, or fail saying how they differ."""
    from tests.engine.reload.churn import difference, snapshot

    cold = Workspace(tree.locations())
    last = [""]

    def caught_up(catalog: Catalog) -> bool:
        expected, got = snapshot(cold.load()), snapshot(catalog)
        last[0] = difference(got, expected)
        return got == expected

    with rec._cond:
        rec.catalog = rec.catalog or handle.catalog
    try:
        rec.wait(caught_up, timeout=20)
    except AssertionError:
        raise AssertionError(f"{what}: the watched catalog differs from a cold load:\n{last[0]}") from None


def churn_until_equal(tree: Tree, seed: int, operations: int) -> tuple[int, int]:
    """Apply `operations` random changes while watching; once the disk is quiet, the watched
    catalog must equal a cold load of the same tree. Returns (callbacks, operations)."""
    from tests.engine.reload.churn import Churn

    tree.skill("alpha", skill_text(name="alpha", description="start"))
    tree.skill("beta", skill_text(name="beta", description="start"), tier="user")
    rec = Recorder()
    handle = Workspace(tree.locations()).watch(rec)
    try:
        churn = Churn(tree.project, tree.user, tree.managed, seed)
        for _ in range(operations):
            churn.step()
        equal_to_cold_load(tree, rec, handle, f"seed {seed}")
        return len(rec.changes), operations
    finally:
        handle.stop()


# watchdog's reader thread may die mid-churn (an upstream race); the watcher replaces it.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_churn_ends_equal_to_a_cold_load(tree: Tree) -> None:
    callbacks, _ = churn_until_equal(tree, seed=20261121, operations=1000)
    assert callbacks >= 1


@pytest.fixture
def chains() -> Iterator[list[Path]]:
    made: list[Path] = []
    yield made
    for top in made:
        if top.exists():
            remove_chain(top, 1_000)


def test_a_folder_chain_1000_deep_inside_a_skill(watched, chains) -> None:  # type: ignore[no-untyped-def]
    # Before: watchdog's os.walk raised RecursionError out of watch(), taking down
    # `skilldeck watch` and the app.
    tree, rec, handles = watched
    deep = tree.skill("deep")
    tree.skill("good")
    make_chain(deep.parent / "chain", 1_000)
    chains.append(deep.parent / "chain")
    handle = _start(tree, rec, handles)
    assert handle.catalog is not None and set(handle.catalog.skills) == {"deep", "good"}
    assert [d.code for d in handle.catalog.diagnostics if d.code == "watch-limit"] == ["watch-limit"]
    write(tree.skills() / "good" / "SKILL.md", skill_text(name="good", description="Edited."))
    assert _desc(rec.wait(lambda c: _desc(c, "good") == "Edited."), "good") == "Edited."


def test_a_folder_chain_moved_in_while_watching(watched, chains, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # The chain arrives after the watch began: watchdog's own thread dies on it, the watcher
    # notices and watches that tree folder by folder, and nothing is printed over the app.
    tree, rec, handles = watched
    deep = tree.skill("deep")
    tree.skill("good")
    make_chain(tmp_path / "chain", 1_000)
    _start(tree, rec, handles)
    chains.append(tmp_path / "chain")
    os.rename(tmp_path / "chain", deep.parent / "chain")
    chains.append(deep.parent / "chain")
    rec.wait(lambda c: "watch-limit" in {d.code for d in c.diagnostics})
    write(tree.skills() / "good" / "SKILL.md", skill_text(name="good", description="Edited."))
    assert _desc(rec.wait(lambda c: _desc(c, "good") == "Edited."), "good") == "Edited."


def test_watching_a_project_whose_claude_folder_is_unreadable() -> None:
    # As another user than root: pathlib's is_dir() raised PermissionError out of watch().
    # (Not in tmp_path: pytest's folder for it is private to root.)
    base = Path(tempfile.mkdtemp(prefix="skilldeck-perm-"))
    write(base / "user" / "skills" / "mine" / "SKILL.md", skill_text(name="mine", description="Mine."))
    (base / "proj" / ".claude" / "skills" / "x").mkdir(parents=True)
    (base / "proj" / ".git").mkdir()
    for p in (base, *base.rglob("*")):
        p.chmod(0o777 if p.is_dir() else 0o666)
    (base / "proj" / ".claude").chmod(0o000)
    tree = Tree.__new__(Tree)
    tree.project, tree.user, tree.managed = base / "proj", base / "user", base / "m"

    def work() -> dict[str, object]:
        rec = Recorder()
        handle = Workspace(tree.locations()).watch(rec)
        try:
            write(base / "user" / "skills" / "mine" / "SKILL.md", skill_text(name="mine", description="Edited."))
            catalog = rec.wait(lambda c: _desc(c, "mine") == "Edited.")
            return {"codes": sorted({d.code for d in catalog.diagnostics})}
        finally:
            handle.stop()

    try:
        assert run_as_nobody(work) == {"codes": ["settings-invalid", "unreadable"]}
    finally:
        (base / "proj" / ".claude").chmod(0o755)
        shutil.rmtree(base)


def test_stop_waits_a_bounded_time_for_a_thread_that_does_not_end(watched, monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    """ctrl+c on `skilldeck watch`, or quitting the app, waits for the watcher's threads at most
    STOP_WAIT_S in all: here the watch thread is held (a real thread, blocked on an event)."""

    import engine.reload.watch as watch_module

    monkeypatch.setattr(watch_module, "STOP_WAIT_S", 0.3)
    tree, recorder, handles = watched
    tree.skill("a", skill_text(description="A."))
    handle = _start(tree, recorder, handles)
    release = threading.Event()
    real = handle._thread
    # Held until the test ends: a stop that waited for it would never return (not timed: a
    # duration limit fails on a busy machine for no fault of the code).
    held = threading.Thread(target=release.wait, name="held-watch-thread", daemon=True)
    held.start()
    handle._thread = held
    try:
        stopper = threading.Thread(target=handle.stop, daemon=True)
        stopper.start()
        stopper.join(60)
        assert not stopper.is_alive(), "stop waited for the held thread"
        assert held.is_alive()
        assert "did not end within 0.3 s: held-watch-thread" in caplog.text
    finally:
        release.set()
        handle._thread = real
        real.join(timeout=5)
