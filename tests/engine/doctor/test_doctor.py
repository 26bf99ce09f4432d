"""`skilldeck doctor --json`: on a home with one planted plugin problem of each kind, every one is
named, and the healthy plugin beside them gets no warning. Real files, the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import write

SOON = datetime.fromtimestamp(time.time() + 86400, UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
LONG_AGO = "2020-01-01T00:00:00.000Z"


class Home:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.home = root / "home"
        self.user = self.home / ".claude"
        self.project = root / "project"
        self.managed = root / "managed"
        self.cache = self.user / "plugins" / "cache"
        self.mk = self.user / "plugins" / "marketplaces" / "mk"
        self.records: dict[str, list[dict[str, Any]]] = {}
        self.project.mkdir(parents=True)

    def plugin(self, folder: Path, name: str, skill: str = "s", **manifest: Any) -> Path:
        write(folder / ".claude-plugin" / "plugin.json", json.dumps({"name": name, "version": "1.0.0", **manifest}))
        write(folder / "skills" / skill / "SKILL.md", f"---\ndescription: {name} {skill}\n---\nbody\n")
        return folder

    def install(self, key: str, path: Path, scope: str = "user", updated: str = SOON, **more: Any) -> None:
        record = {"scope": scope, "installPath": str(path), "version": "1.0.0", "lastUpdated": updated, **more}
        self.records.setdefault(key, []).append(record)

    def cached(self, key: str, version: str = "1.0.0", **manifest: Any) -> Path:
        name, _, market = key.partition("@")
        path = self.plugin(self.cache / market / name / version, name, **manifest)
        self.install(key, path)
        return path

    def settings(self, path: Path, **data: Any) -> None:
        write(path, json.dumps(data))

    def finish(self, known: dict[str, Any], entries: list[dict[str, Any]]) -> None:
        write(self.user / "plugins" / "installed_plugins.json", json.dumps({"version": 2, "plugins": self.records}))
        write(self.user / "plugins" / "known_marketplaces.json", json.dumps(known))
        write(
            self.mk / ".claude-plugin" / "marketplace.json",
            json.dumps({"name": "mk", "owner": {"name": "me"}, "plugins": entries}),
        )

    def doctor(self, **environ: str) -> tuple[int, list[dict[str, Any]]]:
        args = [sys.executable, "-m", "tui.cli.main", "doctor", "--json", "--project", str(self.project)]
        args += ["--user-dir", str(self.user), "--managed-dir", str(self.managed), "--no-bundled"]
        env = {**os.environ, "HOME": str(self.home), **environ}
        done = subprocess.run(args, capture_output=True, text=True, timeout=120, env=env)
        assert done.stderr == ""
        return done.returncode, json.loads(done.stdout)["findings"]


def github(name: str, folder: Path, updated: str = SOON, repo: str = "me/mk") -> dict[str, Any]:
    return {"source": {"source": "github", "repo": repo}, "installLocation": str(folder), "lastUpdated": updated}


@pytest.fixture
def planted(tmp_path: Path) -> Home:
    h = Home(Path(os.path.realpath(tmp_path)))
    entries: list[dict[str, Any]] = []
    # The healthy plugin: installed, enabled, its cache the marketplace's copy of its version.
    h.cached("healthy@mk")
    h.plugin(h.mk / "healthy", "healthy")
    entries.append({"name": "healthy", "source": "./healthy"})
    enabled = {"healthy@mk": True}
    # 1. enabled but not installed (the repository asks for it); installed but not enabled;
    #    switched off by a more specific file.
    project_settings = {
        "enabledPlugins": {"ghost@mk": True},
        "extraKnownMarketplaces": {"team": {"source": {"source": "github", "repo": "team/plugins"}}},
    }
    h.cached("idle@mk")
    h.cached("offp@mk")
    enabled["offp@mk"] = True
    h.settings(h.project / ".claude" / "settings.local.json", enabledPlugins={"offp@mk": False})
    # 2. the folder gone; a cache folder no record names; an old version folder.
    h.install("gone@mk", h.cache / "mk" / "gone" / "1.0.0")
    enabled["gone@mk"] = True
    h.plugin(h.cache / "mk" / "stray" / "1.0.0", "stray")
    h.plugin(h.cache / "mk" / "idle" / "0.9.0", "idle")
    # 3. installed for another project only.
    h.plugin(h.cache / "mk" / "there" / "1.0.0", "there")
    h.install("there@mk", h.cache / "mk" / "there" / "1.0.0", scope="project", projectPath=str(h.root / "other"))
    enabled["there@mk"] = True
    # 4. stale: the same version, other content.
    h.cached("stale@mk")
    h.plugin(h.mk / "stale", "stale", skill="newer")
    entries.append({"name": "stale", "source": "./stale"})
    enabled["stale@mk"] = True
    # 5. marketplaces: clone gone, an entry whose source is missing, a reserved name, blocked, old.
    entries.append({"name": "nosrc", "source": "./nowhere"})
    # 6. manifest fields: a wrong type, one hooks file named twice (and the default one named:
    #    a note), components inside
    #    .claude-plugin/, commands replacing the folder, a strict: false entry beside a plugin.json.
    h.cached("badtype@mk")
    badtype = h.cache / "mk" / "badtype" / "1.0.0" / ".claude-plugin" / "plugin.json"
    write(badtype, json.dumps({"name": "badtype", "version": 1}))
    dup = h.cached("dup@mk", hooks=["./hooks/hooks.json", "./hooks/../hooks/hooks.json"])
    write(dup / "hooks" / "hooks.json", json.dumps({"hooks": {}}))
    misplaced = h.cached("misplaced@mk")
    write(misplaced / ".claude-plugin" / "skills" / "x" / "SKILL.md", "---\ndescription: x\n---\n")
    repl = h.cached("repl@mk", commands=["./other/c.md"])
    write(repl / "other" / "c.md", "---\ndescription: c\n---\n")
    write(repl / "commands" / "d.md", "---\ndescription: d\n---\n")
    h.cached("conflict@mk")
    entries.append({"name": "conflict", "source": "./conflict", "strict": False, "skills": ["./more"]})
    h.plugin(h.mk / "conflict", "conflict")
    for key in ("badtype@mk", "dup@mk", "misplaced@mk", "repl@mk", "conflict@mk"):
        enabled[key] = True
    # 7. one plugin name in two marketplaces; a plugin skill a plugin command of its name hides.
    h.cached("twin@mk")
    h.cached("twin@mk2")
    enabled.update({"twin@mk": True, "twin@mk2": True})
    shadow = h.cached("shadow@mk", skill="x")
    write(shadow / "commands" / "x.md", "---\ndescription: the command\n---\n")
    enabled["shadow@mk"] = True
    # 8. a hook whose ${CLAUDE_PLUGIN_ROOT} is unquoted in a path with a space.
    spaced = h.plugin(h.cache / "mk" / "spaced" / "1 0", "spaced")
    h.install("spaced@mk", spaced)
    hook = {"type": "command", "command": "${CLAUDE_PLUGIN_ROOT}/bin/run.sh"}
    write(spaced / "hooks" / "hooks.json", json.dumps({"hooks": {"SessionStart": [{"hooks": [hook]}]}}))
    enabled["spaced@mk"] = True
    # 9. edited after it was installed.
    edited = h.plugin(h.cache / "mk" / "edited" / "1.0.0", "edited")
    h.install("edited@mk", edited, updated=LONG_AGO)
    enabled["edited@mk"] = True
    # Hostile: a FIFO manifest, a huge manifest, a symlinked cache folder.
    fifo = h.plugin(h.cache / "mk" / "fifo" / "1.0.0", "fifo")
    (fifo / ".claude-plugin" / "plugin.json").unlink()
    os.mkfifo(fifo / ".claude-plugin" / "plugin.json")
    h.install("fifo@mk", fifo)
    huge = h.plugin(h.cache / "mk" / "huge" / "1.0.0", "huge")
    (huge / ".claude-plugin" / "plugin.json").write_text('{"name": "huge", "x": "' + "a" * (5 * 1024 * 1024) + '"}')
    h.install("huge@mk", huge)
    target = h.plugin(h.root / "elsewhere" / "linked", "linked")
    (h.cache / "mk" / "linked").mkdir(parents=True)
    (h.cache / "mk" / "linked" / "1.0.0").symlink_to(target)
    h.install("linked@mk", h.cache / "mk" / "linked" / "1.0.0")
    enabled.update({"fifo@mk": True, "huge@mk": True, "linked@mk": True})

    # 4. installed from another commit than the marketplace's clone is at (same content).
    h.cached("oldsha@mk")
    h.records["oldsha@mk"][0]["gitCommitSha"] = "1" * 40
    h.plugin(h.mk / "oldsha", "oldsha")
    entries.append({"name": "oldsha", "source": "./oldsha"})
    write(h.mk / ".git" / "HEAD", "ref: refs/heads/main\n")
    write(h.mk / ".git" / "refs" / "heads" / "main", "2" * 40 + "\n")
    enabled["oldsha@mk"] = True
    # Hostile: a manifest nested 100,000 levels, a marketplace's cache folder linked elsewhere.
    deep = h.cached("deep@mk")
    (deep / ".claude-plugin" / "plugin.json").write_text("[" * 100_000)
    enabled["deep@mk"] = True
    h.plugin(h.root / "elsewhere" / "lm" / "p" / "1.0.0", "p")
    (h.cache / "linkedmk").symlink_to(h.root / "elsewhere" / "lm")
    # A record whose installPath is relative (it would be read from wherever skilldeck runs).
    h.install("rel@mk", Path("relative") / "rel")
    enabled["rel@mk"] = True
    h.settings(h.user / "settings.json", enabledPlugins=enabled)
    h.settings(h.project / ".claude" / "settings.json", **project_settings)
    h.settings(h.managed / "managed-settings.json", blockedMarketplaces=[{"source": "github", "repo": "bad/blocked"}])
    blocked = h.user / "plugins" / "marketplaces" / "blocked"
    official = h.user / "plugins" / "marketplaces" / "claude-plugins-official"
    mk2 = h.user / "plugins" / "marketplaces" / "mk2"
    for folder, name in ((blocked, "blocked"), (official, "claude-plugins-official"), (mk2, "mk2")):
        write(folder / ".claude-plugin" / "marketplace.json", json.dumps({"name": name, "owner": {"name": "x"}, "plugins": []}))
    broken = h.user / "plugins" / "marketplaces" / "broken"
    write(broken / ".claude-plugin" / "marketplace.json", '{"name": "broken", "plugins": [')
    known = {
        "mk": github("mk", h.mk),
        "mk2": github("mk2", mk2, updated=LONG_AGO),
        "gonemk": github("gonemk", h.user / "plugins" / "marketplaces" / "gonemk"),
        "claude-plugins-official": github("claude-plugins-official", official, repo="someone/fake"),
        "blocked": github("blocked", blocked, repo="bad/blocked"),
        "broken": github("broken", broken, repo="me/broken"),
    }
    h.finish(known, entries)
    return h


EXPECTED = {
    ("enabled-not-installed", "ghost@mk"),
    ("installed-not-enabled", "idle@mk"),
    ("switched-off", "offp@mk"),
    ("install-folder-gone", "gone@mk"),
    ("cache-orphan", "stray@mk"),
    ("cache-old-version", "idle@mk"),
    ("installed-elsewhere", "there@mk"),
    ("cache-stale", "stale@mk"),
    ("marketplace-missing", None),
    ("marketplace-source", "nosrc@mk"),
    ("marketplace-reserved", None),
    ("marketplace-asked", None),
    ("marketplace-blocked", None),
    ("marketplace-old", None),
    ("manifest-rejected", "badtype@mk"),
    ("hooks-duplicate", "dup@mk"),
    ("hooks-default-named", "dup@mk"),
    ("component-misplaced", "misplaced@mk"),
    ("commands-replaced", "repl@mk"),
    ("strict-conflict", "conflict@mk"),
    ("plugin-name-clash", "twin@mk"),
    ("plugin-name-clash", "twin@mk2"),
    ("skill-shadowed", "shadow@mk"),
    ("root-has-spaces", "spaced@mk"),
    ("runs-hook", "spaced@mk"),
    ("changed-on-disk", "edited@mk"),
    ("manifest-unreadable", "fifo@mk"),
    ("manifest-unreadable", "huge@mk"),
    ("cache-symlink", "linked@mk"),
    ("cache-commit", "oldsha@mk"),
    ("manifest-unreadable", "deep@mk"),
    ("cache-symlink", None),
    ("marketplace-unreadable", None),
    ("record-invalid", "rel@mk"),
}


def test_doctor_names_every_planted_problem_and_spares_the_healthy_plugin(planted: Home) -> None:
    code, findings = planted.doctor()
    seen = {(f["code"], f["plugin"]) for f in findings}
    assert sorted(EXPECTED - seen, key=str) == []
    assert code == 1
    for f in findings:
        assert set(f) >= {"plugin", "marketplace", "severity", "code", "message", "fix"}
        assert f["severity"] in ("error", "warning", "info")
        if f["severity"] != "info":
            assert f["fix"], f
    healthy = [f for f in findings if f["plugin"] == "healthy@mk" and f["severity"] != "info"]
    assert healthy == []
    by_market = {f["marketplace"] for f in findings if f["plugin"] is None}
    assert {"gonemk", "claude-plugins-official", "team", "blocked", "mk2", "broken", "linkedmk"} <= by_market
    fixes = {(f["code"], f["plugin"]): f["fix"] for f in findings}
    assert fixes[("installed-not-enabled", "idle@mk")] == "claude plugin enable idle@mk --scope user"
    assert fixes[("switched-off", "offp@mk")] == "claude plugin enable offp@mk --scope local"
    assert fixes[("enabled-not-installed", "ghost@mk")] == "claude plugin install ghost@mk --scope project"
    assert fixes[("cache-orphan", "stray@mk")].startswith("rm -rf ")
    missing = next(f for f in findings if f["code"] == "marketplace-missing")
    assert missing["fix"] == "claude plugin marketplace update gonemk"


def test_doctor_reads_and_never_writes(planted: Home) -> None:
    def snapshot() -> dict[str, tuple[int, float]]:
        out = {}
        for base, _dirs, files in os.walk(planted.user / "plugins"):
            for name in files:
                st = os.lstat(os.path.join(base, name))
                out[os.path.join(base, name)] = (st.st_size, st.st_mtime)
        return out

    before = snapshot()
    planted.doctor()
    assert snapshot() == before


def test_a_healthy_home_exits_0(tmp_path: Path) -> None:
    h = Home(Path(os.path.realpath(tmp_path)))
    h.cached("healthy@mk")
    h.plugin(h.mk / "healthy", "healthy")
    h.settings(h.user / "settings.json", enabledPlugins={"healthy@mk": True})
    h.finish({"mk": github("mk", h.mk)}, [{"name": "healthy", "source": "./healthy"}])
    code, findings = h.doctor()
    assert [f for f in findings if f["severity"] != "info"] == []
    assert code == 0


def test_what_a_plugin_costs_and_starts_and_the_managed_allow_list(tmp_path: Path) -> None:
    h = Home(Path(os.path.realpath(tmp_path)))
    big = h.cached("big@mk", lspServers={"py": {"command": "${CLAUDE_PLUGIN_ROOT}/bin/pyls", "args": ["--stdio"]}})
    for n in range(6):
        write(big / "skills" / f"s{n}" / "SKILL.md", f"---\ndescription: {'a long description ' * 20}{n}\n---\nbody\n")
    servers = {"mcpServers": {"db": {"command": "node", "args": ["${CLAUDE_PLUGIN_ROOT}/server.js"]}}}
    write(big / ".mcp.json", json.dumps(servers))
    h.plugin(h.mk / "big", "big")
    h.settings(h.user / "settings.json", enabledPlugins={"big@mk": True})
    h.settings(h.managed / "managed-settings.json", strictKnownMarketplaces=[{"source": "github", "repo": "corp/plugins"}])
    h.finish({"mk": github("mk", h.mk)}, [{"name": "big", "source": "./big"}])
    code, findings = h.doctor(SLASH_COMMAND_TOOL_CHAR_BUDGET="300")
    said = {f["code"]: f for f in findings}
    assert said["budget-trimmed"]["plugin"] == "big@mk" and "lost their descriptions" in said["budget-trimmed"]["message"]
    started = [f["message"] for f in findings if f["code"] == "runs-server"]
    assert any(f"starts the MCP server `db`: node {big}/server.js" in m for m in started), started
    assert any(f"starts the LSP server `py`: {big}/bin/pyls --stdio" in m for m in started), started
    assert said["marketplace-not-allowed"]["marketplace"] == "mk"
    assert code == 1
