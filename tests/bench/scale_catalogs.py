"""Large catalogs made of real skills: the skills of a public collection copied under new folder names.

The source is `../shared/corpus/` beside the repository when it is there (real skills with their
reference files), else the same collection vendored in `tests/oracle/corpus/` (SKILL.md files
only). Each copy keeps its skill's text and gets a new folder name (`<skill>-<copy>`), and its
`name:` is that folder name, so a catalog of 15,000 is 181 real skills each seen about 83 times,
never one template repeated. Files other than SKILL.md are hard links into one pool (a 50,000
skill catalog costs its SKILL.md files, not 50,000 copies of every reference).

Three shapes: one project with every skill in `.claude/skills` (`project`), a marketplace of
150 plugins given as one `--plugin-dir` (`market`), and the same 150 plugins installed and enabled
from a marketplace as `/plugin install` leaves them in a config folder (`installed`): each copied
to `plugins/cache/<market>/<plugin>/<version>`, recorded in `plugins/installed_plugins.json`,
enabled in `settings.json`'s `enabledPlugins`, the marketplace's clone and its `marketplace.json`
in `plugins/marketplaces/` and named in `plugins/known_marketplaces.json`. The fourth,
`mismatch`, is `installed` with each copy's `name:` left as the original skill's: a name-mismatch
diagnostic per skill (15,000 more at 15,000 skills), whose cost must stay in proportion.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import tarfile
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "corpus"
VENDORED = REPO / "tests" / "oracle" / "corpus" / "wshobson-agents.tar.gz"
PLUGINS = 150
_NAME = re.compile(r"^name:.*$", re.MULTILINE)


@dataclass(frozen=True)
class CorpusSkill:
    folder: str
    text: str
    # Other files of the skill folder: path inside it -> bytes.
    files: dict[str, bytes]


def corpus_skills(prefer_shared: bool = True) -> list[CorpusSkill]:
    """Every skill of the collection, sorted by folder name."""
    found: dict[str, CorpusSkill] = {}
    if prefer_shared and SHARED.is_dir():
        for skill_md in sorted(SHARED.rglob("SKILL.md")):
            folder = skill_md.parent
            files = {
                str(p.relative_to(folder)): p.read_bytes()
                for p in sorted(folder.rglob("*"))
                if p.is_file() and not p.is_symlink() and p != skill_md
            }
            found.setdefault(folder.name, CorpusSkill(folder.name, skill_md.read_text(errors="replace"), files))
    else:
        with tarfile.open(VENDORED) as tar:
            for member in tar.getmembers():
                parts = member.name.split("/")
                if member.isfile() and parts[-1] == "SKILL.md" and len(parts) >= 2:
                    data = tar.extractfile(member)
                    assert data is not None
                    text = io.TextIOWrapper(data, encoding="utf-8", errors="replace").read()
                    found.setdefault(parts[-2], CorpusSkill(parts[-2], text, {}))
    return [found[k] for k in sorted(found)]


def _renamed(text: str, name: str) -> str:
    """The skill's text with `name:` set to its new folder name (added when it had none)."""
    if text.startswith("---\n") and _NAME.search(text.split("\n---", 1)[0]):
        head, sep, rest = text.partition("\n---")
        return _NAME.sub(f"name: {name}", head, count=1) + sep + rest
    if text.startswith("---\n"):
        return f"---\nname: {name}\n" + text[4:]
    return text


class _Writer:
    def __init__(self, base: Path, skills: list[CorpusSkill], keep_names: bool = False) -> None:
        self.skills = skills
        self.keep_names = keep_names
        self.pool = base / "pool"
        self.pooled: set[tuple[str, str]] = set()

    def write(self, folder: Path, index: int) -> None:
        skill = self.skills[index % len(self.skills)]
        name = f"{skill.folder}-{index // len(self.skills)}"
        target = folder / name
        target.mkdir(parents=True)
        (target / "SKILL.md").write_text(skill.text if self.keep_names else _renamed(skill.text, name))
        for rel, data in skill.files.items():
            source = self.pool / skill.folder / rel
            if (skill.folder, rel) not in self.pooled:
                source.parent.mkdir(parents=True, exist_ok=True)
                source.write_bytes(data)
                self.pooled.add((skill.folder, rel))
            (target / rel).parent.mkdir(parents=True, exist_ok=True)
            os.link(source, target / rel)


