"""Observations: one seat's view as a fixed-shape numpy array.

The array is made from a :class:`~spitemalice.views.SeatView` only, never from the state,
so it holds nothing the seat may not see: two states that differ only in hidden cards give
equal arrays.  Shape ``(size,)``, dtype ``int16``, every value from 0 to 32767 (counters
above that are clipped).

A card is written as its **rank code**, ``rank + 1``: 1 a joker (or any rank-0 wild card),
2 an ace, 3 a two, ..., 14 a king, ``n + 1`` a numbered card ``n``; 0 means no card.
Suits are left out: no rule of any built-in rule set reads them, and two cards of one rank
are interchangeable for every move.  Seats are written relative to the viewer: seat block
0 is the viewer, block 1 the next seat in turn order, and so on.

With ``H`` the hand size, ``P`` pay-off piles, ``D`` discard piles, ``B`` build piles (as in
:mod:`spitemalice.env.actions`), ``K`` the discard depth and ``N`` seats, the layout is:

====================  =======================  ============================================
offset                length                   values
====================  =======================  ============================================
0                     7                        seat on turn relative to the viewer (0 = the
                                               viewer), cards moved this turn, idle turns,
                                               draw-pile count, completed-card count, 1 once
                                               the game has ended, turns ended
7                     ``H``                    the viewer's hand, rank codes in sorted order
                                               (hand slot ``i`` of the action catalogue)
7 + H                 ``2 B``                  per build pile in the order opened: the rank it
                                               has reached, the rank code of its top card
                                               (a wild card keeps its own code)
7 + H + 2B            ``N * (1 + 2P + D(1+K))``  per seat block: cards in hand; per pay-off
                                               pile its count and top card; per discard pile
                                               its count and its top ``K`` cards, top first
====================  =======================  ============================================

A discard pile deeper than ``K`` shows its top ``K`` cards and its full count.
"""

from __future__ import annotations

import numpy as np

from spitemalice.model import Pile
from spitemalice.views import SeatView

HEADER = 7
"""Header values before the hand (see the module docstring)."""
LIMIT = 32767
"""The largest value an observation holds (the top of ``int16``)."""


class ObservationLayout:
    """Where each part of a seat's view lies in the observation array.

    Args:
        hand: ``H``, the hand size.
        payoff: ``P``, pay-off piles per seat.
        discard: ``D``, discard piles per seat.
        builds: ``B``, the most build piles open (as the
            :class:`~spitemalice.env.actions.ActionCatalogue` counts them).
        seats: ``N``.
        depth: ``K``, the discard-pile cards shown per pile.

    Attributes:
        size: the array's length.
    """

    def __init__(self, hand: int, payoff: int, discard: int, builds: int, seats: int,
                 depth: int) -> None:
        self.hand, self.payoff, self.discard = hand, payoff, discard
        self.builds, self.seats, self.depth = builds, seats, depth
        self.builds_at = HEADER + hand
        self.seats_at = self.builds_at + 2 * builds
        self.seat_block = 1 + 2 * payoff + discard * (1 + depth)
        self.size = self.seats_at + seats * self.seat_block
        self._zeros = [0] * self.size
        self._cache: dict[int, tuple[tuple[Pile, ...], list[int]]] = {}

    def encode(self, view: SeatView) -> np.ndarray:
        """``view`` as an ``int16`` array of shape ``(size,)`` (module docstring).

        Raises:
            ValueError: the view has more seats, piles or hand cards than the layout.
        """
        n = len(view.seats)
        hand, builds = view.hand, view.builds
        if len(hand) > self.hand or len(builds) > self.builds or n > self.seats:
            raise ValueError(f"the view does not fit this layout ({len(hand)} hand cards, "
                             f"{len(builds)} build piles, {n} seats)")
        viewer = view.viewer
        # Only the counters can pass the int16 top; card codes and pile counts never do.
        values = [(view.seat - viewer) % n, min(view.turn_moves, LIMIT),
                  min(view.idle_turns, LIMIT), view.draw_count, view.completed_count,
                  int(view.outcome is not None), min(view.turn, LIMIT)]
        values += [card.rank + 1 for card in hand]
        values += self._zeros[:self.hand - len(hand)]
        removed = view.build_removed  # cards recycled from under the tops still count
        for number, pile in enumerate(builds):
            values += (len(pile) + (removed[number] if removed else 0), pile[-1].rank + 1)
        values += self._zeros[:2 * (self.builds - len(builds))]
        for offset in range(n):
            public = view.seats[(viewer + offset) % n]
            values.append(public.hand_count)
            for payoff in public.payoff:
                values += (payoff.count, 0 if payoff.top is None else payoff.top.rank + 1)
            values += self._zeros[:2 * (self.payoff - len(public.payoff))]
            values += self._discards(public.discards)
        values += self._zeros[:self.size - len(values)]
        return np.array(values, dtype=np.int16)

    def _discards(self, piles: tuple[Pile, ...]) -> list[int]:
        """One seat's discard piles encoded.  A seat's discard piles change once a turn at
        most, so recent encodings are kept, keyed on the piles themselves."""
        cached = self._cache.get(id(piles))
        if cached is not None and cached[0] is piles:
            return cached[1]
        depth = self.depth
        values: list[int] = []
        for pile in piles:
            shown = [card.rank + 1 for card in pile[:-depth - 1:-1]]  # top K, top first
            values.append(len(pile))
            values += shown
            values += self._zeros[:depth - len(shown)]
        if len(self._cache) >= 256:
            self._cache.clear()
        self._cache[id(piles)] = (piles, values)  # the piles are kept, so their id is theirs
        return values
