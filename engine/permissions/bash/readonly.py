"""Commands that only read, which Claude Code runs with no rule inside the working folder.

Recorded (tests/oracle: bash_no_rules, bash_read_only_list, typed_shell_readonly,
typed_shell_read_only_list): ls, cat, grep -r, find, git status/log/diff/show, date, pwd, echo,
and diff, cmp, printf, lsof, sort, cut, tr, nl, od, hexdump, strings, tree, du, df, ps, id,
uname, which, seq, sleep, checksums, base64, jq, tac, rev, fold, column, comm, test, and git's
listing subcommands. Each is listed with the options that would make it write, run something
else or read a file it does not name as an argument: short option letters (also found bundled,
`-uf` is `-u -f`) and long option names (also found abbreviated, as getopt accepts: `--fi` is
`--file`). A command using one is not read-only. Their path arguments are still checked against
the working folder and the Read rules (commands.READS_PATHS). Kept short on purpose: a command
missing here is asked, never wrongly allowed; some that Claude Code runs are still asked (sed,
whose script can write and run programs; uniq and xxd, whose second file is written; hostname,
which sets the name when given one).
"""

from __future__ import annotations

from dataclasses import dataclass

from .commands import Invocation


@dataclass(frozen=True)
class Unsafe:
    short: str = ""
    long: frozenset[str] = frozenset()
    # Single-dash words matched whole (find's `-exec`, `-fprint`): no bundling, no abbreviation.
    words: frozenset[str] = frozenset()


def _long(text: str) -> frozenset[str]:
    return frozenset(text.split())


_GREP = Unsafe("fR", _long("file exclude-from dereference-recursive"))
_SUMS = Unsafe("c", _long("check"))
_READ_ONLY: dict[str, Unsafe] = {
    **dict.fromkeys(
        _long(
            "echo pwd true false whoami cat head tail stat basename dirname realpath readlink diff cmp comm cut tr nl od "
            "strings tac rev fold column base64 df ps id uname uptime free nproc arch groups locale cal which type seq "
            "sleep expr numfmt lsof test ["
        ),
        Unsafe(),
    ),
    # -L lists what symlinks met on the way lead to (`ls -RL` through `docs -> ~/.ssh`).
    "ls": Unsafe("L", _long("dereference")),
    "wc": Unsafe(long=_long("files0-from")),
    "file": Unsafe("Cmf", _long("compile magic-file files-from")),
    "grep": _GREP,
    "egrep": _GREP,
    "fgrep": _GREP,
    "date": Unsafe("sf", _long("set file")),
    "find": Unsafe(
        words=frozenset(
            {"-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls", "-files0-from"}
            # Following symlinks met on the way: a walk that leaves the project through one.
            | {"-L", "-follow"}
        )
    ),
    # `printf -v NAME` sets a variable (Claude Code asks it).
    "printf": Unsafe("v"),
    # -o writes, --compress-program runs a program, -T writes temporary files elsewhere.
    "sort": Unsafe("oT", _long("output compress-program temporary-directory files0-from random-source")),
    # -f reads a format file; -s... only skips.
    "hexdump": Unsafe("f", _long("format-file")),
    # -o writes, -R writes 00Tree.html in every folder, -l follows symlinks out of the project.
    "tree": Unsafe("oRl", _long("fromfile")),
    "du": Unsafe("L", _long("dereference files0-from")),
    **dict.fromkeys(_long("md5sum sha1sum sha256sum sha512sum"), _SUMS),
    # Programs from files, files read by name from inside the program.
    "jq": Unsafe("fL", _long("from-file rawfile slurpfile library-path")),
}
# (grep's -R follows symlinks, so `grep -R KEY .` reads through `docs -> ~/.ssh`: not read-only.)
# git subcommands that only read, and the options that would make them write, run a program or
# read outside the repository (`--no-index` compares any two files on the machine).
_GIT_READ_ONLY = frozenset(
    {"status", "log", "diff", "show", "rev-parse", "ls-files", "blame", "describe", "shortlog", "cat-file", "grep"}
)
_GIT_UNSAFE = Unsafe(
    "cCoO",
    _long(
        "output ext-diff exec-path git-dir work-tree config-env no-index textconv orderfile open-files-in-pager filters "
        "contents ignore-revs-file"
    ),
)
# Subcommands that only list when given just these options (and no names): `git branch x`
# creates a branch, `git remote add` adds a remote, `git stash` stashes.
_GIT_LISTING = {
    "branch": _long("-a --all -r --remotes -v -vv --verbose --list -l --show-current --no-color"),
    "tag": _long("-l -n"),
    "remote": _long("-v --verbose"),
}
# Subcommands whose first word decides: `git stash list`, `git reflog show`.
_GIT_FIRST = {"stash": frozenset({"list", "show"}), "reflog": frozenset({"show"})}
_GIT_CONFIG_READS = _long("--get --get-all --get-regexp --list -l")
_GIT_CONFIG_WRITES = Unsafe(
    "ef", _long("add unset unset-all replace-all rename-section remove-section edit file blob global system worktree")
)


def uses(args: list[str], unsafe: Unsafe) -> bool:
    """Whether any argument is one of the unsafe options, bundled or abbreviated."""
    for arg in args:
        if arg == "--":
            return False
        if arg.split("=", 1)[0] in unsafe.words:
            return True
        if arg.startswith("--"):
            name = arg[2:].split("=", 1)[0]
            if name and any(option.startswith(name) for option in unsafe.long):
                return True
        elif arg.startswith("-") and not unsafe.words and any(letter in unsafe.short for letter in arg[1:]):
            # Every letter counts, even one that may be another option's value: stricter, never looser.
            return True
    return False


def _git_read_only(args: list[str]) -> bool:
    """`git ARGS` only reads: git's own options before the subcommand are checked with the rest
    (`-c`, `-C`, `--git-dir` are not read-only)."""
    at = next((i for i, a in enumerate(args) if not a.startswith("-")), None)
    if at is None or uses(args, _GIT_UNSAFE):
        return False
    sub, rest = args[at], args[at + 1 :]
    if sub in _GIT_READ_ONLY:
        return True
    if sub in _GIT_LISTING:
        options = [a for a in rest if a.startswith("-")]
        names = len(options) < len(rest)
        return all(o in _GIT_LISTING[sub] for o in options) and (not names or (sub == "tag" and "-l" in options))
    if sub in _GIT_FIRST:
        return (not rest and sub == "reflog") or (bool(rest) and rest[0] in _GIT_FIRST[sub])
    if sub == "config":
        return any(a in _GIT_CONFIG_READS for a in rest) and not uses(rest, _GIT_CONFIG_WRITES)
    return False


def read_only(inv: Invocation) -> bool:
    """Whether the command only reads (see _READ_ONLY); every word must be literal."""
    values = [w.value for w in inv.words]
    if not values or any(v is None for v in values) or any(w.brace for w in inv.words):
        return False
    name = inv.name
    if values[0] != name:  # /bin/ls or ./git may be anything the path holds
        return False
    args = [v for v in values[1:] if v is not None]
    if name == "git":
        return _git_read_only(args)
    if name not in _READ_ONLY:
        return False
    return not uses(args, _READ_ONLY[name])
