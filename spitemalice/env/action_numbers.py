"""What the two action catalogues (:mod:`spitemalice.env.actions`, by hand slot, and
:mod:`spitemalice.env.card_actions`, by card) share: the most build piles and the pile owners
their numbering counts, the check of an action number, the partners' piles an action names
and their top cards, a pile in words, and the error for something given as a move that is none.

Module functions rather than a base class: the hand-slot catalogue is compiled in the
optional compiled build (setup.py) and the card catalogue is not, and a Python class cannot
inherit a compiled one cheaply.
"""

from __future__ import annotations

import operator
from collections.abc import Mapping

from spitemalice.cards import Card
from spitemalice.engine.refusal import refuse
from spitemalice.errors import SpiteMaliceError
from spitemalice.model import Seat
from spitemalice.moves import Zone
from spitemalice.rules.book import RuleBook
from spitemalice.wording import shown

Shared = tuple[tuple[int, ...], ...]
"""Per seat, the seats whose piles it may also play from or discard to (its partners), in
the order an action numbers them: partner 1, partner 2, ..."""


def most_build_piles(rules: RuleBook) -> int:
    """``B`` of the numbering: the rule set's build-pile limit or, without one (unlimited
    build piles), the cards of the deck that may start a build pile, which no game exceeds."""
    cards = (*rules.deck.cards, *(rules.deck.payoff_cards or ()))
    return rules.build_limit or sum(1 for card in cards if 1 in rules.accepts[card.rank])


def pile_owners(rules: RuleBook) -> tuple[Shared, Shared, int, int]:
    """Per seat the partners it plays from and those it discards to (the rules' team
    access), and ``O`` and ``Q`` of the numbering: the most seats whose piles a seat plays
    from and discards to, itself included."""
    access = rules.teams.access
    return (access.play_from, access.discard_to,
            1 + max((len(seats) for seats in access.play_from), default=0),
            1 + max((len(seats) for seats in access.discard_to), default=0))


def action_number(action: object, size: int) -> int:
    """``action`` as an action number of a catalogue of ``size`` actions: an ``int`` or a
    numpy integer (``operator.index``, not ``int()``: 2.7 is no action number) from 0 to
    ``size - 1``.

    Raises:
        SpiteMaliceError: ``action`` is ``None``, a bool, not a whole number, or not from 0
            to ``size - 1``; the message names the bound.
    """
    if type(action) is int:
        number = action
    elif action is None or isinstance(action, bool):
        number = -1
    else:
        try:
            number = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            number = -1
    if 0 <= number < size:
        return number
    raise SpiteMaliceError(f"an action is a whole number from 0 to {size - 1}, "
                           f"not {shown(action)}")


def owner_seat(shared: Shared, seat: int, who: int, action: int,
               why: Mapping[str, str]) -> int:
    """The seat whose pile an action names: ``seat`` itself for ``who`` 0, else its
    partner number ``who``.

    Raises:
        IllegalMove: ``not-own-pile``: ``seat`` has no partner number ``who`` (citing the rules'
            clause in ``why``, the rule book's ``clause_for``).
    """
    if who == 0:
        return seat
    partners = shared[seat] if seat < len(shared) else ()
    if who > len(partners):
        raise refuse("not-own-pile", f"action {action}", why,
                     f"seat {seat} shares no piles with a partner number {who}")
    return partners[who - 1]


def owner_index(shared: Shared, seat: int, owner: int | None) -> int:
    """:func:`owner_seat` backwards: 0 for ``seat``'s own pile (``owner`` ``None`` or
    ``seat``), else the partner's number."""
    if owner is None or owner == seat:
        return 0
    return shared[seat].index(owner) + 1


def pile_top(seat: Seat, zone: Zone, index: int, action: int,
             why: Mapping[str, str]) -> Card:
    """The top card of ``seat``'s pay-off or discard pile ``index`` (``zone``) that an
    action plays from.

    Raises:
        IllegalMove: ``empty-pile``: the pile is empty (citing the rules' clause in
            ``why``, the rule book's ``clause_for``).
    """
    piles = seat.payoff if zone is Zone.PAYOFF else seat.discards
    if not piles[index]:
        kind = "payoff" if zone is Zone.PAYOFF else "discard"
        raise refuse("empty-pile", f"action {action}", why,
                     f"{'pay-off' if kind == 'payoff' else kind} pile {index + 1} is empty",
                     where=kind)
    return piles[index][-1]


def pile_words(kind: str, place: int, per_owner: int) -> str:
    """Pile ``place`` of an action in words, counted from 1 as in move texts:
    ``"discard pile 2"``, ``"partner 1's pay-off pile 1"``."""
    who, index = divmod(place, per_owner)
    owner = "" if who == 0 else f"partner {who}'s "
    return f"{owner}{kind} pile {index + 1}"


def not_a_listed_move(given: object) -> SpiteMaliceError:
    """The error for something given as a legal move that is no move (text, ``None``, a
    number): the catalogues map the engine's moves, never a move's text.

    Returns:
        the :class:`SpiteMaliceError` to raise, naming what was given and what would do.
    """
    return SpiteMaliceError(f"an action catalogue maps the engine's moves (Play, Discard, "
                            f"Pass, as spitemalice.legal_moves lists them), not {shown(given)}"
                            f"; for a move's text use spitemalice.parse_move first")


__all__ = ["Shared", "action_number", "most_build_piles", "not_a_listed_move", "owner_index",
           "owner_seat", "pile_owners", "pile_top", "pile_words"]
