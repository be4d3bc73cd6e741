"""The cards are conserved: every card of the deck is somewhere exactly once, counted after
every move by what changed."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable

from spitemalice.cards import Card
from spitemalice.engine.invariants.violation import Violations
from spitemalice.model import GameState, hand_order, require_state
from spitemalice.rules.book import RuleBook, check_book


def card_conservation(rules: RuleBook, state: GameState) -> Violations:
    """Every card of the deck is somewhere exactly once: the state's cards equal the deck's.

    Raises:
        TypeError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say: the
            message names what takes one).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "card_conservation")
    require_state(state, "card_conservation")
    return _card_conservation(rules, state)


def _card_conservation(rules: RuleBook, state: GameState) -> Violations:
    if _conserved(rules, state):
        return []
    have = Counter(state.all_cards())
    want = Counter(rules.deck.cards) + Counter(rules.deck.payoff_cards or ())
    extra, missing = have - want, want - have
    return [f"cards not conserved: extra {_cards(extra)}, missing {_cards(missing)}"]


class _Tally(threading.local):
    """The card count of the last state checked in this thread, kept so that the next state
    (usually its successor, sharing all but a few piles) is counted by what changed: after
    every move this check would otherwise count a few hundred cards.  ``surplus`` maps a card
    key to (cards in the state) - (cards in the deck), holding only the non-zero entries;
    the cards are conserved exactly when it is empty."""

    def __init__(self) -> None:
        self.rules: RuleBook | None = None
        self.places: list[tuple[Card, ...]] = []
        self.builds: tuple[tuple[Card, ...], ...] = ()
        self.surplus: dict[tuple[int, str], int] = {}


_TALLY = _Tally()


def _places(state: GameState) -> list[tuple[Card, ...]]:
    """Every pile of ``state`` but the build piles, in a fixed order."""
    places = [state.draw, state.completed]
    for seat in state.seats:
        places.append(seat.hand)
        places += seat.payoff
        places += seat.discards
    return places


def _count(surplus: dict[tuple[int, str], int], cards: Iterable[Card], step: int) -> None:
    for key in map(hand_order, cards):  # (rank, suit): the card's value, as a tuple
        left = surplus.get(key, 0) + step
        if left:
            surplus[key] = left
        else:
            del surplus[key]


def _recount(surplus: dict[tuple[int, str], int], old: tuple[Card, ...],
             new: tuple[Card, ...]) -> None:
    """Update ``surplus`` for a pile that held ``old`` and holds ``new``."""
    if old is new or old == new:  # tuple equality tests identity first, in C
        return
    if len(new) > len(old) and new[: len(old)] == old:  # cards added on top
        _count(surplus, new[len(old) :], 1)
    elif len(new) < len(old) and old[: len(new)] == new:  # cards taken from the top
        _count(surplus, old[len(new) :], -1)
    else:
        _count(surplus, old, -1)
        _count(surplus, new, 1)


def _conserved(rules: RuleBook, state: GameState) -> bool:
    tally = _TALLY
    places, builds = _places(state), state.builds
    if tally.rules is not rules or len(places) != len(tally.places):
        surplus: dict[tuple[int, str], int] = {}
        _count(surplus, (*rules.deck.cards, *(rules.deck.payoff_cards or ())), -1)
        for pile in (*places, *builds):
            _count(surplus, pile, 1)
        tally.rules, tally.places, tally.builds, tally.surplus = rules, places, builds, surplus
        return not surplus
    surplus = tally.surplus
    for old, new in zip(tally.places, places, strict=True):
        _recount(surplus, old, new)
    if len(builds) == len(tally.builds):
        for old, new in zip(tally.builds, builds, strict=True):
            _recount(surplus, old, new)
    else:  # a pile opened or left the table: count the row of build piles again
        for old in tally.builds:
            _count(surplus, old, -1)
        for new in builds:
            _count(surplus, new, 1)
    tally.places, tally.builds = places, builds
    return not surplus


def _cards(counter: Counter[Card]) -> str:
    return " ".join(f"{card}x{n}" for card, n in sorted(counter.items())) or "none"


UNCHECKED: dict[str, Callable[[RuleBook, GameState], Violations]] = {
    "card_conservation": _card_conservation,
}
"""This module's invariant checks for arguments the caller has checked, by public name
(:mod:`~spitemalice.engine.invariants.run` calls them on every move of a checked game)."""
