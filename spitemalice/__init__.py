"""spitemalice: the rules of Spite and Malice and its family, as a library.

Typical use::

    import spitemalice as sm

    rules = sm.load("blackwood-frey", players=2)
    state = sm.deal(rules, seed=1)
    move = sm.legal_moves(rules, state)[0]
    state = sm.apply_move(rules, state, move)
"""

from spitemalice.cards import Card, parse_card
from spitemalice.engine import REASONS, apply_move, check_move, deal, is_legal, legal_moves
from spitemalice.engine.views import SeatView, view_of
from spitemalice.errors import (
    DataError,
    IllegalMove,
    NotationError,
    PlayError,
    PositionError,
    RecordError,
    RulesetError,
    SpiteMaliceError,
)
from spitemalice.formats.notation import format_position, parse_position
from spitemalice.formats.records import GameRecord, check_record, load_record, record_game, replay
from spitemalice.model import GameState, Outcome, Seat, build_ranks
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone, parse_move
from spitemalice.rules.book import RuleBook
from spitemalice.rules.hookspecs import hookimpl
from spitemalice.rules.loader import load
from spitemalice.rules.policies import (
    CeilingRule,
    Clause,
    DealRule,
    Deck,
    DiscardRule,
    MoveFilter,
    PileAccess,
    TeamRule,
    WildRule,
)
from spitemalice.rules.registry import installed, load_plugin
from spitemalice.rules.ruleset import Ruleset

__version__ = "0.1.0"

__all__ = [
    "NEW_PILE",
    "REASONS",
    "Card",
    "CeilingRule",
    "Clause",
    "DataError",
    "DealRule",
    "Deck",
    "Discard",
    "DiscardRule",
    "GameRecord",
    "GameState",
    "IllegalMove",
    "Move",
    "MoveFilter",
    "NotationError",
    "Outcome",
    "Pass",
    "PileAccess",
    "Play",
    "PlayError",
    "PositionError",
    "RecordError",
    "RuleBook",
    "Ruleset",
    "RulesetError",
    "Seat",
    "SeatView",
    "SpiteMaliceError",
    "TeamRule",
    "WildRule",
    "Zone",
    "apply_move",
    "build_ranks",
    "check_move",
    "check_record",
    "deal",
    "format_position",
    "hookimpl",
    "installed",
    "is_legal",
    "legal_moves",
    "load",
    "load_plugin",
    "load_record",
    "parse_card",
    "parse_move",
    "parse_position",
    "record_game",
    "replay",
    "view_of",
]
