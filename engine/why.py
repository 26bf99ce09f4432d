"""`skilldeck why PATH|NAME`: every gate one file or name passes or fails on its way to the model.

The trace is built from what a load already knows (the catalog, its diagnostics, the listing, the
permission rules) plus a few `stat`s: nothing here reads a skill file, so a hostile repository
cannot make it read a huge file or follow a link out of bounds. Each gate says what Claude Code
does at that step; the last sentence says what the model receives, or why it never loads.

Gates, in the order Claude Code meets them: root (which scanned folder holds the file), reserved
(a skills folder named `synced`), size (SKILL.md over 1,000,000 bytes), parse (the file read into
a skill), dedup (the same file reached twice), shadowing (an earlier skill of the same name),
overrides (`skillOverrides`), invocation (flags and `paths:`), permissions (`Skill(name)` rules on
the model's call) and budget (whether the listing keeps the description).
"""

from __future__ import annotations

import difflib
import enum
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .catalog import Catalog
from .listing import OWN_SKILLS_NOTE, Listing
from .model import Diagnostic, LoadedFrom, Severity, Skill, Source, SourceKind
from .permissions import Permissions
from .workspace import Workspace

# Claude Code 2.1.328 skips a SKILL.md in a skills folder above this size (recorded in its debug log:
# "[skills] skipping <file>: N bytes exceeds 1000000 byte limit").
SIZE_LIMIT = 1_000_000
# A skills folder entry with this name is reserved for synced skills (debug log: "skipping reserved
# dir name 'synced'"); legacy commands and plugins are not concerned.
RESERVED = "synced"
# A query longer than this is no path or name anyone typed: refused rather than stat'ed.
MAX_QUERY = 4096
# Sentences quote file text (a description, a rule): cut so that one gate stays one sentence.
QUOTE_MAX = 300
# Diagnostics that describe where the file sits, when it loads or who beat it, not what is in it.
_NOT_PARSE = frozenset({"duplicate-file", "shadowed", "name-mismatch", "deferred", "scoped"})
# Tiers whose folders Claude Code reads as skills folders (where `synced` and the size limit apply).
_SKILLS_TIERS = (SourceKind.MANAGED, SourceKind.USER, SourceKind.PROJECT, SourceKind.ADD_DIR)


class Status(enum.StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    NOT_APPLICABLE = "n/a"


@dataclass(frozen=True, slots=True)
class Gate:
    name: str
    status: Status
    sentence: str
    # The diagnostics or details behind the sentence, one line each.
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"gate": self.name, "status": self.status.value, "sentence": self.sentence, "notes": list(self.notes)}


class Outcome(enum.StrEnum):
    LISTED = "listed"  # in the listing with its text
    NAME_ONLY = "name-only"  # in the listing by name (budget or skillOverrides)
    CONDITIONAL = "conditional"  # listed once a file matching `paths:` is touched
    HIDDEN = "hidden"  # loaded; only typing /name runs it
    NEVER_LOADS = "never-loads"
    NOT_FOUND = "not-found"


@dataclass(frozen=True, slots=True)
class Why:
    query: str
    kind: str  # "path" or "name"
    path: Path | None
    name: str | None
    gates: tuple[Gate, ...]
    outcome: Outcome
    verdict: str
    suggestions: tuple[str, ...] = ()
    # The listing line exactly as sent (the verdict quotes it cut to a sentence's length).
    line: str | None = None

    @property
    def loads(self) -> bool:
        return self.outcome not in (Outcome.NEVER_LOADS, Outcome.NOT_FOUND)

    def gate(self, name: str) -> Gate | None:
        return next((g for g in self.gates if g.name == name), None)

    def to_dict(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "kind": self.kind,
            "path": str(self.path) if self.path else None,
            "name": self.name,
            "loads": self.loads,
            "outcome": self.outcome.value,
            "verdict": self.verdict,
            "gates": [g.to_dict() for g in self.gates],
            "suggestions": list(self.suggestions),
            "line": self.line,
        }


GATES = ("root", "reserved", "size", "parse", "dedup", "shadowing", "overrides", "invocation", "permissions", "budget")


def _q(text: object, limit: int = QUOTE_MAX) -> str:
    value = str(text)
    return value if len(value) <= limit else value[: limit - 1] + "…"


def _lexists(path: Path) -> bool:
    try:
        return os.path.lexists(path)
    except (ValueError, OSError):  # a NUL byte, a name too long
        return False


def _isdir(path: Path) -> bool:
    try:
        return os.path.isdir(path)
    except (ValueError, OSError):
        return False


def _real(path: Path) -> Path:
    try:
        return Path(os.path.realpath(path))
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a chain of links deep enough to exhaust it
        return path


def _under(path: Path, root: Path) -> bool:
    return path == root or path.is_relative_to(root)


