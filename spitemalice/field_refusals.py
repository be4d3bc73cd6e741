"""Why :class:`~spitemalice.model.Seat` or :class:`~spitemalice.model.GameState` refused a
value: the messages of their constructors' refusals.

A conversion that fails (a pile that is no list, a hand holding something other than cards)
is diagnosed here, after the fact, so that building a valid seat or state costs no check per
card: the bots' samplers build states by the thousand.  Each message names the field and
what it was given (``Seat.hand is a list of cards, ... not a list holding the int 1``).
"""

from __future__ import annotations

import operator
from collections.abc import Iterable
from typing import Final, SupportsIndex, cast

from spitemalice.cards import Card
from spitemalice.wording import kind

PILE: Final = 'a list of cards, e.g. spitemalice.parse_cards("9H 2C"),'
PILES: Final = "a list of piles, each a list of cards (() for an empty pile),"


def seat_refusal(payoff: object, hand: object, discards: object) -> TypeError:
    """The error for a :class:`~spitemalice.model.Seat` whose fields do not convert: the
    first field at fault."""
    for name, value, what in (("payoff", payoff, PILES), ("hand", hand, PILE),
                              ("discards", discards, PILES)):
        wrong = piles_fault(value) if what is PILES else cards_fault(value)
        if wrong:
            return TypeError(f"Seat.{name} is {what} not {wrong}")
    return TypeError("Seat takes payoff and discards, lists of piles, and hand, a list of cards")


def state_refusal(seats: object, builds: object, draw: object, completed: object,
                  build_removed: object, seat_type: type) -> TypeError:
    """The error for a :class:`~spitemalice.model.GameState` whose piles do not convert:
    the first at fault.  ``seat_type`` is :class:`~spitemalice.model.Seat` (passed in: the
    model is the layer above this module)."""
    items = items_of(seats)
    if items is None:
        return TypeError(f"GameState.seats is a list of Seat, one per seat, not {kind(seats)}")
    stray = [seat for seat in items if not isinstance(seat, seat_type)]
    if stray:
        return TypeError(f"GameState.seats is a list of Seat, one per seat, not a list "
                         f"holding {kind(stray[0])}")
    for name, value in (("builds", builds), ("draw", draw), ("completed", completed)):
        wrong = piles_fault(value) if name == "builds" else cards_fault(value)
        if wrong:
            what = PILES if name == "builds" else PILE
            return TypeError(f"GameState.{name} is {what} not {wrong}")
    items = items_of(build_removed)
    wrong = kind(build_removed) if items is None else next(
        (f"a list holding {kind(count)}" for count in items if not whole(count)), "")
    if wrong:
        return TypeError("GameState.build_removed is a list of whole numbers, one per build "
                         f"pile (() when none were recycled), not {wrong}")
    return TypeError("GameState takes seats, a list of Seat, builds, a list of piles, draw "
                     "and completed, lists of cards, and build_removed, whole numbers")


def whole(count: object) -> bool:
    """Whether ``count`` is a whole number (an int or numpy's, through ``__index__``; not a
    bool)."""
    if isinstance(count, bool):
        return False
    try:
        operator.index(cast(SupportsIndex, count))
    except TypeError:
        return False
    return True


def items_of(value: object) -> tuple[object, ...] | None:
    """``value``'s items, or ``None`` when it is text or cannot be iterated."""
    if isinstance(value, str | bytes):
        return None
    try:
        return tuple(cast(Iterable[object], value))
    except TypeError:
        return None


def cards_fault(value: object) -> str:
    """What is wrong with ``value`` as a pile, or ``""``."""
    items = items_of(value)
    if items is None:
        return kind(value)
    for item in items:
        if not isinstance(item, Card):
            return f"a list holding {kind(item)}" + (
                " (cards as text: spitemalice.parse_cards reads them)"
                if isinstance(item, str) else "")
    return ""


def piles_fault(value: object) -> str:
    """What is wrong with ``value`` as a list of piles, or ``""``.  (Only a pile that is no
    list makes the conversion fail: the cards in a pile are not read.)"""
    items = items_of(value)
    if items is None:
        return kind(value)
    for pile in items:
        if items_of(pile) is None:
            return f"a list holding {kind(pile)}"
    return ""
