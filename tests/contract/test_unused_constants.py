"""Every module-level constant of the library and the built-in rule sets is used somewhere.

A constant is an upper-case name bound at a module's top level in ``spitemalice/`` or
``variants/``.  It counts as used when its name is read anywhere in the project's Python (the
library, the rule sets, the tests, ``bench/``, ``examples/``) beyond its own binding: loaded, an
attribute, imported by name, or a string naming it (``getattr(plugin, "KIND")``), or when the
documentation names it.  Two constants of one name count as one (a name-level check: it finds
the constant nothing names, not one shadowed by its namesake).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parents[2]
CONSTANT = re.compile(r"_?[A-Z][A-Z0-9_]*")
READ = ("spitemalice", "variants", "tests", "bench", "examples")


def _bound(tree: ast.Module) -> Iterator[str]:
    """The upper-case names a module's top level binds."""
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            for target in node.targets:
                targets += target.elts if isinstance(target, ast.Tuple) else [target]
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        yield from (t.id for t in targets if isinstance(t, ast.Name) and CONSTANT.fullmatch(t.id))


def _read(tree: ast.AST) -> Iterator[str]:
    """Every name ``tree`` reads: loaded, as an attribute, imported by name, or in a string."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            yield node.id
        elif isinstance(node, ast.Attribute):
            yield node.attr
        elif isinstance(node, ast.alias):
            yield node.name
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield from re.findall(r"[A-Z][A-Z0-9_]*", node.value)


def _python_files() -> Iterator[Path]:
    for folder in READ:
        yield from (ROOT / folder).rglob("*.py")


def test_every_module_level_constant_is_referenced() -> None:
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in _python_files()}
    constants = {name: path.relative_to(ROOT) for path, tree in trees.items()
                 if path.parts[len(ROOT.parts)] in ("spitemalice", "variants")
                 for name in _bound(tree)}
    read = {name for tree in trees.values() for name in _read(tree)}
    docs = " ".join(path.read_text(encoding="utf-8")
                    for path in [*(ROOT / "docs").rglob("*.md"), ROOT / "README.md"])
    unused = sorted(f"{path}: {name}" for name, path in constants.items()
                    if name not in read and not re.search(rf"\b{name}\b", docs))
    assert constants and unused == [], f"constants nothing references: {unused}"