def _activation(skill: Skill) -> str:
    """When Claude Code makes the skill available: "start", "paths" (a `paths:` skill, once a
    matching file is touched) or "nested" (a `.claude/skills` below the start folder, once a file
    under it is touched). The loader's `activation` is the answer where it exists; without it, a
    `paths:` skill from a skills folder is conditional (recorded: a command or plugin skill with
    `paths:` is listed at start)."""
    value = getattr(skill, "activation", None)
    if isinstance(value, str):
        return value
    kind_ok = skill.loaded_from is LoadedFrom.SKILLS and skill.source.kind in _SKILLS_TIERS
    return "paths" if skill.paths and kind_ok else "start"


def _every_skill(catalog: Catalog) -> Iterable[Skill]:
    yield from catalog.skills.values()
    for shadowed in catalog.shadowed:
        yield shadowed.skill
    yield from getattr(catalog, "deferred", ())


def _named(catalog: Catalog, name: str) -> Skill | None:
    """The skill Claude Code would run for `name`: a loaded one, else a deferred one of that name."""
    found = catalog.get(name)
    if found is not None:
        return found
    folded = name.casefold()
    deferred = tuple(getattr(catalog, "deferred", ()))
    return next((s for s in deferred if s.name == name), None) or next((s for s in deferred if s.name.casefold() == folded), None)


class _Tracer:
    def __init__(self, catalog: Catalog, listing: Listing, permissions: Permissions, query: str) -> None:
        self.catalog = catalog
        self.listing = listing
        self.permissions = permissions
        self.query = query
        self.gates: dict[str, Gate] = {}
        self._by_real: dict[Path, Skill] | None = None

    def set(self, name: str, status: Status, sentence: str, notes: Iterable[str] = ()) -> None:
        self.gates[name] = Gate(name, status, sentence, tuple(_q(n) for n in notes))

    def skip_rest(self, why: str) -> None:
        for name in GATES:
            self.gates.setdefault(name, Gate(name, Status.NOT_APPLICABLE, f"not reached: {why}"))

    def result(
        self,
        kind: str,
        path: Path | None,
        name: str | None,
        outcome: Outcome,
        verdict: str,
        suggestions: Iterable[str] = (),
        line: str | None = None,
    ) -> Why:
        gates = tuple(self.gates[g] for g in GATES if g in self.gates)
        return Why(self.query, kind, path, name, gates, outcome, verdict, tuple(suggestions), line)

    # Finding the skill ------------------------------------------------------------------------
    def loaded_at(self, file: Path, through_links: bool = True) -> Skill | None:
        """The skill loaded from `file` (the winner or a shadowed one), as found or, with
        `through_links`, from a path that leads to the same file."""
        for skill in _every_skill(self.catalog):
            if skill.path == file:
                return skill
        if not through_links:
            return None
        if self._by_real is None:
            # Once per trace: a skill reached through a symlinked folder is this file too.
            self._by_real = {}
            for skill in _every_skill(self.catalog):
                self._by_real.setdefault(_real(skill.path), skill)
        return self._by_real.get(_real(file))

    def sources(self) -> list[Source]:
        """The roots Claude Code reads (skilldeck's own bundled skills are not Claude Code's)."""
        return [s for s in self.catalog.sources if s.kind not in (SourceKind.BUNDLED, SourceKind.PATH)]

    def holder(self, path: Path) -> Source | None:
        for source in self.catalog.sources:
            if _under(path, source.root) or _under(_real(path), _real(source.root)):
                return source
        return None

    def diagnostics(self, *paths: Path) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        for path in paths:
            out.extend(self.catalog.diagnostics_for(path))
        return out


def _relative(path: Path, source: Source) -> tuple[str, ...]:
    for base, target in ((source.root, path), (_real(source.root), _real(path))):
        if _under(target, base):
            return target.relative_to(base).parts
    return ()


def _root_hint(tracer: _Tracer, file: Path, project: Path | None, git_root: Path | None) -> str:
    """Why a file in some `.claude/skills` or `.claude/commands`, or in a plugin, is not in any scanned root."""
    for diag in tracer.catalog.diagnostics:
        if diag.code != "plugin-manifest":
            continue
        plugin = diag.path.parent.parent if diag.path.parent.name == ".claude-plugin" else diag.path
        loaded = any(source.root == plugin for source in tracer.catalog.sources)
        if plugin != Path("/") and not loaded and _under(file, plugin):
            return f"the plugin at {plugin} is not loaded: {_q(diag.message, 200)}"
    parts = file.parts
    for index in range(len(parts) - 2, 0, -1):
        if parts[index] in ("skills", "commands") and parts[index - 1] == ".claude":
            base = Path(*parts[: index - 1])
            if project is not None and base != project and _under(base, project) and parts[index] == "commands":
                return "Claude Code reads .claude/commands only from the start folder up to the repository root"
            if project is not None and base != project and _under(base, project):
                return (
                    f"its folder {base} is below the start folder: Claude Code loads a nested .claude/{parts[index]} only "
                    f"once a file under {base} is touched (as <folder>:<name> when an earlier skill has the name)"
                )
            if project is not None and _under(project, base):
                stop = git_root or project
                return f"Claude Code's project walk goes from the start folder up to {stop} and stops there"
            return f"start Claude Code with --add-dir {base} to load it"
    return "Claude Code reads skills only from .claude/skills/<folder>/SKILL.md and commands from .claude/commands/"


