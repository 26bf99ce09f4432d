"""The syntax of a Bash command line, as far as a permission check needs it.

`parse` finds every simple command a line runs: the parts joined by `&&`, `||`, `;`, `|`, `&`
and newlines, the commands inside `$(...)`, backticks and `<(...)`/`>(...)`, and those inside
`( ... )` groups. For each it keeps the words (with quotes removed, or marked dynamic when a
variable, a substitution or an ANSI-C string decides them), the leading assignments and the
redirections. Whatever it cannot read with certainty (here-documents, arithmetic, `${...}`
operators, functions, loops and other compound commands, unbalanced quotes, a line too long or
nested too deep) is named in `Parsed.opaque`: a caller must never take such a line as allowed.

This is not a shell. It errs one way only: it may call a line opaque that Bash would run
harmlessly; it must never miss a command that Bash would run.
"""

from __future__ import annotations

import re

from .syntax import Command, Parsed, Redirect, Word

MAX_LENGTH = 20_000
MAX_DEPTH = 12

_BLANK = " \t"
_OPERATOR_START = ";&|\n"
_WORD_END = frozenset(" \t\n;&|<>()")
_REDIRECT = re.compile(r"(\d+|\{[A-Za-z_][A-Za-z0-9_]*\})?(&>>|&>|>>|>&|>\||<<<|<<-|<<|<&|<>|>|<)")
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=")
_SIMPLE_PARAMETER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[#?$!@*\-]")
# A variable by its name (not `_`, the last argument of the previous command, a special one).
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*|_[A-Za-z0-9_]+")
# Claude Code asks before running any line that substitutes a command's output, whatever the
# command inside (recorded: `echo $(echo hi)` with `Bash(echo *)` asks). The inside is still read,
# so that a deny rule on it denies.
SUBSTITUTION = "a command substitution ($(...), `...`, <(...) or >(...))"
# Words that open or close compound commands: a line using them is not a list of simple commands.
RESERVED = frozenset({"if", "then", "elif", "else", "fi", "for", "while", "until", "do", "done", "case", "esac", "select"})
RESERVED |= {"function", "{", "}", "[[", "]]", "coproc"}


class _Parser:
    def __init__(self, src: str, out: Parsed, depth: int = 0) -> None:
        self.s = src
        self.i = 0
        self.out = out
        self.depth = depth
        # Here-documents opened on the current line: (delimiter, quoted, tabs stripped, depth).
        # Their bodies start after the next newline at the depth that opened them or outside it
        # (bash reads on past a newline inside a later `$(...)`, and `(cat <<EOF)` reads its body
        # after the group: both checked) and are not commands.
        self.pending: list[tuple[str, bool, bool, int]] = []

    # Helpers ---------------------------------------------------------------------------------
    def opaque(self, why: str) -> None:
        self.out.opaque.append(why)

    def peek(self, k: int = 0) -> str:
        j = self.i + k
        return self.s[j] if j < len(self.s) else ""

    def skip_blanks(self) -> None:
        while self.i < len(self.s):
            if self.s[self.i] in _BLANK:
                self.i += 1
            elif self.s.startswith("\\\n", self.i):
                self.continuation()
            else:
                return

    def continuation(self) -> None:
        """A backslash-newline outside quotes: Bash joins the lines (`echo hi\\<newline>touch x`
        runs `echo hitouch x`), and Claude Code asks before such a line (recorded)."""
        self.opaque("a line continuation (a backslash at the end of a line)")
        self.i += 2

    # Lists -------------------------------------------------------------------------------------
    def parse_list(self, closer: str | None, within: str) -> None:
        """Commands until `closer` (consumed) or the end of the text."""
        while True:
            self.skip_blanks()
            c = self.peek()
            if not c:
                if closer:
                    self.opaque(f"an unclosed {within}")
                return
            if closer and c == closer:
                self.i += 1
                return
            if c == "#":
                end = self.s.find("\n", self.i)
                self.i = len(self.s) if end < 0 else end
            elif c == "\n" and any(p[3] >= self.depth for p in self.pending):
                self.i += 1
                self.heredoc_bodies()
            elif c in _OPERATOR_START:
                self.operator()
            elif c == "(":
                self.i += 1
                if self.peek() == "(":
                    self.opaque("an arithmetic command (( ))")
                else:
                    # Claude Code asks for a subshell under any rule (recorded, bash_operators_allowed).
                    self.opaque("a subshell ( )")
                self.nested(")", "group")
            elif c == ")":
                self.opaque("an unbalanced )")
                self.i += 1
            else:
                self.parse_simple(closer, within)

    def operator(self) -> None:
        """The list operator at the cursor. Claude Code asks before a line that puts a command
        in the background (`a & b`, `a &`: it runs on past the check) or ends in `&&`, `||` or `|`
        with nothing after, whatever the rules allow (recorded, bash_operators_allowed)."""
        if self.s.startswith((";;", ";&"), self.i):
            self.opaque("a case statement")
        two = self.s.startswith(("&&", "||", "|&", ";;", ";&"), self.i)
        op = self.s[self.i : self.i + (2 if two else 1)]
        self.i += len(op)
        if op == "&":
            self.opaque("the & background operator")
        elif op in ("&&", "||", "|", "|&"):
            rest = self.s[self.i :].lstrip(" \t\n")
            if not rest or rest.startswith(("#", ")", "}", "`")):
                self.opaque(f"a `{op}` with no command after it")

    def nested(self, closer: str, within: str) -> None:
        if self.depth >= MAX_DEPTH:
            self.opaque("nesting deeper than we read")
            self.i = len(self.s)
            return
        self.depth += 1
        self.parse_list(closer, within)
        self.depth -= 1

    # One simple command --------------------------------------------------------------------------
    def parse_simple(self, closer: str | None, within: str) -> None:
        start = self.i
        assignments: list[Word] = []
        words: list[Word] = []
        redirects: list[Redirect] = []
        end = start
        while True:
            self.skip_blanks()
            c = self.peek()
            # `&>` and `&>>` redirect both streams: a redirection, not the `&` that ends a command.
            if not c or (c in _OPERATOR_START and not self.s.startswith("&>", self.i)) or c == ")" or (closer and c == closer):
                break
            if c == "(":
                self.opaque("a function definition" if words else "an unexpected (")
                self.i += 1
                self.nested(")", "group")
                end = self.i
                if words:
                    # `f() { curl x; }`: the body is a command of its own (read as the list it is).
                    break
                continue
            if c == "#" and self.s[self.i - 1 : self.i] in ("", " ", "\t"):
                break
            m = None if self.s.startswith(("<(", ">("), self.i) else _REDIRECT.match(self.s, self.i)
            if m:
                self.i = m.end()
                redirects.append(self.redirect(m.group(2)))
                end = self.i
                continue
            word_start = self.i
            word = self.parse_word()
            end = self.i
            if not words and _ASSIGNMENT.match(word.raw):
                if self.s.startswith("=(", word_start + len(word.raw.split("=", 1)[0])):
                    self.opaque("an array assignment")
                assignments.append(word)
            else:
                words.append(word)
        if words and words[0].raw in RESERVED:
            self.opaque(f"the compound command `{words[0].raw}`")
        if words or assignments or redirects:
            text = self.s[start:end].strip()
            self.out.commands.append(Command(text, tuple(assignments), tuple(words), tuple(redirects), within))

    def redirect(self, op: str) -> Redirect:
        if op in ("<<", "<<-"):
            self.opaque("a here-document")
        self.skip_blanks()
        if not self.peek() or self.peek() in _WORD_END:
            self.opaque(f"a redirection {op} without a target")
            return Redirect(op, None)
        target = self.parse_word()
        if op in ("<<", "<<-"):
            # The delimiter is the word with quotes removed; any quote stops expansion in the body.
            delimiter = target.value if target.value is not None else target.raw
            quoted = any(q in target.raw for q in "'\"\\")
            self.pending.append((delimiter, quoted, op == "<<-", self.depth))
            return Redirect(op, None)
        if op in (">&", "<&") and target.value == "-":
            # Closing a descriptor: Claude Code asks (recorded: `echo hi 1>&-`).
            self.opaque(f"a redirection {op}- that closes a descriptor")
            return Redirect(op, None)
        if op in (">&", "<&") and target.value is not None and target.value.isdigit():
            return Redirect(op, None)
        return Redirect(op, target)

    def heredoc_bodies(self) -> None:
        """Skip the bodies of the pending here-documents (the cursor is at the start of the line
        after the one that opened them). An unquoted body still expands `$(...)` and backticks:
        those are read as commands."""
        pending = [p for p in self.pending if p[3] >= self.depth]
        self.pending = [p for p in self.pending if p[3] < self.depth]
        for delimiter, quoted, strip_tabs, _ in pending:
            start = self.i
            while self.i < len(self.s):
                end = self.s.find("\n", self.i)
                end = len(self.s) if end < 0 else end
                line = self.s[self.i : end]
                self.i = min(end + 1, len(self.s))
                if (line.lstrip("\t") if strip_tabs else line) == delimiter:
                    body = self.s[start : end - len(line)]
                    break
            else:
                body = self.s[start:]
            if not quoted and ("$" in body or "`" in body):
                # Read as the inside of double quotes, where a `"` is a plain character.
                sub = _Parser(body.replace('"', " ") + '"', self.out, self.depth + 1)
                sub.double_quoted([])

    # Words -------------------------------------------------------------------------------------
    def parse_word(self) -> Word:
        start = self.i
        value: list[str] = []
        # Where the word's quoted text starts and ends in `value`: a glob reads those characters
        # literally (Word.pattern).
        quoted: list[tuple[int, int]] = []
        glob = brace = False
        tilde = self.peek() == "~"
        dynamic = False
        while self.i < len(self.s):
            c = self.s[self.i]
            if c in _WORD_END:
                if c in "<>" and self.peek(1) == "(" and self.i == start:
                    self.opaque(SUBSTITUTION)
                    self.i += 2
                    self.nested(")", "process substitution")
                    dynamic = True
                    continue
                break
            if c == "\\":
                if self.peek(1) == "\n":
                    self.continuation()
                    continue
                quoted.append((len(value), len(value) + 1))
                value.append(self.peek(1))
                self.i += 2
            elif c == "'":
                close = self.s.find("'", self.i + 1)
                if close < 0:
                    self.opaque("an unclosed ' quote")
                    close = len(self.s)
                quoted.append((len(value), len(value) + 1))
                value.append(self.s[self.i + 1 : close])
                self.i = close + 1
            elif c == '"':
                self.i += 1
                before = len(value)
                dynamic |= self.double_quoted(value)
                quoted.append((before, len(value)))
            elif c == "$":
                before = len(value)
                dynamic |= self.dollar(value)
                quoted.append((before, len(value)))  # $"..." is quoted text too
            elif c == "`":
                self.backtick()
                dynamic = True
            else:
                if c in "*?[":
                    glob = True
                elif c == "{" and self.braces():
                    brace = True
                value.append(c)
                self.i += 1
        raw = self.s[start : self.i]
        pattern = _pattern(value, quoted) if glob and quoted and not dynamic else None
        return Word(raw, None if dynamic else "".join(value), glob, brace, tilde, pattern)

    def braces(self) -> bool:
        """Whether the `{` at the cursor opens a brace expansion ({a,b} or {1..3})."""
        close = self.s.find("}", self.i)
        inner = self.s[self.i + 1 : close] if close > 0 else ""
        return bool(inner) and ("," in inner or ".." in inner) and not any(ch in _WORD_END for ch in inner)

    def double_quoted(self, value: list[str]) -> bool:
        dynamic = False
        while self.i < len(self.s):
            c = self.s[self.i]
            if c == '"':
                self.i += 1
                return dynamic
            if c == "\\" and self.peek(1) in '$`"\\\n':
                if self.peek(1) != "\n":
                    value.append(self.peek(1))
                self.i += 2
            elif c == "$":
                dynamic |= self.dollar(value, quoted=True)
            elif c == "`":
                self.backtick()
                dynamic = True
            else:
                value.append(c)
                self.i += 1
        self.opaque('an unclosed " quote')
        return dynamic

    def dollar(self, value: list[str], quoted: bool = False) -> bool:
        """The expansion at a `$`; True when it makes the word dynamic."""
        nxt = self.peek(1)
        if self.s.startswith("\\\n", self.i + 1):
            # Bash joins the lines first: `$\<newline>'\x63url'` is `$'\x63url'`, `curl`.
            self.opaque("a line continuation inside an expansion")
            self.i += 3
            return True
        if self.s.startswith("$((", self.i):
            self.opaque("an arithmetic expansion $(( ))")
            self.i += 3
            self.nested(")", "substitution")
            if self.peek() == ")":
                self.i += 1
            return True
        if nxt == "(":
            self.opaque(SUBSTITUTION)
            self.i += 2
            self.nested(")", "substitution")
            return True
        if nxt == "{":
            # Claude Code asks for any ${...}, even ${HOME} (recorded, tests/oracle).
            close = self.s.find("}", self.i + 2)
            inner = self.s[self.i + 2 : close] if close > 0 else ""
            self.opaque("a parameter expansion ${...}")
            if close < 0 or not _SIMPLE_PARAMETER.fullmatch(inner):
                # Read what is inside for any command it runs; the cursor ends after the brace.
                self.i += 2
                self.nested("}", "substitution")
                return True
            self.i = close + 1
            return True
        if nxt == "[":
            self.opaque("an arithmetic expansion $[ ]")
            self.i += 2
            self.nested("]", "substitution")
            return True
        if nxt == "'" and not quoted:
            # $'...': backslash escapes, including \', end at the first unescaped quote. Its
            # escapes can spell anything, so Claude Code asks for it (recorded).
            self.opaque("an ANSI-C string $'...'")
            j = self.i + 2
            while j < len(self.s) and self.s[j] != "'":
                j += 2 if self.s[j] == "\\" else 1
            if j >= len(self.s):
                self.opaque("an unclosed $' quote")
            self.i = j + 1
            return True
        if nxt == '"' and not quoted:
            # $"...": translated through the locale's message catalogue, so Claude Code asks.
            self.opaque('a locale string $"..."')
            self.i += 2
            return self.double_quoted(value)
        m = _SIMPLE_PARAMETER.match(self.s, self.i + 1)
        if m:
            if not _NAME.fullmatch(m.group(0)):
                # $1, $@, $?, $$, $!, $_, $0...: Claude Code asks for each of them, though it runs
                # `echo $HOME` under `Bash(echo *)` (recorded, bash_operators_allowed).
                self.opaque(f"the special parameter `${m.group(0)}`")
            self.i = m.end()
            return True
        value.append("$")
        self.i += 1
        return False

    def backtick(self) -> None:
        """`...`: the text up to the next unescaped backtick is a command line of its own."""
        self.opaque(SUBSTITUTION)
        j = self.i + 1
        inner: list[str] = []
        while j < len(self.s) and self.s[j] != "`":
            if self.s[j] == "\\" and j + 1 < len(self.s) and self.s[j + 1] in "`$\\":
                inner.append(self.s[j + 1])
                j += 2
            else:
                inner.append(self.s[j])
                j += 1
        if j >= len(self.s):
            self.opaque("an unclosed ` quote")
        self.i = j + 1
        if self.depth >= MAX_DEPTH:
            self.opaque("nesting deeper than we read")
            return
        _Parser("".join(inner), self.out, self.depth + 1).parse_list(None, "substitution")


def _pattern(pieces: list[str], quoted: list[tuple[int, int]]) -> str | None:
    """The glob pattern of a word whose pieces `quoted` (index ranges into `pieces`) were quoted:
    their `*?[]\\` escaped, so that a glob reads them as the characters they are."""
    inside = {i for begin, end in quoted for i in range(begin, end)}
    out = [
        "".join("\\" + ch if ch in "*?[]\\" else ch for ch in piece) if i in inside else piece for i, piece in enumerate(pieces)
    ]
    return "".join(out)


def parse(command: str) -> Parsed:
    """Every simple command `command` runs, and what could not be read."""
    out = Parsed(command)
    if len(command) > MAX_LENGTH:
        out.opaque.append(f"a command longer than {MAX_LENGTH:,} characters")
        return out
    if "\x00" in command:
        out.opaque.append("a NUL character")
        return out
    _Parser(command, out).parse_list(None, "")
    return out
