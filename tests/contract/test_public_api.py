"""The public surface (issue 17): what ``import spitemalice`` promises plugin authors and
embedders, and that nothing it promised before the regrouping was dropped."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import spitemalice as sm
import spitemalice.errors

PACKAGE = Path(sm.__file__).parent

# The names ``spitemalice`` exported before issue 17 (commit d1de9d3): each is still exported.
EXPORTED_BEFORE_ISSUE_17 = (
    "NEW_PILE", "REASONS", "Card", "CeilingRule", "Clause", "DealRule", "Deck", "Discard",
    "DiscardRule", "GameRecord", "GameState", "IllegalMove", "Move", "MoveFilter",
    "NotationError", "Outcome", "Pass", "PileAccess", "Play", "RuleBook", "Ruleset",
    "RulesetError", "Seat", "SeatView", "SpiteMaliceError", "TeamRule", "WildRule", "Zone",
    "apply_move", "build_ranks", "check_move", "check_record", "deal", "format_position",
    "hookimpl", "installed", "is_legal", "legal_moves", "load", "load_record", "parse_card",
    "parse_move", "parse_position", "record_game", "replay", "view_of",
)


def test_every_name_exported_before_is_still_exported() -> None:
    missing = [name for name in EXPORTED_BEFORE_ISSUE_17
               if name not in sm.__all__ or not hasattr(sm, name)]
    assert missing == []


def test_every_exported_name_exists() -> None:
    assert [name for name in sm.__all__ if not hasattr(sm, name)] == []


def test_every_error_class_is_defined_in_errors_and_exported() -> None:
    """Style point 5: one module of errors, as its docstring promises; each is exported."""
    errors = [obj for _, obj in inspect.getmembers(spitemalice.errors, inspect.isclass)
              if issubclass(obj, sm.SpiteMaliceError)]
    assert {e.__name__ for e in errors} >= {"RecordError", "DataError", "PositionError"}
    assert [e.__name__ for e in errors if e.__name__ not in sm.__all__] == []
    names = {e.__name__ for e in errors}
    elsewhere = []
    for path in PACKAGE.rglob("*.py"):
        if path.name == "errors.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    ast.unparse(base).rpartition(".")[2] in names for base in node.bases):
                elsewhere.append(f"{path.relative_to(PACKAGE)}: {node.name}")
    assert elsewhere == []


# The packages whose __init__ is a documented surface of its own; docs and examples import from
# these and from spitemalice itself, never from a module inside a package.
PUBLIC_PACKAGES = ("bots", "env", "formats", "openspiel", "play", "server", "study", "testing",
                   "validation")
ROOT = PACKAGE.parent
IMPORT = re.compile(r"^\s*(?:>>> |\.\.\. )?((?:from|import) spitemalice\b.*?)(?:\s*#.*)?$", re.M)


def _import_lines() -> list[tuple[str, str]]:
    """(where, import statement) of every spitemalice import in the docs and the examples."""
    found = []
    for page in sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")]):
        found += [(page.name, m.group(1)) for m in IMPORT.finditer(page.read_text("utf-8"))]
    for path in sorted((ROOT / "examples").rglob("*.py")):
        if "build" not in path.relative_to(ROOT).parts:
            tree = ast.parse(path.read_text(encoding="utf-8"))
            found += [(path.name, ast.unparse(node)) for node in ast.walk(tree)
                      if isinstance(node, (ast.Import, ast.ImportFrom))]
    return found


def _outside_the_surface(statement: str) -> list[str]:
    # the first line of an import that runs on ("from x import (") names no name of its own
    node = ast.parse(statement + "_)" if statement.endswith("(") else statement).body[0]
    if isinstance(node, ast.Import):
        return [a.name for a in node.names if a.name.startswith("spitemalice.")
                and a.name.removeprefix("spitemalice.") not in PUBLIC_PACKAGES]
    assert isinstance(node, ast.ImportFrom)
    module = node.module or ""
    if not module.startswith("spitemalice"):
        return []
    if module != "spitemalice" and module.removeprefix("spitemalice.") not in PUBLIC_PACKAGES:
        return [module]
    public = importlib.import_module(module).__all__
    return [f"{module}.{a.name}" for a in node.names if a.name != "_"
            and a.name not in public and a.name not in PUBLIC_PACKAGES]


def test_docs_and_examples_import_only_the_public_surface() -> None:
    """Issue 17 item 3: a reader copies what the docs show, so they use only the names that
    stay put: ``spitemalice`` and the packages above, each name in its ``__all__``."""
    lines = _import_lines()
    assert len(lines) > 20  # the pages were read
    outside = [f"{where}: {statement}" for where, statement in lines
               if _outside_the_surface(statement)]
    assert outside == []


def test_the_surface_check_catches_a_module_inside_a_package() -> None:
    assert _outside_the_surface("from spitemalice.formats.records import replay")
    assert _outside_the_surface("from spitemalice.formats import no_such_name")
    assert _outside_the_surface("from spitemalice import RuleBook, not_exported")
    assert not _outside_the_surface("from spitemalice.formats import replay")
    assert not _outside_the_surface("from spitemalice import env as sm_env")


def test_a_plugin_finds_everything_it_needs_at_the_top() -> None:
    """Style point 2: what the built-in plugins and the variant guide use is exported."""
    needed = {"hookimpl", "Clause", "MoveFilter", "base_sheet", "load_plugin", "numbered_pack",
              "Move", "Play", "Discard", "Pass", "Zone", "NEW_PILE", "GameState", "Seat", "Pile",
              "Outcome", "OutcomeKind", "Ruleset", "RuleBook", "Deck", "WildRule", "CeilingRule",
              "DiscardRule", "DealRule", "PileAccess", "TeamRule", "SeatView", "view_of",
              "view_legal_moves", "ViewPlayer", "RulesetError"}
    assert sorted(needed - set(sm.__all__)) == []


def test_dir_shows_only_the_public_surface() -> None:
    """``dir(spitemalice)`` lists the public names, the package's modules and dunders: not
    the names the package imports for its own use (``Any``, ``TYPE_CHECKING``, ``importlib``)."""
    modules = {path.stem if path.is_file() else path.name for path in PACKAGE.iterdir()
               if (path.suffix == ".py" or (path / "__init__.py").is_file())}
    stray = [name for name in dir(sm)
             if not name.startswith("_") and name not in sm.__all__ and name not in modules]
    assert stray == []
