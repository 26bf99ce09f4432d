"""The `skilldeck` command: argument parsing and the subcommands, on the engine's public face."""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from ..heap import collector_paused, settle_imports

with collector_paused():
    # The engine's modules make tens of thousands of objects and next to no cycles: the collector
    # would walk them again and again as they come (15 ms of every command).
    from engine import Locations, printable

    from . import args as cli_args
    from .jsonout import dump, dump_rows

if TYPE_CHECKING:
    from engine import Catalog, Workspace

# The commands' own modules (cli_run, cli_why, ...), `render` (rich) and the demo are imported where
# they are used: `skilldeck list --json` then loads the loader and argparse, not the runner, the
# comparison with Claude Code, the routing lab or rich (about 0.2 s of every run).


def _location_flags(suppress: bool) -> argparse.ArgumentParser:
    """The flags every subcommand takes. Subcommands get SUPPRESS defaults so that
    `skilldeck --demo list` keeps the --demo given before the subcommand."""
    parent = argparse.ArgumentParser(add_help=False, argument_default=argparse.SUPPRESS if suppress else None)
    group = parent.add_argument_group("where to look")
    many: dict[str, Any] = {} if suppress else {"default": []}
    group.add_argument("--project", type=Path, help="start folder of the session (default: the current folder)")
    group.add_argument(
        "--user-dir", type=Path, help="Claude Code's user config folder (default: $CLAUDE_CONFIG_DIR or ~/.claude)"
    )
    group.add_argument(
        "--managed-dir", type=Path, help="managed policy folder (default: $SKILLDECK_MANAGED_DIR or /etc/claude-code)"
    )
    group.add_argument("--add-dir", type=Path, action="append", **many, help="an extra folder, as claude --add-dir (repeatable)")
    group.add_argument(
        "--plugin-dir",
        type=Path,
        action="append",
        **many,
        help="a plugin folder, or a folder of plugin folders, as claude --plugin-dir (repeatable; Claude Code reads no "
        "marketplace.json there: see --marketplace)",
    )
    group.add_argument(
        "--marketplace",
        type=Path,
        metavar="DIR",
        help="preview a marketplace folder before installing it: the plugins its .claude-plugin/marketplace.json "
        "lists, as installing each would give them, instead of what Claude Code loads here",
    )
    flag: dict[str, Any] = {} if suppress else {"default": False}
    group.add_argument("--no-bundled", action="store_true", **flag, help="leave out skilldeck's bundled skills")
    group.add_argument("--demo", action="store_true", **flag, help="use a self-contained demo workspace instead")
    cli_args.agent_flag(group, suppress)
    return parent


