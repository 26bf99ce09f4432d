"""What commands do, as far as a permission check needs to know: which ones run another command
(wrappers such as `timeout`, `env`, `xargs`, `sudo`; `bash -c` and `eval` strings; `find -exec`),
which take paths, which change the folder, and which only read.

`invocations` turns each parsed simple command into the commands it runs, so that a deny rule
on `curl` also stops `timeout 5 curl`, `FOO=1 curl`, `"curl"`, `/usr/bin/curl` and
`bash -c "curl ..."`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .parse import MAX_DEPTH, parse
from .syntax import Command, Parsed, Word


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


# Wrappers: the command runs the rest of its words as a command. Value: options that take an
# argument (the next word), so that the wrapped command is found after them.
WRAPPERS: dict[str, frozenset[str]] = {
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "nice": frozenset({"-n", "--adjustment"}),
    "nohup": frozenset(),
    "time": frozenset({"-f", "--format", "-o", "--output"}),
    "!": frozenset(),
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset({"-a"}),
    "env": frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string", "-P", "-a", "--argv0"}),
    "stdbuf": frozenset({"-i", "-o", "-e"}),
    # GNU `-i`, `-e`, `-l` take their value attached only (`-i{}`): `xargs -i curl x` runs curl.
    "xargs": frozenset({"-I", "-n", "-P", "-d", "-a", "-E", "-L", "-s", "--delimiter", "--arg-file"}),
    "sudo": frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U", "-T", "-R"}),
    "doas": frozenset({"-u", "-C"}),
    "setsid": frozenset(),
    "ionice": frozenset({"-c", "-n", "-p"}),
    "chrt": frozenset(),
    "taskset": frozenset(),
    "unbuffer": frozenset(),
    "watch": frozenset({"-n", "--interval"}),
    "strace": frozenset({"-e", "-o", "-p", "-s", "-u", "-E", "-P", "-I", "-a", "-X", "-S", "-O", "-U"}),
    "ltrace": frozenset({"-e", "-o", "-p", "-s", "-u", "-a", "-A", "-D", "-F", "-l", "-n", "-w", "-x"}),
    "flock": frozenset({"-w", "-E", "--timeout", "--conflict-exit-code", "-c", "--command"}),
    "caffeinate": frozenset({"-t", "-w"}),
    # Words of compound commands (the line is opaque anyway): what follows them is a command that
    # deny rules must still see, as in `for f in a; do curl $f; done`.
    "do": frozenset(),
    "then": frozenset(),
    "else": frozenset(),
    "elif": frozenset(),
    "if": frozenset(),
    "while": frozenset(),
    "until": frozenset(),
    "{": frozenset(),
    # `function f { curl x; }`: the name, then the body.
    "function": frozenset(),
}
# Wrappers peeled from one command before the line is called unreadable (`timeout 1 timeout 1 ...`).
_MAX_WRAPPERS = 64
# `timeout DURATION cmd`, `flock FILE cmd`, `taskset MASK cmd`, `chrt PRIO cmd`: a first
# positional word that is not the command.
_POSITIONAL_FIRST = frozenset({"timeout", "flock", "taskset", "chrt", "function"})
SHELLS = frozenset({"bash", "sh", "dash", "zsh", "ksh", "mksh", "ash", "fish", "busybox"})
# The shell itself reads a string as commands.
EVALUATORS = frozenset({"eval"})
# Programs that hand the value of one option to a shell: (short letter, long name).
COMMAND_OPTION = {"su": ("c", "command"), "runuser": ("c", "command"), "script": ("c", "command"), "flock": ("c", "command")}
FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})

# Commands whose arguments are paths they read (the first positional of grep-like commands is
# a pattern, which is checked as a path too: stricter, never looser).
READS_PATHS = _names(
    "cat head tail less more wc sort uniq cut paste nl od hexdump xxd strings file stat diff cmp grep egrep fgrep "
    "rg ag ls tree find du md5sum sha1sum sha256sum sha512sum base64 tac column jq awk sed realpath readlink tar "
    "unzip zcat bat source . comm rev fold"
)
WRITES_PATHS = _names("touch rm rmdir mkdir mv cp ln chmod chown chgrp tee truncate install rsync shred unlink")
# Commands that read whole folders whatever their flags.
RECURSIVE = _names("rg ag find tree du tar zip rsync")
# Commands that read the contents of the files under a folder, the current one when none is named.
SEARCHES = _names("grep egrep fgrep rg ag")
CHANGES_FOLDER = frozenset({"cd", "pushd", "popd"})


@dataclass(frozen=True)
class Invocation:
    """One command a line runs."""

    command: Command
    # The words of the command that really runs, after peeling wrappers and assignments.
    words: tuple[Word, ...]
    # The wrappers peeled to reach it, outermost first (`timeout`, `bash -c`, ...).
    via: tuple[str, ...] = ()

    @property
    def name(self) -> str | None:
        """The command's name (its basename), None when an expansion decides it."""
        if not self.words or self.words[0].value is None:
            return None
        return os.path.basename(self.words[0].value) or self.words[0].value

    @property
    def peeled(self) -> bool:
        return self.words != self.command.words

    def forms(self, for_allow: bool = False) -> list[str]:
        """Every text a rule is matched against: as written, without redirections, with quotes
        removed, with the program's path reduced to its name; for a peeled wrapper, the command
        inside it. An allow rule never sees a form without the line's assignments
        (`LD_PRELOAD=x ls` is not `ls`)."""
        out = [] if self.peeled else [self.command.text, self.command.text_without_redirects]
        if for_allow and self.command.assignments:
            return [f.strip() for f in out]
        values = [w.value for w in self.words]
        if self.words and all(v is not None for v in values):
            literal = " ".join(v for v in values if v is not None)
            out.append(literal)
            name = self.name
            # `/usr/bin/curl` is curl for a deny rule; for an allow rule `./echo` or
            # `/tmp/x/echo` is whatever program that path holds, not the echo a rule names.
            if name and name != values[0] and not for_allow:
                out.append(" ".join([name, *(v for v in values[1:] if v is not None)]))
        if self.words:
            out.append(" ".join(w.raw for w in self.words))
        if not for_allow and self.name == "git" and all(v is not None for v in values):
            # `git -C . push`, `git --no-pager push`: a deny or ask on `git push` holds.
            rest = _git_subcommand(values[1:])
            if rest is not None:
                out.append(" ".join(["git", *rest]))
        return list(dict.fromkeys(f.strip() for f in out if f.strip()))


