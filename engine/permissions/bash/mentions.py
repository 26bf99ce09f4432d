"""Every place a command's words could name, for deny rules only.

The path checks in `check.py` know what a handful of commands read and write. A command they do
not know may read or write any file its words name: `dd of=~/.bashrc`, `sed -i ... ~/.bashrc`,
`cp secrets/key.txt out`, `sort -o/home/me/.bashrc`, `tar czf x.tgz secrets`. A deny rule
(`Edit(~/.bashrc)`, `Read(./secrets/**)`) must hold against all of them, so every word of such a
command is read as a place in every way a shell or a program could read it. These places only
ever meet deny rules: a wrong guess can deny a call, never allow one.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
from pathlib import Path

from ..pathreach import brace_alternatives, expand_path, glob_reach, shell_matches
from .syntax import Word

# `$HOME/x`, `${HOME}/x`: a dynamic word whose value the shell takes from the environment.
_HOME_VARIABLE = re.compile(r"(?:\$HOME|\$\{HOME\})(?=/|$)")
_PLAIN = re.compile(r"[^$`'\"\\]*")


def _texts(word: Word, home: Path) -> list[str]:
    """The strings a word may hand a program as a path: itself, the value of `opt=value`,
    `--opt=value` and `-oVALUE`, each part of `a:b`, without a leading `@` (curl's `@file`)."""
    value = word.value
    if value is None:
        # Double quotes change nothing here: `"$HOME"/.ssh/x` and `"$HOME/.ssh/x"` are the home's
        # too (Claude Code denies both by `Read(~/.ssh/**)`, recorded: deny_through_expansions).
        raw = word.raw.replace('"', "") if "'" not in word.raw else word.raw
        m = _HOME_VARIABLE.match(raw)
        if m is None or not _PLAIN.fullmatch(raw, m.end()):
            return []
        value = str(home) + raw[m.end() :]
    out = [value]
    if value.startswith("-"):
        _, eq, rest = value.partition("=")
        if eq:
            out.append(rest)
        elif not value.startswith("--") and len(value) > 2:
            out.append(value[2:])
    elif "=" in value:
        out.append(value.split("=", 1)[1])
    if word.brace:
        # `cat {secrets,x}/key.txt` names secrets/key.txt and x/key.txt.
        out += [alt for text in list(out) for alt in brace_alternatives(text) or []]
    out += [part for text in list(out) for part in text.split(":")[1:]]
    out += [text[1:] for text in list(out) if text.startswith("@")]
    return [text for text in dict.fromkeys(out) if text]


def _place(text: str, cwd: Path, home: Path) -> list[Path | None]:
    if text.startswith("~") and not text.startswith("~/") and text != "~":
        user, _, rest = text[1:].partition("/")
        # `~root/x`, `~me/.bashrc`: that user's home, as the shell expands it.
        with contextlib.suppress(KeyError, ValueError):
            text = os.path.join(pwd.getpwnam(user).pw_dir, rest)
    if any(ch in text for ch in "*?["):
        # The folder searched, and each path it names now (`*/id_rsa` through `docs -> ~/.ssh`).
        reach = glob_reach(cwd, text, home)
        matches = shell_matches(cwd, text, home)
        # None: matches past the bound, which cannot all be checked (the caller asks).
        return [*([reach] if reach else []), *(matches if matches is not None else [None])]
    return [expand_path(text, cwd, home)]


def places(word: Word, cwd: Path, home: Path) -> list[Path | None]:
    """Every place `word`, given to some program run in `cwd`, could name; None for a wildcard
    whose matches are past the bound."""
    texts = _texts(word, home)
    if word.pattern is not None:
        # Quoted glob characters are the characters: `'[x]'/*` is inside the folder `[x]`.
        texts.append(word.pattern)
    if not word.tilde:
        # A quoted `~` is a folder of that name (as well as, read widely, the home).
        texts += ["./" + text for text in texts if text.startswith("~")]
    return list(dict.fromkeys(p for text in texts for p in _place(text, cwd, home)))
