"""Compare skilldeck's prediction with what the user's own Claude Code sends, recorded offline.
May import base/, catalog/, listing/, permissions/, runner/ and workspace.

`find_claude` finds and checks `claude`; `compare_with_claude` records it in a sandbox (a private user,
network and mount namespace; hooks, MCP servers and skill commands off) and returns a
`Comparison`. CompareError: it cannot run (exit 2 in the CLI).
"""

from .claude import ClaudeCode, find_claude
from .comparison import Comparison, ComparisonCache, compare_with_claude
from .rows import Row
from .seal import CompareError

__all__ = ["ClaudeCode", "CompareError", "Comparison", "ComparisonCache", "Row", "compare_with_claude", "find_claude"]
