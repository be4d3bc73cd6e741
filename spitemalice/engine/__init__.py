"""The engine: pure functions over frozen states (deal, legal moves, checks, apply)."""

from .apply import apply_move
from .check import REASONS, check_move, is_legal
from .deal import deal
from .legal import PASS, legal_moves
from .sample import random_move

__all__ = ["PASS", "REASONS", "apply_move", "check_move", "deal", "is_legal", "legal_moves",
           "random_move"]
