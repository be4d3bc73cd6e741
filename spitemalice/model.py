"""The immutable game model: seats, build piles, game state and outcome.

Every class here is frozen and every container is a tuple, so a state is a value: two equal
states compare and hash equal and have the same future.  Piles are stored bottom to top (the
last element is the top card, the only one in play).  No random generator lives in a state:
the seed and a shuffle counter decide every future shuffle (see
:mod:`spitemalice.engine.shuffle`).
"""

from __future__ import annotations

import inspect
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Final, SupportsIndex, TypeAlias, TypeVar, cast

import attrs
from attrs.exceptions import FrozenInstanceError

from spitemalice.cards import Card
from spitemalice.errors import SpiteMaliceError
from spitemalice.field_refusals import seat_refusal, state_refusal
from spitemalice.guards import check_int, check_list, int_field, ints_field, not_a_position
from spitemalice.limits import MAX_DECK_CARDS

# Outcome and GameResult are attrs classes mypyc does not compile (their converters and
# validators): they live in a module left as Python and are re-exported here.
from spitemalice.outcome import OUTCOME_KINDS, STATE_CHECK, GameResult, Outcome, OutcomeKind
from spitemalice.wording import kind, shown

Pile = tuple[Card, ...]

NOTATION: dict[str, Callable[[Any], str]] = {}
"""How a state and a view write themselves in ``repr``: the position notation, registered by
:mod:`spitemalice.formats.notation` under the class name (the notation imports the model, so
the model does not import it)."""
__all__ = ["NOTATION", "OUTCOME_KINDS", "AnyState", "GameResult", "GameState", "Outcome",
           "OutcomeKind", "Pile", "Seat", "StateT", "build_ranks", "hand_order", "new_seat",
           "new_state", "removed_counts", "require_state", "sort_hand", "top_ranks"]

AnyState: TypeAlias = object
"""How the public functions of the compiled modules (``setup.py``) type a parameter that takes a
:class:`GameState`: ``object``, and each checks it itself (:func:`require_state`, or a
simultaneous rule set's state where the engine takes one) with the library's own message.
Typed ``GameState``, the compiled build would refuse a wrong value first with mypyc's own
``TypeError`` ("GameState object expected"), and a simultaneous state too."""

StateT = TypeVar("StateT")
"""The state :func:`~spitemalice.engine.apply.apply_move` and
:func:`~spitemalice.engine.apply.apply_listed` take and give back: a :class:`GameState` gives
a :class:`GameState`, a simultaneous rule set's state one of its own kind.  Unbounded for
the reason of :data:`AnyState` (mypyc checks neither the argument nor the result)."""

NATIVE: Final[bool] = not __file__.endswith(".py")
"""Whether this module runs compiled (mypyc), so that :class:`Seat` and :class:`GameState` are
native classes; the engine's constructors below (and the state copiers of
:mod:`spitemalice.engine.copiers`) take their fast path by it."""


def _tuple_of_piles(piles: Iterable[Iterable[Card]]) -> tuple[Pile, ...]:
    # Text is refused (Seat's and GameState's refusals say why): iterated, "9H" would be the
    # pile of the letters 9 and H.
    if isinstance(piles, str | bytes):
        raise TypeError("text is no list of piles")
    made = []
    for pile in piles:
        if isinstance(pile, str | bytes):
            raise TypeError("text is no pile")
        made.append(tuple(pile))
    return tuple(made)


# One typed converter per element type, not ``converter=tuple``: mypy's attrs plugin does not
# solve the type variable of a generic converter, so every constructor call would fail to type.
def _cards(cards: Iterable[Card]) -> Pile:
    if isinstance(cards, str | bytes):  # as in _tuple_of_piles
        raise TypeError("text is no list of cards")
    return tuple(cards)


