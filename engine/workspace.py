"""A workspace: the locations of one Claude Code session, and what can be done with them."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from .catalog.assembly import Catalog, Partial, Progress, build
from .catalog.diagnostics import Sink
from .catalog.locations import Locations
from .catalog.model import Skill, SourceKind
from .catalog.sources.tiers import collect, path_tiers
from .permissions.settings import Settings, read_settings
from .permissions.trust import Trust, claude_config, trust_workspace, workspace_trust

if TYPE_CHECKING:
    # Imported where they are used: a load (`skilldeck list`) needs neither the runner, the
    # prompt builder, the model backends, the saved conversations, the watcher (watchdog), the
    # listing, the permission rules nor the settings editor, and importing them took about
    # 0.15 s of every command.
    from .listing.build import Foreign, Listing
    from .llm import Backend
    from .permissions.decide import Decision, Permissions
    from .reload.watch import Callback, WatchHandle
    from .runner.events import Ask, ConfirmShell, Emit
    from .runner.invoke import Prompt
    from .runner.loop import Runner


class Workspace:
    def __init__(self, locations: Locations) -> None:
        self.locations = locations

    def load(self, progress: Progress | None = None, partial: Partial | None = None) -> Catalog:
        """Read every tier from disk now. Never raises for bad files: they become diagnostics.
        `partial` receives snapshots of a long load on the way (`Catalog.reading` set)."""
        started = time.perf_counter()
        sink = Sink()
        return build(collect(self.locations, sink), sink, progress, started, partial=partial)

    def watch(
        self,
        callback: Callback,
        debounce: float | None = None,
        progress: Progress | None = None,
        partial: Partial | None = None,
        also: tuple[Path, ...] = (),
    ) -> WatchHandle:
        """Load now (`handle.catalog`), then follow the disk: after each burst of changes,
        `callback(catalog, diff)` runs in a background thread. Stop with `handle.stop()`. `also`:
        more folders to follow (other agents' skill folders: `agent_roots`)."""
        from .reload.watch import DEBOUNCE_S, watch

        wait = DEBOUNCE_S if debounce is None else debounce
        return watch(self.locations, callback, wait, progress=progress, partial=partial, also=also)

    def permissions(self) -> Permissions:
        """The settings files as they are on disk now, ready to decide tool calls."""
        from .permissions.decide import Permissions

        return Permissions.load(self.locations)

    def check(self, tool: str, tool_input: dict[str, object], catalog: Catalog | None = None) -> Decision:
        """What a run decides for one call of the model's. A Skill call for a skill the catalog
        holds is decided as Claude Code decides the model's Skill calls (run unasked unless the
        skill sets allowed-tools, disallowed-tools or hooks; ask rules not applied), the same as
        `skilldeck run` and the app; any other call by the rules, modes and defaults."""
        permissions = self.permissions()
        if tool == "Skill" and catalog is not None:
            name = str(tool_input.get("skill", "")).strip().removeprefix("/")
            skill = catalog.skills.get(name)
            if skill is not None:
                return permissions.decide_skill_call(skill)
        return permissions.decide(tool, dict(tool_input))

    def backend(self, name: str | None = None) -> Backend:
        """The model backend a run uses: `anthropic` when named or when a key is set, else `offline`."""
        from .llm import backend_for

        return backend_for(name, self.locations.environ)

    def session(
        self,
        catalog: Catalog,
        *,
        backend: Backend,
        ask: Ask,
        emit: Emit,
        model: str | None = None,
        permissions: Permissions | None = None,
        resume: Path | None = None,
        confirm_shell: ConfirmShell | None = None,
    ) -> Runner:
        """A conversation with a model, the one place a run is put together: `send(text)`,
        `invoke(name, args, fork)` (a skill inline or forked), `proceed()` after a stop; cancel it by
        cancelling the task that awaits it. `ask` answers a call no rule allows, `emit` gets every
        RunEvent (engine/runner/events.py). `confirm_shell` is asked before a skill's `!` commands run in
        a project the user has not trusted. `resume`: a saved conversation to go on with (its torn
        lines are skipped, counted in `session.skipped`); OSError when it cannot be read."""
        environ = self.locations.environ
        # The model as Claude Code picks it (and as the listing's budget is sized): --model, then
        # ANTHROPIC_MODEL, then the settings' `model`; a skill's own `model:` still wins for its run.
        model = model or environ.get("ANTHROPIC_MODEL") or read_settings(self.locations).model
        from .runner.conversation import Transcript

        transcript = Transcript(resume, resume.stem) if resume else Transcript.create(environ=environ)
        from .runner.loop import Runner

        runner = Runner(
            locations=self.locations, catalog=catalog, backend=backend, permissions=permissions or self.permissions(),
            transcript=transcript, ask=ask, emit=emit, model=model, confirm_shell=confirm_shell,
        )  # fmt: skip
        if resume is not None:
            runner.skipped = runner.resume(resume)
        return runner

    def latest_session(self) -> Path | None:
        """The conversation saved last (`--resume` with no id)."""
        from .runner.conversation import latest_session

        return latest_session(self.locations.environ)

    def session_path(self, session_id: str) -> Path:
        from .runner.conversation import session_path

        return session_path(session_id, self.locations.environ)

    def trust_state(self) -> Trust:
        """Whether the project's own allow rules and skills' allowed-tools count (engine/permissions/trust.py)."""
        return workspace_trust(self.locations)

    def trust(self) -> Path:
        """Trust this project from now on, in skilldeck's own record; returns that file."""
        return trust_workspace(self.locations)

    def add_rule(self, rule: str, behavior: str, scope: str = "local") -> bool:
        """Write a rule into a settings file (default `.claude/settings.local.json`), atomically."""
        from .permissions.settings_edit import add_scoped_rule

        return add_scoped_rule(self.locations, scope, rule, behavior)

    def set_rule(self, rule: str, behavior: str, scope: str = "local") -> tuple[bool, list[str]]:
        """`add_rule` that also takes the rule out of that file's other lists (allow, ask, deny) in
        the same write: (added, the lists it was taken out of)."""
        from .permissions.settings_edit import scope_folder, scope_path, set_rule

        return set_rule(scope_path(self.locations, scope), rule, behavior, scope_folder(self.locations, scope))

    def settings_path(self, scope: str) -> Path:
        """The settings file an edit in `scope` (local, project, user) goes to."""
        from .permissions.settings_edit import scope_path

        return scope_path(self.locations, scope)

    def remove_rule(self, rule: str, scope: str = "local", behavior: str | None = None) -> list[str]:
        from .permissions.settings_edit import remove_rule, scope_folder, scope_path

        return remove_rule(scope_path(self.locations, scope), rule, behavior, scope_folder(self.locations, scope))

    def expand(self, catalog: Catalog, name: str, args: str = "", fork: bool | None = None, *, run_shell: bool = False) -> Prompt:
        """What invoking `name` would send, without calling any model. A preview runs none of the
        skill's `!` commands (they come from the repository: showing a prompt must not run its
        code); each is shown with what the rules would decide. `run_shell=True` runs the allowed
        ones, as a real run does. Raises InvocationError or ExpansionError with Claude Code's message
        (typing /name for a skill only the model may invoke is refused, as Claude Code refuses it)."""
        from .runner.invoke import build_prompt

        return build_prompt(
            self.locations, catalog, name, args, fork=fork, shell="execute" if run_shell else "preview", typed=True
        )

    def slash_commands(self, catalog: Catalog) -> list[Skill]:
        """The skills a user can type as /name: user-invocable, and not turned `off` by skillOverrides."""
        settings = read_settings(self.locations)
        return [s for s in catalog.skills.values() if s.user_invocable and _override(settings, s) != "off"]

    def listing(
        self,
        catalog: Catalog,
        budget: float | None = None,
        model: str | None = None,
        now_ms: float | None = None,
        foreign: Sequence[Foreign] = (),
        recorded_own: bool = True,
    ) -> Listing:
        """The listing Claude Code would send for this catalog: its budget from the environment,
        the settings and the model (`--model`, else $ANTHROPIC_MODEL, else the `model` setting,
        else Claude Code's default), usage scores from ~/.claude.json at `now_ms`, and
        skillOverrides. `foreign` places skills skilldeck did not load (Claude Code's own); when
        none are given (and `recorded_own`), those the last `skilldeck compare` in this project
        recorded (engine/listing/claude_own.py), named in `Listing.own_from`."""
        from .listing.build import Budget, build_listing, listing_budget, usage_scores
        from .listing.claude_own import read_own, stale_own

        own = read_own(self.locations.environ, self.locations.project) if recorded_own and not foreign else None
        # A recording from another Claude Code than the user's now is not counted, and says why.
        stale = stale_own(self.locations.environ, own) if own is not None else None
        if stale is not None:
            own = None
        if own is not None:
            foreign = own.entries
        settings = read_settings(self.locations)
        env = self.locations.environ
        model = model or env.get("ANTHROPIC_MODEL") or settings.model
        fraction = settings.listing_budget_fraction
        chosen = Budget(budget, "--budget") if budget is not None else listing_budget(env, fraction, model)
        now = time.time() * 1000 if now_ms is None else now_ms
        recorded = claude_config(self.locations).get("skillUsage")
        # Only the catalog's names: skillUsage keeps every skill ever used (100,000 entries cost
        # 80 ms of every reload), and a name not in the catalog has no line to order.
        if isinstance(recorded, dict) and len(recorded) > len(catalog.skills):
            recorded = {name: recorded[name] for name in catalog.skills if name in recorded}
        usage = usage_scores(recorded, now)
        overrides = {s.name: value for s in catalog.skills.values() if (value := _override(settings, s)) != "on"}
        listing = build_listing(
            catalog.skills.values(),
            chosen,
            usage,
            max_desc_chars=settings.listing_max_desc_chars,
            overrides=overrides,
            foreign=foreign,
            deferred=catalog.deferred,
        )
        if own is not None:
            return replace(listing, own_from=own.label)
        return replace(listing, own_stale=stale) if stale is not None else listing


def _override(settings: Settings, skill: Skill) -> str:
    """The skillOverrides value for a skill: a plugin's skills answer to managed settings only."""
    table = settings.plugin_skill_overrides if skill.source.kind is SourceKind.PLUGIN else settings.skill_overrides
    return str(table.get(skill.name, "on"))


def load_paths(paths: Sequence[Path]) -> Catalog:
    """A catalog of just the given skill folders, SKILL.md files or skills folders."""
    started = time.perf_counter()
    sink = Sink()
    return build(path_tiers(list(paths), sink), sink, None, started)
