"""Finding and placing a card in a hand, on the engine's per-move path.

Cards are interned (:class:`~spitemalice.cards.Card`): two cards of one value are one object,
and a card equals only itself.  So a card is found by ``is``.  ``tuple.index`` and ``in``
give the same answer but ask the card's class for ``__eq__`` at each card they pass (the
class defines its ordering in Python, so CPython's comparison slot is a Python-level
lookup), which cost about a sixth of a discard's time in the compiled build.
"""

from __future__ import annotations

from spitemalice.cards import Card
from spitemalice.model import Pile


def place_of(cards: Pile, card: Card) -> int:
    """The first place of ``card`` in ``cards`` (a hand or any pile), or ``-1`` where it is
    not there: ``cards.index(card)``, without its error."""
    for at, held in enumerate(cards):
        if held is card:
            return at
    return -1


def without(hand: Pile, cards: Pile) -> Pile | None:
    """``hand`` less one of each of ``cards`` (a card given twice is taken twice), in hand
    order; ``None`` when the hand lacks one of them."""
    rest, missing = _take(hand, cards)
    return None if missing is not None else rest


def missing_card(hand: Pile, cards: Pile) -> Card | None:
    """The first of ``cards`` that ``hand`` lacks, each card of the hand taken once (a pair
    of one card needs it twice), or ``None`` when it holds them all."""
    return _take(hand, cards)[1]


def _take(hand: Pile, cards: Pile) -> tuple[Pile, Card | None]:
    """``hand`` less ``cards`` taken one by one, and the first card it lacked (``None``
    when none): the one loop behind :func:`without` and :func:`missing_card`."""
    for card in cards:
        at = place_of(hand, card)
        if at < 0:
            return hand, card
        hand = hand[:at] + hand[at + 1 :]
    return hand, None


def insert_place(hand: Pile, card: Card) -> int:
    """Where ``card`` goes in the sorted ``hand`` (after any equal card): the first place
    whose card orders after it by (rank, suit), as ``bisect_right`` with the hand's order
    (:data:`~spitemalice.model.hand_order`) finds it."""
    rank, suit = card.rank, card.suit
    for at, held in enumerate(hand):
        held_rank = held.rank
        if held_rank > rank or (held_rank == rank and held.suit > suit):
            return at
    return len(hand)


def distinct_cards(hand: Pile) -> Pile:
    """``hand`` with each card once, in hand order: equal cards are one object, and the hand
    is sorted, so they sit side by side (``tuple(dict.fromkeys(hand))`` without the dict)."""
    for k in range(1, len(hand)):
        if hand[k] is hand[k - 1]:
            break
    else:
        return hand  # the usual hand: no card twice
    kept = [hand[0]]
    for card in hand[1:]:
        if card is not kept[-1]:
            kept.append(card)
    return tuple(kept)
