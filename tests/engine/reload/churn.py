"""Random file-system churn over a tree of tiers, for the watcher's equivalence test and bench.

Every operation is a real change on disk: skills created, edited (valid, broken, repairable),
saved the way editors save, renamed, moved across tiers, deleted; loose and lower-case files;
symlinks added and removed; too-deep nesting; legacy commands; a whole tier removed and made
again.
"""

from __future__ import annotations

import os
import random
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from engine import Catalog

NAMES = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta", "iota", "kappa"]


def content(rng: random.Random, name: str) -> str:
    kind = rng.choice(["ok", "ok", "ok", "broken", "repaired", "plain", "empty", "flags"])
    if kind == "ok":
        return f"---\nname: {name}\ndescription: {rng.choice(['Does', 'Makes', 'Checks'])} {name} {rng.randint(0, 99)}\n---\nBody {rng.random()}\n"
    if kind == "broken":
        return f'---\nname: {name}\ndescription: "unterminated\nallowed-tools: [Read\n---\nBody\n'
    if kind == "repaired":
        return f"---\nname: {name}\ndescription: Use when: {rng.randint(0, 9)}\n---\nBody\n"
    if kind == "plain":
        return f"# {name} heading\n\nNo frontmatter.\n"
    if kind == "flags":
        return (
            f"---\nname: {name}\ndescription: flags\nuser-invocable: {rng.choice(['false', 'maybe'])}\nallowed_tools: Read\n---\n"
        )
    return ""


class Churn:
    def __init__(self, project: Path, user: Path, managed: Path, seed: int) -> None:
        self.rng = random.Random(seed)
        self.project = project
        self.roots = [project / ".claude" / "skills", user / "skills", managed / ".claude" / "skills"]
        self.commands = project / ".claude" / "commands"
        self.outside = project.parent / "outside"
        self.links: list[Path] = []

    def _existing(self) -> list[Path]:
        out = []
        for root in self.roots:
            if root.is_dir():
                out += [p for p in root.iterdir() if p.is_dir() and not p.is_symlink()]
        return out

    def _write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)

    def step(self) -> str:
        rng = self.rng
        op = rng.choice(
            ["create", "create", "edit", "edit", "edit", "save-rename", "delete", "rename", "move", "loose",
             "lowercase", "link", "unlink", "break-fix", "deep", "command", "command-delete", "tier-drop", "outside-edit"]
        )  # fmt: skip
        root = rng.choice(self.roots)
        name = rng.choice(NAMES)
        existing = self._existing()
        try:
            if op == "create":
                self._write(root / name / "SKILL.md", content(rng, name))
            elif op == "edit" and existing:
                self._write(rng.choice(existing) / "SKILL.md", content(rng, name))
            elif op == "save-rename" and existing:
                target = rng.choice(existing) / "SKILL.md"
                temp = target.with_name(".SKILL.md.tmp")
                self._write(temp, content(rng, target.parent.name))
                os.replace(temp, target)
            elif op == "delete" and existing:
                shutil.rmtree(rng.choice(existing))
            elif op == "rename" and existing:
                src = rng.choice(existing)
                dst = src.parent / name
                if not dst.exists():
                    os.rename(src, dst)
            elif op == "move" and existing:
                src = rng.choice(existing)
                dst = root / src.name
                if not dst.exists():
                    root.mkdir(parents=True, exist_ok=True)
                    os.rename(src, dst)
            elif op == "loose":
                self._write(root / f"{name}.md", "# loose\n")
            elif op == "lowercase":
                self._write(root / f"{name}-lc" / "skill.md", content(rng, name))
            elif op == "link" and existing:
                link = root / f"{name}-link"
                if not link.exists() and not link.is_symlink():
                    root.mkdir(parents=True, exist_ok=True)
                    target = rng.choice([*existing, self.outside / name, root / "nowhere"])
                    os.symlink(target, link)
                    self.links.append(link)
            elif op == "unlink" and self.links:
                link = self.links.pop(rng.randrange(len(self.links)))
                if link.is_symlink():
                    link.unlink()
            elif op == "break-fix" and existing:
                target = rng.choice(existing) / "SKILL.md"
                self._write(target, '---\ndescription: "half\n---\n')
                self._write(target, content(rng, target.parent.name))
            elif op == "deep":
                self._write(root / f"group-{name}" / name / "SKILL.md", content(rng, name))
            elif op == "command":
                self._write(self.commands / rng.choice(["", "ns"]) / f"{name}.md", content(rng, name))
            elif op == "command-delete" and self.commands.exists():
                files = [p for p in self.commands.rglob("*.md")]
                if files:
                    rng.choice(files).unlink()
            elif op == "tier-drop" and rng.random() < 0.2:
                shutil.rmtree(self.roots[0], ignore_errors=True)
            elif op == "outside-edit":
                self._write(self.outside / name / "SKILL.md", content(rng, name))
        except OSError:
            # Two operations can race a folder away from each other; the disk state is
            # still consistent, which is all the test needs.
            return f"{op} (skipped)"
        return op


