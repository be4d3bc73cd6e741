"""The names a data house rule's expressions may read, with their types and meanings.

A condition (``when``, ``require``) reads what the seat on turn can see when it moves: the
move, the pile it goes onto, its own hand and pile tops, the build piles, this turn so far and
the table.  No name reads a face-down card: the draw pile, a pay-off pile below its top card
and another seat's hand are hidden, and a condition that names one is refused with
:data:`HIDDEN`'s reason.  A value expression (``[rule.values]``, ``refuse_when``) reads the
rule set's parameters (:data:`RULESET_NAMES`).

Types: ``int`` (a whole number), ``bool`` (``true`` or ``false``), ``text`` (in quotes),
``ints`` (a list of whole numbers, a rank set) and ``texts`` (a list of texts).  A rank is a
number: 0 a joker (a SKIP-BO card), 1 an ace, 2 to 10, 11 a jack, 12 a queen, 13 a king.  A
rank or pile that does not exist (the top of an empty pile) is -1.
"""

from __future__ import annotations

import attrs

from spitemalice.rules.ruleset import FIELD_NAMES, IDENTITY_FIELDS, Ruleset

INT, BOOL, TEXT, INTS, TEXTS = "int", "bool", "text", "ints", "texts"
TYPE_WORDS = {INT: "a whole number", BOOL: "true or false", TEXT: "a text in quotes",
              INTS: "a list of whole numbers", TEXTS: "a list of texts"}

MOVE_KINDS = ("play", "discard", "pair-discard")
"""The kinds of move a ``forbid`` rule names (``move.kind``).  A pass is never a candidate:
a seat passes only when no other move is left, so it cannot be forbidden."""

CONDITION_NAMES: dict[str, tuple[str, str]] = {
    "move.kind": (TEXT, '"play", "discard" or "pair-discard" (two equal cards discarded)'),
    "move.rank": (INT, "the rank of the card moved (of the pair, for a pair discard)"),
    "move.suit": (TEXT, '"S", "H", "D", "C", or "" for a card without a suit'),
    "move.wild": (BOOL, "whether the card moved is a wild card"),
    "move.stands_for": (INT, "the rank the card takes on its build pile (a wild card's "
                        "stand-in rank); for a discard, the card's own rank"),
    "move.source": (TEXT, '"hand", "payoff" or "discard": where the card comes from'),
    "move.target": (TEXT, '"build" or "discard": the kind of pile it goes onto'),
    "move.pile": (INT, "the number of the pile it goes onto, from 1; 0 for a new build pile"),
    "move.cards": (INT, "how many cards move (2 for a pair discard, else 1)"),
    "move.partner": (BOOL, "whether the card comes from or goes onto a partner's pile"),
    "target.size": (INT, "cards on the pile the move goes onto (0 for a new build pile)"),
    "target.top": (INT, "the rank of its top card (on a build pile, the rank it stands "
                   "for); -1 when it is empty"),
    "target.top_wild": (BOOL, "whether its top card is a wild card"),
    "target.needs": (INT, "the rank a build pile takes next (1 for a new pile); -1 for a "
                     "discard pile"),
    "hand.size": (INT, "cards in the mover's hand"),
    "hand.ranks": (INTS, "the ranks of the cards in the mover's hand"),
    "hand.wild": (INT, "wild cards in the mover's hand"),
    "payoff.top": (INT, "the rank of the top card of the mover's (first) pay-off pile; -1 "
                   "when it is empty"),
    "payoff.tops": (INTS, "the top rank of each of the mover's pay-off piles (-1: empty)"),
    "payoff.size": (INT, "cards left in the mover's pay-off piles (a count everyone sees)"),
    "discards.tops": (INTS, "the top rank of each of the mover's discard piles (-1: empty)"),
    "discards.sizes": (INTS, "how many cards each of the mover's discard piles holds"),
    "discards.empty": (INT, "how many of the mover's discard piles are empty"),
    "builds.count": (INT, "build piles open"),
    "builds.tops": (INTS, "the rank each open build pile's top card stands for"),
    "builds.needs": (INTS, "the rank each open build pile takes next"),
    "builds.wild_tops": (INT, "open build piles with a wild card on top"),
    "turn.moves": (INT, "moves the mover has made this turn (a discard ends a turn, so "
                   "every one of them is a play)"),
    "turn.number": (INT, "turns played in the game before this one"),
    "game.players": (INT, "seats at the table"),
    "game.teams": (INT, "teams (as many as seats when every seat plays alone)"),
    "game.team_size": (INT, "seats per team (1 when every seat plays alone)"),
    "game.draw_size": (INT, "cards left in the draw pile (a count everyone sees)"),
}
"""Every name a condition may read -> (type, meaning)."""

ENDS = ("win", "drawn", "blocked", "turn-limit")
"""How a game ends (``game.end``)."""