def _seats(seats: Iterable[Seat]) -> tuple[Seat, ...]:
    made = tuple(seats)
    for seat in made:  # a few seats: checked always (GameState's refusal names it)
        if not isinstance(seat, Seat):
            raise TypeError("not a Seat")
    return made


def removed_counts(values: Iterable[int]) -> tuple[int, ...]:
    """Counts of cards recycled from under the build-pile tops in their one stored form:
    ``()`` when every count is 0 (so equal positions are equal values)."""
    counts = tuple(values)
    return counts if any(counts) else ()


def _alone(error: Exception) -> Exception:
    """``error`` marked to hide the exception being handled when it is raised, as ``raise
    error from None`` does in Python: compiled by mypyc, this module's ``from None`` left the
    mark unset when the handler was the caller's (a Python ``except`` calling
    :func:`require_state`)."""
    error.__suppress_context__ = True
    return error


def _loaded(obj: object, fields: dict[str, Any], names: tuple[str, ...]) -> None:
    """Fill ``obj``, just allocated by pickle, from ``fields``: how a seat or state pickled
    while they were attrs classes loads (pickle allocates, then hands over attrs' dict of
    fields, ``names`` all of them); pickled now they rebuild through ``__reduce__`` and
    never come here.

    Raises:
        TypeError: ``fields`` is not a dict of the class's fields (a pickle of something
            else).
    """
    if not isinstance(fields, dict) or sorted(fields) != sorted(names):
        kind = type(obj).__name__
        raise TypeError(f"a pickled {kind} is loaded from a dict of the names {names}, not "
                        f"{shown(fields)}")
    for name in names:
        object.__setattr__(obj, name, fields[name])


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
            raise _alone(TypeError(
                f"sort_hand takes cards, a list of cards, not the str {shown(text)} among "
                f"them: parse them first with spitemalice.parse_cards(text)")) from None
        raise


# Seat and GameState are written by hand, not with attrs, so that mypyc compiles them as native
# classes (struct fields read and written in C): it leaves an attrs.frozen class a Python
# class.  They keep what attrs gave them: the converting constructor and the validators,
# immutability (FrozenInstanceError), value equality and hashing, the repr, pickling, and
# attrs' protocol (attrs.fields, attrs.has, attrs.evolve, attrs.asdict) through an
# __attrs_attrs__ taken from a shadow attrs class with the same fields.
#
# How the constructors write the fields of a class whose __setattr__ raises: always through
# ``object.__setattr__(obj, "name", value)`` inside the class.  In pure Python that is the
# usual way around a frozen class's own __setattr__ (attrs' generated __init__ does the same);
# mypyc turns exactly that call, with a literal field name, into a native struct write.  One
# source, both builds.  The classes define __new__ (allocation only) so that the compiled
# class's type does not run __init__ when allocating: the engine's ``_canonical``
# constructors allocate with ``cls.__new__(cls)`` and store values already in canonical
# form, skipping __init__'s conversions.


@attrs.frozen
class _SeatFields:
    """The shadow of :class:`Seat` whose attrs field list :class:`Seat` carries."""

    payoff: tuple[Pile, ...]
    hand: Pile
    discards: tuple[Pile, ...]


@attrs.frozen
class _StateFields:
    """The shadow of :class:`GameState` whose attrs field list :class:`GameState` carries."""

    seats: tuple[Seat, ...]
    builds: tuple[Pile, ...]
    draw: Pile
    completed: Pile
    seat: int = 0
    turn: int = 0
    turn_moves: int = 0
    idle_turns: int = 0
    seed: int = 0
    shuffles: int = 0
    outcome: Outcome | None = None
    build_removed: tuple[int, ...] = ()


_SEAT_ATTRS: Final[Any] = attrs.fields(_SeatFields)
_STATE_ATTRS: Final[Any] = attrs.fields(_StateFields)


