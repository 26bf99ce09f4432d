"""The settings edits the rules pane makes, run in its thread workers: each returns what to tell
the user, and never raises for a file it cannot write (an unparsable settings file, a read-only
folder): that is said, and nothing on disk is half-written (engine.permissions.settings_edit)."""

from __future__ import annotations

from dataclasses import dataclass

from engine import PlacedRule, SettingsEditError, Workspace, printable

from ..view import PathDisplay


@dataclass(frozen=True)
class Said:
    title: str
    # Names files and rules from disk: shown as text (never read as markup), any terminal control visible.
    message: str
    error: bool = False


def write_rule(workspace: Workspace, paths: PathDisplay, text: str, behavior: str) -> Said:
    """`a` and `d`: the rule in `behavior`'s list, and out of the file's other lists (an allow
    beside a deny of the same skill does nothing: the deny wins), saying what it replaced."""
    try:
        added, removed = workspace.set_rule(text, behavior, "local")
    except SettingsEditError as exc:
        return Said("Not written", printable(str(exc)), error=True)
    path = paths(workspace.settings_path("local"))
    replaced = f", replacing the {' and '.join(removed)} rule" if removed else ""
    said = f"{behavior} {text} written to {path}{replaced}" if added or removed else f"{behavior} {text} is already in {path}"
    if behavior == "allow" and not workspace.trust_state().trusted:
        # The project's own files' allow rules are ignored in a project not trusted (as in Claude Code).
        said += "; it does not count until the project is trusted (t on this pane)"
    return Said("Rules", printable(said))


def delete_rule(workspace: Workspace, rule: PlacedRule) -> Said:
    try:
        removed = workspace.remove_rule(rule.text, rule.scope, rule.behavior)
    except SettingsEditError as exc:
        return Said("Not removed", printable(str(exc)), error=True)
    return Said("Rules", printable(f"Deleted {rule.behavior} {rule.text}" if removed else f"{rule.text} was already gone"))


def trust(workspace: Workspace, paths: PathDisplay) -> Said:
    try:
        path = workspace.trust()
    except OSError as exc:
        return Said("Not trusted", printable(f"Could not record trust: {exc}"), error=True)
    return Said("Rules", printable(f"Trusted; recorded in {paths(path)}"))