def trace_why(
    workspace: Workspace,
    catalog: Catalog,
    query: str,
    *,
    listing: Listing | None = None,
    permissions: Permissions | None = None,
    cwd: Path | None = None,
    kind: str = "auto",
) -> Why:
    """`explain` with the workspace's listing and permission rules, read now unless given (the app
    passes the ones it already holds)."""
    listing = listing if listing is not None else workspace.listing(catalog)
    permissions = permissions if permissions is not None else workspace.permissions()
    return explain(catalog, query, listing, permissions, cwd=cwd, kind=kind)


def explain(
    catalog: Catalog,
    query: str,
    listing: Listing,
    permissions: Permissions,
    *,
    overrides: dict[str, Any] | None = None,
    cwd: Path | None = None,
    kind: str = "auto",
) -> Why:
    """The trace for `query`: a path (a SKILL.md, a skill folder, a command .md) or a name (with or
    without `/`, `plugin:skill`). `listing` and `permissions` are the workspace's (Workspace.listing,
    Workspace.permissions); `overrides` is skillOverrides (default: from `permissions.settings`)."""
    query = query.strip()
    tracer = _Tracer(catalog, listing, permissions, _q(query))
    if overrides is None:
        overrides = dict(permissions.settings.skill_overrides)
    if not query or len(query) > MAX_QUERY or "\x00" in query:
        tracer.set("root", Status.FAILED, "this is no path or name Claude Code could load (empty, too long or with a NUL byte)")
        tracer.skip_rest("nothing to look up")
        return tracer.result("name", None, None, Outcome.NOT_FOUND, "it never loads because nothing is named that")
    base = cwd or permissions.cwd
    choice = kind if kind in ("path", "name") else _guess(catalog, query, base)
    if choice == "path":
        raw = Path(os.path.expanduser(query))
        path = Path(os.path.abspath(raw if raw.is_absolute() else base / raw))
        return _trace_path(tracer, path, overrides, permissions)
    return _trace_name(tracer, query.removeprefix("/"), overrides, permissions)


def _guess(catalog: Catalog, query: str, base: Path) -> str:
    """Path or name: a loaded name wins (`/deploy` is the command, not a folder at the top of the
    disk); then anything on disk; then what looks like a path (a separator or `.md`)."""
    bare = query.removeprefix("/")
    if _named(catalog, bare) is not None or any(s.skill.name == bare for s in catalog.shadowed):
        return "name"
    raw = Path(os.path.expanduser(query))
    if _lexists(raw if raw.is_absolute() else base / raw):
        return "path"
    if query.endswith(".md") or query.startswith(("./", "../", "~")) or ("/" in bare and ":" not in bare):
        return "path"
    return "name"


# Paths -------------------------------------------------------------------------------------------
def _trace_path(tracer: _Tracer, path: Path, overrides: dict[str, Any], permissions: Permissions) -> Why:
    folder: Path | None = None
    file = path
    if _isdir(path):
        folder = path
        file = path / "SKILL.md"
        if not _lexists(file):
            return _folder_without_skill(tracer, path)
    elif not _lexists(path):
        tracer.set("root", Status.FAILED, f"there is no file at {path}")
        tracer.skip_rest("the file does not exist")
        return tracer.result("path", path, None, Outcome.NOT_FOUND, f"it never loads because {path} does not exist")
    skill = tracer.loaded_at(file, through_links=False)
    source = skill.source if skill is not None else tracer.holder(file)
    if source is None:
        # Outside every root, yet maybe the target of a skill folder linked into one.
        skill = tracer.loaded_at(file)
        source = skill.source if skill is not None else None
    if source is None or source.kind is SourceKind.PATH:
        roots = [f"{s.root} ({s.label})" for s in tracer.sources()]
        hint = _root_hint(tracer, file, permissions.cwd, _git_root(permissions))
        tracer.set(
            "root",
            Status.FAILED,
            f"no root Claude Code scans holds this file; {hint}",
            ["checked: " + r for r in roots] or ["no roots are configured"],
        )
        tracer.skip_rest("Claude Code never finds the file")
        because = hint if hint.startswith("the plugin at") else "no root Claude Code scans holds this file"
        return tracer.result("path", file, None, Outcome.NEVER_LOADS, f"it never loads because {because}")
    if skill is not None and skill.path != file:
        found = f"Claude Code reaches this file through {skill.path}, in the {skill.source.label} tier ({skill.source.root})"
        return _trace_file(tracer, skill.path, None, source, skill, overrides, "path", found)
    return _trace_file(tracer, file, folder, source, skill, overrides)


