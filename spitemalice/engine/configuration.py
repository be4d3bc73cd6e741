"""Whether a state belongs to a rule book's configuration, and the error that says why not.

A state dealt under one configuration (another rule set, another seat count) and given to the
rule book of another reads piles the rules do not have, or cards their tables do not know.
The per-move paths (:func:`~spitemalice.engine.legal.legal_moves`,
:func:`~spitemalice.engine.sample.random_move`, :func:`~spitemalice.engine.apply.apply_move`,
the action catalogues) do not check a state before they read it: they compare its seat count
(a length compare, as a state with fewer seats would otherwise be played silently), refuse a
card the deck does not hold where they meet it for the first time (the engine's tables of
moves are filled on a miss), and diagnose with :func:`foreign_state` once reading the state
has failed.  The other doors check it whole (:func:`check_configuration`).

The wording is the position checks' too
(:func:`~spitemalice.formats.position_check.check_layout`, an environment's
``reset(options={"state": ...})``): one place says what a mismatch is.  Messages name counts
and cards of the rule set, never a hidden card's place.
"""

from __future__ import annotations

from spitemalice.cards import Card, card_text
from spitemalice.errors import PositionError
from spitemalice.model import GameState, Pile
from spitemalice.moves import Discard, Move, Play
from spitemalice.rules.book import RuleBook
from spitemalice.wording import count_of

ANOTHER = "a state from another configuration"
"""What every message of :func:`foreign_state` ends its finding with."""


class ForeignCard(KeyError):
    """A card or pile the engine met for the first time that the rule book's configuration
    does not have (:func:`~spitemalice.engine.legal.move_groups`): a ``KeyError``, so that the
    public functions diagnose it as they diagnose a failed read (:func:`foreign_state`).
    Defined here, in a module the compiled build (``setup.py``) leaves as Python: mypyc
    cannot compile a class that inherits from ``KeyError``."""


def seat_count_problem(rules: RuleBook, seats: int, what: str = "the state") -> str | None:
    """``"the state has 3 seats; blackwood-frey is loaded for 2"``, or ``None`` when
    ``seats`` is ``rules.players``."""
    if seats == rules.players:
        return None
    return f"{what} has {count_of(seats, 'seat')}; {rules.name} is loaded for {rules.players}"


def seat_layout_problem(rules: RuleBook, index: int, payoff_piles: int, hand: int,
                        discards: tuple[Pile, ...]) -> str | None:
    """What of seat ``index``'s piles (pay-off pile count, hand size, discard piles and the
    ranks on them) ``rules`` cannot hold, or ``None``."""
    if payoff_piles != rules.deal.payoff_piles:
        return (f"seat {index} has {count_of(payoff_piles, 'pay-off pile')}; {rules.name} "
                f"deals {rules.deal.payoff_piles}")
    if hand > rules.deal.hand_size:
        return (f"seat {index}'s hand holds {count_of(hand, 'card')}; the hand size is "
                f"{rules.deal.hand_size}")
    if len(discards) != rules.discard.piles:
        return (f"seat {index} has {count_of(len(discards), 'discard pile')}; {rules.name} "
                f"has {rules.discard.piles}")
    forbidden = rules.discard.forbidden
    for number, pile in enumerate(discards, 1):
        for card in pile:
            if card.rank in forbidden:
                return (f"seat {index} discard pile {number} holds {card_text(card)}; that "
                        f"rank may not be discarded")
    return None


def configuration_of(rules: RuleBook) -> tuple[frozenset[Card], int, int]:
    """What a state of ``rules``' configuration holds: every card of the deck (pay-off cards
    of their own included), the pay-off piles and the discard piles of a seat; made once per
    rule book and kept in its engine cache
    (:attr:`~spitemalice.rules.engine_cache.EngineCache.configuration`)."""
    cache = rules.engine_cache
    known = cache.configuration
    if known is None:
        known = cache.configuration = (
            frozenset((*rules.deck.cards, *(rules.deck.payoff_cards or ()))),
            rules.deal.payoff_piles, rules.discard.piles)
    return known


def configuration_problem(rules: RuleBook, state: GameState) -> str | None:
    """What makes ``state`` no position of ``rules``' configuration, or ``None``: its seat
    count, a seat's pile counts or hand size, a card the deck does not hold, the seat on
    turn.  It does not ask whether the position is possible (that is
    :func:`~spitemalice.formats.position_check.check_position`'s question)."""
    problem = seat_count_problem(rules, len(state.seats))
    if problem is not None:
        return problem
    for index, seat in enumerate(state.seats):
        problem = seat_layout_problem(rules, index, len(seat.payoff), len(seat.hand),
                                      seat.discards)
        if problem is not None:
            return problem
    deck = configuration_of(rules)[0]
    foreign = sorted({card for card in state.all_cards() if card not in deck})
    if foreign:
        shown = ", ".join(map(card_text, foreign[:3])) + (", ..." if len(foreign) > 3 else "")
        return f"the state holds {shown}, which the {rules.name} deck does not hold"
    if not 0 <= state.seat < rules.players:
        return f"seat {state.seat} is on turn; seats are 0 to {rules.players - 1}"
    return None


def foreign_state(rules: RuleBook, state: GameState, function: str) -> PositionError | None:
    """The error for ``function`` given a ``state`` of another configuration than
    ``rules``', or ``None`` when :func:`configuration_problem` finds nothing (the caller then
    re-raises what it caught).  For the per-move paths, once reading the state has failed."""
    problem = configuration_problem(rules, state)
    if problem is None:
        return None
    return PositionError(f"{function}: {problem}: {ANOTHER}; deal the state with this rule "
                         f"book (spitemalice.deal(rules, seed)) or give the rule book it was "
                         f"dealt with")


def check_configuration(rules: RuleBook, state: GameState, function: str) -> None:
    """Refuse ``state`` unless it belongs to ``rules``' configuration (the doors that are not
    per-move paths check so at their start).

    Raises:
        PositionError: naming ``function`` and what differs (:func:`foreign_state`).
    """
    error = foreign_state(rules, state, function)
    if error is not None:
        raise error


def decoded(rules: RuleBook, state: GameState, move: Move, function: str) -> Move:
    """``move``, which ``function`` (an action catalogue's ``move``) decoded from ``state``,
    when the deck of ``rules`` holds its cards; else ``state``, which held them, is refused.

    Raises:
        PositionError: the deck does not hold a card of ``move``, naming what of ``state``
            differs (:func:`foreign_state`).
    """
    cards = (move.card,) if isinstance(move, Play) else \
        move.cards if isinstance(move, Discard) else ()
    deck = configuration_of(rules)[0]
    if not all(card in deck for card in cards):
        check_configuration(rules, state, function)
    return move