def build_project(base: Path, count: int, skills: list[CorpusSkill]) -> Path:
    """A project (a git folder) holding `count` skills in its `.claude/skills`; its path."""
    project = base / "proj"
    (project / ".git").mkdir(parents=True)
    writer = _Writer(base, skills)
    root = project / ".claude" / "skills"
    for index in range(count):
        writer.write(root, index)
    return project


def build_market(base: Path, count: int, skills: list[CorpusSkill], plugins: int = PLUGINS) -> Path:
    """A folder of `plugins` plugins (each a manifest and `skills/`) holding `count` skills in all; its path."""
    market = base / "market"
    writer = _Writer(base, skills)
    for number in range(plugins):
        plugin = market / f"plugin-{number:03d}"
        (plugin / ".claude-plugin").mkdir(parents=True)
        (plugin / ".claude-plugin" / "plugin.json").write_text(json.dumps({"name": f"plugin-{number:03d}", "version": "1.0.0"}))
    for index in range(count):
        writer.write(market / f"plugin-{index % plugins:03d}" / "skills", index)
    return market


MARKET = "scale-market"
STAMP = "2026-01-01T00:00:00.000Z"


def build_installed(base: Path, count: int, skills: list[CorpusSkill], plugins: int = PLUGINS, keep_names: bool = False) -> Path:
    """A config folder (`--user-dir`) with `plugins` plugins holding `count` skills in all,
    installed and enabled from one marketplace as `/plugin install` records them; its path.
    With `keep_names`, each copy keeps its original `name:`, which then differs from its folder:
    a name-mismatch diagnostic per skill."""
    base = base.resolve()  # the records hold absolute paths, as Claude Code writes them
    user = base / "user"
    store = user / "plugins"
    clone = store / "marketplaces" / MARKET
    names = [f"plugin-{number:03d}" for number in range(plugins)]
    roots = {name: store / "cache" / MARKET / name / "1.0.0" for name in names}
    for name, root in roots.items():
        (root / ".claude-plugin").mkdir(parents=True)
        manifest = {"name": name, "version": "1.0.0", "description": f"{name} of the scale marketplace"}
        (root / ".claude-plugin" / "plugin.json").write_text(json.dumps(manifest))
    writer = _Writer(base, skills, keep_names)
    for index in range(count):
        writer.write(roots[names[index % plugins]] / "skills", index)
    (clone / ".claude-plugin").mkdir(parents=True)
    listing = {
        "name": MARKET,
        "owner": {"name": "bench"},
        "plugins": [{"name": n, "source": f"./plugins/{n}", "version": "1.0.0", "description": f"{n}"} for n in names],
    }
    (clone / ".claude-plugin" / "marketplace.json").write_text(json.dumps(listing, indent=2))
    known = {
        MARKET: {
            "source": {"source": "github", "repo": "bench/scale-market"},
            "installLocation": str(clone),
            "lastUpdated": STAMP,
        }
    }
    (store / "known_marketplaces.json").write_text(json.dumps(known, indent=2))
    records = {
        f"{n}@{MARKET}": [
            {"scope": "user", "installPath": str(roots[n]), "version": "1.0.0", "installedAt": STAMP, "lastUpdated": STAMP,
             "gitCommitSha": "0" * 40, "isLocal": False}
        ]
        for n in names
    }  # fmt: skip
    (store / "installed_plugins.json").write_text(json.dumps({"version": 2, "plugins": records}, indent=2))
    enabled = {f"{n}@{MARKET}": True for n in names}
    (user / "settings.json").write_text(json.dumps({"enabledPlugins": enabled}, indent=2))
    return user


def cached(kind: str, count: int, data: Path) -> Path:
    """The catalog `kind` ("project", "market", "installed" or "mismatch") of `count` skills under `data`,
    built once and kept (a stamp file marks a finished build): the project, the `--plugin-dir`
    folder or the config folder."""
    base = data / f"{kind}-{count}"
    stamp = base / ".built"
    if not stamp.exists():
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir(parents=True)
        skills = corpus_skills()
        if kind == "mismatch":
            build_installed(base, count, skills, keep_names=True)
        else:
            {"project": build_project, "market": build_market, "installed": build_installed}[kind](base, count, skills)
        stamp.write_text("ok\n")
    return base / {"project": "proj", "market": "market", "installed": "user", "mismatch": "user"}[kind]
