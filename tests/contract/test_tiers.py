"""The tiers: who imports what, and no private name crossing a package (issue 33 item 6).

The rule, stated once for contributors in ``docs/contributing.md`` ("Imports: the tiers"):

* **Outside the package** (the plugins in ``variants/``, the projects in ``examples/``, the
  code in ``docs/`` and the Python blocks of ``README.md`` and ``docs/*.md``), code imports
  from the package's faces only: ``spitemalice`` and the ``__init__`` of each of its packages
  (``spitemalice.formats``, ``spitemalice.bots``, ``spitemalice.study``, ...), and the one
  public module that is no package, ``spitemalice.openspiel`` (:data:`FACES`).
* **Inside the package**, a module imports the modules it uses by their names, as the layer
  table of ``tests/contract/test_layers.py`` allows, never a name through another package's
  face.  ``bench/``, our measuring scripts, may too.
* **No underscore name crosses a package boundary**, ``bench/`` included: no ``from
  spitemalice.x.y import _name`` in another package, no ``obj._name`` (or ``getattr(obj,
  "_name")``) in one package of a private name of another (``rules._cache`` in the engine),
  no private module (``spitemalice.cli._args``) imported from another package.  A package is
  a unit of the layer table: a folder of ``spitemalice/`` or a module of its own at the top
  (``wording``, ``model``); outside, each of ``bench``, ``variants`` and ``docs``, and each
  project of ``examples/``.  Dunder names (``__version__``) are not private.

``tests/`` is exempt and not scanned: a test may import and test a private helper.

A static scan does not know an object's type, so an attribute is judged by its name:
``x._name`` crosses when ``_name`` is defined in another package and nowhere in the reader's
own (a private name that two packages both define is not caught).
"""

from __future__ import annotations

import ast
import doctest
import re
from collections.abc import Iterator, Mapping, Set
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).parents[2]
PACKAGE = ROOT / "spitemalice"
FACES = frozenset({".".join(path.relative_to(ROOT).parts[:-1])
                   for path in PACKAGE.rglob("__init__.py")} | {"spitemalice.openspiel"})
"""The modules outside code may import: every package's ``__init__``, and the OpenSpiel
game module (OpenSpiel loads a game from a module)."""
MIDDLE = ("play", "server")
"""The packages whose docstrings say which inner modules of other packages they use."""
MAY_IMPORT_MODULES = frozenset({"bench"})
"""The units outside the package that may import inner modules (never a private name)."""
ATTRIBUTE_CALLS = frozenset({"getattr", "setattr", "hasattr", "delattr"})


class Source(NamedTuple):
    """One piece of scanned code: ``where`` names it in messages, ``unit`` is its package (see
    the module docstring), ``module`` its dotted name inside spitemalice (``""`` outside)."""

    where: str
    unit: str
    module: str
    text: str


def unit_of(module: str) -> str:
    """``spitemalice.formats.notation`` -> ``formats``; ``spitemalice`` -> ``spitemalice``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name != "_"


def _module_of(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_sources() -> list[Source]:
    return [Source(str(path.relative_to(ROOT)), unit_of(_module_of(path)), _module_of(path),
                   path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))]


def _doc_blocks(path: Path, root: Path = ROOT) -> Iterator[Source]:
    """The ``python`` blocks of a page, doctests reduced to their source lines; each block's
    text is padded so that its line numbers are the page's."""
    text = path.read_text(encoding="utf-8")
    for match in re.finditer(r"^```python[^\n]*\n(.*?)^```", text, re.M | re.S):
        block = match.group(1)
        if ">>>" in block:
            code = ""
            for example in doctest.DocTestParser().get_examples(block):
                code += "\n" * (example.lineno - code.count("\n")) + example.source
            block = code
        padding = "\n" * (text.count("\n", 0, match.start()) + 1)
        yield Source(str(path.relative_to(root)), "docs", "", padding + block)


def outside_sources() -> list[Source]:
    """Code outside the package, each file or docs block with its unit."""
    found = []
    for folder in ("bench", "variants", "docs"):
        found += [Source(str(path.relative_to(ROOT)), folder, "",
                         path.read_text(encoding="utf-8"))
                  for path in sorted((ROOT / folder).rglob("*.py"))]
    for path in sorted((ROOT / "examples").rglob("*.py")):
        unit = "/".join(path.relative_to(ROOT).parts[:2])
        found.append(Source(str(path.relative_to(ROOT)), unit, "",
                            path.read_text(encoding="utf-8")))
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        found += _doc_blocks(page)
    return found


