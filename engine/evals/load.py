"""Finding and reading a project's eval files, and checking their skill names against the catalog.

Where: `.claude/skill-evals.yaml` in the project, and beside the SKILL.md of each loaded skill
inside the project `evals.yaml` (skilldeck's format, `expect` defaulting to that skill) or
`evals/evals.json` (skill-creator's trigger format). Skills from elsewhere (the user's, plugins')
are left out unless named with `--file`: a plugin may ship skill-creator's evals, and a run in any
project should not quietly pay for them. Each file is read through `read_regular` with a cap: a FIFO,
a device or a huge file is a problem on that file, never a hang.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..base.safeio import NotRegularFile, TooLarge, read_regular
from ..catalog.assembly import Catalog
from ..catalog.locations import Locations
from ..catalog.model import SourceKind
from ..listing.build import Listing
from ..runner.skillcalls import did_you_mean
from .format import MAX_EVAL_BYTES, EvalCase, EvalProblem, parse_evals

PROJECT_FILE = Path(".claude") / "skill-evals.yaml"
BESIDE_SKILL = ("evals.yaml", "evals/evals.json")
# All files together: past this many cases the rest are left out (and a problem says so).
MAX_CASES = 5_000


@dataclass(frozen=True)
class EvalSet:
    cases: tuple[EvalCase, ...]
    problems: tuple[EvalProblem, ...]
    files: tuple[Path, ...]

    @property
    def errors(self) -> tuple[EvalProblem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")

    @property
    def ok(self) -> bool:
        return not self.errors

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": [str(f) for f in self.files],
            "cases": [c.to_dict() for c in self.cases],
            "problems": [p.to_dict() for p in self.problems],
        }


def eval_files(locations: Locations, catalog: Catalog) -> list[tuple[Path, str | None]]:
    """Every eval file of the project that exists: (path, the skill it sits beside or None)."""
    found: list[tuple[Path, str | None]] = []
    project_file = locations.project / PROJECT_FILE
    if project_file.exists():
        found.append((project_file, None))
    for skill in catalog.skills.values():
        # A legacy command's folder holds many commands: a file there belongs to none of them.
        if skill.source.kind is SourceKind.BUNDLED or skill.path.name != "SKILL.md":
            continue
        if not skill.path.is_relative_to(locations.project):
            continue
        for name in BESIDE_SKILL:
            path = skill.path.parent / name
            if path.exists():
                found.append((path, skill.name))
    return found


def _beside(path: Path, catalog: Catalog) -> str | None:
    """The skill a named file sits beside (`evals.yaml` next to its SKILL.md, or `evals/evals.json`)."""
    folders = [path.parent, path.parent.parent] if path.parent.name == "evals" else [path.parent]
    for skill in catalog.skills.values():
        if skill.path.name == "SKILL.md" and skill.path.parent in folders:
            return skill.name
    return None


def read_eval_file(path: Path, skill: str | None = None) -> tuple[list[EvalCase], list[EvalProblem]]:
    """One file's cases and problems; never raises for what the file is or holds."""
    try:
        data, _ = read_regular(path, MAX_EVAL_BYTES)
    except FileNotFoundError:
        return [], [EvalProblem(path, None, "no such file", "check the path")]
    except (NotRegularFile, TooLarge) as exc:
        return [], [EvalProblem(path, None, f"not read: it is {exc.strerror}", "use a regular file of a few kilobytes")]
    except OSError as exc:
        return [], [EvalProblem(path, None, f"cannot read it: {exc.strerror or exc}", "check its permissions")]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return [], [EvalProblem(path, line, f"not UTF-8 (byte {exc.start})", "save the file as UTF-8")]
    return parse_evals(text.removeprefix("\ufeff"), path, skill)


def load_evals(locations: Locations, catalog: Catalog, paths: Sequence[Path] = (), listing: Listing | None = None) -> EvalSet:
    """The cases of `paths` (else of every eval file found), checked against the catalog: a name no
    skill has is an error (with the nearest name); a skill the model cannot call (not in the
    `listing`) is a warning, since such a request can never be met."""
    sources = [(Path(p), _beside(Path(p), catalog)) for p in paths] if paths else eval_files(locations, catalog)
    cases: list[EvalCase] = []
    problems: list[EvalProblem] = []
    for path, skill in sources:
        found, noted = read_eval_file(path, skill)
        problems += noted
        cases += found
    if not sources:
        problems.append(
            EvalProblem(
                locations.project / PROJECT_FILE,
                None,
                "no eval file found",
                "write .claude/skill-evals.yaml (see README: Routing lab), or evals.yaml beside a SKILL.md",
            )
        )
    if len(cases) > MAX_CASES:
        problems.append(
            EvalProblem(
                cases[MAX_CASES].path,
                cases[MAX_CASES].line,
                f"{len(cases):,} requests in all, over {MAX_CASES:,}; the rest are left out",
                "run a smaller set with --file",
                "warning",
            )
        )
        cases = cases[:MAX_CASES]
    kept, checked = _checked(cases, catalog, listing)
    return EvalSet(tuple(kept), tuple(problems + checked), tuple(path for path, _ in sources))


def _checked(cases: Iterable[EvalCase], catalog: Catalog, listing: Listing | None) -> tuple[list[EvalCase], list[EvalProblem]]:
    kept: list[EvalCase] = []
    problems: list[EvalProblem] = []
    seen: dict[tuple[str, str], EvalCase] = {}
    for case in cases:
        name = case.target
        if name is not None and name not in catalog.skills:
            near = did_you_mean(name, catalog.skills)
            hint = f"did you mean {near}?" if near else "name a skill `skilldeck list` shows"
            problems.append(EvalProblem(case.path, case.line, f"no skill is named {name}", hint))
            continue
        if name is not None and listing is not None and listing.entry(name) is None:
            why = (listing.left_out or {}).get(name, "not in the listing")
            problems.append(
                EvalProblem(
                    case.path,
                    case.line,
                    f"{name} is not in the listing ({why}): the model cannot call it",
                    "this request can never be met as written",
                    "warning",
                )
            )
        twin = seen.get((case.request, case.expected_label))
        if twin is not None:
            problems.append(
                EvalProblem(case.path, case.line, f"the same request as {twin.id}; counted once", "remove one", "warning")
            )
            continue
        seen[(case.request, case.expected_label)] = case
        kept.append(case)
    return kept, problems
