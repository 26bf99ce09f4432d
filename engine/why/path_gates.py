"""The gates a file meets before Claude Code reads it, decided by where it is and how large:
root (which scanned folder holds it, and whether Claude Code looks at that place in it),
reserved (a skills folder entry named `synced`) and size (each kind of file has its limit)."""

from __future__ import annotations

from pathlib import Path

from ..catalog.model import Diagnostic, LoadedFrom, Skill, Source, SourceKind
from ..catalog.skillfile import size_limit
from .files import relative, size, under
from .result import Outcome, Status, Why
from .tracer import SKILLS_TIERS, Tracer, every_skill, notes_of, quote

# A skills folder entry with this name is reserved for synced skills (debug log: "skipping reserved
# dir name 'synced'"); legacy commands and plugins are not concerned.
RESERVED = "synced"
# The loader's format for a file that did not load, by its tier (a loaded one says its own).
_LOADED_FROM = {
    SourceKind.PLUGIN: LoadedFrom.PLUGIN,
    SourceKind.COMMANDS: LoadedFrom.COMMANDS,
    SourceKind.BUNDLED: LoadedFrom.BUNDLED,
}


# Root ----------------------------------------------------------------------------------------------
def root_hint(tracer: Tracer, file: Path, project: Path | None, git_root: Path | None) -> str:
    """Why a file in some `.claude/skills` or `.claude/commands`, or in a plugin, is not in any scanned root."""
    for diag in tracer.catalog.diagnostics:
        # A plugin Claude Code rejects, that settings switch off, or installed for another project.
        if diag.code not in ("plugin-manifest", "plugin-off", "plugin-scope"):
            continue
        plugin = diag.path.parent.parent if diag.path.parent.name == ".claude-plugin" else diag.path
        loaded = any(source.root == plugin for source in tracer.catalog.sources)
        if plugin != Path("/") and not loaded and under(file, plugin):
            return f"the plugin at {plugin} is not loaded: {quote(diag.message, 200)}"
    parts = file.parts
    for index in range(len(parts) - 2, 0, -1):
        if parts[index] in ("skills", "commands") and parts[index - 1] == ".claude":
            base = Path(*parts[: index - 1])
            if project is not None and base != project and under(base, project) and parts[index] == "commands":
                return "Claude Code reads .claude/commands only from the start folder up to the repository root"
            if project is not None and base != project and under(base, project):
                return (
                    f"its folder {base} is below the start folder: Claude Code loads a nested .claude/{parts[index]} only "
                    f"once a file under {base} is touched (as <folder>:<name> when an earlier skill has the name)"
                )
            if project is not None and under(project, base):
                stop = git_root or project
                return f"Claude Code's project walk goes from the start folder up to {stop} and stops there"
            return f"start Claude Code with --add-dir {base} to load it"
    return "Claude Code reads skills only from .claude/skills/<folder>/SKILL.md and commands from .claude/commands/"


def folder_without_skill(tracer: Tracer, folder: Path) -> Why:
    source = tracer.holder(folder)
    notes = notes_of(tracer.diagnostics(folder))
    is_root = any(folder == s.root for s in tracer.catalog.sources)
    if is_root:
        count = sum(1 for s in every_skill(tracer.catalog) if s.source.root == folder)
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


def shape(file: Path, source: Source) -> tuple[str | None, str, str]:
    """(the name Claude Code would give the file, or None when it does not look there; the
    sentence of the root gate; why it does not look there, as the end of a sentence)."""
    rel = relative(file, source)
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


def owner_of(tracer: Tracer, file: Path, source: Source) -> Skill | None:
    """The loaded skill whose folder holds `file` (a reference, a script, a template), if any."""
    folder = file.parent
    for _ in range(32):  # bounded: a folder chain no deeper than any root Claude Code scans
        if folder == source.root or not under(folder, source.root):
            return None
        skill = tracer.loaded_at(folder / "SKILL.md", through_links=False)
        if skill is not None:
            return skill
        folder = folder.parent
    return None


def _switched_off(tracer: Tracer, file: Path) -> Diagnostic | None:
    for diag in tracer.catalog.diagnostics:
        if diag.code == "plugin-off" and diag.path != file and under(file, diag.path):
            return diag
    return None