def private_names(sources: list[Source]) -> dict[str, set[str]]:
    """Each unit's private names: what its code defines, assigns or imports under one."""
    names: dict[str, set[str]] = {}
    for source in sources:
        own = names.setdefault(source.unit, set())
        for node in ast.walk(ast.parse(source.text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                own.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                own.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                own.add(node.attr)
            elif isinstance(node, ast.alias):
                own.add(node.asname or node.name.partition(".")[0])
    return {unit: {name for name in own if is_private(name)} for unit, own in names.items()}


def _imports(source: Source, tree: ast.Module) -> Iterator[tuple[int, str, tuple[str, ...]]]:
    """(line, module, names imported from it) for each import; ``import a.b`` has no names.
    Relative imports are resolved inside the package (outside, they stay in their project)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name, ()
        elif isinstance(node, ast.ImportFrom):
            target = node.module or ""
            if node.level and source.module:
                base = source.module.split(".")
                if not source.where.endswith("__init__.py"):
                    base = base[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            elif node.level:
                target = ""
            yield node.lineno, target, tuple(alias.name for alias in node.names)


def _ours(module: str) -> bool:
    return module == "spitemalice" or module.startswith("spitemalice.")


def exports() -> dict[str, set[str]]:
    """Each face and the names it exports (its ``__all__``; none when it has none)."""
    found: dict[str, set[str]] = {}
    for face in FACES:
        path = ROOT / Path(*face.split("."))
        path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
        found[face] = set()
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and ast.unparse(node.targets[0]) == "__all__":
                found[face] = set(ast.literal_eval(node.value))
    return found


def _imported(module: str, names: tuple[str, ...], modules: Set[str],
              exported: Mapping[str, Set[str]]) -> Iterator[tuple[str, str]]:
    """(module, name) for each thing an import takes, with name ``""`` for a module itself:
    ``from spitemalice import wording`` takes a module, ``from spitemalice.engine import
    deal`` the function the face exports, though a module has that name too."""
    if not names:
        yield module, ""
    for name in names:
        full = f"{module}.{name}"
        if full in modules and name not in exported.get(module, ()):
            yield full, ""
        else:
            yield module, name


def face_violations(source: Source, modules: Set[str],
                    exported: Mapping[str, Set[str]]) -> list[str]:
    """Outside code's imports of a module that is not a face (``modules``: every module of
    the package; ``exported``: each face and its names).  ``bench/`` may import modules."""
    if source.module or source.unit in MAY_IMPORT_MODULES:
        return []
    found = []
    for line, module, names in _imports(source, ast.parse(source.text)):
        if _ours(module):
            taken = {target for target, _ in _imported(module, names, modules, exported)}
            found += [f"{source.where}:{line} imports {target}, which is no face"
                      for target in sorted(taken - exported.keys())]
    return found


def private_violations(source: Source, private: Mapping[str, Set[str]]) -> list[str]:
    """Private names of one package that ``source`` imports or reads from another."""
    tree = ast.parse(source.text)
    found = []
    for line, module, names in _imports(source, tree):
        if not _ours(module) or unit_of(module) == source.unit:
            continue
        if any(is_private(part) for part in module.split(".")):
            found.append(f"{source.where}:{line} imports the private module {module}")
        found += [f"{source.where}:{line} imports {name} from {module}"
                  for name in names if is_private(name)]
    own = private.get(source.unit, set())
    for node in ast.walk(tree):
        name = ""
        if isinstance(node, ast.Attribute):
            name = node.attr
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
              and node.func.id in ATTRIBUTE_CALLS and len(node.args) > 1
              and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)):
            name = node.args[1].value
        owners = sorted(unit for unit, names in private.items()
                        if name in names and unit != source.unit)
        if is_private(name) and name not in own and owners:
            found.append(f"{source.where}:{node.lineno} reads {ast.unparse(node)}, a private "
                         f"name of {', '.join(owners)}")
    return found


def test_code_outside_the_package_imports_only_its_faces() -> None:
    modules, exported = {source.module for source in package_sources()}, exports()
    assert [v for source in outside_sources()
            for v in face_violations(source, modules, exported)] == []


def test_no_underscore_name_crosses_a_package() -> None:
    sources = package_sources() + outside_sources()
    private = private_names(sources)
    assert [v for source in sources for v in private_violations(source, private)] == []


def test_the_scan_reads_every_tier() -> None:
    """The checks above are not vacuous: every place is read, the docs blocks included."""
    sources = package_sources() + outside_sources()
    units = {source.unit for source in sources}
    assert {"engine", "rules", "play", "server", "wording", "spitemalice"} <= units
    assert {"bench", "variants", "docs", "examples/outside-variant"} <= units
    docs_imports = {module for source in sources if source.unit == "docs"
                    for _, module, _ in _imports(source, ast.parse(source.text))}
    assert {"spitemalice", "spitemalice.formats", "spitemalice.testing"} <= docs_imports
    assert {"spitemalice", "spitemalice.formats", "spitemalice.openspiel"} <= FACES


PLANTED = (
    Source("rules/book.py", "rules", "spitemalice.rules.book",
           "class RuleBook:\n    _cache = None\n\n\nclass _Recipe:\n    pass\n"),
    Source("engine/legal.py", "engine", "spitemalice.engine.legal",
           "from spitemalice.rules.book import _Recipe\n"
           "from .shuffle import _rng\n"
           "def moves(rules, state):\n"
           "    state._rng, rules.ruleset  # engine's own private name; a public one\n"
           "    getattr(rules, '_cache')\n"
           "    return rules._cache\n"),
    Source("bench/search_cost.py", "bench", "", "from spitemalice.bots.ismcts import _Search\n"),
    Source("server/app.py", "server", "spitemalice.server.app",
           "from spitemalice.cli._args import NOT_IN_RERUN\n"),
    Source("cli/main.py", "cli", "spitemalice.cli.main",
           "from spitemalice.cli._args import _shared\nfrom spitemalice import __version__\n"),
    Source("examples/x/plugin.py", "examples/x", "",
           "from spitemalice.formats.serialize import dumps_state\n"
           "from spitemalice import wording, load\n"
           "from spitemalice.formats import dumps_record, replay  # a function, as a module\n"
           "import spitemalice.env\n"),
)


def test_the_tier_checks_catch_planted_violations() -> None:
    """Each kind of crossing is caught where it is planted, and only there: a private name
    imported or read from another package, by attribute or by ``getattr``; a private module
    imported from another package; outside code importing an inner module."""
    private = private_names(list(PLANTED))
    assert private["rules"] == {"_cache", "_Recipe"} and "_rng" in private["engine"]
    crossings = [v for source in PLANTED for v in private_violations(source, private)]
    assert crossings == [
        "engine/legal.py:1 imports _Recipe from spitemalice.rules.book",
        "engine/legal.py:5 reads getattr(rules, '_cache'), a private name of rules",
        "engine/legal.py:6 reads rules._cache, a private name of rules",
        "bench/search_cost.py:1 imports _Search from spitemalice.bots.ismcts",
        "server/app.py:1 imports the private module spitemalice.cli._args",
    ]
    modules = {"spitemalice", "spitemalice.wording", "spitemalice.formats",
               "spitemalice.formats.serialize", "spitemalice.formats.replay", "spitemalice.env",
               "spitemalice.bots.ismcts"}
    exported = {"spitemalice": {"load"}, "spitemalice.formats": {"dumps_record", "replay"},
                "spitemalice.env": set()}
    assert [v for source in PLANTED for v in face_violations(source, modules, exported)] == [
        "examples/x/plugin.py:1 imports spitemalice.formats.serialize, which is no face",
        "examples/x/plugin.py:2 imports spitemalice.wording, which is no face",
    ]


def test_the_middle_tier_names_the_inner_modules_it_uses() -> None:
    """``play`` and ``server`` are built on the library's public functions, and also use
    inner modules of other packages (guards, wording, files, bounds) as any module inside
    may: each package's docstring names (``:mod:``) exactly the modules it takes a module or
    a name on no face from, so that it claims no more and no less than it does (it once said
    "on the public API only")."""
    exported, modules = exports(), {source.module for source in package_sources()}
    public = set().union(*exported.values())
    for unit in MIDDLE:
        used: set[str] = set()
        for source in package_sources():
            for _, module, names in _imports(source, ast.parse(source.text)):
                if source.unit != unit or not _ours(module) or unit_of(module) == unit:
                    continue
                used |= {target for target, name in _imported(module, names, modules, exported)
                         if (name not in public if name else target not in exported)}
        docstring = ast.get_docstring(ast.parse((PACKAGE / unit / "__init__.py").read_text(
            encoding="utf-8"))) or ""
        named = {module for module in re.findall(r":mod:`~?(spitemalice[\w.]*)`", docstring)
                 if unit_of(module) != unit and module not in exported}
        assert (sorted(used - named), sorted(named - used)) == ([], []), \
            f"spitemalice/{unit}/__init__.py: (modules used but not named, named but not used)"


def test_a_docs_block_is_read_with_its_page_lines(tmp_path: Path) -> None:
    """A page's Python blocks are scanned, doctests by their source lines, and a violation is
    named by the page's line."""
    page = tmp_path / "page.md"
    page.write_text("# A page\n\n```python\n>>> import spitemalice as sm\n>>> 1 + 1\n2\n"
                    ">>> from spitemalice.engine.legal import legal_moves\n```\n\n"
                    "```text\nfrom spitemalice.cards import Card\n```\n", encoding="utf-8")
    blocks = list(_doc_blocks(page, tmp_path))
    modules = {"spitemalice", "spitemalice.engine", "spitemalice.engine.legal"}
    exported = {"spitemalice": {"legal_moves"}, "spitemalice.engine": {"legal_moves"}}
    assert [v for block in blocks for v in face_violations(block, modules, exported)] == [
        "page.md:7 imports spitemalice.engine.legal, which is no face"]



def face_imports(text: str, module: str, where: str) -> list[str]:
    """``from FACE import NAME`` lines of ``text`` (module ``module``, shown as ``where``) that
    take from another package's face a name the face only hands on: one defined in a module
    of that package, not in the face itself."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if not (isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in FACES):
            continue
        if module == node.module or module.startswith(f"{node.module}."):
            continue  # its own package's face
        folder = PACKAGE.parent.joinpath(*node.module.split("."))
        face = folder / "__init__.py" if folder.is_dir() else folder.with_suffix(".py")
        defined = {n.name for n in ast.parse(face.read_text(encoding="utf-8")).body
                   if isinstance(n, ast.FunctionDef | ast.ClassDef)} | {"__version__"}
        handed_on = [a.name for a in node.names if a.name not in defined
                     and not (folder / f"{a.name}.py").exists()
                     and not (folder / a.name).is_dir()]
        if handed_on:
            found.append(f"{where}:{node.lineno} from {node.module} import "
                         + ", ".join(handed_on))
    return found


def test_inside_the_package_a_module_imports_modules_not_faces() -> None:
    """Inside the package a module imports what it uses from the module that defines it, not
    through another package's face (a face is for code outside, and importing through one
    loads every module it gathers).  The top-level ``__init__`` gathers the faces for type
    checkers and is left out."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path == PACKAGE / "__init__.py":
            continue
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        module = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found += face_imports(path.read_text(encoding="utf-8"), module,
                              str(path.relative_to(ROOT)))
    assert found == []


