"""Loading flows one way (issue 8 §6, issue 17 item 4): the packages of spitemalice form layers,
and a module imports only from its own package and from packages on lower layers.  No module of
the library imports one that imports it back, directly or through others.

Imports inside functions count (a late import is still a dependency); only those under
``if TYPE_CHECKING:`` do not, as they never run.

The table says which package may import which; the tiers (``docs/contributing.md``, held by
``tests/contract/test_tiers.py``) say how: code outside the package (docs, examples, the plugins of
``variants/``) imports from the package faces, the ``__init__`` modules; code inside imports
modules by their names; no underscore name crosses a package boundary, ``bench/`` included
(tests are exempt: they may test private helpers).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "spitemalice"
VARIANTS = ROOT / "variants"

# Which package may import which: the layers, lowest first.  A module may import its own
# package and every package on a lower layer; never one on its own layer (the packages of one
# layer stay independent of each other) or above.  "spitemalice" is the package's own
# __init__, the public surface: it gathers the layers below it for plugin authors and
# embedders, and only the layers above it may import it.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("errors", "stops", "limits"),  # the error types; how a run is stopped; the bounds
    ("wording",),             # counts with their nouns, values in messages, terminal escaping
    ("guards", "files"),      # argument checks at the doors; reading and writing files
    ("cards",),               # cards and their text
    ("moves",),               # moves and their text
    ("outcome", "field_refusals"),  # outcomes, finished games (attrs classes the compiler
                              # leaves); why a seat's or state's constructor refused a value
    ("model",),               # seats, states (outcomes and finished games re-exported)
    ("rules",),               # rule sets, hooks, plugins, the rule book
    ("engine",),              # deal, legal moves, checks, apply, views
    ("formats",),             # notation, JSON, records, schemas, pictures
    ("spitemalice",),         # the public surface (spitemalice/__init__.py)
    ("bots",),                # players
    ("runs", "env"),          # the machinery of a run of games; learning environments
    ("measures",),            # statistics, game-quality metrics, rule-coverage reports
    ("study", "validation", "openspiel"),  # the studies: simulate, compare, tournament,
                              # ladder, balance, atlas; validate: static checks, checked games,
                              # reports; OpenSpiel games, on the environments' actions and views
    ("testing",),             # the conformance kit for variant authors
    ("play",),                # a game at a table, the terminal game (issue 18)
    ("server",),              # the play server: protocol, tables, the web app (issue 18)
    ("cli",),                 # the command line
    ("__main__",),            # python -m spitemalice
)
RANK = {package: rank for rank, layer in enumerate(LAYERS) for package in layer}


def _module(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, name: str, modules: set[str]) -> set[str]:
    """The spitemalice modules ``path`` (module ``name``) imports when it runs: ``from
    spitemalice import limits`` is an import of ``spitemalice.limits``, not of the package."""
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
            submodules = {f"{target}.{alias.name}" for alias in node.names} & modules
            found.update(submodules)
            if len(submodules) < len(node.names):
                found.add(target)
    return {m for m in found if m in modules and m != name}


def graph() -> dict[str, set[str]]:
    paths = {_module(p): p for p in PACKAGE.rglob("*.py")}
    return {name: _imports(path, name, set(paths)) for name, path in paths.items()}


def layer_of(module: str) -> str:
    """``spitemalice.formats.notation`` -> ``formats``; ``spitemalice`` -> ``spitemalice``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def test_every_package_has_a_layer() -> None:
    unplaced = sorted({layer_of(m) for m in graph()} - set(RANK))
    assert unplaced == [], (f"add {unplaced} to LAYERS in tests/contract/test_layers.py, "
                            "saying its job")


