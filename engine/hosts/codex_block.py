"""The block Codex CLI 0.169.0 sends about skills, and the budget it fits the entries into
(docs/agents.md, Codex CLI, "The block" and "Budget").

`<skills_instructions>`, a fixed heading and paragraph, `### Skill roots` with one alias per root
that holds a listed skill (`r0`, `r1`, ... in the order the host loads its roots), `### Available
skills` with one line per skill, `- name: description (file: rN/path/SKILL.md)`, and the end tag.
No escaping. The entry lines share the model's budget (`codex_models`: 2% of its context window,
5,440 tokens for the default model), a line costing ceil((UTF-8 bytes + 1) / 4), its line break
being the 1, less what the roots table costs past a free allowance (`table_cost`). A model whose
catalog entry asks for them gets usage instructions between the list and the end tag.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .codex_models import USAGE, CodexModel, resolve
from .model import HostSkill, Root, Status, Verdict

# The default model's budget.
LIMIT = resolve(None).budget
# The roots table is paid for out of the same budget, as Codex weighs it: a quarter token per byte
# of its lines (`- `rN` = `<root>`` and a line break each, UTF-8), rounded down after one more byte,
# less 35 tokens that the table never costs (its heading and texts are shorter than the ones it
# replaces). Two roots under a short temporary folder cost nothing; each root past them about a
# quarter of its line (many_250_spread: 30 tokens for a root in the home and one in packages/app).
TABLE_FREE = 35
HEAD = (
    "<skills_instructions>\n## Skills\nA skill is a set of local instructions to follow that is stored in a "
    "`SKILL.md` file. Below is the list of skills that can be used. Each entry includes a name, description, "
    "and a short path that can be expanded into an absolute path using the skill roots table.\n### Skill roots\n"
)
LIST = "### Available skills\n"
END = "</skills_instructions>"
FIX = (
    "switch off skills you do not use ([[skills.config]] with enabled = false in ~/.codex/config.toml) "
    "or shorten long descriptions"
)


def tokens(line_bytes: int) -> int:
    """What one entry line costs: its bytes and its line break, four bytes a token, rounded up."""
    return (line_bytes + 1 + 3) // 4


@dataclass(frozen=True)
class Entry:
    skill: HostSkill
    head: str  # `- name:`
    tail: str  # `(file: rN/...)`

    @property
    def text(self) -> str:
        return self.skill.description

    @property
    def base(self) -> int:
        """UTF-8 bytes of the line without a description: `- name: (file: ...)`."""
        return len(self.head.encode()) + 1 + len(self.tail.encode())

    def prefix_bytes(self, chars: int) -> int:
        return len(self.text[:chars].encode())

    def cost(self, chars: int, text_bytes: int) -> int:
        # With a description the line gains it and one space before it.
        return tokens(self.base + (1 + text_bytes if chars else 0))

    def line(self, chars: int) -> str:
        if chars <= 0:
            return f"{self.head} {self.tail}"
        return f"{self.head} {self.text[:chars]} {self.tail}"


def block(
    roots: list[Root], listed: list[HostSkill], model: CodexModel | None = None
) -> tuple[str | None, list[Verdict], list[str]]:
    """The whole block for skills in their order, a verdict for each and the budget warning, for
    `model` (Codex's default when None)."""
    model = resolve(None) if model is None else model
    if not listed:
        return None, [], []
    used = [root for root in roots if any(skill.root.path == root.path for skill in listed)]
    alias = {root.path: f"r{at}" for at, root in enumerate(used)}
    entries = [Entry(skill, f"- {skill.name}:", f"(file: {_short(skill, alias)})") for skill in listed]
    table = "".join(f"- `{alias[root.path]}` = `{root.path}`\n" for root in used)
    limit = model.budget - table_cost(table)
    kept, warning = fit(entries, limit)
    lines: list[str] = []
    verdicts: list[Verdict] = []
    names_only = warning is not None
    for entry, chars in zip(entries, kept, strict=True):
        if chars is not None:
            lines.append(entry.line(chars) + "\n")
        verdicts.append(_verdict(entry, chars, names_only, f"{model.name}: {limit:,} tokens"))
    usage = USAGE if model.usage else ""
    return HEAD + table + LIST + "".join(lines) + usage + END, verdicts, [warning] if warning else []


def _short(skill: HostSkill, alias: dict[Path, str]) -> str:
    root, path = str(skill.root.path), str(skill.path)
    name = alias.get(skill.root.path)
    if name is None or not path.startswith(root + "/"):
        return path
    return f"{name}/{path[len(root) + 1 :]}"


def table_cost(table: str) -> int:
    """What the roots table takes from the entries' budget (never less than nothing)."""
    return max(0, (len(table.encode()) + 1) // 4 - TABLE_FREE)


def fit(entries: list[Entry], limit: int = LIMIT) -> tuple[list[int | None], str | None]:
    """Characters of each description sent (None: the entry is left out) and the warning Codex
    prints when even names alone do not fit."""
    sizes = [len(e.text) for e in entries]
    if sum(e.cost(n, len(e.text.encode())) for e, n in zip(entries, sizes, strict=True)) <= limit:
        return list(sizes), None
    if sum(tokens(e.base) for e in entries) <= limit:
        return list(_share(entries, sizes, limit)), None
    # Step 3: every description dropped, lines kept in order while they fit (a line that does not
    # fit is left out and the next ones still tried).
    kept: list[int | None] = []
    spent = 0
    for entry in entries:
        cost = tokens(entry.base)
        if spent + cost <= limit:
            spent += cost
            kept.append(0)
        else:
            kept.append(None)
    left = kept.count(None)
    skills, verb = ("skill", "was") if left == 1 else ("skills", "were")
    warning = (
        "warning: Exceeded skills context budget. All skill descriptions were removed and "
        f"{left} additional {skills} {verb} not included in the model-visible skills list."
    )
    return kept, warning


def _share(entries: list[Entry], sizes: list[int], limit: int) -> list[int]:
    """Step 2: the largest cut L that every description can take, then rounds in list order, each
    entry taking one more character while the total still fits, until a round changes nothing."""

    def total(cut: int) -> int:
        return sum(e.cost(min(cut, n), e.prefix_bytes(min(cut, n))) for e, n in zip(entries, sizes, strict=True))

    low, high = 0, max(sizes)  # total(low) fits (step 2's condition), total(high) does not
    while high - low > 1:
        middle = (low + high) // 2
        if total(middle) <= limit:
            low = middle
        else:
            high = middle
    chars = [min(low, n) for n in sizes]
    spent_bytes = [e.prefix_bytes(c) for e, c in zip(entries, chars, strict=True)]
    costs = [e.cost(c, b) for e, c, b in zip(entries, chars, spent_bytes, strict=True)]
    left = limit - sum(costs)
    # Each round that changes something gives some entry one more character, so there are at most
    # as many rounds as the longest description has characters.
    for _ in range(max(sizes) + 1):
        changed = False
        for at, entry in enumerate(entries):
            if chars[at] >= sizes[at]:
                continue
            more = spent_bytes[at] + len(entry.text[chars[at]].encode())
            cost = entry.cost(chars[at] + 1, more)
            if cost - costs[at] <= left:
                left -= cost - costs[at]
                chars[at] += 1
                spent_bytes[at] = more
                costs[at] = cost
                changed = True
        if not changed:
            break
    return chars


def _verdict(entry: Entry, chars: int | None, names_only: bool, budget: str) -> Verdict:
    """`budget`: the model and the tokens its lines had, as the reasons name them."""
    skill = entry.skill
    size = len(entry.text)
    if chars is None:
        why = f"over Codex CLI's skills budget ({budget} for the lines) even without descriptions: left out of the list"
        return Verdict(skill.path, skill.root, skill.name, Status.HIDDEN, why, FIX, skill)
    if chars == size:
        return Verdict(skill.path, skill.root, skill.name, Status.LISTED, skill=skill)
    if chars == 0 or names_only:
        why = f"over Codex CLI's skills budget ({budget} for the lines): sent without its description"
        return Verdict(skill.path, skill.root, skill.name, Status.NAMES_ONLY, why, FIX, skill)
    why = f"description cut to its first {chars:,} of {size:,} characters to fit Codex CLI's skills budget ({budget})"
    return Verdict(skill.path, skill.root, skill.name, Status.CUT, why, FIX, skill)
