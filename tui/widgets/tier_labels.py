"""How the tiers tree labels its lines: a tier (its counts, its folder cut in the middle when the
line is short), a skill (its marks), a held-back and a shadowed skill.

Names, plugin labels and folders come from files: each goes through `printable` (tui/untrusted.py)."""

from __future__ import annotations

from rich.text import Text

from engine import Severity, Shadowed, Skill, printable

from ..view import CatalogView, PathDisplay, TierView


def tier_path(tier: TierView, paths: PathDisplay) -> str:
    return printable(paths(tier.source.root))


def tier_label(tier: TierView, paths: PathDisplay, doctor: tuple[int, int] | None = None) -> Text:
    """A tier's line; `doctor`, a plugin's (errors, warnings) from the plugin doctor (3 shows them)."""
    count = len(tier.skills) + len(tier.own)
    text = Text.assemble((printable(tier.source.label), "bold"), "  ", (f"{count} skill{'s' if count != 1 else ''}", "dim"))
    if tier.shadowed:
        text.append(f" +{len(tier.shadowed)} shadowed", "dim")
    if tier.deferred:
        text.append(f" +{len(tier.deferred)} held back", "dim")
    if tier.errors:
        text.append(f"  ✗{tier.errors}", "bold red")
    if tier.warnings:
        text.append(f"  ⚠{tier.warnings}", "yellow")
    if doctor and any(doctor):
        errors, warnings = doctor
        text.append("  doctor", "magenta")
        text.append(f" ✗{errors}" if errors else "", "bold red")
        text.append(f" ⚠{warnings}" if warnings else "", "yellow")
    text.append(f"  {tier_path(tier, paths)}", "dim italic")
    return text


def middle_cut_sizes(length: int, room: int) -> tuple[int, int]:
    """How much of the start and of the end of a `length`-character text to keep around an
    ellipsis to fit `room` cells (a plugin's folder is told apart by its end, `…/plugins/name`, not by
    the home folder all of them start with)."""
    head = (room - 1) // 4
    return head, room - 1 - head


def shown_name(skill: Skill) -> str:
    """A skill's name as its row shows it: under a plugin's tier without the `plugin:` every row
    of the tier would repeat."""
    plugin = skill.source.plugin
    return skill.name.removeprefix(f"{plugin}:") if plugin else skill.name


def skill_label(skill: Skill, view: CatalogView) -> Text:
    text = Text(printable(shown_name(skill)))
    worst = view.worst(skill.path)
    if worst is Severity.ERROR:
        text.append(" ✗", "bold red")
    elif worst is Severity.WARNING:
        text.append(" ⚠", "yellow")
    marks = []
    if skill.context == "fork":
        marks.append("fork")
    if not skill.model_invocable:
        marks.append("user only")
    elif not skill.user_invocable:
        marks.append("model only")
    if marks:
        text.append("  " + " · ".join(marks), "dim cyan")
    return text


# How Claude Code adds a held-back skill later in a session (Skill.activation).
HELD_BACK = {"paths": "held back: listed once a file matching its paths: is touched",
             "nested": "held back: loads once a file under its folder is touched"}  # fmt: skip


def deferred_label(skill: Skill) -> Text:
    return Text.assemble(
        (printable(shown_name(skill)), "dim italic"), (f"  {HELD_BACK.get(skill.activation, 'held back')}", "dim cyan")
    )


def shadow_label(entry: Shadowed) -> Text:
    return Text.assemble(
        (printable(shown_name(entry.skill)), "dim strike"), (f"  ← {printable(entry.shadowed_by.source.label)}", "dim")
    )


def fit_tier(text: Text, path: str, room: int) -> Text:
    """A tier's line too long for `room` cells: its folder is cut in the middle, so that its end
    still shows (slices of the label keep their styles); failing that, the end is cut."""
    if not room or text.cell_len <= room:
        return text
    start = len(text) - len(path)
    if path and text.plain.endswith(path) and text[:start].cell_len + 8 <= room:
        head, tail = middle_cut_sizes(len(path), room - text[:start].cell_len)
        mark = text[start + head : start + head + 1]
        mark.plain = "…"
        return text[: start + head] + mark + text[len(text) - tail :]
    text.truncate(room, overflow="ellipsis")
    return text
