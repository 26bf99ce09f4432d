"""The subcommands' arguments, apart from the code that runs them: building the parser imports
only argparse, so `skilldeck list` does not load what `compare`, `evals`, `run` or `why` need
(their modules import the comparison with Claude Code, the routing lab, the runner, rich)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, NoReturn, Protocol

# engine.EDITABLE_SCOPES, written out: importing the settings editor for it (tempfile, fcntl, its
# JSON writer) cost every command, `list` included (tests/tui/test_cli_imports.py checks the two agree).
EDITABLE_SCOPES = ("local", "project", "user")
# engine.HOST_KEYS and MODEL_KEYS, written out for the same reason (importing the hosts loads every
# agent's reader).
HOST_KEYS = ("claude-code", "codex", "gemini", "opencode", "copilot")
MODEL_KEYS = ("claude-code", "codex")
TITLES = {"claude-code": "Claude Code", "codex": "Codex CLI", "gemini": "Gemini CLI", "opencode": "OpenCode",
          "copilot": "Copilot CLI"}  # fmt: skip


class Sub(Protocol):
    """Where the subcommands' parsers are added: argparse's subparsers action, or `Commands`."""

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser: ...


class NotBuilt(Exception):
    """A command line a parser of some commands only (`Commands`) could not read: read it again
    with all of them, so that the error names every choice."""


class PartialParser(argparse.ArgumentParser):
    """A parser built for some commands only: an error is not reported but raised (NotBuilt)."""

    def error(self, message: str) -> NoReturn:
        raise NotBuilt(message)


class Commands:
    """The subcommands, each parser made only when the command line names that word: making all
    twenty (each with the location flags copied in) was 5 ms of every command, for one of them.
    The flags of the others go to one parser nobody reads (`resolve`: they may repeat)."""

    def __init__(self, action: Sub, named: frozenset[str]) -> None:
        self.action, self.named = action, named
        self.unused = argparse.ArgumentParser(add_help=False, conflict_handler="resolve")

    def add_parser(self, name: str, **kwargs: Any) -> argparse.ArgumentParser:
        return self.action.add_parser(name, **kwargs) if name in self.named else self.unused


def named_words(argv: list[str]) -> frozenset[str] | None:
    """The words a command line may name a command with; None when it asks for the help that
    lists every command. argparse also reads `--h`, `--he` and `--hel` as --help (abbreviations)
    and `-hh` as -h twice: any of them is that help too."""
    asks = any(word[:2] == "-h" or (len(word) > 2 and "--help".startswith(word)) for word in argv)
    return None if asks else frozenset(argv)


class Version(argparse.Action):
    """--version, looked up only when asked: reading the installed metadata takes ~35 ms."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from importlib import metadata

        try:
            version = metadata.version("skilldeck")
        except metadata.PackageNotFoundError:  # run from a source tree that was never installed
            version = "(not installed)"
        sys.stdout.write(f"skilldeck {version}\n")
        parser.exit()


def run_flags(parser: argparse.ArgumentParser, suppress: bool = False) -> None:
    """How runs reach a model: for the app and for `skilldeck run`. The subcommand's copies have
    SUPPRESS defaults so that `skilldeck --base-url URL run x` keeps the URL given first."""
    default: dict[str, Any] = {"default": argparse.SUPPRESS} if suppress else {}
    group = parser.add_argument_group("running against a model")
    group.add_argument(
        "--model",
        **default,
        help="model or alias (haiku, sonnet, opus); default: ANTHROPIC_MODEL, then the settings' model, then opus "
        "(Claude Code's default); a skill's own model: wins for its run",
    )
    group.add_argument(
        "--backend", choices=("anthropic", "offline"), **default, help="default: anthropic when a key is set, else offline"
    )
    group.add_argument(
        "--base-url", metavar="URL", **default, help="a Messages API server other than Anthropic's (ANTHROPIC_BASE_URL)"
    )


def run_parser(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser("run", parents=[loc], help="run a skill against a model, streaming its answer")
    p.add_argument("name", metavar="NAME", help="the skill, as typed after / (deploy, my-plugin:lint)")
    p.add_argument("args", nargs="*", metavar="ARGS", help="its arguments, as typed after /NAME")
    p.add_argument("--fork", action="store_true", default=None, help="as a forked subagent")
    run_flags(p, suppress=True)
    p.add_argument("--allow", action="append", default=[], metavar="RULE", help="pre-approve this rule for the run (repeatable)")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="one JSON object per event, one per line")