def root_gate(
    tracer: Tracer,
    file: Path,
    source: Source,
    skill: Skill | None,
    diags: list[Diagnostic],
    kind: str,
    found_as: str | None,
) -> tuple[str | None, Why | None]:
    """The root gate for a file in `source`: the name Claude Code would give it (see `shape`),
    and the result when Claude Code never looks at it. `found_as` replaces the gate's sentence
    when the file was found by name."""
    expected, where, not_there = shape(file, source)
    notes = notes_of(diags)
    off = _switched_off(tracer, file) if skill is None else None
    if off is not None:
        # A skills-folder plugin switched off: its SKILL.md and inner skills sit in a scanned root
        # yet Claude Code loads none of them (recorded: plugin_off_skills_dir).
        why = f"the plugin at {off.path} is not loaded: {quote(off.message, 200)}"
        tracer.set("root", Status.FAILED, why, notes)
        tracer.skip_rest("Claude Code does not look at this file")
        return expected, tracer.result(kind, file, None, Outcome.NEVER_LOADS, f"it never loads because {why}")
    owner = owner_of(tracer, file, source) if skill is None and expected is None else None
    if owner is not None:
        why = (
            f"it is a file inside the folder of /{owner.name}, which is the skill: Claude Code never loads such a file as a skill"
        )
        tracer.set("root", Status.FAILED, f"{where.split(', but ')[0]}; {why}", notes)
        tracer.skip_rest("Claude Code does not look at this file")
        return expected, tracer.result(kind, file, None, Outcome.NEVER_LOADS, f"it never loads because {why}")
    # A plugin may name skill folders and command files anywhere in it (its manifest): a file
    # out of the usual places that has a diagnostic was looked at.
    if skill is None and expected is None and (source.kind is not SourceKind.PLUGIN or not diags):
        tracer.set("root", Status.FAILED, where, notes)
        tracer.skip_rest("Claude Code does not look at this file")
        return expected, tracer.result(kind, file, None, Outcome.NEVER_LOADS, f"it never loads because {not_there}")
    if source.kind is SourceKind.BUNDLED:
        tracer.set(
            "root",
            Status.FAILED,
            f"this is one of skilldeck's own bundled skills ({source.root}); Claude Code does not scan that folder",
        )
        tracer.skip_rest("Claude Code never finds the file")
        return expected, tracer.result(
            kind,
            file,
            skill.name if skill else None,
            Outcome.NEVER_LOADS,
            "it never loads because it is skilldeck's own skill, not Claude Code's",
        )
    tracer.set("root", Status.PASSED, found_as or where)
    return expected, None


# Reserved names and the size limit come before Claude Code reads the file. -------------------------
def reserved_gate(tracer: Tracer, file: Path, source: Source, kind: str) -> Why | None:
    rel = relative(file, source)
    if source.kind in SKILLS_TIERS and len(rel) == 2 and rel[0].casefold() == RESERVED:
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
        Status.PASSED if source.kind in SKILLS_TIERS else Status.NOT_APPLICABLE,
        "the folder name is not reserved"
        if source.kind in SKILLS_TIERS
        else "reserved folder names apply to skills folders only",
    )
    return None


def _kind_of_file(file: Path, loaded_from: LoadedFrom) -> str:
    """The kind of file a limit applies to, as the object of a sentence."""
    if loaded_from is LoadedFrom.PLUGIN:
        return "a plugin's skill or command file"
    if loaded_from is LoadedFrom.COMMANDS:
        return "a SKILL.md under commands/" if file.name == "SKILL.md" else "a command file"
    return "a SKILL.md in a skills folder"


def size_gate(tracer: Tracer, file: Path, source: Source, skill: Skill | None, expected: str | None, kind: str) -> Why | None:
    """Claude Code 2.1.328 skips a SKILL.md in a skills folder over 1,000,000 bytes, and a command
    file, a SKILL.md under commands/ or a plugin's skill or command file over 1,048,576 (recorded:
    fm_file_size, fm_plugin_size). The limit follows how the file is read, so an unloaded file's
    comes from its tier."""
    loaded_from = skill.loaded_from if skill is not None else _LOADED_FROM.get(source.kind, LoadedFrom.SKILLS)
    limit = size_limit(loaded_from)
    what = _kind_of_file(file, loaded_from)
    found = size(file)
    if found is not None and found > limit:
        tracer.set("size", Status.FAILED, f"Claude Code skips {what} over {limit:,} bytes; this one is {found:,} bytes")
        tracer.skip_rest("Claude Code does not read a file that large")
        return tracer.result(
            kind,
            file,
            skill.name if skill else expected,
            Outcome.NEVER_LOADS,
            f"it never loads because it is {found:,} bytes, over Claude Code's {limit:,}-byte limit for {what}",
        )
    tracer.set(
        "size",
        Status.PASSED if found is not None else Status.NOT_APPLICABLE,
        f"{found:,} bytes, within Claude Code's {limit:,}-byte limit for {what}"
        if found is not None
        else "not a regular file, so there is no size to check",
    )
    return None
