"""`skilldeck why PATH|NAME`: every gate one file or name passes or fails on its way to the model.
May import catalog/, listing/, permissions/ and workspace.

The trace is built from what a load already knows (the catalog, its diagnostics, the listing, the
permission rules) plus a few `stat`s: nothing here reads a skill file, so a hostile repository
cannot make it read a huge file or follow a link out of bounds. Each gate says what Claude Code
does at that step; the last sentence says what the model receives, or why it never loads.

Gates, in the order Claude Code meets them: root (which scanned folder holds the file), reserved
(a skills folder named `synced`), size (a SKILL.md in a skills folder over 1,000,000 bytes, a
command or plugin file over 1,048,576), parse (the file read into a skill), dedup (the same file
reached twice), shadowing (an earlier skill of the same name), overrides (`skillOverrides`),
invocation (flags and `paths:`), permissions (`Skill(name)` rules on the model's call) and budget
(whether the listing keeps the description).

The rooms: `result` (what a trace says), `find` (which file a PATH or NAME means, did-you-mean),
`trace` (the walk and the verdict), `path_gates` (root, reserved, size), `catalog_gates` (parse
to permissions), `tracer` (the trace under way) and `files` (the stats).
"""

from .find import explain, trace_why
from .result import GATES, Gate, Outcome, Status, Why

__all__ = ["GATES", "Gate", "Outcome", "Status", "Why", "explain", "trace_why"]
