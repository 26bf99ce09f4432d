"""The models Codex CLI 0.169.0 knows, and what the one it runs with does to its skills block
(docs/agents.md, Codex CLI, "Budget" and "The model").

Codex sizes the skills budget from the model's context window: 2% of it, in tokens (its default
model, gpt-6.1-sol, has 272,000: 5,440 tokens; model_terra, model_window_small). The windows are
its bundled model catalog's (a JSON document inside the binary; the table below is that
catalog's `slug`, `context_window`, `max_context_window` and `include_skills_usage_instructions`).
A model name is looked up as Codex looks it up (model_namespaced, model_unknown): the longest
catalog slug the name starts with (letter case exact); failing that, once more after one leading
`namespace/` (letters, digits, `_` and `-`); failing that, fallback metadata with a 272,000-token
window. `model_context_window` in its config replaces the window, never past the model's maximum
(model_window_small). A model whose entry asks for them gets usage instructions after the list
(model_gpt55); they cost nothing from the budget.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_MODEL = "gpt-6.1-sol"
# The share of the context window the skill lines may take, in percent.
WINDOW_PERCENT = 2
FALLBACK_WINDOW = 272_000


@dataclass(frozen=True)
class CodexModel:
    name: str  # as asked for
    slug: str | None  # the catalog entry it resolved to; None: Codex's fallback metadata
    window: int  # the context window the budget is taken from
    usage: bool  # whether the usage instructions follow the list

    @property
    def budget(self) -> int:
        """Tokens for the skill lines (before the roots table's cost)."""
        return max(1, self.window * WINDOW_PERCENT // 100)

    def describe(self) -> str:
        known = f"`{self.slug}` in its catalog" if self.slug else "unknown to it: fallback metadata"
        return f"{self.name} ({known}; a {self.window:,}-token window, so {self.budget:,} tokens)"


# slug: (context_window, max_context_window, include_skills_usage_instructions), catalog order.
CATALOG: dict[str, tuple[int, int, bool]] = {
    "gpt-6-astra": (272_000, 872_000, False),
    "gpt-6.1-sol": (272_000, 872_000, False),
    "gpt-6.1-terra": (500_000, 872_000, False),
    "gpt-6-sol": (272_000, 872_000, False),
    "gpt-6-luna": (272_000, 872_000, False),
    "gpt-5.6-sol": (272_000, 872_000, False),
    "gpt-5.6-terra": (272_000, 872_000, False),
    "gpt-5.6-luna": (272_000, 872_000, False),
    "gpt-daybreak-blue-latest": (272_000, 872_000, False),
    "gpt-daybreak-red-latest": (372_000, 372_000, False),
    "gpt-5.5": (272_000, 272_000, True),
    "codex-auto-review": (272_000, 872_000, False),
}
_NAMESPACE = re.compile(r"[A-Za-z0-9_-]+")


def _longest_prefix(name: str) -> str | None:
    found = [slug for slug in CATALOG if name.startswith(slug)]
    return max(found, key=len) if found else None


def _slug(name: str) -> str | None:
    slug = _longest_prefix(name)
    if slug is not None:
        return slug
    namespace, slash, rest = name.partition("/")
    if not slash or "/" in rest or _NAMESPACE.fullmatch(namespace) is None:
        return None
    return _longest_prefix(rest)


def resolve(name: str | None, window: int | None = None) -> CodexModel:
    """The model Codex runs with (its default when None), with `model_context_window` from its
    config when set (a positive whole number)."""
    name = DEFAULT_MODEL if name is None else name
    slug = _slug(name)
    context, most, usage = CATALOG[slug] if slug is not None else (FALLBACK_WINDOW, FALLBACK_WINDOW, False)
    if window is not None and window > 0:
        context = min(window, most)
    return CodexModel(name, slug, context, usage)


# What follows the list for a model whose catalog entry asks for it (Codex CLI is Apache-2.0).
USAGE = "".join(
    (
        "### How to use skills\n",
        "- Discovery: The list above is the skills available in this session (name + description + short path). ",
        "Skill bodies live on disk at the listed paths after expanding the matching alias from `### Skill ",
        "roots`.\n",
        "- Trigger rules: If the user names a skill (with `$SkillName` or plain text) OR the task clearly ",
        "matches a skill's description shown above, you must use that skill for that turn. Multiple mentions ",
        "mean use them all. Do not carry skills across turns unless re-mentioned.\n",
        "- Missing/blocked: If a named skill isn't in the list or the path can't be read, say so briefly and ",
        "continue with the best fallback.\n",
        "- How to use a skill (progressive disclosure):\n",
        "  1) After deciding to use a skill, the main agent must expand the listed short `path` with the ",
        "matching alias from `### Skill roots`, then open and read its `SKILL.md` completely before taking task ",
        "actions. If a read is truncated or paginated, continue until EOF.\n",
        "  2) When `SKILL.md` references relative paths (e.g., `scripts/foo.py`), resolve them relative to the ",
        "directory containing that expanded `SKILL.md` first, and only consider other paths if needed.\n",
        "  3) If `SKILL.md` points to extra folders such as `references/`, use its routing instructions to ",
        "identify the files required for the task. The main agent must read each required instruction or ",
        "reference file itself before acting on it. Do not delegate reading, summarizing, or interpreting skill ",
        "instructions to a subagent. Subagents may still perform task work when the selected skill allows it.\n",
        "  4) If `scripts/` exist, prefer running or patching them instead of retyping large code blocks.\n",
        "  5) If `assets/` or templates exist, reuse them instead of recreating from scratch.\n",
        "- Coordination and sequencing:\n",
        "  - If multiple skills apply, choose the minimal set that covers the request and state the order you'll ",
        "use them.\n",
        "  - Announce which skill(s) you're using and why (one short line). If you skip an obvious skill, say ",
        "why.\n",
        "- Context hygiene:\n",
        "  - Progressive disclosure applies to selecting relevant files, not partially reading a selected ",
        "instruction file. Do not load unrelated references, scripts, or assets.\n",
        "  - Avoid deep reference-chasing: prefer opening only files directly linked from `SKILL.md` unless ",
        "you're blocked.\n",
        "  - When variants exist (frameworks, providers, domains), pick only the relevant reference file(s) and ",
        "note that choice.\n",
        "- Safety and fallback: If a skill can't be applied cleanly (missing files, unclear instructions), state ",
        "the issue, pick the next-best approach, and continue.\n",
    )
)
