"""Observations: one seat's view as a fixed-shape numpy array.

The array holds the fields of the seat's :class:`~spitemalice.engine.views.SeatView` and nothing
else, so two states that differ only in hidden cards give equal arrays.
:meth:`ObservationLayout.encode` makes it from a view; the environments use
:meth:`ObservationLayout.encode_state`, which reads the same visible fields straight from the
state (every count, the viewer's hand, the pay-off tops, the discard and build piles) and
never a hidden card, so it needs no view object per step.  The test suite holds the two to
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
                                               has reached (cards recycled from under its top
                                               still count), the rank code of its top card (a
                                               wild card keeps its own code)
7 + H + 2B            ``N * (1 + 2P + D(1+K))``  per seat block: cards in hand; per pay-off
                                               pile its count and top card; per discard pile
                                               its count and its top ``K`` cards, top first
====================  =======================  ============================================

A discard pile deeper than ``K`` shows its top ``K`` cards and its full count.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Final

import numpy as np

from spitemalice.cards import Card
from spitemalice.engine.views import SeatView, require_view
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int
from spitemalice.limits import MAX_DECK_CARDS, MAX_OBSERVATION
from spitemalice.model import AnyState, Pile, require_state

HEADER: Final = 7
"""Header values before the hand (see the module docstring)."""
LIMIT: Final = 32767
"""The largest value an observation holds (the top of ``int16``)."""

# Final: the compiled build (setup.py) reads these as C statics, not from the module's dict
_HEADER: Final = struct.Struct(f"{HEADER}h")  # native int16, as numpy's np.int16
_VALUE: Final = struct.Struct("h")
PACKED_VALUES: Final = [_VALUE.pack(value) for value in range(1025)]
"""``PACKED_VALUES[v]``: the ``int16`` bytes of each value ``v`` from 0 to 1024, packed once
(the small values: counts and rank codes); :func:`value_bytes` packs any value.  Read by
:mod:`spitemalice.env.kept`, which writes the same segments."""
_INT16: Final = np.dtype(np.int16)
_CACHE_MOST: Final = 4096  # entries per segment cache before it is emptied (bounds memory)
_CODES_MOST: Final = 4096  # cards in a layout's table of codes before it is emptied


class ObservationLayout:
    """Where each part of a seat's view lies in the observation array, and the encoding.

    The array is built from segments (the header, the hand, the build piles, and per seat
    its hand count, pay-off piles and discard piles), each the native ``int16`` bytes of
    its values.  A state shares most of its piles with the state before it (the engine
    rebuilds only what a move changed), so :meth:`encode_state` keeps the segments of
    recent piles, keyed on the pile objects themselves, and encodes only what changed.

    Args:
        hand: ``H``, the hand size.
        payoff: ``P``, pay-off piles per seat.
        discard: ``D``, discard piles per seat.
        builds: ``B``, the most build piles open (as the
            :class:`~spitemalice.env.actions.ActionCatalogue` counts them).
        seats: ``N``.
        depth: ``K``, the discard-pile cards shown per pile.

    Each is a whole number from 0 (1 for ``seats`` and ``depth``) to
    :data:`~spitemalice.limits.MAX_DECK_CARDS` (no configuration has more cards, so none has
    more of anything), and the array holds at most
    :data:`~spitemalice.limits.MAX_OBSERVATION` values; memory is linear in its size.

    Attributes:
        size: the array's length.

    Raises:
        SpiteMaliceError: a size out of range or not a whole number (a bool, a float, text,
            ``None``), naming it and the bound.
    """

    def __init__(self, hand: object, payoff: object, discard: object, builds: object,
                 seats: object, depth: object) -> None:
        # Typed ``object`` so that the compiled build (setup.py) does not refuse a wrong type
        # first with its own error: each is checked here, in either build.
        self.hand, self.payoff, self.discard, self.builds = (
            check_int(value, name, 0, MAX_DECK_CARDS, constant="spitemalice.limits.MAX_DECK_CARDS")
            for name, value in (("hand", hand), ("payoff", payoff), ("discard", discard),
                                ("builds", builds)))
        self.seats, self.depth = (
            check_int(value, name, 1, MAX_DECK_CARDS, constant="spitemalice.limits.MAX_DECK_CARDS")
            for name, value in (("seats", seats), ("depth", depth)))
        self.builds_at = HEADER + self.hand
        self.seats_at = self.builds_at + 2 * self.builds
        self.seat_block = 1 + 2 * self.payoff + self.discard * (1 + self.depth)
        self.size = self.seats_at + self.seats * self.seat_block
        if self.size > MAX_OBSERVATION:
            raise SpiteMaliceError(f"an observation of {self.size:,} values; at most "
                                   f"{MAX_OBSERVATION:,} (spitemalice.limits.MAX_OBSERVATION): "
                                   "fewer seats, piles or a smaller depth")
        self._pad = _Zeros(self.size)
        # Segment caches, each keeping the objects it encoded (_Segments)
        self._builds = _Segments()
        self._payoffs = _Segments()
        self._discards = _Segments()
        self._piles = _Segments()
        # card -> its rank code: cards are interned and hash by identity in C, so a lookup
        # costs less than reading the card's rank (an attribute of a Python class)
        self._code_of: dict[Card, bytes] = {}

    # -- the two ways in -----------------------------------------------------------------

    def encode(self, view: SeatView) -> np.ndarray:
        """``view`` as an ``int16`` array of shape ``(size,)`` (module docstring).

        Raises:
            SpiteMaliceError: ``view`` is not a :class:`~spitemalice.engine.views.SeatView` (a whole
                state, say: the message names what takes one).
            SpiteMaliceError: the view has more seats, piles or hand cards than the layout.
        """
        require_view(view, "ObservationLayout.encode",
                     "encode a whole state with ObservationLayout.encode_state(state, viewer)",
                     SpiteMaliceError)
        n = len(view.seats)
        if n > self.seats:
            raise SpiteMaliceError(f"the view does not fit this layout ({n} seats, not "
                             f"{self.seats})")
        viewer = view.viewer
        parts = [header_bytes(view.seat, viewer, n, view.turn_moves, view.idle_turns,
                         view.draw_count, view.completed_count, view.outcome is not None,
                         view.turn),
                 self._hand_codes(view.hand),
                 self._build_codes(view.builds, view.build_removed)]
        for offset in range(n):
            public = view.seats[(viewer + offset) % n]
            parts.append(self._seat_codes(public.hand_count,
                                          [(pile.count, pile.top) for pile in public.payoff],
                                          public.discards))
        return self._array(parts)

    def encode_state(self, state: AnyState, viewer: object) -> np.ndarray:
        """The array :meth:`encode` makes from ``view_of(state, viewer)``, read straight
        from the state.

        It reads only what the view holds: the viewer's hand; of each seat the number of
        cards in hand, each pay-off pile's length and top card, and the discard piles; the
        build piles; the lengths of the draw pile and completed cards; whose turn it is, the
        counters and whether the game has ended.  Never the cards under a pay-off top,
        another seat's hand or the draw pile's order.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's
                view, say: the message names what takes one).
            SpiteMaliceError: the state has more seats, piles or hand cards than the layout
                (a position the configuration cannot reach), naming which, or ``viewer`` is
                not one of its seats (a whole number from 0 to the seats less one; not a
                bool, a float or text), naming the bound.
        """
        state = require_state(state, "ObservationLayout.encode_state",
                              "encode a view with ObservationLayout.encode(view)", SpiteMaliceError)
        # a bytearray: the array is the caller's own, writable, shared with nothing
        return np.frombuffer(bytearray(self.encode_bytes(state, viewer)), _INT16)

    def encode_bytes(self, state: AnyState, viewer: object) -> bytes:
        """:meth:`encode_state`'s array as its native ``int16`` bytes (``2 * size`` of them),
        so that a batch of observations joins into one array at once.

        Raises:
            SpiteMaliceError: ``state`` is not a :class:`~spitemalice.model.GameState` (a seat's
                view, say: the message names what takes one).
            SpiteMaliceError: as :meth:`encode_state`.
        """
        state = require_state(state, "ObservationLayout.encode_bytes", error=SpiteMaliceError)
        seats = state.seats
        n = len(seats)
        if n > self.seats:
            raise SpiteMaliceError(f"the state does not fit this layout ({n} seats, not "
                             f"{self.seats})")
        # ``viewer`` is typed ``object`` so that the compiled build (setup.py) does not
        # refuse a wrong type first with its own error; an int in range costs no call.
        seen_by = viewer if type(viewer) is int and 0 <= viewer < n else check_int(
            viewer, "viewer", 0, n - 1)
        # Each cache entry holds its object, so an id found is that object's (module end).
        own = self._hand_codes(seats[seen_by].hand)  # new at most steps: not kept
        builds, removed = state.builds, state.build_removed
        if removed:
            piles = self._build_codes(builds, removed)
        else:
            found = self._builds.get(builds)
            piles = found if found is not None else self._builds.keep(
                builds, self._build_codes(builds, ()))
        parts = [header_bytes(state.seat, seen_by, n, state.turn_moves, state.idle_turns,
                         len(state.draw), len(state.completed), state.outcome is not None,
                         state.turn),
                 own, piles]
        payoffs, discards = self._payoffs, self._discards
        for offset in range(n):
            seat = seats[(seen_by + offset) % n]
            held = len(seat.hand)
            payoff = seat.payoff
            found = payoffs.get(payoff)
            tops = found if found is not None else payoffs.keep(payoff, self._payoff_codes(
                [(len(pile), pile[-1] if pile else None) for pile in payoff]))
            found = discards.get(seat.discards)
            shown = found if found is not None else discards.keep(
                seat.discards, self._pile_codes_kept(seat.discards))
            parts.append(PACKED_VALUES[held] if held < 1025 else value_bytes(held))
            parts.append(tops)  # (appends: no tuple made per seat)
            parts.append(shown)
        return self._joined(parts)

    # -- segments: each from visible values only ------------------------------------------

    def _array(self, parts: list[bytes]) -> np.ndarray:
        return np.frombuffer(bytearray(self._joined(parts)), _INT16)

    def _joined(self, parts: list[bytes]) -> bytes:
        joined = b"".join(parts)
        missing = 2 * self.size - len(joined)  # seats the layout has and the position lacks
        return joined + bytes(missing) if missing else joined

    def _hand_codes(self, hand: Pile) -> bytes:
        check_fits(len(hand), self.hand, "hand cards")
        return self._codes(hand) + self._pad[self.hand - len(hand)]

    def _build_codes(self, builds: tuple[Pile, ...], removed: tuple[int, ...]) -> bytes:
        """Per build pile the rank reached (its cards, and those recycled from under its
        top: ``removed``, ``()`` when none were) and its top card's code."""
        check_fits(len(builds), self.builds, "build piles")
        reached = [len(pile) for pile in builds] if not removed else [
            len(pile) + taken for pile, taken in zip(builds, removed, strict=True)]
        return (b"".join([value_bytes(rank) + value_bytes(pile[-1].rank + 1)
                          for rank, pile in zip(reached, builds, strict=True)])
                + self._pad[2 * (self.builds - len(builds))])

    def _seat_codes(self, hand_count: int, payoff: Sequence[tuple[int, Card | None]],
                    discards: tuple[Pile, ...]) -> bytes:
        return (value_bytes(hand_count) + self._payoff_codes(payoff)
                + self._discard_codes(discards))

    def _payoff_codes(self, payoff: Sequence[tuple[int, Card | None]]) -> bytes:
        """Pay-off piles as (count, top card or None) pairs: nothing under the top."""
        check_fits(len(payoff), self.payoff, "pay-off piles")
        return (b"".join([value_bytes(count) + value_bytes(0 if top is None else top.rank + 1)
                          for count, top in payoff])
                + self._pad[2 * (self.payoff - len(payoff))])

    def _discard_codes(self, piles: tuple[Pile, ...]) -> bytes:
        check_fits(len(piles), self.discard, "discard piles")
        return (b"".join([self._pile_codes(pile) for pile in piles])
                + self._pad[(1 + self.depth) * (self.discard - len(piles))])

    def _pile_codes_kept(self, piles: tuple[Pile, ...]) -> bytes:
        """As :meth:`_discard_codes`, each pile's segment kept: a move changes one discard
        pile at most, so the seat's other piles are found encoded."""
        check_fits(len(piles), self.discard, "discard piles")
        kept = self._piles
        parts: list[bytes] = []
        for pile in piles:
            found = kept.get(pile)
            parts.append(found if found is not None else kept.keep(pile, self._pile_codes(pile)))
        parts.append(self._pad[(1 + self.depth) * (self.discard - len(piles))])
        return b"".join(parts)

    def _codes(self, cards: Pile) -> bytes:
        """The rank codes of ``cards``, in order."""
        table = self._code_of
        try:
            return b"".join([table[card] for card in cards])
        except KeyError:  # a card met for the first time
            if len(table) + len(cards) > _CODES_MOST:  # numbered cards of many ranks
                table.clear()  # (bounds memory; a pile holds far fewer cards than the bound)
            for card in cards:
                table[card] = _code(card)
            return b"".join([table[card] for card in cards])

    def _pile_codes(self, pile: Pile) -> bytes:
        """One discard pile: its count, then its top ``K`` cards, top first."""
        depth = self.depth
        return (value_bytes(len(pile)) + self._codes(pile[:-depth - 1:-1])
                + self._pad[depth - min(len(pile), depth)])


