"""What the parser (parse.py) finds in a Bash line: words, redirections, simple commands."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Word:
    raw: str
    # The word after quote removal; None when an expansion decides it ($x, $(...), `...`, $'...').
    value: str | None
    # Unquoted glob characters (* ? [), a brace expansion ({a,b}, {1..3}) or a leading ~.
    glob: bool = False
    brace: bool = False
    tilde: bool = False
    # The value as a shell glob reads it: quoted or escaped `*?[]\\` escaped with a backslash
    # (`'[x]'/*` names the folder `[x]`, not `x`). Set only when it differs from the value.
    pattern: str | None = None

    @property
    def glob_pattern(self) -> str | None:
        return self.pattern if self.pattern is not None else self.value

    @property
    def literal(self) -> bool:
        return self.value is not None and not self.brace


@dataclass(frozen=True)
class Redirect:
    op: str
    # The file it reads or writes; None for a descriptor copy (`2>&1`, `>&-`).
    target: Word | None

    @property
    def writes(self) -> bool:
        return self.target is not None and self.op not in ("<", "<<<", "<&")

    @property
    def reads(self) -> bool:
        return self.target is not None and self.op in ("<", "<>")


@dataclass(frozen=True)
class Command:
    text: str
    assignments: tuple[Word, ...]
    words: tuple[Word, ...]
    redirects: tuple[Redirect, ...]
    # Where it sits: "" at the top level, else "substitution", "process substitution" or "group".
    within: str = ""

    @property
    def text_without_redirects(self) -> str:
        return " ".join(w.raw for w in (*self.assignments, *self.words))


@dataclass
class Parsed:
    source: str
    commands: list[Command] = field(default_factory=list)
    opaque: list[str] = field(default_factory=list)

    def why_opaque(self) -> str:
        return "; ".join(dict.fromkeys(self.opaque))
