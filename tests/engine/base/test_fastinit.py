"""`init_by_slots` (engine/base/fastinit.py) gives a frozen, slotted dataclass an `__init__` that
takes the same arguments with the same defaults as the one dataclasses writes, and leaves it as
frozen as before; a class it cannot serve keeps its own."""

from __future__ import annotations

import dataclasses
import inspect
from dataclasses import dataclass, field

import pytest

from engine.base.fastinit import init_by_slots
from engine.catalog.model import Diagnostic, Severity, Skill
from engine.hosts.model import HostSkill, Verdict


@dataclass(frozen=True, slots=True)
class Plain:
    a: int
    b: str = "b"
    c: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Factory:
    a: int
    b: list[int] = field(default_factory=list)


def _parameters(cls: type) -> list[tuple[str, object, object]]:
    return [(p.name, p.default, p.kind) for p in inspect.signature(vars(cls)["__init__"]).parameters.values()]


def test_the_same_arguments_and_values_as_the_generated_init() -> None:
    generated = _parameters(Plain)
    init_by_slots(Plain)
    assert _parameters(Plain) == generated
    assert Plain(1) == Plain(a=1, b="b", c=())
    assert dataclasses.astuple(Plain(1, "x", (2,))) == (1, "x", (2,))
    with pytest.raises(TypeError):
        Plain()  # type: ignore[call-arg]
    with pytest.raises(dataclasses.FrozenInstanceError):
        Plain(1).a = 2  # type: ignore[misc]


def test_a_default_factory_keeps_the_generated_init() -> None:
    before = Factory.__init__
    init_by_slots(Factory)
    assert Factory.__init__ is before
    assert Factory(1).b == []


@pytest.mark.parametrize("cls", [Skill, Diagnostic, HostSkill, Verdict])
def test_the_classes_made_once_per_file_use_it(cls: type) -> None:
    init = vars(cls)["__init__"]
    # Made here: each field through its slot, no `object.__setattr__` (the generated one's way).
    names = init.__code__.co_names
    assert "object" not in names and any(n.startswith("_set_") for n in names), names
    assert init.__qualname__ == f"{cls.__qualname__}.__init__"


def test_a_diagnostic_is_made_as_before() -> None:
    d = Diagnostic(Severity.WARNING, "name-mismatch", __import__("pathlib").Path("/x"), "m", line=2)
    assert (d.hint, d.line, d.column, d.skill) == ("", 2, None, None)
