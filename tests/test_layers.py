"""Loading flows one way (issue 8 §6): no module of the library imports one that imports it
back, directly or through others.  Imports inside functions count (a late import is still a
dependency); only those under ``if TYPE_CHECKING:`` do not, as they never run."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).parents[1] / "spitemalice"


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    typing_only = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                   and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{alias.name}" for alias in node.names)
    return {m for m in found if m.startswith("spitemalice")}


def graph() -> dict[str, set[str]]:
    modules = {_module(p): p for p in PACKAGE.rglob("*.py")}
    return {name: {m for m in _imports(path, name) if m in modules and m != name}
            for name, path in modules.items()}


def test_no_module_imports_one_that_imports_it_back() -> None:
    edges = graph()
    cycles = []
    for start in edges:
        stack, seen = [(start, (start,))], set()
        while stack:
            node, path = stack.pop()
            for nxt in edges[node]:
                if nxt == start and not start.endswith("__init__"):
                    cycles.append(" -> ".join((*path, nxt)))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*path, nxt)))
    # a package __init__ that re-exports its modules is the one allowed loop (spitemalice
    # imports spitemalice.engine, whose modules import spitemalice.x leaves, never back)
    real = [c for c in cycles if not any(part in ("spitemalice", "spitemalice.engine",
                                                   "spitemalice.validation", "spitemalice.study",
                                                   "spitemalice.bots")
                                         for part in c.split(" -> "))]
    assert real == []


def test_the_load_path_runs_name_to_plugins_to_one_rule_book() -> None:
    edges = graph()
    assert "spitemalice.rules.book" not in edges["spitemalice.rules.registry"]
    assert "spitemalice.rules.loader" not in edges["spitemalice.rules.registry"]
    assert "spitemalice.rules.book" not in edges["spitemalice.rules.sheet"]
    assert "spitemalice.rules.registry" not in edges["spitemalice.rules.book"]
    loader = edges["spitemalice.rules.loader"]
    assert {"spitemalice.rules.registry", "spitemalice.rules.book"} <= loader