def test_no_import_runs_back_up_a_layer() -> None:
    upward = sorted(
        f"{module} imports {target} ({layer_of(module)} may not import {layer_of(target)})"
        for module, targets in graph().items() for target in targets
        if layer_of(target) != layer_of(module)
        and RANK.get(layer_of(target), 0) >= RANK.get(layer_of(module), 0))
    assert upward == []


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The check above can fail: a formats module that imports the study layer is caught."""
    path = tmp_path / "notation.py"
    path.write_text("from spitemalice.study.simulate import play_game\n"
                    "from spitemalice import limits\n", encoding="utf-8")
    modules = {"spitemalice.study.simulate", "spitemalice.limits", "spitemalice"}
    found = _imports(path, "spitemalice.formats.notation", modules)
    assert found == {"spitemalice.study.simulate", "spitemalice.limits"}
    assert RANK[layer_of("spitemalice.study.simulate")] > RANK["formats"]


def test_no_module_imports_one_that_imports_it_back() -> None:
    edges = graph()
    cycles = []
    for start in edges:
        stack, seen = [(start, (start,))], set()
        while stack:
            node, path = stack.pop()
            for nxt in edges[node]:
                if nxt == start:
                    cycles.append(" -> ".join((*path, nxt)))
                elif nxt not in seen:
                    seen.add(nxt)
                    stack.append((nxt, (*path, nxt)))
    # a package __init__ that re-exports its modules is the one allowed loop (spitemalice.engine
    # imports spitemalice.engine.apply, which imports spitemalice.engine.legal, never back)
    packages = {_module(path) for path in PACKAGE.rglob("__init__.py")}
    real = [c for c in cycles if not any(part in packages for part in c.split(" -> "))]
    assert real == []


def test_the_load_path_runs_name_to_plugins_to_one_rule_book() -> None:
    edges = graph()
    assert "spitemalice.rules.book" not in edges["spitemalice.rules.registry"]
    assert "spitemalice.rules.loader" not in edges["spitemalice.rules.registry"]
    assert "spitemalice.rules.book" not in edges["spitemalice.rules.sheet"]
    assert "spitemalice.rules.registry" not in edges["spitemalice.rules.book"]
    loader = edges["spitemalice.rules.loader"]
    assert {"spitemalice.rules.registry", "spitemalice.rules.book"} <= loader


def test_builtin_plugins_import_only_the_public_surface() -> None:
    """Our own rule sets and house rules are what plugin authors copy: each imports what it
    needs from ``spitemalice`` itself (and from its own package), never from a module inside."""
    inside = []
    for path in sorted(VARIANTS.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("spitemalice."):
                inside.append(f"{path.name}: from {node.module}")
            elif isinstance(node, ast.Import):
                inside += [f"{path.name}: import {alias.name}" for alias in node.names
                           if alias.name.startswith("spitemalice.")]
    assert inside == []


def test_the_error_types_name_no_type_of_an_upper_layer() -> None:
    """errors.py is the ground floor: it imports nothing of the library, not even for type
    checkers (a RecordError's problem is typed by what it needs of one, ReplayProblem)."""
    tree = ast.parse((PACKAGE / "errors.py").read_text(encoding="utf-8"))
    named = sorted(ast.unparse(node) for node in ast.walk(tree)
                   if isinstance(node, ast.ImportFrom | ast.Import)
                   and "spitemalice" in ast.unparse(node))
    assert named == []


def test_every_test_file_sits_in_a_folder_of_the_map() -> None:
    """tests/ mirrors the packages (tests/README.md): a test file at the top of tests/, or in a
    folder the map does not name, is in no place a maintainer would look for it."""
    tests = ROOT / "tests"
    readme = (tests / "README.md").read_text(encoding="utf-8")
    folders = {line.split("`")[1].rstrip("/") for line in readme.splitlines()
               if line.startswith("| `")}
    misplaced = sorted(str(path.relative_to(tests)) for path in tests.rglob("test_*.py")
                       if path.parent == tests or path.relative_to(tests).parts[0] not in folders)
    assert misplaced == []
    packages = {path.parent.name for path in PACKAGE.glob("*/__init__.py")}
    assert packages <= folders, sorted(packages - folders)
