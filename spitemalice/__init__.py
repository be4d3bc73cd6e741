"""spitemalice: the rules of Spite and Malice and its family, as a library.

Typical use::

    import spitemalice as sm

    rules = sm.load("blackwood-frey", players=2)
    state = sm.deal(rules, seed=1)
    move = sm.legal_moves(rules, state)[0]
    state = sm.apply_move(rules, state, move)

This package is the public surface: a program that plays games, and a plugin that adds a rule
set or a house rule, import what they need from ``spitemalice`` itself, never from a module
inside it.  The readers and writers of files (records, JSON, notation, schemas, pictures) are
all in :mod:`spitemalice.formats`; the most used of them are here too.  Bots are in
:mod:`spitemalice.bots`, simulations and studies in :mod:`spitemalice.study`, validation in
:mod:`spitemalice.validation`, the conformance kit in :mod:`spitemalice.testing`.
"""

from spitemalice.cards import SKIP_BO, Card, parse_card, parse_cards
from spitemalice.engine import REASONS, apply_move, check_move, deal, is_legal, legal_moves
from spitemalice.engine.views import (
    PayoffView,
    PublicSeat,
    SeatView,
    ViewBot,
    ViewPlayer,
    stand_in_state,
    view_legal_moves,
    view_of,
)
from spitemalice.errors import (
    NOTATION_REASONS,
    DataError,
    IllegalMove,
    NotationError,
    PlayError,
    PositionError,
    ProtocolError,
    RecordError,
    RulesetError,
    SpiteMaliceError,
)
from spitemalice.formats import (
    GameRecord,
    check_record,
    format_position,
    load_record,
    parse_position,
    record_game,
    replay,
)
from spitemalice.model import (
    OUTCOME_KINDS,
    GameResult,
    GameState,
    Outcome,
    OutcomeKind,
    Pile,
    Seat,
    build_ranks,
    sort_hand,
)
from spitemalice.moves import NEW_PILE, Discard, Move, Pass, Play, Zone, move_text, parse_move
from spitemalice.rules.book import RuleBook
from spitemalice.rules.defaults import numbered_pack
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
from spitemalice.rules.registry import PluginInfo, base_sheet, installed, load_plugin
from spitemalice.rules.ruleset import Ruleset

__version__ = "0.1.0"

__all__ = [
    "NEW_PILE",
    "NOTATION_REASONS",
    "OUTCOME_KINDS",
    "REASONS",
    "SKIP_BO",
    "Card",
    "CeilingRule",
    "Clause",
    "DataError",
    "DealRule",
    "Deck",
    "Discard",
    "DiscardRule",
    "GameRecord",
    "GameResult",
    "GameState",
    "IllegalMove",
    "Move",
    "MoveFilter",
    "NotationError",
    "Outcome",
    "OutcomeKind",
    "Pass",
    "PayoffView",
    "Pile",
    "PileAccess",
    "Play",
    "PlayError",
    "PluginInfo",
    "PositionError",
    "ProtocolError",
    "PublicSeat",
    "RecordError",
    "RuleBook",
    "Ruleset",
    "RulesetError",
    "Seat",
    "SeatView",
    "SpiteMaliceError",
    "TeamRule",
    "ViewBot",
    "ViewPlayer",
    "WildRule",
    "Zone",
    "apply_move",
    "base_sheet",
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
    "move_text",
    "numbered_pack",
    "parse_card",
    "parse_cards",
    "parse_move",
    "parse_position",
    "record_game",
    "replay",
    "sort_hand",
    "stand_in_state",
    "view_legal_moves",
    "view_of",
]