class _Zeros:
    """``zeros[count]``: ``count`` int16 zeros as bytes.  Small counts are kept made; larger
    ones are cut from one buffer of the array's size, so memory stays linear in the size (a
    table of every count would be quadratic: 577 MB for six seats at depth 1,000)."""

    _KEPT = 64

    def __init__(self, size: int) -> None:
        self._buffer = bytes(2 * size)
        self._kept = [bytes(2 * count) for count in range(min(size, self._KEPT) + 1)]

    def __getitem__(self, count: int) -> bytes:
        if count <= self._KEPT:
            return self._kept[count]
        return self._buffer[: 2 * count]


def value_bytes(value: int) -> bytes:
    """``value`` (an int >= 0, not checked) as its native ``int16`` bytes (2), clipped at
    :data:`LIMIT`: one value of an observation, as every segment writes it (and
    :mod:`spitemalice.env.kept`)."""
    return PACKED_VALUES[value] if value < 1025 else _VALUE.pack(min(value, LIMIT))


def _code(card: Card) -> bytes:
    """The rank code of ``card``, as int16 bytes."""
    return value_bytes(card.rank + 1)


def header_bytes(on_turn: int, viewer: int, n: int, turn_moves: int, idle_turns: int,
                 draw: int, completed: int, over: bool, turn: int) -> bytes:
    """The header (:data:`HEADER` values, the module docstring's first row) as native
    ``int16`` bytes: the seat on turn relative to ``viewer`` among ``n`` seats, then the
    counters (``turn_moves``, ``idle_turns``, ``turn`` clipped at :data:`LIMIT`), the
    ``draw`` and ``completed`` counts and ``over``.  Nothing is checked (the callers' states
    are checked where they came in); read by :mod:`spitemalice.env.kept` too."""
    # Only the counters can pass the int16 top; card codes and pile counts never do.
    return _HEADER.pack((on_turn - viewer) % n, turn_moves if turn_moves < LIMIT else LIMIT,
                        idle_turns if idle_turns < LIMIT else LIMIT, draw, completed, over,
                        turn if turn < LIMIT else LIMIT)


