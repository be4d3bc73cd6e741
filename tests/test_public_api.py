"""The public surface (issue 17): what ``import spitemalice`` promises plugin authors and
embedders, and that nothing it promised before the regrouping was dropped."""

from __future__ import annotations

import ast
import inspect
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
