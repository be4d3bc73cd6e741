"""The immutable game model: seats, build piles, game state and outcome.

Every class here is frozen and every container is a tuple, so a state is a value: two equal
states compare and hash equal and have the same future.  Piles are stored bottom to top (the
last element is the top card, the only one in play).  No random generator lives in a state:
the seed and a shuffle counter decide every future shuffle (see
:mod:`spitemalice.engine.shuffle`).
"""

from __future__ import annotations

import operator
import typing
from collections.abc import Callable, Iterable
from typing import Any, Literal, Protocol

import attrs

from spitemalice.cards import Card
from spitemalice.guards import check_int, check_list, int_field, ints_field, not_a_position
from spitemalice.limits import MAX_DECK_CARDS
from spitemalice.moves import Move
from spitemalice.wording import shown

Pile = tuple[Card, ...]

NOTATION: dict[str, Callable[[Any], str]] = {}
"""How a state and a view write themselves in ``repr``: the position notation, registered by
:mod:`spitemalice.formats.notation` under the class name (the notation imports the model, so
the model does not import it)."""
OutcomeKind = Literal["win", "drawn", "blocked", "turn-limit"]
OUTCOME_KINDS: tuple[OutcomeKind, ...] = typing.get_args(OutcomeKind)
"""Every :data:`OutcomeKind`, in the order summaries list them."""


def _tuple_of_piles(piles: Iterable[Iterable[Card]]) -> tuple[Pile, ...]:
    return tuple(tuple(pile) for pile in piles)


# One typed converter per element type, not ``converter=tuple``: mypy's attrs plugin does not
# solve the type variable of a generic converter, so every constructor call would fail to type.
def _cards(cards: Iterable[Card]) -> Pile:
    return tuple(cards)


def _seats(seats: Iterable[Seat]) -> tuple[Seat, ...]:
    return tuple(seats)


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(values)


def removed_counts(values: Iterable[int]) -> tuple[int, ...]:
    """Counts of cards recycled from under the build-pile tops in their one stored form:
    ``()`` when every count is 0 (so equal positions are equal values)."""
    counts = tuple(values)
    return counts if any(counts) else ()


hand_order = operator.attrgetter("rank", "suit")
"""The sort key of a hand, ``(rank, suit)`` (:class:`Seat`'s order), computed in C."""


def sort_hand(cards: Iterable[Card]) -> Pile:
    """Cards in hand order (by rank, then suit), as :class:`Seat` keeps them.

    Raises:
        TypeError: ``cards`` is not a list of cards (a str, ``None``, or cards as text: the
            message names :func:`spitemalice.parse_cards`).  Checked only once sorting
            failed: the engine sorts a hand on every draw.
    """
    try:
        return tuple(sorted(cards, key=hand_order))
    except (TypeError, AttributeError):
        check_list(cards, "sort_hand", "cards, a list of cards,",
                   'spitemalice.parse_cards("9H 2C")')
        text = next((card for card in cards if isinstance(card, str)), None)
        if text is not None:
            raise TypeError(f"sort_hand takes cards, a list of cards, not the str {shown(text)} "
                            f"among them: parse them first with spitemalice.parse_cards"
                            f"(text)") from None
        raise


@attrs.frozen
class Seat:
    """What one seat holds.

    Attributes:
        payoff: the seat's pay-off piles (one in most rule sets, two in Misery), each bottom to
            top; only the top card of each is face up and playable.
        hand: the hand, sorted, so that the order cards were drawn in does not matter.
        discards: exactly ``Ruleset.discard_piles`` discard piles, each bottom to top; empty
            piles are empty tuples.
    """

    payoff: tuple[Pile, ...] = attrs.field(converter=_tuple_of_piles)
    hand: Pile = attrs.field(converter=sort_hand)
    discards: tuple[Pile, ...] = attrs.field(converter=_tuple_of_piles)

    @property
    def payoff_count(self) -> int:
        """Cards left in all of this seat's pay-off piles together."""
        return sum(len(pile) for pile in self.payoff)


@attrs.frozen
class Outcome:
    """How a game ended.

    Attributes:
        kind: ``"win"`` (a seat emptied its pay-off piles), ``"drawn"`` (a required draw found
            the draw pile empty with nothing to recycle), ``"blocked"`` (every seat passed in
            turn without moving a card) or ``"turn-limit"`` (the game reached the rule set's
            turn limit in turns, or one turn reached it in moves).
        winner: the winning seat, or ``None`` when no seat won.
        scores: points per seat for this game, a tuple as long as the number of seats.

    Raises:
        SpiteMaliceError: a number of more than :data:`~spitemalice.limits.MAX_DIGITS`
            digits.
    """

    kind: OutcomeKind
    winner: int | None = attrs.field(validator=int_field())
    scores: tuple[int, ...] = attrs.field(converter=_ints, validator=ints_field())

    def describe(self) -> str:
        """One line for people: ``"win by seat 0; scores 35, 0"``."""
        who = "" if self.winner is None else f" by seat {self.winner}"
        return f"{self.kind}{who}; scores {', '.join(str(score) for score in self.scores)}"


