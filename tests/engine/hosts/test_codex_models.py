"""Codex CLI's model lookup and budget beyond the recorded cases (model_terra, model_unknown,
model_namespaced, model_in_config, model_window_small, model_gpt55): the lookup's edges, a config
whose `model` or `model_context_window` is not what Codex reads, and the host taking a model."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.hosts.codex import CODEX, Codex
from engine.hosts.codex_models import DEFAULT_MODEL, resolve
from engine.hosts.host import view
from engine.hosts.model import Place, Status
from engine.hosts.registry import host


@pytest.mark.parametrize(
    ("name", "slug"),
    [
        (None, DEFAULT_MODEL),
        ("gpt-6.1-terra", "gpt-6.1-terra"),
        ("gpt-6.1-terra-2027", "gpt-6.1-terra"),  # the longest slug it starts with
        ("gpt-6.1", None),  # a slug's prefix is no slug
        ("openai/gpt-6.1-terra", "gpt-6.1-terra"),
        ("my_ns-2/gpt-5.5", "gpt-5.5"),
        ("a.b/gpt-6.1-terra", None),  # a namespace of letters, digits, _ and - only (probed)
        ("a/b/gpt-6.1-terra", None),  # one namespace, no more
        ("/gpt-6.1-terra", None),
        ("GPT-6.1-TERRA", None),  # letter case exact (probed)
        ("", None),
    ],
)
def test_a_name_resolves_as_codex_looks_it_up(name: str | None, slug: str | None) -> None:
    assert resolve(name).slug == slug


def test_the_budget_is_two_percent_of_the_window_capped_by_the_models_maximum() -> None:
    assert [resolve(n).budget for n in (None, "gpt-6.1-terra", "gpt-daybreak-red-latest", "nope")] == [
        5_440,
        10_000,
        7_440,
        5_440,
    ]
    assert resolve(None, 50_000).budget == 1_000
    assert resolve("gpt-6.1-terra", 10**12).window == 872_000
    assert resolve("gpt-5.5", 10**12).window == resolve("nope", 10**12).window == 272_000
    assert resolve(None, 0).budget == resolve(None, -5).budget == 5_440  # not a window: ignored
    assert resolve(None, 1).budget == 1  # never nothing


def _project(tmp_path: Path, config: str | None) -> Place:
    project, home = tmp_path / "project", tmp_path / "home"
    for number in range(40):
        path = project / ".agents" / "skills" / f"s{number:02d}" / "SKILL.md"
        path.parent.mkdir(parents=True)
        path.write_text(f"---\nname: s{number:02d}\ndescription: {'word ' * 80}\n---\n")
    (home / ".codex").mkdir(parents=True)
    if config is not None:
        (home / ".codex" / "config.toml").write_text(config)
    return Place(project, home, {"HOME": str(home)})


@pytest.mark.parametrize(
    "config",
    [
        None,
        "model = 5\nmodel_context_window = true\n",  # not a name, not a window: Codex's own default
        'model_context_window = "50000"\n',
        "model_context_window = 1.5e4\n",
    ],
)
def test_a_config_without_a_usable_model_or_window_keeps_the_default(tmp_path: Path, config: str | None) -> None:
    got = view(CODEX, _project(tmp_path, config))
    assert {v.status for v in got.verdicts} == {Status.LISTED}


def test_the_given_model_wins_over_the_configs_and_the_configs_window_applies_to_it(tmp_path: Path) -> None:
    place = _project(tmp_path, 'model = "gpt-6.1-terra"\nmodel_context_window = 20000\n')
    # 40 lines of some 110 tokens: whole within 5,440 tokens; within 400 names fit, descriptions are cut.
    assert {v.status for v in view(CODEX, _project(tmp_path / "plain", None)).verdicts} == {Status.LISTED}
    got = view(Codex("no-such-model"), place)
    assert {v.status for v in got.verdicts} == {Status.CUT}
    assert all("(no-such-model: 400 tokens)" in v.why for v in got.verdicts)
    # Without one, the config's model, with the config's window.
    assert all("(gpt-6.1-terra: 400 tokens)" in v.why for v in view(CODEX, place).verdicts)


def test_only_codex_takes_a_model() -> None:
    assert isinstance(host("codex", "gpt-5.5"), Codex)
    with pytest.raises(ValueError, match="whatever the model"):
        host("gemini", "gpt-5.5")