def check_fits(count: int, most: int, what: str) -> None:
    """Refuse a position with more of something than the layout has room for: ``count`` of
    ``what`` (``"discard piles"``) where the layout has room for ``most``.

    Raises:
        SpiteMaliceError: ``count`` is above ``most``, naming ``what``, the count and the
            room.
    """
    if count > most:
        raise SpiteMaliceError(f"the {what} do not fit this layout ({count}, at most {most})")


class _Segments:
    """A cache of encoded segments keyed on the objects themselves (by ``id``: a pile is a
    tuple, and hashing its cards would cost more than encoding them).  It holds every object
    it encoded, so that no other object can take that id while the entry stands, and a hit
    needs no identity check.  Emptied at :data:`_CACHE_MOST` entries (bounds memory).

    The objects are held in a list beside a dict of bytes, not as (object, bytes) records:
    a record is one more object for the garbage collector to track, per new pile, and the
    vectorised environment makes some two a game per step."""

    def __init__(self) -> None:
        self._codes: dict[int, bytes] = {}
        self._held: list[object] = []

    def get(self, key: object) -> bytes | None:
        """``key``'s segment, or ``None`` when it is not kept."""
        return self._codes.get(id(key))

    def keep(self, key: object, codes: bytes) -> bytes:
        """Keep ``codes``, the segment of ``key`` (not kept yet), and give them back."""
        if len(self._held) >= _CACHE_MOST:
            self._codes.clear()
            self._held.clear()
        self._codes[id(key)] = codes
        self._held.append(key)
        return codes