@attrs.frozen
class GameState:
    """A whole position, including whose turn it is and how the future will be shuffled.

    Attributes:
        seats: one :class:`Seat` per seat, in turn order.
        builds: the open build piles in the order they were opened, each bottom to top.  The
            card at position ``i`` (0-based) of pile ``n`` stands for rank
            ``build_removed[n] + i + 1``: every pile starts at rank 1 and rises by one, so the
            rank a wild card stands for follows from where it lies (see :func:`build_ranks`).
        draw: the draw pile, bottom to top (cards are drawn from the end).
        completed: completed build-pile cards set aside until they are recycled.
        seat: the seat on turn (0-based).
        turn: turns ended so far in this game.
        turn_moves: cards moved so far in the current turn.
        idle_turns: consecutive turns that ended with a pass and no card moved.
        seed: the game's seed; with ``shuffles`` it fixes every shuffle to come.
        shuffles: shuffles made so far (the deal is shuffle 0).
        outcome: how the game ended, or ``None`` while it is live.
        build_removed: per open build pile, how many cards were taken from under its top
            and recycled (the electronic Skip-Bo option, ``recycle_under_tops``), so that the
            pile still stands at its rank; ``()`` when every count is 0, the usual case (all
            zero is always written ``()``), else one count per build pile.

    Raises:
        SpiteMaliceError: a number of more than :data:`~spitemalice.limits.MAX_DIGITS`
            digits, which no reader would read back (whether the position is possible is
            :func:`~spitemalice.formats.position_check.check_position`'s question).
    """

    seats: tuple[Seat, ...] = attrs.field(converter=_seats)
    builds: tuple[Pile, ...] = attrs.field(converter=_tuple_of_piles)
    draw: Pile = attrs.field(converter=_cards)
    completed: Pile = attrs.field(converter=_cards)
    seat: int = attrs.field(default=0, validator=int_field())
    turn: int = attrs.field(default=0, validator=int_field())
    turn_moves: int = attrs.field(default=0, validator=int_field())
    idle_turns: int = attrs.field(default=0, validator=int_field())
    seed: int = attrs.field(default=0, validator=int_field())
    shuffles: int = attrs.field(default=0, validator=int_field())
    outcome: Outcome | None = None
    build_removed: tuple[int, ...] = attrs.field(default=(), converter=removed_counts,
                                                 validator=ints_field())

    def __repr__(self) -> str:
        """``GameState('<position notation>')`` (as python-chess writes a board by its FEN):
        a few hundred characters, every card in order, which ``parse_position(text, rules)``
        reads back; the teams, which live in the rules, are not part of it."""
        return notation_repr(self)

    @property
    def is_over(self) -> bool:
        """``True`` once the game has an outcome; no move is legal after that."""
        return self.outcome is not None

    @property
    def build_tops(self) -> tuple[int, ...]:
        """The rank each open build pile's top card stands for, pile 1 first."""
        return top_ranks(self.builds, self.build_removed)

    def all_cards(self) -> list[Card]:
        """Every card in the state, wherever it lies (for conservation checks)."""
        cards: list[Card] = [*self.draw, *self.completed]
        for pile in self.builds:
            cards.extend(pile)
        for seat in self.seats:
            cards.extend(seat.hand)
            for pile in (*seat.payoff, *seat.discards):
                cards.extend(pile)
        return cards


def require_state(state: object, function: str, other: str = "",
                error: Callable[[str], Exception] = TypeError) -> None:
    """Refuse ``state`` unless it is a :class:`GameState`: the public functions that take a
    whole state call this at their start, or, on the per-move paths, only once reading the
    state has failed.

    Args:
        function: the public name called, as the message names it.
        other: what to call with a seat's view instead (``"format a view with
            spitemalice.formats.format_view(view)"``); without it the message says that only the
            whole state will do.
        error: the error class raised (the environments raise ``SpiteMaliceError``).

    Raises:
        TypeError: (or ``error``) ``state`` is not a GameState; the message names
            ``function``, what was given and what would be right
            (:func:`~spitemalice.guards.not_a_position`).
    """
    if not isinstance(state, GameState):
        raise not_a_position(state, function, "GameState", other, error) from None


def build_ranks(pile: Pile, removed: int = 0) -> tuple[int, ...]:
    """The rank each card of a build pile stands for, bottom to top: ``(1, 2, ..., len)``,
    or from ``removed + 1`` up when ``removed`` cards were taken from under its top.

    Raises:
        SpiteMaliceError: ``removed`` is not 0 to :data:`~spitemalice.limits.MAX_DECK_CARDS`.
    """
    if removed:
        check_int(removed, "removed", 0, MAX_DECK_CARDS,
                  constant="spitemalice.limits.MAX_DECK_CARDS")
    return tuple(range(removed + 1, removed + len(pile) + 1))


