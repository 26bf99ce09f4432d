"""The app's side of the rules pane: reading settings in a thread, writing and deleting rules."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from engine import PlacedRule, SettingsEditError, printable

from .messages import PermissionsLoaded
from .rules.pane import RulesPane
from .screens.confirm import ConfirmScreen

if TYPE_CHECKING:
    from .app import SkilldeckApp


class RulesActions:
    """Mixed into the app; file I/O happens in thread workers, never on the UI thread."""

    # Whether this session already asked to trust the project.
    trust_asked = False

    def _load_permissions(self: SkilldeckApp) -> None:  # type: ignore[misc]
        self.start_worker(
            self._read_permissions,
            "Reading the settings files",
            thread=True,
            exclusive=True,
            group="permissions",
            name="permissions",
        )

    def _read_permissions(self: SkilldeckApp) -> None:  # type: ignore[misc]
        self.post_message(PermissionsLoaded(self.workspace.permissions()))

    def on_permissions_loaded(self: SkilldeckApp, message: PermissionsLoaded) -> None:
        if not self.alive():
            return
        self.permissions = message.permissions
        pane = self.query_one(RulesPane)
        pane.show_rules(message.permissions, self.paths)
        pane.show_skill(self._current()[0])
        settings = message.permissions.settings
        if not settings.trust.trusted and not self.trust_asked and any(settings.ignored(r) for r in settings.rules):
            # Once per project and session, as Claude Code asks at its first start in a folder.
            self.trust_asked = True
            pane.post_message(RulesPane.TrustRequested())

    def on_rules_pane_edit_requested(self: SkilldeckApp, message: RulesPane.EditRequested) -> None:
        if message.behavior is not None:
            skill, _ = self._current()
            if skill is None:
                self.notify("Select a skill in the tiers tree first", severity="warning")
                return
            self.start_worker(
                partial(self._write_rule, f"Skill({skill.name})", message.behavior), "Saving the rule", thread=True, group="edit"
            )
            return
        rule = message.rule
        assert rule is not None
        if rule.scope not in ("local", "project", "user") or rule.file is None:
            self.notify(
                f"{rule.text} comes from {rule.scope} settings; skilldeck does not edit those", severity="warning", markup=False
            )
            return

        def confirmed(answer: bool | None) -> None:
            if answer:
                self.start_worker(partial(self._delete_rule, rule), "Deleting the rule", thread=True, group="edit")

        self.push_screen(
            ConfirmScreen(f"Delete the {rule.behavior} rule {rule.text}?", f"from {self.paths(rule.file)}"), confirmed
        )

    def _write_rule(self: SkilldeckApp, text: str, behavior: str) -> None:
        try:
            added = self.workspace.add_rule(text, behavior, "local")
        except SettingsEditError as exc:
            # The message names files and rules from disk: shown as text (never read as markup), and
            # with any terminal control made visible and inert.
            self.call_from_thread(self.notify, printable(str(exc)), severity="error", title="Not written", markup=False)
            return
        path = self.paths(self.workspace.settings_path("local"))
        note = f"{behavior} {text} written to {path}" if added else f"{text} is already in {path}"
        self.call_from_thread(self.notify, note, title="Rules", markup=False)
        self._read_permissions()

    def _delete_rule(self: SkilldeckApp, rule: PlacedRule) -> None:
        try:
            removed = self.workspace.remove_rule(rule.text, rule.scope, rule.behavior)
        except SettingsEditError as exc:
            self.call_from_thread(self.notify, printable(str(exc)), severity="error", title="Not removed", markup=False)
            return
        note = f"Deleted {rule.behavior} {rule.text}" if removed else f"{rule.text} was already gone"
        self.call_from_thread(self.notify, note, title="Rules", markup=False)
        self._read_permissions()

    def on_rules_pane_trust_requested(self: SkilldeckApp, message: RulesPane.TrustRequested) -> None:  # type: ignore[misc]
        def confirmed(answer: bool | None) -> None:
            if answer:
                self.start_worker(self._trust_project, "Trusting the project", thread=True, group="edit", name="trust")

        self.push_screen(
            ConfirmScreen(
                f"Trust {self.paths(self.workspace.locations.project)}?",
                "Its own .claude settings' allow rules and its skills' allowed-tools will approve tool calls, as after "
                "accepting Claude Code's trust dialog. Recorded in skilldeck's state, never in Claude Code's files.",
            ),
            confirmed,
        )

    def _trust_project(self: SkilldeckApp) -> None:  # type: ignore[misc]
        try:
            path = self.workspace.trust()
        except OSError as exc:
            self.call_from_thread(self.notify, f"Could not record trust: {exc}", severity="error", title="Not trusted")
            return
        self.call_from_thread(self.notify, f"Trusted; recorded in {self.paths(path)}", title="Rules")
        self._read_permissions()
