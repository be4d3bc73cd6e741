"""One game's observation segments, kept from step to step so that each step encodes only
what its move changed (the vectorised environment's games, and each seat of
:class:`~spitemalice.env.spaces.Encoding`).

:meth:`~spitemalice.env.observation.ObservationLayout.encode_bytes` finds the segments of
recent piles in caches keyed on the piles' ids, shared by every game it encodes: a hash and
a dictionary lookup per pile, per step.  One game's observations change little from one step
to the next: a move makes a new hand and seat object for the mover and may change a build
pile or a discard pile.  :class:`KeptSegments` holds the objects one game's last observation
was encoded from beside their segments and compares the next state's objects with them by
identity, which costs nothing.  The model is immutable, so an object met again holds what it
held; the objects are held, so none is freed and no other takes its place.

It uses the layout's own segment encoders, so its bytes are
:meth:`~spitemalice.env.observation.ObservationLayout.encode_bytes`' bytes
(``tests/env/test_env_vector.py`` holds them equal over random play, other viewers and other
games).  Compiled in the compiled build (setup.py).
"""

from __future__ import annotations

from spitemalice.env.observation import (
    PACKED_VALUES,
    ObservationLayout,
    check_fits,
    header_bytes,
    value_bytes,
)
from spitemalice.model import GameState, Pile, Seat


class KeptSegments:
    """The segments of one game's observations and the objects they were encoded from: the
    viewer's hand, the build piles and, per seat, the seat object and its block, its pay-off
    piles and discard piles and their segments, and each discard pile's own.  Memory: a block
    per seat and a segment per pile.

    Args:
        layout: the layout every observation is encoded by.
    """

    def __init__(self, layout: ObservationLayout) -> None:
        seats, piles = layout.seats, layout.discard
        self.layout = layout
        self.hand: object = None
        self.hand_codes = b""
        self.builds: object = None
        self.removed: object = None
        self.build_codes = b""
        self.seats: list[object] = [None] * seats
        self.blocks: list[bytes] = [b""] * seats
        self.payoffs: list[object] = [None] * seats
        self.payoff_codes: list[bytes] = [b""] * seats
        self.discards: list[object] = [None] * seats
        self.discard_codes: list[bytes] = [b""] * seats
        self.piles: list[list[object]] = [[None] * piles for _ in range(seats)]
        self.pile_codes: list[list[bytes]] = [[b""] * piles for _ in range(seats)]

    def encode(self, state: GameState, viewer: int) -> bytes:
        """``layout.encode_bytes(state, viewer)``: the segments kept where their objects are
        the ones last encoded, the others encoded and kept.  A segment is kept only once it
        is made whole, so a refusal leaves what is kept as true as it was.

        Nothing is checked: ``state`` is a :class:`~spitemalice.model.GameState` of exactly
        ``layout.seats`` seats and ``viewer`` one of its seats (the environments' own
        states, checked where they came in).

        Raises:
            SpiteMaliceError: the state does not fit the layout (as ``encode_bytes``).
        """
        layout = self.layout
        seats = state.seats
        n = len(seats)
        hand = seats[viewer].hand
        if hand is not self.hand:
            self.hand_codes = layout._hand_codes(hand)
            self.hand = hand
        builds, removed = state.builds, state.build_removed
        if builds is not self.builds or removed is not self.removed:
            self.build_codes = layout._build_codes(builds, removed)
            self.builds, self.removed = builds, removed
        parts = [header_bytes(state.seat, viewer, n, state.turn_moves, state.idle_turns,
                         len(state.draw), len(state.completed), state.outcome is not None,
                         state.turn),
                 self.hand_codes, self.build_codes]
        for offset in range(n):
            number = (viewer + offset) % n
            seat = seats[number]
            if seat is not self.seats[number]:
                self.blocks[number] = self._block(number, seat)
                self.seats[number] = seat
            parts.append(self.blocks[number])
        return b"".join(parts)

    def _block(self, number: int, seat: Seat) -> bytes:
        """Seat ``number``'s block (cards in hand, pay-off piles, discard piles), its pay-off
        and discard segments encoded again only where their piles are new objects."""
        payoff = seat.payoff
        if payoff is not self.payoffs[number]:
            self.payoff_codes[number] = self.layout._payoff_codes(
                [(len(pile), pile[-1] if pile else None) for pile in payoff])
            self.payoffs[number] = payoff
        discards = seat.discards
        if discards is not self.discards[number]:
            self.discard_codes[number] = self._piles(number, discards)
            self.discards[number] = discards
        held = len(seat.hand)
        return b"".join([PACKED_VALUES[held] if held < 1025 else value_bytes(held),
                         self.payoff_codes[number], self.discard_codes[number]])

    def _piles(self, number: int, piles: tuple[Pile, ...]) -> bytes:
        """Seat ``number``'s discard piles, each encoded again only where it is not the
        object in its place (a move changes one discard pile at most)."""
        layout = self.layout
        check_fits(len(piles), layout.discard, "discard piles")
        objects, codes = self.piles[number], self.pile_codes[number]
        for place, pile in enumerate(piles):
            if pile is not objects[place]:
                codes[place] = layout._pile_codes(pile)
                objects[place] = pile
        parts = codes[:len(piles)]
        parts.append(layout._pad[(1 + layout.depth) * (layout.discard - len(piles))])
        return b"".join(parts)