def test_the_face_import_scan_sees_one() -> None:
    """The scan above can fail: a runs module taking ``legal_moves`` through the engine's face
    is caught; taking it from ``spitemalice.engine.legal``, a submodule through its package,
    or a name its own package's face hands on, is not."""
    text = ("from spitemalice.engine import legal_moves\n"
            "from spitemalice.engine.legal import PASS\n"
            "from spitemalice.formats import records\n"
            "from spitemalice.runs import loop\n")
    assert face_imports(text, "spitemalice.runs.runner", "planted.py") == [
        "planted.py:1 from spitemalice.engine import legal_moves"]


MODULE_CROSSINGS = frozenset({
    # Inside one package, these modules still import a private name of another module (the
    # rule above lets them).  The list only shrinks: make such a helper public in its module,
    # with a docstring, or move it to the one module that uses it.  engine.check once took
    # three refusal helpers from engine.refusal, and play.session _cited from play.table_view:
    # they are public in engine.refusal_words now.
    "bots.ismcts <- bots.mcts._search_route",
    "bots.mcts <- bots.sampling._determinize",
    "engine.coverage <- engine.check._check_discard",
    "engine.coverage <- engine.check._check_play",
    "engine.coverage <- engine.check._refusing_filters",
    # The shuffle's unchecked twins stay private: a public member of a compiled module may not
    # take a natively typed argument (test_native_arguments), and these take ints unchecked.
    "engine.dealing <- engine.shuffle._rng",
    "engine.dealing <- engine.shuffle._shuffled_list",
    "engine.flow <- engine.shuffle._shuffled_list",
    # interval's cut for checked arguments, naming the caller's function: means' intervals
    # end there, and a public twin would be a door the integer-bounds walk must hold.
    "measures.means <- measures.interval._bounded",
    "study.tune_targets <- study.balance._positions",
})
"""Each import of a private name from another module of the same package, as ``reader <-
module.name`` (without the ``spitemalice.`` prefix)."""


def module_crossings(sources: list[Source]) -> set[str]:
    """Each ``from spitemalice.a.b import _name`` (relative ones too) in a module other than
    ``spitemalice.a.b``, as ``reader <- a.b._name``."""
    return {f"{source.module.removeprefix('spitemalice.')} <- "
            f"{module.removeprefix('spitemalice.')}.{name}"
            for source in sources for _, module, names in _imports(source, ast.parse(source.text))
            if _ours(module) and module != source.module for name in names if is_private(name)}


def test_no_new_private_name_crosses_a_module() -> None:
    """A module's private helper stays in its module: a new crossing fails (make the helper
    public, with a docstring, or move it), and a crossing made good is taken off the list."""
    assert module_crossings(package_sources()) == MODULE_CROSSINGS


def test_the_module_crossing_scan_sees_one() -> None:
    planted = [Source("engine/check.py", "engine", "spitemalice.engine.check",
                      "from .refusal import _not_held, refuse\n"
                      "from spitemalice.engine.check import _check\n")]
    assert module_crossings(planted) == {"engine.check <- engine.refusal._not_held"}
