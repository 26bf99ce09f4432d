"""The permission rules pane: every rule by file in precedence order, and what they decide for
the selected skill (its Skill-tool call, and what its `allowed-tools` pre-approve).

Rules, reasons (which quote rules), paths and skill names come from files: each goes through
`printable` (tui/untrusted.py)."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from rich.console import Group
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Static

from engine import Permissions, PlacedRule, Skill, call_from_rule, printable

from ..deck import Deck
from ..messages import PermissionsLoaded
from ..screens.confirm import ConfirmScreen
from ..view import PathDisplay
from ..widgets.details import diagnostics_block
from ..widgets.navigation import NavTree
from .edits import Said, delete_rule, trust, write_rule

STYLE = {"allow": "bold green", "ask": "bold yellow", "deny": "bold red"}


def skill_summary(permissions: Permissions, skill: Skill, paths: PathDisplay) -> Group:
    name = printable(skill.name)
    lines = [Text.assemble(("/" + name, "bold"), ("  what the rules decide", "dim"))]
    decision = permissions.decide_skill_call(skill)
    where = f"  {printable(paths(decision.file))}" if decision.file else ""
    if not skill.model_invocable:
        lines.append(Text("Model's Skill tool: never (disable-model-invocation: true)", "dim"))
    else:
        lines.append(
            Text.assemble(
                "Model's Skill tool: ",
                (decision.decision, STYLE[decision.decision]),
                f"  {printable(decision.reason)}",
                (where, "dim"),
            )
        )
    if skill.user_invocable:
        lines.append(Text("Typing /" + name + ": runs; Skill rules only gate the model, never a user's /command", "cyan"))
    else:
        lines.append(Text("Typing /" + name + ": blocked (user-invocable: false)", "dim"))
    if skill.allowed_tools and not permissions.settings.trust.trusted and permissions.from_repository(skill):
        lines.append(Text("Its allowed-tools pre-approve nothing: this project is not trusted yet (t on this pane)", "yellow"))
    elif skill.allowed_tools:
        running = permissions.with_allowed_tools(skill)
        lines.append(Text("While it runs, allowed-tools pre-approve (they never restrict):", "bold"))
        for entry in skill.allowed_tools:
            call, shown = call_from_rule(entry), printable(entry)
            if call is None:
                lines.append(Text(f"  {shown}: not a rule, ignored", "red"))
                continue
            result = running.decide(*call)
            if result.decision == "allow":
                lines.append(Text.assemble(f"  {shown}: ", ("pre-approved", "green")))
            else:
                lines.append(
                    Text.assemble(
                        f"  {shown}: still ", (result.decision, STYLE[result.decision]), f", {printable(result.reason)}"
                    )
                )
    else:
        lines.append(Text("No allowed-tools: every tool call follows the rules below.", "dim"))
    return Group(*lines)


class RulesTree(NavTree[PlacedRule | Path | None]):
    """A line per settings file (its path as data), and its rules below it."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__("rules", **kwargs)

    @property
    def current(self) -> PlacedRule | None:
        """The rule under the cursor (None on a file's line)."""
        data = self.cursor_node.data if self.cursor_node is not None else None
        return data if isinstance(data, PlacedRule) else None

    @property
    def current_file(self) -> Path | None:
        """The settings file of the line under the cursor: a file's own line, or a rule's file."""
        data = self.cursor_node.data if self.cursor_node is not None else None
        return data.file if isinstance(data, PlacedRule) else data