def _git_root(permissions: Permissions) -> Path | None:
    dirs = permissions.repo_dirs
    return dirs[-1] if len(dirs) > 1 else None


def _folder_without_skill(tracer: _Tracer, folder: Path) -> Why:
    source = tracer.holder(folder)
    notes = _notes(tracer.diagnostics(folder))
    is_root = any(folder == s.root for s in tracer.catalog.sources)
    if is_root:
        count = sum(1 for s in _every_skill(tracer.catalog) if s.source.root == folder)
        tracer.set(
            "root", Status.PASSED, f"this is a root Claude Code scans ({count} skills load from it); ask about one of them"
        )
        tracer.skip_rest("a root holds many skills: name one")
        return tracer.result(
            "path",
            folder,
            None,
            Outcome.NOT_FOUND,
            "it never loads because a root is not a skill: pass one of its folders or names",
        )
    where = f"inside {source.root} ({source.label})" if source else "outside every root Claude Code scans"
    tracer.set("root", Status.FAILED, f"this folder, {where}, has no SKILL.md, so Claude Code ignores it", notes)
    tracer.skip_rest("there is no SKILL.md to read")
    return tracer.result("path", folder, None, Outcome.NEVER_LOADS, "it never loads because the folder has no SKILL.md")


def _shape(file: Path, source: Source) -> tuple[str | None, str, str]:
    """(the name Claude Code would give the file, or None when it does not look there; the
    sentence of the root gate; why it does not look there, as the end of a sentence)."""
    rel = _relative(file, source)
    where = f"the {source.label} tier scans {source.root}"
    if source.kind is SourceKind.PLUGIN:
        where = f"{where} (plugin {source.plugin})"
        usual = (len(rel) == 3 and rel[0] == "skills" and rel[2] == "SKILL.md") or rel == ("SKILL.md",)
        if usual or (len(rel) >= 2 and rel[0] == "commands" and file.suffix == ".md"):
            return source.plugin or "", where, ""
        if rel and rel[0] == "agents":
            why = "a plugin's agents/ folder holds subagents, which are not skills or commands"
        else:
            why = "Claude Code loads a plugin's skills/<folder>/SKILL.md and commands/*.md, or the paths its manifest names"
        return None, f"{where}, but {why}", why
    if source.kind is SourceKind.COMMANDS:
        if not rel or not file.name.endswith(".md"):
            why = "Claude Code only loads .md files from a commands folder"
            return None, f"{where}, where {why[12:]}", why
        if file.name == "SKILL.md" and len(rel) >= 2:
            return ":".join(rel[:-1]), f"{where}: a folder with SKILL.md there is one command named by the folder", ""
        stem = ":".join((*rel[:-1], file.name[:-3]))
        return stem, f"{where}: each .md below it is a command, subfolders joined with `:`", ""
    if len(rel) == 2 and rel[1] == "SKILL.md":
        return rel[0], f"{where}, and {rel[0]}/SKILL.md is where Claude Code looks", ""
    if len(rel) == 1:
        why = "Claude Code only loads <folder>/SKILL.md in a skills folder, not a file directly in it"
    elif len(rel) == 2:
        why = f"Claude Code only loads a file named exactly SKILL.md in {rel[0]}/"
    else:
        why = f"Claude Code looks one level deep (<folder>/SKILL.md) and this file is {len(rel) - 1} levels down"
    return None, f"{where}, but {why}", why


