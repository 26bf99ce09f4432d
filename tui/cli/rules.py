"""`skilldeck rules | check | allow | ask | deny | unrule | prompt`: rules and invocations from the shell."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from rich.markup import escape

from engine import (
    EDITABLE_SCOPES,
    ExpansionError,
    InvocationError,
    SettingsEditError,
    Workspace,
    call_from_rule,
    close_names,
    json_printable,
    printable,
)

from . import render

# `check`'s exit status, for scripts: `skilldeck check 'Bash(rm -rf x)' || ...`.
CHECK_EXIT = {"allow": 0, "ask": 1, "deny": 2}
# The tools Claude Code 2.1.328 sends in its requests (tests/oracle/recordings), the ones it loads
# on demand, and older names its rules still take. A rule on any other name matches no call.
KNOWN_TOOLS = frozenset(
    {
        "Agent", "Bash", "Edit", "Glob", "Grep", "ListAgents", "Read", "ReportFindings", "ScheduleWakeup", "Skill",
        "ToolSearch", "Workflow", "Write",
        "AskUserQuestion", "BashOutput", "EnterPlanMode", "ExitPlanMode", "KillShell", "LS", "MultiEdit", "NotebookEdit",
        "NotebookRead", "SlashCommand", "Task", "TaskOutput", "TaskStop", "TodoWrite", "WebFetch", "WebSearch",
    }
)  # fmt: skip


def run_prompt(args: argparse.Namespace, workspace: Workspace) -> int:
    catalog = workspace.load()
    if render.unknown_typed(args.name, catalog) is not None:
        return 1
    text = args.args[0] if len(args.args) == 1 else shlex.join(args.args)
    try:
        prompt = workspace.expand(catalog, args.name, text, fork=args.fork, run_shell=args.run_shell)
    except (InvocationError, ExpansionError) as exc:
        # The message quotes the skill's own text (the pattern): shown, never interpreted.
        render.err.print(f"[red]{escape(printable(str(exc)))}[/]")
        return 1
    if args.json:
        # json.dumps escapes C0 controls; json_printable escapes the DEL and C1 it leaves raw.
        sys.stdout.write(json_printable(json.dumps(prompt.to_dict(), indent=2, ensure_ascii=False)) + "\n")
    else:
        render.prompt_view(prompt)
    return 0


def run(command: str, args: argparse.Namespace, workspace: Workspace) -> int:
    if command == "rules":
        permissions = workspace.permissions()
        if args.json:
            settings = permissions.settings
            out = {
                "files": [{"scope": f.scope, "path": str(f.path), "exists": f.exists, "ok": f.ok} for f in settings.files],
                "rules": [
                    {"rule": r.text, "behavior": r.behavior, "scope": r.scope, "file": str(r.file)} for r in settings.rules
                ],
                "diagnostics": [d.to_dict() for d in settings.diagnostics],
                "allow_managed_permission_rules_only": settings.allow_managed_permission_rules_only,
                "disable_skill_shell_execution": settings.disable_skill_shell_execution,
                "trusted": settings.trust.trusted,
                "ignored": [
                    {"rule": r.text, "scope": r.scope, "why": settings.ignored(r)} for r in settings.rules if settings.ignored(r)
                ],
            }
            json.dump(out, sys.stdout, indent=2)
            sys.stdout.write("\n")
        else:
            render.rules_table(permissions.settings)
        return 0
    if command == "trust":
        return _trust(args, workspace)
    if command == "check":
        call = call_from_rule(args.call)
        if call is None:
            shown = render.markup(repr(args.call))
            render.err.print(f"[red]{shown} is not a call[/]: write Tool(input), e.g. Skill(deploy) or 'Bash(git push)'")
            return 2
        _warn_unknown_tool(call[0])
        # A Skill call is decided with its skill, as a run decides the model's Skill calls.
        decision = workspace.check(*call, catalog=workspace.load() if call[0] == "Skill" else None)
        if args.json:
            json.dump(decision.to_dict(), sys.stdout)
            sys.stdout.write("\n")
        else:
            render.decision_line(args.call, decision)
        return CHECK_EXIT.get(decision.decision, 2)
    call = call_from_rule(args.rule)
    if call is None:
        # A usage error (exit 2), as in `check`: nothing was read or written.
        render.err.print(
            f"[red]{render.markup(repr(args.rule))} is not a rule[/]: write Tool or Tool(specifier), e.g. Skill(deploy)"
        )
        return 2
    try:
        if command == "unrule":
            return _unrule(args, workspace)
        added = workspace.add_rule(args.rule, command, args.scope)
        render.edit_line(f"{command} {args.rule} ({args.scope})" if added else f"{args.rule} was already there", True)
        _warn_unknown_tool(call[0])
        if call[0] == "Skill":
            _warn_unknown_skill(call[1]["skill"], workspace)
        return 0
    except SettingsEditError as exc:
        # The message holds paths (a cloned repository names folders) and the rule as typed: terminal
        # controls are made visible and inert, and a `[` is text, not Rich markup.
        render.err.print(f"[red]refused:[/] {escape(printable(str(exc)))}")
        return 1


def _warn_unknown_tool(tool: str) -> None:
    """A call to a tool Claude Code does not have (`bash` for `Bash`) is still decided, as a rule
    on it would be read, but no real call ever looks like it: say so, with the nearest name."""
    if tool in KNOWN_TOOLS or tool.startswith("mcp__"):
        return
    near = close_names(tool, sorted(KNOWN_TOOLS))
    hint = f"; did you mean {near[0]}?" if near else " (tool names are case-sensitive; MCP tools are mcp__server__tool)"
    render.err.print(f"[yellow]warning: Claude Code has no tool named {render.markup(tool)}{render.markup(hint)}[/]")


def _warn_unknown_skill(name: str, workspace: Workspace) -> None:
    """A Skill rule naming no skill of any tier is written (a skill may come later, as Claude Code
    takes any name), but a typo would otherwise pass unseen."""
    if "*" in name:
        return
    catalog = workspace.load()
    if catalog.get(name) is None and all(s.skill.name != name for s in catalog.shadowed):
        near = close_names(name, list(dict.fromkeys(catalog.skills)))
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        render.err.print(
            f"[yellow]warning: no skill named {render.markup(name)} in any tier{render.markup(hint)}; "
            "the rule matches nothing until such a skill exists[/]"
        )


def _unrule(args: argparse.Namespace, workspace: Workspace) -> int:
    """Remove a rule from one scope's file; when it is not there, name that file and the files
    that do hold it, with the --scope that removes it."""
    removed = workspace.remove_rule(args.rule, args.scope)
    path = workspace.settings_path(args.scope)
    if removed:
        render.edit_line(f"removed {args.rule} ({', '.join(removed)}) from {path}", True)
        return 0
    found = [r for r in workspace.permissions().settings.rules if r.text == args.rule.strip()]
    where = [
        f"it is a {r.behavior} rule in {r.file} ({r.scope}"
        + (f"; --scope {r.scope} removes it)" if r.scope in EDITABLE_SCOPES else ", not editable here)")
        for r in found
    ]
    render.edit_line(
        f"{args.rule} is not in {path} ({args.scope}); " + ("; ".join(where) if where else "no settings file holds it"), False
    )
    return 1


def _trust(args: argparse.Namespace, workspace: Workspace) -> int:
    """Say whether the project is trusted; with --yes, trust it. Exit 0 when trusted, 1 when not."""
    state = workspace.trust_state()
    if args.yes and not state.trusted:
        try:
            path = workspace.trust()
        except OSError as exc:
            render.err.print(f"[red]not trusted:[/] {escape(printable(str(exc)))}")
            return 1
        state = workspace.trust_state()
        render.err.print(f"trusted; recorded in {escape(printable(str(path)))}")
    if args.json:
        json.dump({"trusted": state.trusted, "source": state.source}, sys.stdout)
        sys.stdout.write("\n")
    else:
        # The source says it already ("trusted in ...", "not trusted: neither ..."): once, in its colour.
        render.out.print(f"[{'green' if state.trusted else 'yellow'}]{escape(printable(state.source))}[/]")
    return 0 if state.trusted else 1