def build_parser(named: frozenset[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; with `named`, only the subcommands among those words (cli_args.Commands)."""
    parser = (argparse.ArgumentParser if named is None else cli_args.PartialParser)(
        prog="skilldeck",
        # argparse would write `COMMAND ...` as if one were required: without one, the app opens.
        usage="%(prog)s [-h] [--version] [OPTIONS] [COMMAND [ARGS ...]]",
        description="See every skill a Claude Code session would load, why some did not, and what the model receives. "
        "Without a COMMAND, opens the app.",
        epilog="skilldeck COMMAND -h shows a command's own flags.",
        parents=[_location_flags(suppress=False)],
    )
    parser.add_argument("--version", action=cli_args.Version)
    # Also before the command, as the location flags are: `skilldeck --json listing`. The
    # subcommands' own --json default to SUPPRESS so that they do not undo this one.
    parser.add_argument("--json", action="store_true", default=False, help="JSON output (for a COMMAND that reads)")
    parser.add_argument(
        "--resume", nargs="?", const="latest", metavar="SESSION", help="reopen a saved conversation (the latest by default)"
    )
    cli_args.run_flags(parser)
    loc = _location_flags(suppress=True)
    # prog: a subcommand's usage and errors start `skilldeck listing:`, not the whole usage line.
    action = parser.add_subparsers(dest="command", metavar="COMMAND", prog="skilldeck")
    sub: cli_args.Sub = action if named is None else cli_args.Commands(action, named)
    cli_args.list_parser(sub, loc)
    p = sub.add_parser("show", parents=[loc], help="one skill in full")
    p.add_argument("name", help="the skill's command name, e.g. deploy or my-plugin:lint")
    p.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="the skill, its body, diagnostics and shadowing"
    )
    p = sub.add_parser("validate", parents=[loc], help="check skills; exit 1 on errors (or warnings with --strict)")
    p.add_argument(
        "paths", nargs="*", type=Path, metavar="PATH", help="a skill folder, a SKILL.md or a skills folder (default: every tier)"
    )
    p.add_argument("--strict", action="store_true", help="fail on warnings too; Agent Skills spec findings become errors")
    p.add_argument("-v", "--verbose", action="store_true", help="also show notes (info diagnostics)")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="every diagnostic, and whether it fails")
    p = sub.add_parser("watch", parents=[loc], help="follow the disk and print each change (ctrl+c stops)")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="one JSON object per change, one per line")
    cli_args.rules_parsers(sub, loc)
    cli_args.prompt_parser(sub, loc)
    cli_args.run_parser(sub, loc)
    cli_args.why_parser(sub, loc)
    cli_args.compare_parser(sub, loc)
    cli_args.evals_parser(sub, loc)
    cli_args.usage_parser(sub, loc)
    cli_args.doctor_parser(sub, loc)
    cli_args.agents_parser(sub, loc)
    cli_args.listing_parser(sub, loc)
    return parser


# The subcommands that read and so can answer in JSON; allow, ask, deny and unrule write.
JSON_COMMANDS = ("list", "show", "validate", "watch", "listing", "rules", "check", "trust", "prompt", "run", "why",
                 "compare", "evals", "usage", "doctor", "agents")  # fmt: skip


# What runs a skill, a model or Claude Code, or writes settings: none of it in a --marketplace preview.
ACTING = ("run", "evals", "compare", "allow", "ask", "deny", "unrule", "trust")


def missing_locations(args: argparse.Namespace) -> list[str]:
    """What is wrong with each folder the user named: a mistyped --project or --add-dir would
    otherwise read nothing and pass. --user-dir and --managed-dir may be absent: Claude Code
    reads nothing from an absent config folder and creates the user one on first write."""
    named = [("--project", args.project)] if args.project is not None else []
    named += [("--add-dir", p) for p in args.add_dir] + [("--plugin-dir", p) for p in args.plugin_dir]
    named += [("--marketplace", args.marketplace)] if args.marketplace is not None else []
    problems = []
    for flag, path in named:
        if not os.path.isdir(path):
            why = "not a folder" if os.path.lexists(path) else "no such folder"
            problems.append(f"{flag} {path}: {why}")
    if getattr(args, "command", None) == "validate":
        problems += [f"{p}: no such file or folder" for p in args.paths if not os.path.lexists(p)]
    command = getattr(args, "command", None)
    shell = bool(getattr(args, "run_shell", False))
    if args.marketplace is not None and (command in ACTING or shell):
        # A preview shows what installing would give: nothing in it runs, no setting is written for it.
        problems.append(f"--marketplace is a preview: `{command}{' --run-shell' * shell}` is not available in it")
    return problems


def _exit_on_signal(folder: Path, signum: int, frame: object) -> None:
    # The folder first, then the process ends at once, as the signal's own default would end it: a
    # SystemExit raised here lands in Textual's loop, which went on reading a closed terminal and
    # spun a core for hours after the test that closed it.
    _leave(folder, 128 + signum)


def _leave(demo: Path | None, code: int) -> NoReturn:
    """End the process at once, skipping Python's exit handlers; the one this process registers
    (the demo's folder, removed) is done here instead."""
    if demo is not None:
        shutil.rmtree(demo, ignore_errors=True)
    os._exit(code)


def locations_from(args: argparse.Namespace) -> Locations:
    base_url = getattr(args, "base_url", None)
    if args.demo:
        import atexit
        import tempfile

        from engine import make_demo, run_environ

        folder = Path(tempfile.mkdtemp(prefix="skilldeck-demo-"))
        atexit.register(shutil.rmtree, folder, True)
        # A closed terminal (SIGHUP) or a kill (SIGTERM) ends Python without its exit handlers,
        # which left the folder behind: they end it as an exit instead.
        for hangup in (signal.SIGHUP, signal.SIGTERM):
            signal.signal(hangup, partial(_exit_on_signal, folder))
        args.demo_root = folder
        return make_demo(folder, run_environ(os.environ, base_url))
    return Locations(
        project=args.project or Path.cwd(),
        user_dir=args.user_dir,
        managed_dir=args.managed_dir,
        add_dirs=tuple(args.add_dir),
        plugin_dirs=tuple(args.plugin_dir),
        marketplace=args.marketplace,
        bundled=not args.no_bundled,
        environ={**os.environ, "ANTHROPIC_BASE_URL": base_url} if base_url else dict(os.environ),
    )


def cmd_list(args: argparse.Namespace, catalog: Catalog) -> int:
    if args.json:
        dump_rows(
            {
                # A skill's record as JSON text already (Skill.to_json, the same text as its dict).
                "skills": [s.to_json() for s in catalog.skills.values()],
                "shadowed": [s.to_dict() for s in catalog.shadowed],
                # Skills Claude Code adds only later in a session, under the names they would get.
                "deferred": [s.to_json() for s in catalog.deferred],
                "diagnostics": [d.to_json() for d in catalog.diagnostics],
                "sources": [s.to_dict() for s in catalog.sources],
            }
        )
    else:
        from . import render

        render.catalog_table(catalog)
    return 0


def cmd_show(args: argparse.Namespace, catalog: Catalog) -> int:
    from . import render

    skill = catalog.get(args.name)
    shadow = None
    if skill is None:
        shadow = next((s for s in catalog.shadowed if s.skill.name == args.name.removeprefix("/")), None)
        skill = shadow.skill if shadow else None
    if skill is None:
        render.not_found(args.name, catalog)
        return 1
    if args.json:
        out = skill.to_dict()
        try:
            out["body"] = skill.read_body()
        except OSError as exc:  # changed since the load (now a FIFO, too large, gone)
            out["body"], out["body_error"] = None, f"{exc.strerror or exc}: {skill.path}"
        out["diagnostics"] = [d.to_dict() for d in catalog.diagnostics_for(skill.path)]
        out["shadowed_by"] = shadow.shadowed_by.to_dict() if shadow else None
        out["shadows"] = [s.skill.to_dict() for s in catalog.shadowing(skill)]
        dump(out)
    else:
        render.skill_detail(skill, catalog, shadow)
    return 0


def cmd_validate(args: argparse.Namespace, catalog: Catalog) -> int:
    from engine import Severity, agent_refusals, with_missing_skill_md

    from . import render

    # A folder named on the command line that holds no skill breaks the spec (engine/catalog/spec.py).
    catalog = with_missing_skill_md(args.paths, catalog) if args.paths else catalog
    # What the other agents that read skill folders would refuse of the files Claude Code reads
    # without an error (engine/hosts); a file it already fails says so once, not five times.
    failed = {d.path for d in catalog.diagnostics if d.severity is Severity.ERROR}
    files = [
        p for p in (*(s.path for s in catalog.skills.values()), *(s.skill.path for s in catalog.shadowed)) if p not in failed
    ]
    diags = [*catalog.diagnostics, *agent_refusals(files)]

    def fails(d: Any) -> bool:
        if d.severity is Severity.ERROR:
            return True
        return args.strict and (d.severity is Severity.WARNING or d.code.startswith("spec-"))

    failing = [d for d in diags if fails(d)]
    if args.json:
        dump(
            {
                "ok": not failing,
                "strict": args.strict,
                "skills": len(catalog.skills) + len(catalog.shadowed),
                "failing": len(failing),
                "diagnostics": [d.to_dict() | {"fails": fails(d)} for d in diags],
            }
        )
    else:
        render.diagnostics_report(catalog, diags, failing, args.strict, args.verbose)
    return 1 if failing else 0


def cmd_listing(args: argparse.Namespace, catalog: Catalog, workspace: Workspace) -> int:
    from . import render

    listing = workspace.listing(catalog, args.budget, model=args.model)
    if args.json:
        dump(listing.to_dict())
        return 0
    # The listing's exact text, but a control in a description is shown, not sent to the terminal.
    sys.stdout.write(printable(listing.text) + "\n")
    sys.stdout.flush()
    render.listing_summary(listing)
    return 0


def parse_command_line(words: list[str]) -> argparse.Namespace:
    """What the whole parser reads in `words`, from a parser of the commands they may name."""
    try:
        return build_parser(cli_args.named_words(words)).parse_args(words)
    except cli_args.NotBuilt:
        return build_parser().parse_args(words)  # the same reading, or the error naming every choice


def main(argv: list[str] | None = None) -> int:
    args = parse_command_line(sys.argv[1:] if argv is None else argv)
    problems = [] if args.demo else missing_locations(args)
    if args.json and args.command not in JSON_COMMANDS:
        problems.insert(0, f"--json: {args.command or 'the app'} has no JSON output")
    if problems:
        # As a usage error (exit 2): nothing was read, so no answer could be right.
        return usage_error(*problems)
    locations = locations_from(args)
    if args.command is None:
        return run_app(args, locations)
    try:
        code = _command(args, locations)
        if argv is None and args.command in cli_args.AGENT_COMMANDS:
            _end_now(code, getattr(args, "demo_root", None))
        return code
    except BrokenPipeError:
        # `skilldeck rules | head`: the reader left; nothing to report. What is still buffered for
        # stdout goes nowhere, instead of failing again when Python flushes it on the way out.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _end_now(code: int, demo: Path | None) -> NoReturn:
    """End a command that only reads and prints once its output is out, without freeing every
    object one by one (the catalog, then each module: 12 ms of an empty `list --json`, more per
    skill); it holds no file or thread, and the demo's folder is removed as its exit handler
    would. Only as the process's own command (`main()` without argv, as the console script calls
    it): the tests get the code back."""
    # A stream closed before the start (`>&-`, `2>&-`) is None, which Python's own exit skips too.
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()  # a BrokenPipeError here is main()'s
    _leave(demo, code)


def usage_error(*problems: str) -> int:
    from . import render

    for problem in problems:
        render.err.print(f"[red]skilldeck: {render.markup(problem)}[/]")
    return 2


def _command(args: argparse.Namespace, locations: Locations) -> int:
    command = args.command
    if locations.marketplace is not None:
        from . import render

        # Before any answer, on stderr (a --json reader gets the JSON alone; each source says `preview` there).
        render.err.print(render.PREVIEW_NOTE, style="yellow", markup=False)
    problem = cli_args.model_problem(args)
    if problem:
        return usage_error(problem)
    if command == "agents" or (args.agent != cli_args.DEFAULT_AGENT and command in cli_args.AGENT_COMMANDS):
        from . import agents as cli_agents

        return cli_agents.run(args, locations)
    if args.agent != cli_args.DEFAULT_AGENT:
        return usage_error(
            f"--agent {args.agent}: `{command}` is Claude Code's alone; --agent changes {', '.join(cli_args.AGENT_COMMANDS)}"
        )
    with collector_paused():
        # Claude Code's loader, after the other agents' commands (which never need it) have gone.
        from engine import Workspace, load_paths

    workspace = Workspace(locations)
    if command == "watch":
        from .watch import cmd_watch

        return cmd_watch(args, workspace)
    if command == "run":
        from . import run as cli_run

        return cli_run.run(args, workspace)
    if command in ("prompt", "rules", "check", "allow", "ask", "deny", "unrule", "trust"):
        from . import rules as cli_rules

        return cli_rules.run_prompt(args, workspace) if command == "prompt" else cli_rules.run(command, args, workspace)
    if command == "why":
        from . import why as cli_why

        return cli_why.run(args, workspace)
    if command == "compare":
        from . import compare as cli_compare

        return cli_compare.run(args, workspace)
    if command == "evals":
        from . import evals as cli_evals

        return cli_evals.run(args, workspace)
    if command == "usage":
        from . import usage as cli_usage

        return cli_usage.run(args, workspace)
    if command == "doctor":
        from . import doctor as cli_doctor

        return cli_doctor.run(args, workspace)
    if command == "list":
        # A one-shot load that makes few reference cycles: the cyclic collector would walk the
        # growing heap again and again for nothing (about 8% of `list --json` at 15,000 skills).
        # Put back after, for a caller that runs main() in its own process (the tests).
        with collector_paused():
            return cmd_list(args, workspace.load())
    catalog = load_paths(args.paths) if command == "validate" and args.paths else workspace.load()
    if command == "show":
        return cmd_show(args, catalog)
    if command == "validate":
        return cmd_validate(args, catalog)
    return cmd_listing(args, catalog, workspace)


def run_app(args: argparse.Namespace, locations: Locations) -> int:
    from . import render

    if not sys.stdin.isatty():
        # Textual reads keys from stdin: from a pipe or /dev/null it would spin a core at its end.
        render.err.print("[red]the skilldeck app needs a terminal; in scripts use `skilldeck list`, `show` or `validate`[/]")
        return 2
    # Imported here so that `list`, `show` and the others never pay for textual.
    from ..app import SkilldeckApp
    from ..view import PathDisplay

    demo = getattr(args, "demo_root", None)
    paths = PathDisplay.default([(demo, "<demo>")] if demo else [])
    resume = None
    if args.resume:
        from engine import Workspace

        workspace = Workspace(locations)
        resume = workspace.latest_session() if args.resume == "latest" else workspace.session_path(args.resume)
        if resume is None or not resume.is_file():
            render.err.print(f"[red]no saved conversation {'' if args.resume == 'latest' else args.resume}[/]")
            return 1
    app = SkilldeckApp(locations, paths, backend=args.backend, model=args.model, resume=resume)
    settle_imports()
    app.run()
    # Textual sets 1 when an exception ended the app (it prints the traceback): a script or a
    # shell must not read a crash as success.
    return app.return_code or 0


if __name__ == "__main__":
    raise SystemExit(main())