SCORE_NAMES: dict[str, tuple[str, str]] = {
    "game.end": (TEXT, '"win", "drawn", "blocked" or "turn-limit": how the game ended'),
    "game.won": (BOOL, "whether a team won (the game ended in a win)"),
    "game.players": (INT, "seats at the table"),
    "game.teams": (INT, "teams (as many as seats when every seat plays alone)"),
    "game.team_size": (INT, "seats per team (1 when every seat plays alone)"),
    "game.turns": (INT, "turns played in the game"),
    "game.draw_size": (INT, "cards left in the draw pile"),
    "seat.won": (BOOL, "whether the seat's team won (the seat itself when it plays alone)"),
    "seat.payoff": (INT, "cards left on the seat's own pay-off piles"),
    "seat.hand": (INT, "cards in the seat's hand"),
    "seat.discards": (INT, "cards on the seat's discard piles"),
    "team.payoff": (INT, "cards left on the pay-off piles of the seat's team (the seat's own "
                    "when it plays alone)"),
    "team.hand": (INT, "cards in the hands of the seat's team"),
    "team.discards": (INT, "cards on the discard piles of the seat's team"),
    "opponents.payoff": (INT, "cards left on the pay-off piles of every other team, in all"),
    "opponents.payoffs": (INTS, "cards left on the pay-off piles of each other team, one "
                          "number per team"),
    "opponents.hand": (INT, "cards in the hands of every other team, in all"),
    "opponents.discards": (INT, "cards on the discard piles of every other team, in all"),
}
"""Every end-of-game quantity a score expression may read -> (type, meaning); it may also
read the rule set's parameters by name (``win_bonus``, ``points_per_card``, ``exhaustion``)."""

HIDDEN: dict[str, str] = {
    "draw": "the draw pile is face down",
    "deck": "the cards not yet dealt are face down",
    "payoff.cards": "a pay-off pile is face down below its top card",
    "payoff.under": "a pay-off pile is face down below its top card",
    "payoff.second": "a pay-off pile is face down below its top card",
    "payoff.next": "a pay-off pile is face down below its top card",
    "others.hand": "another seat's hand is hidden",
    "opponent.hand": "another seat's hand is hidden",
    "opponents.hand": "another seat's hand is hidden",
    "next.hand": "another seat's hand is hidden",
    "partner.hand": "another seat's hand is hidden",
}
"""Names (or the first part of a name) that would read a face-down card -> why it is hidden;
a condition that names one is refused with that reason."""

FUNCTIONS: dict[str, tuple[tuple[str, ...], str, str]] = {
    "len": ((INTS,), INT, "how many numbers a list holds"),
    "count": ((INTS, INT), INT, "how many times a number occurs in a list"),
    "lowest": ((INTS,), INT, "the smallest number of a list; -1 for an empty list"),
    "highest": ((INTS,), INT, "the largest number of a list; -1 for an empty list"),
}
"""The functions an expression may call -> (argument types, result type, meaning)."""

CONSTANTS = {"true": True, "false": False}
"""Names that stand for values (besides Python's own ``True`` and ``False``)."""


def _field_type(default: object) -> str:
    if isinstance(default, bool):
        return BOOL
    if isinstance(default, frozenset):
        return INTS
    if isinstance(default, int) or default is None:
        return INT
    return TEXT


_DEFAULTS = attrs.asdict(Ruleset(), recurse=False)
RULESET_NAMES: dict[str, str] = {
    name: _field_type(_DEFAULTS[name]) for name in FIELD_NAMES if name not in IDENTITY_FIELDS}
"""Every parameter a value expression may read or set -> its type (``max_build_piles`` reads
0 for no limit, and 0 sets none; a choice such as ``completed_piles`` is a text)."""
RULESET_NAMES["has_wild_cards"] = BOOL  # read only: whether the deck holds a wild card
RULESET_READ_ONLY = frozenset({"has_wild_cards"})


def ruleset_values(ruleset: Ruleset) -> dict[str, object]:
    """The rule set's parameters as a value expression reads them (rank sets as sets, a
    choice as its text, no limit as 0)."""
    values: dict[str, object] = {}
    for name in RULESET_NAMES:
        value = getattr(ruleset, name)
        if value is None:
            value = 0
        elif not isinstance(value, int | frozenset | str):
            value = str(getattr(value, "value", value))
        values[name] = value
    return values

CONDITION_TYPES: dict[str, str] = {name: kind for name, (kind, _) in CONDITION_NAMES.items()}
"""Every name a condition may read -> its type."""

SCORE_TYPES: dict[str, str] = {
    **{name: kind for name, (kind, _) in SCORE_NAMES.items()}, **RULESET_NAMES}
"""Every name a score expression may read -> its type (the end-of-game quantities and the
rule set's parameters)."""
