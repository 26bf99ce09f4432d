"""Reading Bash commands for permission checks: the syntax (`parse`) and what commands do (`commands`).

A permission rule names a command; a command line may run many. Everything here exists so that
a rule is checked against every command a line would really run, and so that a line we cannot
read with certainty is never taken as allowed.
"""

from .commands import Invocation, invocations
from .parse import parse
from .syntax import Command, Parsed, Redirect, Word

__all__ = ["Command", "Invocation", "Parsed", "Redirect", "Word", "invocations", "parse"]
