"""Spit's positions and moves: frozen values, and the text each move writes.

A position (:class:`SpitState`) holds each seat's five stock piles (bottom to top; the top
card is face up, the others face down) and its spit cards (face down, top last), the spit
piles in the centre, and what the game waits for: free play, the "spit" barrier (every seat
that holds a spit card must say it is ready) or the slap.  Every move names its seat.

Move texts (piles are numbered from 1)::

    S0.P3:9H>C1   seat 0 lays 9H, the top of its stock pile 3, on spit pile 1
    S0.P3:9H>P1   seat 0 moves 9H from stock pile 3 into its empty stock pile 1
    S1:spit       seat 1 is ready to spit
    S1:slap>C2    seat 1 slaps spit pile 2

Spaces around the parts are read as if absent (``S0 . P3 : 9H > C1``), as in a turn-based
game's moves (:func:`spitemalice.unspaced_move`); inside a part (``S 0``, ``9 H``) they are
refused, the message naming the part.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import attrs

import spitemalice as sm
from spitemalice import Card, NotationError, Outcome, SimultaneousState, parse_card

Pile = tuple[Card, ...]
STOCK_PILES = 5
"""Stock piles a seat lays out (SEED-SPIT: « cinq piles »)."""


def _piles(piles: Iterable[Iterable[Card]]) -> tuple[Pile, ...]:
    return tuple(tuple(pile) for pile in piles)


def _cards(cards: Iterable[Card]) -> Pile:
    return tuple(cards)


@attrs.frozen
class SpitSeat:
    """One seat's cards: ``stock`` (five piles, bottom to top, the top face up) and ``spit``
    (its spit cards, face down, the next one last)."""

    stock: tuple[Pile, ...] = attrs.field(converter=_piles)
    spit: Pile = attrs.field(converter=_cards)

    @property
    def stock_count(self) -> int:
        """Cards left in the stock piles."""
        return sum(map(len, self.stock))

    @property
    def held(self) -> int:
        """Cards the seat still holds: stock and spit cards."""
        return self.stock_count + len(self.spit)


def _seats(seats: Iterable[SpitSeat]) -> tuple[SpitSeat, ...]:
    return tuple(seats)


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def _slaps(values: Iterable[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(seat), int(pile)) for seat, pile in values)


@attrs.frozen
class SpitState(SimultaneousState):
    """A whole Spit position.

    Attributes:
        seats: one :class:`SpitSeat` per seat.
        centre: the spit piles, bottom to top (one or two).
        spitters: the seat that spat each spit pile of the round, pile 1 first.
        phase: ``"spit"`` (the barrier: every seat holding a spit card says it is ready),
            ``"play"`` (free play) or ``"slap"`` (the round is over: both slap a spit pile).
        ready: the seats that have answered the barrier pending, in arrival order.
        slaps: ``(seat, pile)`` of each slap so far, in arrival order.
        out: the seat that played out its stock first this round, or ``None``.
        round: rounds finished so far.
        moves: moves made so far in the game (each move's order number is this before it).
        scores: points per seat (the points game; all 0 in the standard game).
        seed: the game's seed; with ``shuffles`` it fixes every shuffle to come.
        shuffles: shuffles made so far.
        outcome: how the game ended, or ``None``.
    """

    seats: tuple[SpitSeat, ...] = attrs.field(converter=_seats)
    centre: tuple[Pile, ...] = attrs.field(default=(), converter=_piles)
    spitters: tuple[int, ...] = attrs.field(default=(), converter=_ints)
    phase: str = "spit"
    ready: tuple[int, ...] = attrs.field(default=(), converter=_ints)
    slaps: tuple[tuple[int, int], ...] = attrs.field(default=(), converter=_slaps)
    out: int | None = None
    round: int = 0
    moves: int = 0
    scores: tuple[int, ...] = attrs.field(default=(0, 0), converter=_ints)
    seed: int = 0
    shuffles: int = 0
    outcome: Outcome | None = None

    def all_cards(self) -> list[Card]:
        """Every card of the position: stock piles, spit cards and spit piles."""
        found = [card for pile in self.centre for card in pile]
        for seat in self.seats:
            found += [card for pile in (*seat.stock, seat.spit) for card in pile]
        return found

    def view(self, seat: int) -> SpitView:
        """What ``seat`` sees: every face-up card (stock tops, spit-pile tops) and counts;
        no face-down card, not even its own (the seed: spit cards are not looked at).

        Raises:
            SpiteMaliceError: ``seat`` is not 0 or 1.
        """
        if type(seat) is not int or not 0 <= seat < len(self.seats):
            raise sm.SpiteMaliceError(f"a view is from a seat 0 to {len(self.seats) - 1}, "
                                      f"not {_seat_text(seat)}")
        return SpitView(
            seat=seat,
            stock=tuple(tuple((len(pile), pile[-1] if pile else None) for pile in s.stock)
                        for s in self.seats),
            spit_cards=tuple(len(s.spit) for s in self.seats),
            centre=tuple((len(pile), pile[-1]) for pile in self.centre),
            spitters=self.spitters, phase=self.phase, ready=self.ready, slaps=self.slaps,
            out=self.out, round=self.round, moves=self.moves, scores=self.scores,
            outcome=self.outcome)


@attrs.frozen
class SpitView:
    """One seat's view of a :class:`SpitState`: face-up cards and counts only.

    Attributes:
        seat: the seat viewing.
        stock: per seat, per stock pile, ``(cards, top card or None)``.
        spit_cards: per seat, how many spit cards it holds.
        centre: per spit pile, ``(cards, top card)``.
        spitters, phase, ready, slaps, out, round, moves, scores, outcome: as in the state.
    """

    seat: int
    stock: tuple[tuple[tuple[int, Card | None], ...], ...]
    spit_cards: tuple[int, ...]
    centre: tuple[tuple[int, Card], ...]
    spitters: tuple[int, ...]
    phase: str
    ready: tuple[int, ...]
    slaps: tuple[tuple[int, int], ...]
    out: int | None
    round: int
    moves: int
    scores: tuple[int, ...]
    outcome: Outcome | None


# -- moves -------------------------------------------------------------------------------


@attrs.frozen
class Lay:
    """Seat ``seat`` lays ``card``, the top of its stock pile ``stock``, on spit pile ``pile``
    (both 0-based)."""

    seat: int
    card: Card
    stock: int
    pile: int

    def __str__(self) -> str:
        return f"S{self.seat}.P{self.stock + 1}:{self.card}>C{self.pile + 1}"


@attrs.frozen
class Fill:
    """Seat ``seat`` moves ``card``, the top of its stock pile ``stock``, into its empty
    stock pile ``to`` (both 0-based)."""

    seat: int
    card: Card
    stock: int
    to: int

    def __str__(self) -> str:
        return f"S{self.seat}.P{self.stock + 1}:{self.card}>P{self.to + 1}"


@attrs.frozen
class Spit:
    """Seat ``seat`` says it is ready to spit (the barrier)."""

    seat: int

    def __str__(self) -> str:
        return f"S{self.seat}:spit"


@attrs.frozen
class Slap:
    """Seat ``seat`` slaps spit pile ``pile`` (0-based) at the end of a round."""

    seat: int
    pile: int

    def __str__(self) -> str:
        return f"S{self.seat}:slap>C{self.pile + 1}"


SpitMove = Lay | Fill | Spit | Slap

_CARD_MOVE = re.compile(r"S(\d)\.P(\d):([^>]+)>([CP])(\d)")
_CALL = re.compile(r"S(\d):(spit|slap>C(\d))")
FORMS = "'S0.P3:9H>C1', 'S0.P3:9H>P1', 'S1:spit' or 'S1:slap>C2'"


def parse_spit_move(text: str) -> SpitMove:
    """The move written ``text`` (see the module docstring); ``str(move)`` reads back.

    Raises:
        NotationError: the text is no Spit move; the message shows the forms.  Spaces
            around a move's parts are read as absent (``S0 . P3 : 9H > C1``, ``S1 : slap >
            C2``), as :func:`spitemalice.parse_move` reads them; a space inside a part
            (``S 0``, ``9 H``, ``C 1``) is refused, naming the part and how it is written.
    """
    if not isinstance(text, str):
        raise NotationError(f"a Spit move is text such as {FORMS}, not "
                            f"{type(text).__name__}", "not-text")
    raw = sm.unspaced_move(text, FORMS, pairs=False)  # "S0 . P3 : 9H > C1" as the main parser
    found = _CARD_MOVE.fullmatch(raw) if len(raw) <= 20 else None
    if found:
        seat, stock, card, kind, pile = found.groups()
        made = Lay if kind == "C" else Fill
        return made(int(seat), parse_card(card), int(stock) - 1, int(pile) - 1)
    call = _CALL.fullmatch(raw) if len(raw) <= 20 else None
    if call:
        if call.group(2) == "spit":
            return Spit(int(call.group(1)))
        return Slap(int(call.group(1)), int(call.group(3)) - 1)
    raise NotationError(f"{raw[:20]!r} is not a Spit move: write one of {FORMS}", "not-a-move")


def _seat_text(seat: object) -> str:
    """A refused seat for a message: never a huge number in full (Python refuses to print
    one past 4,300 digits, and a message must stay short)."""
    if type(seat) is int and abs(seat) >= 10**9:
        return f"a whole number of about {int(seat.bit_length() * 0.30103) + 1:,} digits"
    return repr(seat)[:40]