def _trace_file(
    tracer: _Tracer,
    file: Path,
    folder: Path | None,
    source: Source,
    skill: Skill | None,
    overrides: dict[str, Any],
    kind: str = "path",
    found_as: str | None = None,
) -> Why:
    """Every gate for one file in `source`; `skill` is what the load made of it (None when it did
    not load). `found_as` replaces the root gate's sentence when the file was found by name."""
    own = source.kind is SourceKind.BUNDLED
    expected, where, not_there = _shape(file, source)
    diags = tracer.diagnostics(file, *(() if folder is None else (folder,)))
    notes = _notes(diags)
    owner = _owner(tracer, file, source) if skill is None and expected is None else None
    if owner is not None:
        why = (
            f"it is a file inside the folder of /{owner.name}, which is the skill: Claude Code never loads such a file as a skill"
        )
        tracer.set("root", Status.FAILED, f"{where.split(', but ')[0]}; {why}", notes)
        tracer.skip_rest("Claude Code does not look at this file")
        return tracer.result(kind, file, None, Outcome.NEVER_LOADS, f"it never loads because {why}")
    # A plugin may name skill folders and command files anywhere in it (its manifest): a file
    # out of the usual places that has a diagnostic was looked at.
    if skill is None and expected is None and (source.kind is not SourceKind.PLUGIN or not diags):
        tracer.set("root", Status.FAILED, where, notes)
        tracer.skip_rest("Claude Code does not look at this file")
        return tracer.result(kind, file, None, Outcome.NEVER_LOADS, f"it never loads because {not_there}")
    if own:
        tracer.set(
            "root",
            Status.FAILED,
            f"this is one of skilldeck's own bundled skills ({source.root}); Claude Code does not scan that folder",
        )
        tracer.skip_rest("Claude Code never finds the file")
        return tracer.result(
            kind,
            file,
            skill.name if skill else None,
            Outcome.NEVER_LOADS,
            "it never loads because it is skilldeck's own skill, not Claude Code's",
        )
    tracer.set("root", Status.PASSED, found_as or where)

    # Reserved names and the size limit come before Claude Code reads the file.
    rel = _relative(file, source)
    if source.kind in _SKILLS_TIERS and len(rel) == 2 and rel[0].casefold() == RESERVED:
        tracer.set(
            "reserved",
            Status.FAILED,
            f"Claude Code skips a folder named `{rel[0]}` in a skills folder: the name is reserved for synced skills",
        )
        tracer.skip_rest("Claude Code skips the folder by its name")
        return tracer.result(
            kind, file, rel[0], Outcome.NEVER_LOADS, f"it never loads because `{rel[0]}` is a reserved folder name"
        )
    tracer.set(
        "reserved",
        Status.PASSED if source.kind in _SKILLS_TIERS else Status.NOT_APPLICABLE,
        "the folder name is not reserved"
        if source.kind in _SKILLS_TIERS
        else "reserved folder names apply to skills folders only",
    )
    size = _size(file)
    if source.kind not in _SKILLS_TIERS:
        tracer.set("size", Status.NOT_APPLICABLE, f"Claude Code's {SIZE_LIMIT:,}-byte limit is recorded for skills folders only")
    elif size is not None and size > SIZE_LIMIT:
        tracer.set("size", Status.FAILED, f"Claude Code skips a SKILL.md over {SIZE_LIMIT:,} bytes; this one is {size:,} bytes")
        tracer.skip_rest("Claude Code does not read a file that large")
        return tracer.result(
            kind,
            file,
            skill.name if skill else expected,
            Outcome.NEVER_LOADS,
            f"it never loads because it is {size:,} bytes, over Claude Code's {SIZE_LIMIT:,}-byte limit",
        )
    else:
        tracer.set(
            "size",
            Status.PASSED if size is not None else Status.NOT_APPLICABLE,
            f"{size:,} bytes, within Claude Code's {SIZE_LIMIT:,}-byte limit"
            if size is not None
            else "not a regular file, so there is no size to check",
        )

    duplicate = next((d for d in diags if d.code == "duplicate-file"), None)
    if skill is None and duplicate is None:
        relevant = [d for d in diags if d.code not in _NOT_PARSE and not d.code.startswith("spec-")]
        blocking = [d for d in relevant if d.severity is Severity.ERROR] or relevant or diags
        if blocking:
            reason = blocking[0].message
        elif source.kind is SourceKind.PLUGIN:
            # The one way a plugin leaves a file in its usual place unread, without a word.
            reason = "the plugin's manifest names its own `skills` or `commands` paths, which replace the default folders"
        else:
            reason = "skilldeck found no skill in it and no diagnostic says why"
        tracer.set("parse", Status.FAILED, f"the file does not load: {reason}", notes)
        tracer.skip_rest("the file did not load")
        return tracer.result(
            kind,
            file,
            expected,
            Outcome.NEVER_LOADS,
            f"it never loads because Claude Code cannot use the file: {_clause(reason)}",
        )
    if skill is not None:
        tracer.set(
            "parse",
            Status.PASSED,
            _parse_sentence(skill),
            _notes(d for d in diags if d.code not in _NOT_PARSE),
        )
    else:
        tracer.set(
            "parse",
            Status.PASSED,
            "Claude Code reads it",
            _notes(d for d in diags if d.code not in _NOT_PARSE),
        )
    if duplicate is not None:
        tracer.set("dedup", Status.FAILED, f"Claude Code loads a file reached twice only once: {duplicate.message}")
        tracer.skip_rest("the same file already loaded under another path")
        return tracer.result(
            kind,
            file,
            duplicate.skill or expected,
            Outcome.NEVER_LOADS,
            "it never loads from here because the same file already loaded from an earlier path",
        )
    assert skill is not None
    return _trace_skill(tracer, skill, overrides, kind)


def _owner(tracer: _Tracer, file: Path, source: Source) -> Skill | None:
    """The loaded skill whose folder holds `file` (a reference, a script, a template), if any."""
    folder = file.parent
    for _ in range(32):  # bounded: a folder chain no deeper than any root Claude Code scans
        if folder == source.root or not _under(folder, source.root):
            return None
        skill = tracer.loaded_at(folder / "SKILL.md", through_links=False)
        if skill is not None:
            return skill
        folder = folder.parent
    return None