class RulesPane(Vertical):
    """Reads the settings files in its own thread workers and writes rules there too: nothing
    here touches a file on the UI loop. Each new read is posted as PermissionsLoaded, which
    bubbles on to the app (runs and traces decide with it)."""

    BINDINGS = [
        Binding("a", "edit('allow')", "Allow skill", id="rules.allow"),
        Binding("d", "edit('deny')", "Deny skill", id="rules.deny"),
        Binding("x", "delete", "Delete rule", id="rules.delete"),
        Binding("t", "trust", "Trust project", id="rules.trust"),
    ]

    def __init__(self, deck: Deck, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.deck = deck
        self.permissions: Permissions | None = None
        self.skill: Skill | None = None
        # The skill whose summary (what the rules decide for it) is on screen.
        self.summary_for: Skill | None = None
        # Whether this session already asked to trust the project.
        self.trust_asked = False

    def compose(self) -> ComposeResult:
        yield Static("Reading settings…", id="rules-skill")
        yield RulesTree(id="rules-tree")
        yield Static(id="rules-diagnostics")

    # Reading and writing, in threads ------------------------------------------------------------
    def load(self) -> None:
        """Read the settings files again (they are watched with the tiers)."""
        self.deck.start(self, self._read, "Reading the settings files", thread=True, exclusive=True, group="permissions")

    def _read(self) -> None:
        self.post_message(PermissionsLoaded(self.deck.workspace.permissions()))

    def _edit(self, work: Callable[[], Said], what: str, writes: Path | None = None) -> None:
        if writes is not None:
            self.deck.note_written(writes)  # its toast says it: the watcher's change need not again

        def edit() -> None:
            said = work()
            self.app.call_from_thread(self._say, said)
            self._read()

        self.deck.start(self, edit, what, thread=True, group="edit")

    def _say(self, said: Said) -> None:
        self.app.notify(said.message, title=said.title, severity="error" if said.error else "information", markup=False)

    def on_permissions_loaded(self, message: PermissionsLoaded) -> None:
        self.show_rules(message.permissions)
        self.show_skill(self.skill)
        settings = message.permissions.settings
        if not settings.trust.trusted and not self.trust_asked and any(settings.ignored(r) for r in settings.rules):
            # Once per project and session, where Claude Code asks at its first start in a folder: said,
            # not asked. A y/n question popped up under the user's typing, where a `y` trusted the clone.
            self.trust_asked = True
            self.app.notify(
                "This project is not trusted: its own allow rules and its skills' allowed-tools do not count "
                "(Claude Code asks at its first start here). t on the Rules pane trusts it.",
                title="Not trusted",
                severity="warning",
                timeout=15,
            )

    # Drawing ----------------------------------------------------------------------------------
    def show_rules(self, permissions: Permissions) -> None:
        self.permissions = permissions
        paths = self.deck.paths
        settings = permissions.settings
        tree = self.query_one(RulesTree)
        tree.clear()
        # Tree.clear keeps the old cursor node: reset it, so the line set below announces its node.
        tree.cursor_line = -1
        # Lines as drawn (every file expanded): a file's line, then its rules.
        rows, first_rule = 0, None
        for f in settings.files:
            where = printable(paths(f.path))
            if not f.exists:
                label = Text.assemble((f.scope, "bold"), (f"  {where}  (absent)", "dim"))
            elif not f.ok:
                label = Text.assemble((f.scope, "bold"), f"  {where}", ("  invalid JSON, skipped", "bold red"))
            else:
                label = Text.assemble((f.scope, "bold"), f"  {where}")
            node = tree.root.add(label, f.path, expand=True)
            placed_here = [r for r in settings.rules if r.file == f.path]
            if first_rule is None and placed_here:
                first_rule = rows + 1
            rows += 1 + len(placed_here)
            for placed in placed_here:
                ignored = settings.ignored(placed) is not None
                node.add_leaf(
                    Text.assemble(
                        (f"{placed.behavior:<5} ", STYLE[placed.behavior]),
                        (printable(placed.text), "strike dim" if ignored else ""),
                    ),
                    placed,
                )
        # The cursor is drawn from the start, on the first rule (the file's line when none).
        tree.cursor_line = first_rule or 0
        notes = []
        if not settings.trust.trusted:
            notes.append(
                Text(
                    "This project is not trusted: its own allow rules (struck through) and its skills' allowed-tools "
                    "approve nothing, as in Claude Code before its trust dialog. t: trust this project",
                    "yellow",
                )
            )
        if settings.allow_managed_permission_rules_only:
            notes.append(Text("allowManagedPermissionRulesOnly: only managed rules apply (others struck through)", "yellow"))
        if settings.disable_skill_shell_execution:
            notes.append(Text("disableSkillShellExecution: skills' !`command` lines do not run", "yellow"))
        notes.append(Text("a: allow the selected skill · d: deny it (.claude/settings.local.json) · x: delete a rule", "dim"))
        if settings.diagnostics:
            notes.append(diagnostics_block(settings.diagnostics, paths))  # type: ignore[arg-type]
        self.query_one("#rules-diagnostics", Static).update(Group(*notes))

    def show_skill(self, skill: Skill | None) -> None:
        self.skill = skill
        permissions, paths = self.permissions, self.deck.paths
        if permissions is None:
            return
        if skill is None:
            self.query_one("#rules-skill", Static).update(Text("Select a skill to see what the rules decide for it.", "dim"))
            return

        def build() -> None:
            # In a thread: deciding reads the disk (where paths lead, what a wildcard in an
            # allowed-tools rule matches), which a cloned skill can make slow.
            summary = skill_summary(permissions, skill, paths)
            self.app.call_from_thread(self._show_summary, skill, permissions, summary)

        self.deck.start(self, build, "Working out what the rules decide", thread=True, exclusive=True, group="rules-skill")

    def _show_summary(self, skill: Skill, permissions: Permissions, summary: Group) -> None:
        if skill is self.skill and permissions is self.permissions:  # else a newer one is on its way
            self.query_one("#rules-skill", Static).update(summary)
            self.summary_for = skill

    @property
    def settled(self) -> bool:
        """The summary shown is the selected skill's (for tests and screenshots to wait on)."""
        return self.permissions is None or self.skill is None or self.summary_for is self.skill

    # Keys -------------------------------------------------------------------------------------
    def action_edit(self, behavior: str) -> None:
        skill = self.skill
        if skill is None:
            self.app.notify("Select a skill in the tiers tree first", severity="warning")
            return
        if self.deck.refused_in_preview(self, "a rule for its skills is worth writing"):
            return
        workspace, paths = self.deck.workspace, self.deck.paths
        rule = f"Skill({skill.name})"
        self._edit(partial(write_rule, workspace, paths, rule, behavior), "Saving the rule", workspace.settings_path("local"))

    def action_delete(self) -> None:
        rule = self.query_one(RulesTree).current
        if rule is None:
            self.app.notify("Put the cursor on a rule first", severity="warning")
            return
        if rule.scope not in ("local", "project", "user") or rule.file is None:
            self.app.notify(f"{rule.text} comes from {rule.scope} settings; skilldeck does not edit those", severity="warning")
            return

        def confirmed(answer: bool | None) -> None:
            if answer:
                self._edit(partial(delete_rule, self.deck.workspace, rule), "Deleting the rule", rule.file)

        self.app.push_screen(
            ConfirmScreen(f"Delete the {rule.behavior} rule {rule.text}?", f"from {self.deck.paths(rule.file)}"), confirmed
        )

    def action_trust(self) -> None:
        if self.deck.refused_in_preview(self, "trusting a project matters"):
            return
        if self.permissions is not None and self.permissions.settings.trust.trusted:
            # The source names a file (a path in a cloned repository): shown, never parsed as markup.
            self.app.notify(printable(self.permissions.settings.trust.source), title="Already trusted", markup=False)
            return
        self._ask_trust()

    def _ask_trust(self) -> None:
        def confirmed(answer: bool | None) -> None:
            if answer:
                self._edit(partial(trust, self.deck.workspace, self.deck.paths), "Trusting the project")

        self.app.push_screen(
            ConfirmScreen(
                f"Trust {self.deck.paths(self.deck.workspace.locations.project)}?",
                "Its own .claude settings' allow rules and its skills' allowed-tools will approve tool calls, as after "
                "accepting Claude Code's trust dialog. Recorded in skilldeck's state, never in Claude Code's files.",
            ),
            confirmed,
        )