def budget_arg(text: str) -> int:
    """--budget: a whole number of characters, at least 1 (a huge one is Infinity's stand-in)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of characters") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a budget: give 1 character or more")
    return value


MODEL_HELP = (
    "the model whose context window sizes the budget: Claude Code's, or with --agent codex the one Codex CLI runs "
    "with (default: each agent's own choice)"
)


def list_parser(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser("list", parents=[loc], help="every skill by tier, shadowed skills and diagnostics")
    p.add_argument("--model", default=None, help="with --agent codex: the model Codex CLI runs with (it sizes the budget)")
    p.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="one JSON object: skills, shadowed, diagnostics"
    )


def listing_parser(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser("listing", parents=[loc], help="the exact skill listing the model receives")
    p.add_argument(
        "--budget", type=budget_arg, default=None,
        help="Claude Code's character budget (default: $SLASH_COMMAND_TOOL_CHAR_BUDGET, else the settings' share (1%% "
        "by default) of the model's context window, at 3 characters a token)",
    )  # fmt: skip
    p.add_argument("--model", default=None, help=MODEL_HELP)
    p.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="the listing, its budget and every entry's outcome as JSON"
    )


def model_problem(args: argparse.Namespace) -> str | None:
    """Why --model or --budget cannot mean anything for this command and agent (a usage error),
    or None. Claude Code's budget is in characters and sized by its model; Codex CLI's is its
    model's; Gemini CLI, OpenCode and Copilot CLI send the same block whatever the model."""
    agent, command = getattr(args, "agent", DEFAULT_AGENT), args.command
    model, budget = getattr(args, "model", None), getattr(args, "budget", None)
    if command not in AGENT_COMMANDS:
        return None
    if model is not None and agent not in MODEL_KEYS:
        return (
            f"--model: {TITLES[agent]} sends the same skills block whatever the model (--model changes claude-code's and codex's)"
        )
    if model is not None and agent == DEFAULT_AGENT and command == "list":
        return "--model: Claude Code's `list` has no budget (see `listing --model`); with --agent codex it sizes Codex CLI's"
    if budget is not None and agent != DEFAULT_AGENT:
        return f"--budget is Claude Code's character budget; {TITLES[agent]}'s is not set in characters" + (
            " (its budget is its model's: --model)" if agent in MODEL_KEYS else ""
        )
    return None


def why_parser(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "why",
        parents=[loc],
        help="every gate a skill file or name meets, ending in what the model sees or why it never loads",
        description="Trace one SKILL.md, skill folder, command .md or name (/deploy, plugin:skill) through every gate "
        "Claude Code applies. Exit 0 when it loads, 1 when it never loads or nothing matches.",
    )
    p.add_argument("query", metavar="PATH|NAME", help="a SKILL.md, a skill folder, a command .md, or a name")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--path", dest="kind", action="store_const", const="path", help="read PATH|NAME as a path")
    kind.add_argument("--name", dest="kind", action="store_const", const="name", help="read PATH|NAME as a name")
    p.add_argument(
        "--budget", type=budget_arg, default=None, help="listing budget in characters (default: as Claude Code sizes it)"
    )
    p.add_argument("--model", default=None, help=MODEL_HELP)
    p.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="one object: the gates, the outcome and the verdict"
    )


def compare_parser(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "compare",
        parents=[loc],
        help="run your own Claude Code offline and show where skilldeck's prediction differs",
        description="Run your installed Claude Code once, offline (a private network namespace, a recording server on "
        "127.0.0.1, a dummy key, no hook or MCP server, every write thrown away), in this project with your config, and "
        "compare what it sent with skilldeck's prediction: the listing line by line, what it skipped and why, and with "
        "NAME the blocks a typed /NAME ARGS sent. Exit 0 when identical, 1 when not, 2 when it cannot run.",
    )
    p.add_argument("name", nargs="?", metavar="NAME", help="a skill to invoke as typed: /NAME ARGS")
    p.add_argument("args", nargs="*", metavar="ARGS", help="its arguments, as typed after /NAME")
    p.add_argument("--claude", metavar="PATH", help="the claude to run (default: the one on PATH)")
    p.add_argument(
        "--allow-network",
        action="store_true",
        help="run even where no private network namespace can be made: the run then has the host network and its "
        "writes are not thrown away (hooks and MCP servers stay off)",
    )
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="the comparison as one JSON object")


MAX_RUNS = 20


def _bounded(low: int, high: int, what: str) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} is a whole number, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} is from {low} to {high}")
        return value

    return parse


def evals_parser(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "evals",
        parents=[loc],
        help="the routing lab: which skill the model calls for each request of your eval files",
        description="For each request in .claude/skill-evals.yaml (and evals.yaml or evals/evals.json beside a SKILL.md), "
        "send what the runner would send for that first message (the listing, the Skill tool, the request; single turn) "
        "and record which skill the model calls. Each request also runs with its skill's description dropped, as an "
        "over-budget listing drops it. Answers are cached in the state folder. Exit 0 when every request went where "
        "expected, 1 when not, 2 on bad input or when nothing can run.",
    )
    p.add_argument(
        "--file",
        type=Path,
        action="append",
        default=[],
        metavar="PATH",
        help="an eval file (repeatable; default: every one found)",
    )
    run_flags(p, suppress=True)
    p.add_argument("--runs", type=_bounded(1, MAX_RUNS, "--runs"), default=1, help="ask each request N times (default 1)")
    p.add_argument(
        "--concurrency", type=_bounded(1, 64, "--concurrency"), default=4, help="requests in flight at once (default 4)"
    )
    p.add_argument("--offline", action="store_true", help="send nothing: show the exact requests and the cost estimate")
    p.add_argument("--listed-only", action="store_true", help="skip the variant with each skill's description dropped")
    p.add_argument("--no-cache", action="store_true", help="ask again even what the cache answers")
    p.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="the report (or with --offline, the plan) as JSON"
    )