# git's own options before the subcommand that take a value as the next word.
_GIT_GLOBAL_VALUE = frozenset(
    {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"}
)


def _git_subcommand(args: list[str | None]) -> list[str] | None:
    """The words from git's subcommand on, its own options skipped; None when there are none."""
    i = 0
    while i < len(args):
        value = args[i] or ""
        if not value.startswith("-"):
            break
        i += 2 if value in _GIT_GLOBAL_VALUE else 1
    if i == 0 or i >= len(args):
        return None
    return [a or "" for a in args[i:]]


def _peel(words: tuple[Word, ...]) -> tuple[tuple[Word, ...], str | None]:
    """The words after one wrapper, and the wrapper's name; (words, None) when there is none."""
    if not words or words[0].value is None:
        return words, None
    name = os.path.basename(words[0].value)
    if name not in WRAPPERS:
        return words, None
    takes_value = WRAPPERS[name]
    i = 1
    positional_skipped = name not in _POSITIONAL_FIRST
    while i < len(words):
        value = words[i].value
        if value is None:
            break
        if name == "command" and value in ("-v", "-V"):
            return (), None  # `command -v x` only looks x up
        if value == "--":
            i += 1
            break
        if value.startswith("-") and value != "-":
            i += 2 if value in takes_value else 1
            continue
        if name == "env" and "=" in value:
            i += 1
            continue
        if not positional_skipped:
            positional_skipped = True
            i += 1
            continue
        break
    return words[i:], name


def _inner_lines(inv: Invocation) -> tuple[list[str], list[str]]:
    """Command lines a command evaluates from its arguments (`bash -c STR`, `eval ...`,
    `find ... -exec cmd ;`), and why some could not be read."""
    words = inv.words
    name = inv.name
    lines: list[str] = []
    opaque: list[str] = []
    if name in SHELLS:
        for i, word in enumerate(words[1:], 1):
            if word.value is not None and word.value.startswith("-") and "c" in word.value.lstrip("-") and word.value != "--":
                if i + 1 < len(words) and words[i + 1].value is not None:
                    lines.append(words[i + 1].value or "")
                else:
                    opaque.append(f"`{name} -c` with a string decided at run time")
                break
    elif name in COMMAND_OPTION or name == "env":
        # `su -c STR`, `script -c STR`, `flock F -c STR`: a shell runs STR; `env -S STR` splits
        # STR into a command. Bundled (`-cSTR`) and long (`--command=STR`) forms too.
        short, long = COMMAND_OPTION.get(name or "", ("S", "split-string"))
        for i, word in enumerate(words[1:], 1):
            value = word.value
            if value is None or value == "--" or not value.startswith("-"):
                if value is None or value == "--":
                    break
                continue
            text: str | None = None
            if value.startswith("--"):
                option, eq, rest = value[2:].partition("=")
                if not option or not long.startswith(option):
                    continue
                text = rest if eq else (words[i + 1].value if i + 1 < len(words) else "")
            elif short in value[1:]:
                rest = value[value.index(short, 1) + 1 :]
                text = rest or (words[i + 1].value if i + 1 < len(words) else "")
            else:
                continue
            if text is None:
                opaque.append(f"`{name}` running a command decided at run time")
            else:
                lines.append(text)
    elif name == "watch":
        # watch hands the words after its options, joined, to `sh -c`.
        values = [w.value for w in _peel(words)[0]]
        if all(v is not None for v in values):
            lines.append(" ".join(v for v in values if v is not None))
        else:
            opaque.append("`watch` of a command decided at run time")
    elif name in EVALUATORS:
        values = [w.value for w in words[1:]]
        if all(v is not None for v in values):
            lines.append(" ".join(v for v in values if v is not None))
        else:
            opaque.append("`eval` of a string decided at run time")
    elif name == "find":
        i = 1
        while i < len(words):
            if words[i].value in FIND_EXEC:
                j = i + 1
                while j < len(words) and words[j].value not in (";", "+"):
                    j += 1
                inner = words[i + 1 : j]
                if any(w.value is None for w in inner):
                    opaque.append("`find -exec` with a command decided at run time")
                else:
                    lines.append(" ".join(_quote(w.value or "") for w in inner))
                i = j
            i += 1
    return lines, opaque


def _quote(value: str) -> str:
    return value if value and all(c.isalnum() or c in "-_./:=,@%+{}" for c in value) else "'" + value.replace("'", "'\\''") + "'"


def invocations(parsed: Parsed, depth: int = 0) -> tuple[list[Invocation], list[str]]:
    """Every command `parsed` runs, wrappers peeled and evaluated strings read, and the
    reasons (beyond `parsed.opaque`) that some of it cannot be known."""
    out: list[Invocation] = []
    opaque = list(parsed.opaque)
    for command in parsed.commands:
        words = command.words
        via: tuple[str, ...] = ()
        levels = [Invocation(command, words)]
        for _ in range(_MAX_WRAPPERS):
            inner, wrapper = _peel(words)
            if wrapper is None:
                break
            via = (*via, wrapper)
            words = inner
            levels.append(Invocation(command, words, via))
        else:
            if _peel(words)[1] is not None:
                opaque.append(f"more than {_MAX_WRAPPERS} wrappers around one command")
        # A command with no words still acts: `>~/.bashrc` truncates a file, `PATH=.` decides
        # which program the next command of the line runs. It stays, so that its redirections
        # are checked and no rule that names a command allows it.
        out.extend(level for level in levels if level.words or not level.peeled)
        if words and words[0].value is None:
            opaque.append(f"a command name decided at run time (`{words[0].raw}`)")
        # Every level may read a string as commands: `env -S STR` and `watch STR` are wrappers
        # whose command is in the string, `timeout 5 bash -c STR` is a shell inside a wrapper.
        for level in levels:
            lines, why = _inner_lines(level)
            opaque.extend(why)
            for line in lines:
                if depth >= MAX_DEPTH:
                    opaque.append("commands nested deeper than we read")
                    break
                more, more_opaque = invocations(parse(line), depth + 1)
                out.extend(Invocation(m.command, m.words, (*level.via, *m.via, "evaluated string")) for m in more)
                opaque.extend(more_opaque)
    return out, opaque
