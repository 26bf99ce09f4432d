"""A faster `__init__` for the frozen, slotted dataclasses made once per file of a large catalog."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any


def init_by_slots(cls: type) -> None:
    """Give a frozen, slotted dataclass an `__init__` that stores each field through its slot's
    descriptor. The one dataclasses writes goes through `object.__setattr__` per field (the way
    round a frozen class's own __setattr__): 33 generic lookups that made `Skill(...)` a tenth of
    a 15,000-skill load. Same parameters, order and defaults, made from the fields as dataclasses
    makes its own; a field it cannot make this way (a default factory) keeps the generated one."""
    params: list[str] = []
    lines: list[str] = []
    space: dict[str, Any] = {}
    for f in fields(cls):
        if not f.init or f.default_factory is not MISSING:
            return
        space[f"_set_{f.name}"] = cls.__dict__[f.name].__set__
        if f.default is MISSING:
            params.append(f.name)
        else:
            space[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        lines.append(f"    _set_{f.name}(self, {f.name})")
    exec(f"def __init__(self, {', '.join(params)}):\n" + "\n".join(lines), space)
    init = space["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__module__ = cls.__module__
    cls.__init__ = init  # type: ignore[misc]