def _signature(fields: Any, annotations: tuple[str, ...]) -> inspect.Signature:
    """A constructor's signature as attrs gave it, for ``inspect.signature(cls)`` (the class's
    ``__signature__``: its allocating ``__new__`` would show ``(*args, **kwargs)``, and a
    compiled ``__init__`` shows none): each field a parameter with its default, annotated as
    the constructor's parameter is (``tests/contract/test_model_values.py`` holds the two
    to agreeing)."""
    return inspect.Signature(
        [inspect.Parameter(field.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                           default=(inspect.Parameter.empty if field.default is attrs.NOTHING
                                    else field.default),
                           annotation=annotation)
         for field, annotation in zip(fields, annotations, strict=True)],
        return_annotation=None)

_check_int: Final = int_field(0)  # a state's counters: none is below 0
_check_ints: Final = ints_field(0)


def _frozen(*_: object) -> None:
    """attrs' refusal of an assignment or a deletion on a frozen instance.

    Raises:
        FrozenInstanceError: always.
    """
    raise FrozenInstanceError()


class Seat:
    """What one seat holds.

    Attributes:
        payoff: the seat's pay-off piles (one in most rule sets, two in Misery), each bottom to
            top; only the top card of each is face up and playable.
        hand: the hand, sorted, so that the order cards were drawn in does not matter.
        discards: exactly ``Ruleset.discard_piles`` discard piles, each bottom to top; empty
            piles are empty tuples.

    Raises:
        TypeError: a hand that is not a list of cards, or ``payoff`` or ``discards`` that
            are not lists of piles (text, ``None``, a number, a pile that is no list), the
            message naming the field and what it was given.  The cards of a pay-off or
            discard pile are not read here (a valid seat costs no check per card);
            :func:`~spitemalice.formats.position_check.check_position` checks positions.
        attrs.exceptions.FrozenInstanceError: assigning or deleting an attribute.
    """

    __slots__ = ("discards", "hand", "payoff")
    __match_args__: ClassVar[tuple[str, ...]] = ("payoff", "hand", "discards")
    __attrs_attrs__: ClassVar[Any] = _SEAT_ATTRS
    __signature__: ClassVar[inspect.Signature] = _signature(_SEAT_ATTRS, (
        "Iterable[Iterable[Card]]", "Iterable[Card]", "Iterable[Iterable[Card]]"))

    payoff: tuple[Pile, ...]
    hand: Pile
    discards: tuple[Pile, ...]

    def __new__(cls, *args: Any, **kwargs: Any) -> Seat:
        """Allocation alone; :meth:`__init__` stores the fields."""
        return object.__new__(cls)

    def __init__(self, payoff: Iterable[Iterable[Card]], hand: Iterable[Card],
                 discards: Iterable[Iterable[Card]]) -> None:
        held: list[object] = [payoff, hand, discards]
        try:
            for k in range(3):  # an iterator is read once here, so a refusal can name it
                held[k] = _held(held[k])
            values = (_tuple_of_piles(held[0]), sort_hand(held[1]),  # type: ignore[arg-type]
                      _tuple_of_piles(held[2]))  # type: ignore[arg-type]
        except _Inside as inside:
            raise inside.error from None
        except (TypeError, AttributeError):  # diagnosed only once it failed (module end)
            raise _alone(seat_refusal(held[0], held[1], held[2])) from None
        object.__setattr__(self, "payoff", values[0])
        object.__setattr__(self, "hand", values[1])
        object.__setattr__(self, "discards", values[2])

    @staticmethod
    def _canonical(payoff: tuple[Pile, ...], hand: Pile, discards: tuple[Pile, ...]) -> Seat:
        """A seat from values already canonical (tuples, a sorted hand): no conversion."""
        seat = Seat.__new__(Seat)
        object.__setattr__(seat, "payoff", payoff)
        object.__setattr__(seat, "hand", hand)
        object.__setattr__(seat, "discards", discards)
        return seat

    def __setattr__(self, name: str, value: object) -> None:
        _frozen()

    def __delattr__(self, name: str) -> None:
        _frozen()

    def __eq__(self, other: object) -> bool:
        if type(other) is not Seat:
            return NotImplemented
        return (self.payoff == other.payoff and self.hand == other.hand
                and self.discards == other.discards)

    def __ne__(self, other: object) -> bool:
        if type(other) is not Seat:
            return NotImplemented
        return not self == other

    def __hash__(self) -> int:
        return hash((self.payoff, self.hand, self.discards))

    def __repr__(self) -> str:
        """As attrs writes it: ``Seat(payoff=..., hand=..., discards=...)``."""
        return f"Seat(payoff={self.payoff!r}, hand={self.hand!r}, discards={self.discards!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return Seat, (self.payoff, self.hand, self.discards)

    def __setstate__(self, fields: dict[str, Any]) -> None:
        _loaded(self, fields, self.__match_args__)

    @property
    def payoff_count(self) -> int:
        """Cards left in all of this seat's pay-off piles together."""
        return sum(len(pile) for pile in self.payoff)


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
        SpiteMaliceError: a counter or a ``build_removed`` count below 0 or of more than
            :data:`~spitemalice.limits.MAX_DIGITS` digits, which no reader would read back
            (whether the position is possible is
            :func:`~spitemalice.formats.position_check.check_position`'s question).
        TypeError: ``seats`` that are not a list of :class:`Seat`, ``builds`` that are not
            a list of piles, ``draw`` or ``completed`` that are not lists (text, ``None``, a
            number), ``build_removed`` that is not a list of whole numbers (bools, floats and
            text refused; numpy's integers taken), or an ``outcome`` that is neither ``None``
            nor an :class:`Outcome`, the message naming the field and what it was given;
            the cards in the piles are not read (as :class:`Seat`).
        TypeError: a counter that is not a whole number (text, ``None``, a float), naming
            it.  The pure build takes numpy's integers (stored as ``int``); the compiled
            build's fields are C integers, and there mypyc refuses anything but an ``int``
            with its own ``TypeError`` first.
        SpiteMaliceError: ``build_removed`` counts that are not one per build pile.
        attrs.exceptions.FrozenInstanceError: assigning or deleting an attribute.
    """

    __slots__ = ("build_removed", "builds", "completed", "draw", "idle_turns", "outcome", "seat",
                 "seats", "seed", "shuffles", "turn", "turn_moves")
    __match_args__: ClassVar[tuple[str, ...]] = (
        "seats", "builds", "draw", "completed", "seat", "turn", "turn_moves", "idle_turns",
        "seed", "shuffles", "outcome", "build_removed")
    __attrs_attrs__: ClassVar[Any] = _STATE_ATTRS
    __signature__: ClassVar[inspect.Signature] = _signature(_STATE_ATTRS, (
        "Iterable[Seat]", "Iterable[Iterable[Card]]", "Iterable[Card]", "Iterable[Card]",
        "int", "int", "int", "int", "int", "int", "Outcome | None", "Iterable[int]"))

    seats: tuple[Seat, ...]
    builds: tuple[Pile, ...]
    draw: Pile
    completed: Pile
    seat: int
    turn: int
    turn_moves: int
    idle_turns: int
    seed: int
    shuffles: int
    outcome: Outcome | None
    build_removed: tuple[int, ...]

    def __new__(cls, *args: Any, **kwargs: Any) -> GameState:
        """Allocation alone; :meth:`__init__` stores the fields."""
        return object.__new__(cls)

    def __init__(self, seats: Iterable[Seat], builds: Iterable[Iterable[Card]],
                 draw: Iterable[Card], completed: Iterable[Card], seat: int = 0,
                 turn: int = 0, turn_moves: int = 0, idle_turns: int = 0, seed: int = 0,
                 shuffles: int = 0, outcome: Outcome | None = None,
                 build_removed: Iterable[int] = ()) -> None:
        held: list[object] = [seats, builds, draw, completed, build_removed]
        try:
            for k in range(5):  # an iterator is read once here, so a refusal can name it
                held[k] = _held(held[k])
            piles = (_seats(held[0]), _tuple_of_piles(held[1]),  # type: ignore[arg-type]
                     _cards(held[2]), _cards(held[3]))  # type: ignore[arg-type]
            removed = _counts(held[4])
        except _Inside as inside:
            raise inside.error from None
        except TypeError:  # diagnosed only once it failed (module end)
            raise _alone(state_refusal(held[0], held[1], held[2], held[3], held[4], Seat)
                         ) from None
        if removed and len(removed) != len(piles[1]):  # build_tops would zip them
            raise _alone(SpiteMaliceError(
                f"GameState.build_removed holds one count per build pile, or none: "
                f"{len(removed)} for {len(piles[1])} build pile(s)"))
        counters = [seat, turn, turn_moves, idle_turns, seed, shuffles]
        for k in range(6):
            if type(counters[k]) is not int:  # (the compiled build's fields take ints only)
                counters[k] = _counter(_COUNTERS[k], counters[k])
        if outcome is not None and not isinstance(outcome, Outcome):
            raise _alone(TypeError(f"GameState.outcome is None while the game is live, or an "
                                   f"Outcome, not {kind(outcome)}"))
        object.__setattr__(self, "seats", piles[0])
        object.__setattr__(self, "builds", piles[1])
        object.__setattr__(self, "draw", piles[2])
        object.__setattr__(self, "completed", piles[3])
        object.__setattr__(self, "seat", counters[0])
        object.__setattr__(self, "turn", counters[1])
        object.__setattr__(self, "turn_moves", counters[2])
        object.__setattr__(self, "idle_turns", counters[3])
        object.__setattr__(self, "seed", counters[4])
        object.__setattr__(self, "shuffles", counters[5])
        object.__setattr__(self, "outcome", outcome)
        object.__setattr__(self, "build_removed", removed)
        self._validate()

    def _validate(self) -> None:
        """attrs' validators, in field order, once every field is stored (as attrs runs them).

        Raises:
            SpiteMaliceError: a number of more than ``MAX_DIGITS`` digits.
        """
        fields = _STATE_ATTRS
        for field in fields[4:10]:
            _check_int(self, field, getattr(self, field.name))
        _check_ints(self, fields.build_removed, self.build_removed)

    @staticmethod
    def _canonical(seats: tuple[Seat, ...], builds: tuple[Pile, ...], draw: Pile,
                   completed: Pile, seat: int, turn: int, turn_moves: int, idle_turns: int,
                   seed: int, shuffles: int, outcome: Outcome | None,
                   build_removed: tuple[int, ...]) -> GameState:
        """A state from values already canonical: no conversion and no validation."""
        state = GameState.__new__(GameState)
        object.__setattr__(state, "seats", seats)
        object.__setattr__(state, "builds", builds)
        object.__setattr__(state, "draw", draw)
        object.__setattr__(state, "completed", completed)
        object.__setattr__(state, "seat", seat)
        object.__setattr__(state, "turn", turn)
        object.__setattr__(state, "turn_moves", turn_moves)
        object.__setattr__(state, "idle_turns", idle_turns)
        object.__setattr__(state, "seed", seed)
        object.__setattr__(state, "shuffles", shuffles)
        object.__setattr__(state, "outcome", outcome)
        object.__setattr__(state, "build_removed", build_removed)
        return state

    def _values(self) -> list[Any]:
        """The fields in order, as a list."""
        return [self.seats, self.builds, self.draw, self.completed, self.seat, self.turn,
                self.turn_moves, self.idle_turns, self.seed, self.shuffles, self.outcome,
                self.build_removed]

    def __setattr__(self, name: str, value: object) -> None:
        _frozen()

    def __delattr__(self, name: str) -> None:
        _frozen()

    def __eq__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        return (self.seat == other.seat and self.turn == other.turn
                and self.turn_moves == other.turn_moves and self.idle_turns == other.idle_turns
                and self.seed == other.seed and self.shuffles == other.shuffles
                and self.builds == other.builds and self.draw == other.draw
                and self.completed == other.completed and self.seats == other.seats
                and self.outcome == other.outcome and self.build_removed == other.build_removed)

    def __ne__(self, other: object) -> bool:
        if type(other) is not GameState:
            return NotImplemented
        return not self == other

    def __hash__(self) -> int:
        return hash(tuple(self._values()))

    def __reduce__(self) -> tuple[Any, ...]:
        return GameState, tuple(self._values())

    def __setstate__(self, fields: dict[str, Any]) -> None:
        _loaded(self, fields, self.__match_args__)

    def __repr__(self) -> str:
        """``GameState('<position notation>')`` (as python-chess writes a board by its FEN):
        a few hundred characters, every card in order, which ``parse_position(text, rules)``
        reads back; the teams, which live in the rules, are not part of it (the counters
        alone until the notation is loaded: :func:`notation_repr`)."""
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
                error: Callable[[str], Exception] = TypeError) -> GameState:
    """Refuse ``state`` unless it is a :class:`GameState`: the public functions that take a
    whole state call this at their start, or, on the per-move paths, only once reading the
    state has failed.  Returns ``state``, typed :class:`GameState` (a parameter typed
    :data:`AnyState` is narrowed by ``state = require_state(state, ...)``).

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
        raise _alone(not_a_position(state, function, "GameState", other, error)) from None
    return state


def build_ranks(pile: Sequence[Card], removed: object = 0) -> tuple[int, ...]:
    """The rank each card of a build pile stands for, bottom to top: ``(1, 2, ..., len)``,
    or from ``removed + 1`` up when ``removed`` cards were taken from under its top.

    ``removed`` is typed ``object`` (and ``pile`` a sequence) so that the compiled build
    (``setup.py``) does not refuse a wrong type first with mypyc's own error.

    Raises:
        SpiteMaliceError: ``removed`` is not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_DECK_CARDS` (a bool, a float or text among them).
    """
    count = removed if type(removed) is int and 0 <= removed <= MAX_DECK_CARDS else check_int(
        removed, "removed", 0, MAX_DECK_CARDS, constant="spitemalice.limits.MAX_DECK_CARDS")
    return tuple(range(count + 1, count + len(pile) + 1))


def top_ranks(builds: Sequence[Pile], removed: Sequence[int] = ()) -> tuple[int, ...]:
    """The rank each build pile's top card stands for: its length, plus the cards taken from
    under it (``removed``, :attr:`GameState.build_removed`: ``()`` or one count per pile)."""
    # list comprehensions, not map() or a generator: the compiled build (setup.py) makes them
    # C loops, where map(len, ...) stayed a call through Python's protocol per pile
    if not removed:
        return tuple([len(pile) for pile in builds])
    return tuple([count + len(pile) for count, pile in zip(removed, builds, strict=True)])


STATE_CHECK.append(require_state)  # GameResult's check of its final state (spitemalice.outcome)


# The engine's own constructors.  The public constructors above convert every argument (lists
# to tuples, the hand sorted), which was a quarter of the engine's time; the engine builds
# states from values it already holds in canonical form (tuples, a sorted hand) and skips the
# conversion.  Compiled (NATIVE), they call the classes' native ``_canonical`` constructors
# (struct writes in C); in pure Python they write each slot through its descriptor, which
# costs less than a call of ``_canonical`` (a Python __new__ and one object.__setattr__ per
# field).  The objects made are ordinary instances, equal to those the public constructors
# make from the same values.  Not for use outside the engine.  The engine's state copiers,
# built on new_state, are spitemalice.engine.copiers (with_fields, state_copier).
_new = object.__new__
_SEAT_SLOTS = tuple(getattr(Seat, name).__set__ for name in ("payoff", "hand", "discards"))


def new_seat(
    payoff: tuple[Pile, ...], hand: Pile, discards: tuple[Pile, ...],
    _slots: tuple = _SEAT_SLOTS,
) -> Seat:
    """A :class:`Seat` from tuples; ``hand`` must already be sorted by (rank, suit)."""
    if NATIVE:
        return Seat._canonical(payoff, hand, discards)
    seat = _new(Seat)
    _slots[0](seat, payoff)
    _slots[1](seat, hand)
    _slots[2](seat, discards)
    return seat


def new_state(seats: tuple[Seat, ...], builds: tuple[Pile, ...], draw: Pile, completed: Pile,
              seat: int, turn: int, turn_moves: int, idle_turns: int, seed: int,
              shuffles: int, outcome: Outcome | None,
              build_removed: tuple[int, ...]) -> GameState:
    """A :class:`GameState` from values in canonical form (no conversion, no check): the
    compiled engine's constructor, a native call (the pure build's engine uses its generated
    copiers, which cost less there)."""
    return GameState._canonical(seats, builds, draw, completed, seat, turn, turn_moves,
                                idle_turns, seed, shuffles, outcome, build_removed)


def notation_repr(value: Any) -> str:
    """``Name('<notation>')`` for a state or a view, or the counters alone before the notation
    has registered itself: it has once :mod:`spitemalice.formats` is imported (any reading or
    writing of a position, record or file imports it; a bare ``import spitemalice`` loads it
    only when first asked for, so a state dealt right after shows its counters alone)."""
    name = type(value).__name__
    write = NOTATION.get(name)
    if write is None:
        return f"{name}(seat={value.seat}, turn={value.turn})"
    return f"{name}({write(value)!r})"


# The constructors' conversion steps that a refusal must be able to read again.
_COUNTERS: Final = ("seat", "turn", "turn_moves", "idle_turns", "seed", "shuffles")


class _Inside(Exception):
    """An error raised while reading a caller's iterator (its own code failed): raised
    again as it was, not diagnosed as a value the field cannot hold."""

    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error


def _counter(name: str, value: object) -> int:
    """A counter that is not an ``int``: a whole number through ``__index__`` (numpy's
    integers, a bool as 0 or 1), as an ``int``.

    Raises:
        TypeError: anything else, naming the field.
    """
    try:
        return operator.index(cast(SupportsIndex, value))
    except TypeError:
        raise _alone(TypeError(f"GameState.{name} is a whole number, not {kind(value)}")
                     ) from None


def _held(value: object) -> object:
    """``value``, or its items as a tuple when it is an iterator or another iterable that is
    not a list or tuple (read once, so that a refusal can read them again); text as it is
    (the converters refuse it).

    Raises:
        TypeError: ``value`` cannot be iterated (a number, ``None``, a 0-d numpy array).
        _Inside: reading it raised (the constructors raise that error again).
    """
    if type(value) is tuple or type(value) is list or isinstance(value, str | bytes):
        return value
    iterator = iter(cast(Iterable[object], value))  # TypeError: not iterable (diagnosed)
    try:
        return tuple(iterator)
    except Exception as error:  # the iterator's own code failed: not the field's fault
        raise _Inside(error) from None


def _counts(values: object) -> tuple[int, ...]:
    """``build_removed`` as stored (:func:`removed_counts`): whole numbers (numpy's too,
    through ``__index__``), not bools, floats or text.

    Raises:
        TypeError: anything else.
    """
    if isinstance(values, str | bytes):
        raise TypeError("text is no list of counts")
    counts = []
    for count in cast(Iterable[object], values):
        if isinstance(count, bool):
            raise TypeError("a bool is no count")
        counts.append(operator.index(cast(SupportsIndex, count)))
    return removed_counts(counts)