class LinkChurn(Churn):
    """Churn of symlinked skills: links made to skills in every tier and outside them (or to
    nothing yet), removed, and their targets made, removed and renamed under them."""

    def step(self) -> str:
        rng = self.rng
        op = rng.choice(["create", "outside", "link", "link", "unlink", "delete", "outside-delete", "rename", "tier-drop"])
        name = rng.choice(NAMES[:4])
        root = rng.choice(self.roots)
        existing = self._existing()
        outside = [p for p in self.outside.iterdir() if p.is_dir()] if self.outside.is_dir() else []
        try:
            if op == "create":
                self._write(root / name / "SKILL.md", content(rng, name))
            elif op == "outside":
                self._write(self.outside / name / "SKILL.md", content(rng, name))
            elif op == "link":
                link = root / f"{name}-link"
                if not os.path.lexists(link):
                    root.mkdir(parents=True, exist_ok=True)
                    os.symlink(rng.choice([*existing, *outside, self.outside / name]), link)
                    self.links.append(link)
            elif op == "unlink" and self.links:
                link = self.links.pop(rng.randrange(len(self.links)))
                if link.is_symlink():
                    link.unlink()
            elif op in ("delete", "outside-delete") and (existing if op == "delete" else outside):
                shutil.rmtree(rng.choice(existing if op == "delete" else outside))
            elif op == "rename" and existing:
                src = rng.choice(existing)
                if not (src.parent / name).exists():
                    os.rename(src, src.parent / name)
            elif op == "tier-drop" and rng.random() < 0.3:
                shutil.rmtree(self.roots[0], ignore_errors=True)
        except OSError:
            return f"{op} (skipped)"
        return op


def snapshot(catalog: Catalog) -> dict[str, Any]:
    """A catalog as comparable data: skills, shadowed entries, diagnostics as a multiset."""
    return {
        "skills": {name: (s.to_dict(), s.source.order, s.source.label) for name, s in catalog.skills.items()},
        "shadowed": sorted((str(s.skill.path), str(s.shadowed_by.path)) for s in catalog.shadowed),
        "diagnostics": Counter(
            tuple(sorted((k, str(v)) for k, v in d.to_dict().items())) for d in catalog.diagnostics if d.code != "watch-limit"
        ),
    }


def difference(a: dict[str, Any], b: dict[str, Any]) -> str:
    lines = []
    for name in sorted(set(a["skills"]) ^ set(b["skills"])):
        lines.append(f"skill only in {'watched' if name in a['skills'] else 'cold'}: {name}")
    for name in sorted(set(a["skills"]) & set(b["skills"])):
        if a["skills"][name] != b["skills"][name]:
            lines.append(f"skill differs: {name}")
    if a["shadowed"] != b["shadowed"]:
        lines.append(f"shadowed differ: {a['shadowed']} vs {b['shadowed']}")
    for d in (a["diagnostics"] - b["diagnostics"]).elements():
        lines.append(f"diagnostic only watched: {dict(d)}")
    for d in (b["diagnostics"] - a["diagnostics"]).elements():
        lines.append(f"diagnostic only cold: {dict(d)}")
    return "\n".join(lines[:30])
