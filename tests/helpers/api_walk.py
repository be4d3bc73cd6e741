"""The walk over the API reference that the argument tests share: each test that holds a check
complete (a rule book, a position, a list of names) finds its members by the annotations of
every public callable of every module docs/api documents.

Import it as ``from helpers import api_walk``.
"""

from __future__ import annotations

import importlib
import inspect
import types
from collections.abc import Iterator
from pathlib import Path

from spitemalice.engine import legal

ROOT = Path(__file__).parents[2]


def public_modules() -> list[str]:
    """The modules the API reference documents (its ``::: module`` lines), sorted."""
    return sorted({line.split()[1] for page in (ROOT / "docs" / "api").glob("*.md")
                   for line in page.read_text(encoding="utf-8").splitlines()
                   if line.startswith("::: ")})


def imported_modules() -> Iterator[types.ModuleType]:
    """Each module of :func:`public_modules` that imports here (an optional extra that is not
    installed leaves its modules out: their members are not here either)."""
    for name in public_modules():
        try:
            yield importlib.import_module(name)
        except ImportError:
            continue


def parameters(module: types.ModuleType) -> Iterator[tuple[str, inspect.Parameter]]:
    """``(qualname, parameter)`` for every parameter of every public function, class (its
    constructor) and public method (class and static methods too) defined in ``module``;
    callables without a signature are skipped."""
    for attr, obj in vars(module).items():
        if attr.startswith("_") or getattr(obj, "__module__", None) != module.__name__:
            continue
        items: list[tuple[str, object]] = []
        if inspect.isclass(obj):
            items.append((attr, obj))
            for name, value in vars(obj).items():
                value = getattr(value, "__func__", value)
                if not name.startswith("_") and inspect.isfunction(value):
                    items.append((f"{attr}.{name}", value))
        elif inspect.isfunction(obj):
            items.append((attr, obj))
        for qualname, func in items:
            try:
                signature = inspect.signature(func)  # type: ignore[arg-type]
            except (TypeError, ValueError):
                continue
            for parameter in signature.parameters.values():
                yield qualname, parameter


def compiled() -> bool:
    """Whether the engine is the mypyc build, whose functions show no signature to walk."""
    return not inspect.isfunction(legal.legal_moves)


def assert_listed(found: set[str], listed: set[str]) -> None:
    """Every member the walk ``found`` has a row in ``listed``, and every row a member."""
    assert found - listed == set(), "add a row for each (or list it as left alone, saying why)"
    assert listed - found == set(), "rows for members that are gone"