def rules_parsers(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser("rules", parents=[loc], help="every permission rule, by file in precedence order")
    p.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help="the files, their rules, what is ignored and why"
    )
    p = sub.add_parser(
        "check",
        parents=[loc],
        help="what Claude Code decides for a call, e.g. 'Bash(git push)'; exit 0 allow, 1 ask, 2 deny",
        description="What Claude Code decides for one tool call, the rule that decides it and its file. "
        "Exit status: 0 allow, 1 ask, 2 deny (2 also for a CALL that does not parse, as for any usage error).",
    )
    p.add_argument("call", metavar="CALL", help="Skill(deploy), Bash(git push origin main), Read(./.env), ...")
    p.add_argument(
        "--json", action="store_true", default=argparse.SUPPRESS, help='one object: {"decision", "rule", "file", "reason"}'
    )
    for behavior in ("allow", "ask", "deny"):
        article = "a" if behavior == "deny" else "an"
        p = sub.add_parser(behavior, parents=[loc], help=f"add {article} {behavior} rule to a settings file")
        p.add_argument("rule", metavar="RULE", help="Tool or Tool(specifier): Skill(deploy), 'Bash(git push *)', Read(./.env)")
        p.add_argument(
            "--scope", choices=EDITABLE_SCOPES, default="local", help="which file (default: .claude/settings.local.json)"
        )
    p = sub.add_parser("trust", parents=[loc], help="whether the project's own allow rules count; --yes trusts it")
    p.add_argument("--yes", action="store_true", help="trust the project (recorded in skilldeck's state, not Claude Code's)")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help='one object: {"trusted", "source"}')
    p = sub.add_parser("unrule", parents=[loc], help="remove a rule from a settings file")
    p.add_argument("rule", metavar="RULE", help="the rule as written in the file, e.g. Skill(deploy)")
    p.add_argument("--scope", choices=EDITABLE_SCOPES, default="local", help="which file (default: .claude/settings.local.json)")


def prompt_parser(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser("prompt", parents=[loc], help="what invoking a skill sends (no model is called)")
    p.add_argument("name", metavar="NAME", help="the skill, as typed after / (deploy, my-plugin:lint)")
    p.add_argument("args", nargs="*", metavar="ARGS", help="the arguments, as typed after /NAME")
    p.add_argument("--fork", action="store_true", default=None, help="as a forked subagent, whatever context: says")
    p.add_argument(
        "--run-shell",
        action="store_true",
        help="run the skill's allowed ! commands, as a real run does (by default none runs: each is shown with its verdict)",
    )
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="the prompt's messages and facts as JSON")


def doctor_parser(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "doctor",
        parents=[loc],
        help="every plugin that is missing, switched off, stale or risky, with the command that fixes it",
        description="Reads what Claude Code reads about plugins (installed_plugins.json, known_marketplaces.json, "
        "marketplaces/, cache/, enabledPlugins in every settings file, the manifests) and never writes. "
        "Exit status: 1 when any error or warning is found.",
    )
    p.add_argument("-v", "--verbose", action="store_true", help="also show notes (what each plugin runs and costs)")
    p.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS,
        help='{"findings": [{"plugin", "marketplace", "severity", "code", "message", "fix", "path"}]}',
    )


def usage_parser(sub: Sub, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser(
        "usage",
        parents=[loc],
        help="which skills were used: typed, called by the model, failed (from Claude Code's transcripts)",
        description="Counts every skill of the catalog, and every name the transcripts hold, from Claude Code's "
        "own session files (<config>/projects/). Prints names, counts and dates only, never message text.",
    )
    p.add_argument("--since", metavar="SPAN", default=None, help="only uses in this span: 30d, 12h, 2w (default: all)")
    p.add_argument("--no-cache", action="store_true", help="read every transcript again (the cache is in skilldeck's state)")
    p.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS,
        help='{"skills": [{"name", "typed", "model", "failed", "last", "sessions", "projects", ...}]}',
    )


# The commands --agent changes; the others (run, rules, ...) are Claude Code's alone.
AGENT_COMMANDS = ("list", "listing", "why", "validate", "show", "agents")
DEFAULT_AGENT = HOST_KEYS[0]


def agent_flag(group: Any, suppress: bool) -> None:
    extra: dict[str, Any] = {} if suppress else {"default": DEFAULT_AGENT}
    group.add_argument(
        "--agent", choices=HOST_KEYS, metavar="NAME", **extra,
        help=f"whose view: {', '.join(HOST_KEYS)} (default: {DEFAULT_AGENT}; list, listing, why, validate, show)",
    )  # fmt: skip


def agents_parser(sub: Any, loc: argparse.ArgumentParser) -> None:
    p = sub.add_parser("agents", parents=[loc], help="which agents load each skill here, and why not (the portability matrix)")
    p.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="the matrix as one JSON object")
