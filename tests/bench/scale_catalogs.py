"""Large catalogs made of real skills: the skills of a public collection copied under new folder names.

The source is `../shared/corpus/` beside the repository when it is there (real skills with their
reference files), else the same collection vendored in `tests/oracle/corpus/` (SKILL.md files
only). Each copy keeps its skill's text and gets a new folder name (`<skill>-<copy>`), and its
`name:` is that folder name, so a catalog of 15,000 is 181 real skills each seen about 83 times,
never one template repeated. Files other than SKILL.md are hard links into one pool (a 50,000
skill catalog costs its SKILL.md files, not 50,000 copies of every reference).

Two shapes: one project with every skill in `.claude/skills` (`project`), and a marketplace of
150 plugins given as one `--plugin-dir` (`market`).
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
    def __init__(self, base: Path, skills: list[CorpusSkill]) -> None:
        self.skills = skills
        self.pool = base / "pool"
        self.pooled: set[tuple[str, str]] = set()

    def write(self, folder: Path, index: int) -> None:
        skill = self.skills[index % len(self.skills)]
        name = f"{skill.folder}-{index // len(self.skills)}"
        target = folder / name
        target.mkdir(parents=True)
        (target / "SKILL.md").write_text(_renamed(skill.text, name))
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


def cached(kind: str, count: int, data: Path) -> Path:
    """The catalog `kind` ("project" or "market") of `count` skills under `data`, built once and
    kept (a stamp file marks a finished build)."""
    base = data / f"{kind}-{count}"
    stamp = base / ".built"
    if not stamp.exists():
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir(parents=True)
        skills = corpus_skills()
        (build_project if kind == "project" else build_market)(base, count, skills)
        stamp.write_text("ok\n")
    return base / ("proj" if kind == "project" else "market")