def _notes(diags: Iterable[Diagnostic]) -> list[str]:
    """Diagnostics as gate notes; the Agent Skills spec findings are left to the diagnostics pane,
    since they say what other clients do, not Claude Code."""
    return [f"{d.severity.value} {d.code}: {d.message}" for d in diags if not d.code.startswith("spec-")]


def _size(file: Path) -> int | None:
    try:
        st = os.stat(file)
    except (OSError, ValueError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def _clause(message: str) -> str:
    """A diagnostic's message as the end of a sentence (`Cannot read` -> `cannot read`, `YAML` kept)."""
    text = _q(message.rstrip(". "), 200)
    keep = text[1:2].isupper() or text.startswith("Claude")
    return text if keep else text[:1].lower() + text[1:]


def _parse_sentence(skill: Skill) -> str:
    kind = "command" if skill.loaded_from is LoadedFrom.COMMANDS else "skill"
    if skill.description_source == "frontmatter":
        desc = "the description from its frontmatter"
    elif skill.description_source == "body":
        desc = "the first line of its body as the description (no description: in the frontmatter)"
    else:
        desc = "a placeholder description (no description and an empty body)"
    return f"Claude Code reads it as the {kind} /{skill.name}, with {desc}"


# Names -------------------------------------------------------------------------------------------
def _trace_name(tracer: _Tracer, name: str, overrides: dict[str, Any], permissions: Permissions) -> Why:
    catalog = tracer.catalog
    skill = _named(catalog, name)
    if skill is not None:
        found = f"/{skill.name} comes from {skill.path}, in the {skill.source.label} tier ({skill.source.root})"
        return _trace_file(tracer, skill.path, None, skill.source, skill, overrides, "name", found)
    # A `name:` label (`- folder (label)` in the listing) finds its skill; a plugin skill's folder
    # part (`lint` of `tools:lint`) is no label.
    labelled = next(
        (s for s in catalog.skills.values() if s.display_name == name != s.name and not s.name.endswith(f":{name}")), None
    )
    if labelled is not None:
        found = (
            f"`{name}` is the name: label of /{labelled.name} ({labelled.path}); "
            f"Claude Code lists it as `{labelled.name} ({name})` and the label finds it"
        )
        return _trace_file(tracer, labelled.path, None, labelled.source, labelled, overrides, "name", found)
    # A file that would carry the name but did not load: trace it. Only plain parts, so that a
    # name never leads out of its root (`..:..:x`).
    parts = name.split(":")
    plain = all(p and p not in (".", "..") and "/" not in p and "\x00" not in p for p in parts)
    for source in catalog.sources if plain else ():
        if source.kind in _SKILLS_TIERS and len(parts) == 1:
            candidate = source.root / name / "SKILL.md"
            if _lexists(candidate):
                return _trace_file(
                    tracer,
                    candidate,
                    candidate.parent,
                    source,
                    tracer.loaded_at(candidate, through_links=False),
                    overrides,
                    "name",
                )
        if source.kind is SourceKind.COMMANDS:
            candidate = source.root.joinpath(*parts[:-1], parts[-1] + ".md")
            if _lexists(candidate):
                return _trace_file(
                    tracer, candidate, None, source, tracer.loaded_at(candidate, through_links=False), overrides, "name"
                )
    failed = next((d for d in catalog.diagnostics if d.skill == name and d.code not in _NOT_PARSE), None)
    source = tracer.holder(failed.path) if failed is not None else None
    if failed is not None and source is not None:
        if _isdir(failed.path):
            return _folder_without_skill(tracer, failed.path)
        return _trace_file(tracer, failed.path, None, source, None, overrides, "name")
    labels = {
        s.display_name for s in catalog.skills.values() if s.display_name != s.name and not s.name.endswith(f":{s.display_name}")
    }
    names = sorted({s.name for s in _every_skill(catalog)} | labels)
    suggestions = [n for n in names if n.endswith(f":{name}")]
    folded = name.casefold()
    suggestions += [n for n in difflib.get_close_matches(folded, names, n=3, cutoff=0.6) if n not in suggestions]
    checked = [f"{s.root} ({s.label})" for s in tracer.sources()]
    tracer.set(
        "root",
        Status.FAILED,
        f"no skill or command is named /{name} in any root Claude Code scans",
        ["checked: " + c for c in checked],
    )
    tracer.skip_rest("nothing has that name")
    hint = f"; did you mean {', '.join('/' + s for s in suggestions[:3])}?" if suggestions else ""
    return tracer.result(
        "name", None, name, Outcome.NOT_FOUND, f"it never loads because nothing is named /{name}{hint}", suggestions[:3]
    )


# After the load ----------------------------------------------------------------------------------
def _trace_skill(tracer: _Tracer, skill: Skill, overrides: dict[str, Any], kind: str) -> Why:
    catalog = tracer.catalog
    name = skill.name
    twins = [d.path for d in catalog.diagnostics if d.code == "duplicate-file" and str(skill.path) in d.message]
    tracer.set(
        "dedup",
        Status.PASSED,
        "no earlier path reaches this same file",
        [f"also reached as {p}; Claude Code loads it once, from here" for p in twins],
    )
    shadow = catalog.shadowed_entry(skill.path)
    if shadow is not None:
        winner = shadow.shadowed_by
        tracer.set(
            "shadowing",
            Status.FAILED,
            f"/{name} is also the {winner.source.label} skill at {winner.path}, which comes first: Claude Code keeps that one",
        )
        tracer.skip_rest(f"the {winner.source.label} skill of the same name is the one that loads")
        return tracer.result(
            kind,
            skill.path,
            name,
            Outcome.NEVER_LOADS,
            f"it never loads because the {winner.source.label} skill /{name} at {winner.path} comes first",
        )
    hidden = [f"hides the {s.skill.source.label} skill at {s.skill.path}" for s in catalog.shadowing(skill)]
    scoped = next((d for d in catalog.diagnostics_for(skill.path) if d.code == "scoped"), None)
    if scoped is not None:
        tracer.set("shadowing", Status.PASSED, _q(scoped.message), hidden)
    else:
        tracer.set("shadowing", Status.PASSED, f"/{name} is the first skill of that name, so Claude Code keeps it", hidden)

    setting = overrides.get(name)
    setting = setting if isinstance(setting, str) else "on"
    if setting == "off":
        tracer.set(
            "overrides",
            Status.FAILED,
            f"skillOverrides sets /{name} to off: Claude Code offers it neither in the listing nor as a command",
        )
        tracer.skip_rest("skillOverrides turns it off")
        return tracer.result(kind, skill.path, name, Outcome.NEVER_LOADS, "it never loads because skillOverrides turns it off")
    override_sentence = {
        "on": "no skillOverrides entry changes it",
        "name-only": "skillOverrides sets name-only: Claude Code lists its name without the description, whatever the budget",
        "user-invocable-only": "skillOverrides sets user-invocable-only: Claude Code leaves it out of the model's listing; "
        "typing it still runs it",
    }.get(setting, f"skillOverrides value `{_q(setting, 60)}` is not one Claude Code knows; it counts as on")
    tracer.set("overrides", Status.FAILED if setting == "user-invocable-only" else Status.PASSED, override_sentence)

    flags = _flag_notes(skill)
    later = _later(skill)
    if skill.disable_model_invocation:
        tracer.set(
            "invocation",
            Status.FAILED,
            "disable-model-invocation: true, so Claude Code leaves it out of the model's listing "
            "and refuses the model's Skill call",
            flags,
        )
    elif later is not None:
        tracer.set("invocation", Status.FAILED, f"Claude Code holds it back: it loads only {later}", flags)
    else:
        tracer.set(
            "invocation",
            Status.PASSED,
            "the model may invoke it" + ("" if skill.user_invocable else "; user-invocable: false keeps it out of the / menu"),
            flags,
        )

    denied = _permission_gate(tracer, skill)
    return _budget_and_verdict(tracer, skill, setting, later, kind, denied)


def _permission_gate(tracer: _Tracer, skill: Skill) -> bool:
    """The model's Skill call as Claude Code 2.1.328 decides it (recorded: why_skill_calls): a
    deny rule refuses it; an allow rule runs it; an ask rule is not applied (the call ran); with
    no rule, a skill that sets allowed-tools or hooks is asked, any other runs without asking.
    True when the call is refused. (skilldeck's own runs are stricter: engine.permissions asks
    where no rule allows.)"""
    name = skill.name
    permissions = tracer.permissions
    call = {"skill": name}
    deny = permissions.first_rule("deny", "Skill", call)
    if deny is not None:
        tracer.set(
            "permissions",
            Status.FAILED,
            f"the deny rule {deny.text} in {deny.file or deny.scope} makes Claude Code refuse the model's Skill call "
            f"for it; typing /{name} is not affected",
        )
        return True
    unreadable = permissions.settings.unreadable
    if unreadable:
        tracer.set(
            "permissions",
            Status.PASSED,
            f"{unreadable[0].path} could not be read, so whether a deny rule there refuses the model's Skill call is unknown",
        )
        return False
    allow = permissions.first_rule("allow", "Skill", call)
    ask = permissions.first_rule("ask", "Skill", call)
    asked = (
        f"; the ask rule {ask.text} in {ask.file or ask.scope} is not applied to it (a recorded session ran it)" if ask else ""
    )
    if allow is not None:
        sentence = f"the allow rule {allow.text} in {allow.file or allow.scope} lets the model's Skill call run without asking"
    else:
        risky = [f for f, v in (("allowed-tools", skill.allowed_tools), ("hooks", skill.hooks)) if v]
        if risky and not ask:
            sentence = (
                f"no Skill rule matches and it sets {' and '.join(risky)}, so Claude Code asks before the model's call runs it"
            )
        elif risky:
            sentence = f"it sets {' and '.join(risky)}, so Claude Code asks before the model's call runs it"
            asked = ""
        else:
            sentence = "no Skill rule is needed: it sets no allowed-tools or hooks, so the model's Skill call runs without asking"
    tracer.set("permissions", Status.PASSED, sentence + asked)
    return False


def _later(skill: Skill) -> str | None:
    """When a skill that is not there at session start becomes available, or None when it is there."""
    activation = _activation(skill)
    if activation == "start":
        return None
    if activation == "paths":
        return f"once a file matching paths: {_q(', '.join(skill.paths[:3]), 120)} is read or edited"
    scope = getattr(skill, "scope", "") or getattr(skill.source, "scope", "") or skill.source.root.parent.parent.name
    return f"once a file under {scope}/ is read or edited (a .claude/skills below the start folder), as /{skill.name}"


def _flag_notes(skill: Skill) -> list[str]:
    notes = []
    if not skill.user_invocable:
        notes.append("user-invocable: false: not offered in the / menu")
    if skill.context == "fork":
        notes.append(f"context: fork: it runs in a subagent{f' ({skill.agent})' if skill.agent else ''}, not in the conversation")
    if skill.paths:
        notes.append("paths: " + ", ".join(skill.paths[:5]))
    if skill.model:
        notes.append(f"model: {skill.model} while it runs")
    return notes


def _budget_and_verdict(tracer: _Tracer, skill: Skill, setting: str, later: str | None, kind: str, denied: bool) -> Why:
    listing = tracer.listing
    name = skill.name
    entry = next((e for e in listing.entries if e.name == name), None)
    refused = f"; Claude Code refuses the model's Skill call (a deny rule), so only typing /{name} runs it" if denied else ""
    figures = f"{listing.used:,} of {listing.budget:,.0f} characters, budget from {listing.budget_source or 'the default'}"
    own = [] if listing.own_counted else [OWN_SKILLS_NOTE]
    if skill.disable_model_invocation or setting == "user-invocable-only":
        why = "disable-model-invocation is set" if skill.disable_model_invocation else "skillOverrides sets user-invocable-only"
        tracer.set("budget", Status.NOT_APPLICABLE, "not in the listing, so it takes none of the budget")
        typed = f"; typing /{name} runs it" if skill.user_invocable else ""
        return tracer.result(
            kind, skill.path, name, Outcome.HIDDEN, f"it loads, but the model never sees it because {why}{typed}"
        )
    if later is not None:
        # Held back at start whatever a listing built without `activation` says (recorded:
        # load_synced_paths lists no `paths:` skill).
        tracer.set(
            "budget", Status.NOT_APPLICABLE, "not in the listing at the start of a session, so it takes none of the budget"
        )
        return tracer.result(
            kind,
            skill.path,
            name,
            Outcome.CONDITIONAL,
            f"the model sees it only {later}; until then it is not listed{refused}",
        )
    if entry is None:
        reason = (listing.left_out or {}).get(name, "skilldeck's listing does not hold it")
        tracer.set("budget", Status.NOT_APPLICABLE, f"not in the listing: {reason}")
        return tracer.result(
            kind, skill.path, name, Outcome.HIDDEN, f"it loads, but the model never sees it because {_clause(reason)}"
        )
    if entry.trimmed:
        tracer.set(
            "budget",
            Status.FAILED,
            f"the listing is over its budget ({figures}): Claude Code keeps the text of the most used skills first, "
            "and this one drops to its name",
            own,
        )
        return tracer.result(
            kind,
            skill.path,
            name,
            Outcome.NAME_ONLY,
            f"the model sees it as `{_q(entry.line, 200)}` (over budget, no description){refused}",
            line=entry.line,
        )
    if setting == "name-only":
        tracer.set("budget", Status.PASSED, f"a name-only line always stays whole ({figures})", own)
        return tracer.result(
            kind,
            skill.path,
            name,
            Outcome.NAME_ONLY,
            f"the model sees it as `{_q(entry.line, 200)}` (name only, by skillOverrides){refused}",
            line=entry.line,
        )
    capped = "; its text is cut at the description cap" if entry.capped else ""
    tracer.set("budget", Status.PASSED, f"it keeps its description ({figures}){capped}", own)
    verdict = f"the model sees it as `{_q(entry.line, 200)}`{refused}"
    return tracer.result(kind, skill.path, name, Outcome.LISTED, verdict, line=entry.line)