def top_ranks(builds: tuple[Pile, ...], removed: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The rank each build pile's top card stands for: its length, plus the cards taken from
    under it (``removed``, :attr:`GameState.build_removed`: ``()`` or one count per pile)."""
    if not removed:
        return tuple(map(len, builds))
    return tuple(count + len(pile) for count, pile in zip(removed, builds, strict=True))


# The engine's own constructors.  The public constructors above convert every argument (lists
# to tuples, the hand sorted), which was a quarter of the engine's time; the engine builds
# states from values it already holds in canonical form (tuples, a sorted hand) and skips the
# conversion, writing each slot through its descriptor (what attrs' own __init__ does for a
# frozen class, minus the frozen check and the converters).  The objects made are ordinary
# frozen instances, equal to those the public constructors make from the same values.  Not
# for use outside the engine.
_new = object.__new__
_SEAT_SLOTS = tuple(getattr(Seat, name).__set__ for name in ("payoff", "hand", "discards"))


def new_seat(
    payoff: tuple[Pile, ...], hand: Pile, discards: tuple[Pile, ...],
    _slots: tuple = _SEAT_SLOTS,
) -> Seat:
    """A :class:`Seat` from tuples; ``hand`` must already be sorted by (rank, suit)."""
    seat = _new(Seat)
    _slots[0](seat, payoff)
    _slots[1](seat, hand)
    _slots[2](seat, discards)
    return seat


class StateCopier(Protocol):
    """The type of :data:`with_fields`."""

    def __call__(self, state: GameState, /, **changes: Any) -> GameState: ...


def _generated(name: str, params: str, value: Callable[[str], str]) -> Callable[..., GameState]:
    """A function ``name(state, params)`` that makes a :class:`GameState` field by field,
    each field's value given by ``value(field)`` (Python source), generated from
    ``attrs.fields(GameState)`` as attrs generates an ``__init__``: the field order is written
    only in the class, and a state costs what hand-written code would."""
    fields = [field.name for field in attrs.fields(GameState)]
    setters = {f"set_{field}": getattr(GameState, field).__set__ for field in fields}
    lines = [f"def make(new, cls, keep, {', '.join(setters)}):",
             f"    def {name}(state, {params}):",
             "        made = new(cls)"]
    lines += [f"        set_{field}(made, {value(field)})" for field in fields]
    lines += ["        return made", f"    return {name}"]
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(lines), f"<spitemalice.model.{name}>", "exec"), namespace)
    made: Callable[..., GameState] = namespace["make"](_new, GameState, _KEEP, *setters.values())
    return made


_KEEP = object()  # with_fields' default for every field: the field is not changed
_FIELDS = frozenset(field.name for field in attrs.fields(GameState))

with_fields: StateCopier = _generated(
    "with_fields", "/, *, " + ", ".join(f"{field}=keep" for field in sorted(_FIELDS)),
    lambda field: f"state.{field} if {field} is keep else {field}")
"""``with_fields(state, **changes)``: a copy of ``state`` with the fields given as keywords
changed (``with_fields(state, turn=3, idle_turns=0)``).

The values must already be in canonical form (tuples, sorted hands, ``build_removed`` ``()``
when all its counts are 0): nothing is converted, which is what makes it faster than
``attrs.evolve``.  The object made is an ordinary frozen :class:`GameState`, equal to what
the public constructor makes from the same values.  A keyword that names no field raises
``TypeError``.
"""


def state_copier(*changed: str) -> Callable[..., GameState]:
    """A faster :data:`with_fields` for one set of fields, for the engine's hot path (a play,
    the end of a turn): ``copier(state, *values)`` gives the fields ``changed`` these values,
    by position in the order ``changed`` names them, and keeps the others.

    >>> after_turn = state_copier("seat", "turn")
    >>> after_turn(GameState((), (), (), ()), 1, 5).turn
    5

    Raises:
        ValueError: a name that is no field of :class:`GameState`, or one named twice.
    """
    unknown = sorted(set(changed) - _FIELDS)
    if unknown or len(set(changed)) != len(changed):
        raise ValueError(f"state_copier takes distinct GameState fields "
                         f"({', '.join(sorted(_FIELDS))}), not {', '.join(changed)}")
    return _generated("copy_" + "_".join(changed), ", ".join(changed),
                      lambda field: field if field in changed else f"state.{field}")


@attrs.frozen
class GameResult:
    """One finished game: its seed, the seat that moved first, the final state and the moves
    made in order (what :func:`~spitemalice.runs.loop.play_game` returns and
    :func:`~spitemalice.formats.records.making.record_result` records)."""

    seed: int = attrs.field(validator=int_field())
    first_seat: int = attrs.field(validator=int_field())
    final: GameState = attrs.field(validator=lambda _, __, value: require_state(
        value, "GameResult", "a finished game keeps its whole final state"))
    moves: tuple[Move, ...]

    @property
    def turns(self) -> int:
        """Turns the game lasted (``final.turn``)."""
        return self.final.turn


def notation_repr(value: Any) -> str:
    """``Name('<notation>')`` for a state or a view, or the counters alone before the notation
    has registered itself (it always has once :mod:`spitemalice` is imported)."""
    name = type(value).__name__
    write = NOTATION.get(name)
    if write is None:
        return f"{name}(seat={value.seat}, turn={value.turn})"
    return f"{name}({write(value)!r})"
