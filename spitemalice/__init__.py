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

# Loading is lazy (PEP 562): ``import spitemalice`` loads none of the modules below, and a
# name is imported from its module the first time it is used, so a command or a program
# pays only for what it uses.  The imports under TYPE_CHECKING are for type checkers and
# readers; _WHERE says the same for the interpreter (tests/contract/test_public_api.py holds the two
# equal).
import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # (deal and replay are also submodules' names, which mypy may count as a first
    # definition: whether it does for deal depends on the order it reads the package in, so
    # the compiled build, which reads it in another order, needs the ignore the plain check
    # finds unused)
    from spitemalice.cards import SKIP_BO, Card, parse_card, parse_cards
    from spitemalice.engine import (  # type: ignore[no-redef, unused-ignore]
        REASONS,
        apply_move,
        check_move,
        deal,
        is_legal,
        legal_moves,
    )
    from spitemalice.engine.shuffle import shuffled
    from spitemalice.engine.views import (
        PayoffView,
        PublicSeat,
        SeatView,
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
        OutputError,
        PlayError,
        PositionError,
        ProtocolError,
        RecordError,
        RulesetError,
        SpiteMaliceError,
    )
    from spitemalice.formats import (  # type: ignore[no-redef]
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
    from spitemalice.moves import (
        NEW_PILE,
        Discard,
        Move,
        Pass,
        Play,
        Zone,
        move_text,
        parse_move,
        unspaced_move,
    )
    from spitemalice.rules.book import RuleBook
    from spitemalice.rules.defaults import numbered_pack, stated_deck
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
    from spitemalice.rules.simultaneous import SimultaneousGame, SimultaneousState

_MODULES: dict[str, str] = {
    "spitemalice.cards": "SKIP_BO Card parse_card parse_cards",
    "spitemalice.engine": "REASONS apply_move check_move deal is_legal legal_moves",
    "spitemalice.engine.shuffle": "shuffled",
    "spitemalice.engine.views": (
        "PayoffView PublicSeat SeatView ViewPlayer stand_in_state "
        "view_legal_moves view_of"),
    "spitemalice.errors": (
        "NOTATION_REASONS DataError IllegalMove NotationError OutputError PlayError "
        "PositionError ProtocolError RecordError RulesetError SpiteMaliceError"),
    "spitemalice.formats": (
        "GameRecord check_record format_position load_record parse_position record_game "
        "replay"),
    "spitemalice.model": (
        "OUTCOME_KINDS GameResult GameState Outcome OutcomeKind Pile Seat build_ranks "
        "sort_hand"),
    "spitemalice.moves": (
        "NEW_PILE Discard Move Pass Play Zone move_text parse_move unspaced_move"),
    "spitemalice.rules.book": "RuleBook",
    "spitemalice.rules.defaults": "numbered_pack stated_deck",
    "spitemalice.rules.hookspecs": "hookimpl",
    "spitemalice.rules.loader": "load",
    "spitemalice.rules.policies": (
        "CeilingRule Clause DealRule Deck DiscardRule MoveFilter PileAccess TeamRule "
        "WildRule"),
    "spitemalice.rules.registry": "PluginInfo base_sheet installed load_plugin",
    "spitemalice.rules.ruleset": "Ruleset",
    "spitemalice.rules.simultaneous": "SimultaneousGame SimultaneousState",
}
"""Each module of the public surface and the names it gives, space-separated."""
_WHERE = {name: module for module, names in _MODULES.items() for name in names.split()}
"""Each public name and the module it comes from."""

_PACKAGES = frozenset({"bots", "cards", "cli", "engine", "env", "errors", "files", "formats",
                       "guards", "limits", "measures", "model", "moves", "openspiel", "play",
                       "rules", "runs", "server", "stops", "study", "testing", "validation",
                       "wording"})


def __getattr__(name: str) -> Any:
    """A public name, imported from its module on first use (then kept in this module), or a
    module of the package, imported on first use as ``spitemalice.NAME``.

    Raises:
        AttributeError: no such name.
    """
    module = _WHERE.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif name in _PACKAGES:
        value = importlib.import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The public names, the package's modules once imported, and the dunders: not the names
    imported here for the package's own use (``importlib``, ``Any``, ``TYPE_CHECKING``)."""
    shown = {name for name in globals() if name.startswith("__") or name in _WHERE
             or name in _PACKAGES or name in __all__}
    return sorted(shown | set(_WHERE))


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
    "OutputError",
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
    "SimultaneousGame",
    "SimultaneousState",
    "SpiteMaliceError",
    "TeamRule",
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
    "shuffled",
    "sort_hand",
    "stand_in_state",
    "stated_deck",
    "unspaced_move",
    "view_legal_moves",
    "view_of",
]
