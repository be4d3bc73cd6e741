# The type checkers' view of spitemalice/model.py (PEP 561: a stub beside the module wins).
#
# model.py writes Seat and GameState by hand so that the compiled build (setup.py, mypyc)
# makes them native classes; to mypy's attrs plugin a hand-written class is no attrs class,
# so a user's type-checked attrs.evolve(state, draw=...) would stop type-checking.  Here they
# are declared as the attrs classes they behave as (the same fields, in the same order, with
# the same converters and defaults), so that attrs.evolve, attrs.fields and the constructors
# are type-checked field by field.  tests/contract/test_model_stub.py holds this file and
# model.py to the same public names and fields; model.py's own body is type-checked by mypy
# run on the file itself (the same test) and by mypyc in the compiled build.

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, TypeAlias, TypeVar

import attrs

from spitemalice.cards import Card
from spitemalice.outcome import OUTCOME_KINDS as OUTCOME_KINDS
from spitemalice.outcome import GameResult as GameResult
from spitemalice.outcome import Outcome as Outcome
from spitemalice.outcome import OutcomeKind as OutcomeKind

__all__ = ["NOTATION", "OUTCOME_KINDS", "AnyState", "GameResult", "GameState", "Outcome",
           "OutcomeKind", "Pile", "Seat", "StateT", "build_ranks", "hand_order", "new_seat",
           "new_state", "removed_counts", "require_state", "sort_hand", "top_ranks"]

Pile = tuple[Card, ...]
AnyState: TypeAlias = object
StateT = TypeVar("StateT")
NOTATION: dict[str, Callable[[Any], str]]
NATIVE: Final[bool]

def _tuple_of_piles(piles: Iterable[Iterable[Card]]) -> tuple[Pile, ...]: ...
def _cards(cards: Iterable[Card]) -> Pile: ...
def _seats(seats: Iterable[Seat]) -> tuple[Seat, ...]: ...
def removed_counts(values: Iterable[int]) -> tuple[int, ...]: ...
def hand_order(card: Card) -> tuple[int, str]: ...
def sort_hand(cards: Iterable[Card]) -> Pile: ...

@attrs.frozen
class Seat:
    payoff: tuple[Pile, ...] = attrs.field(converter=_tuple_of_piles)
    hand: Pile = attrs.field(converter=sort_hand)
    discards: tuple[Pile, ...] = attrs.field(converter=_tuple_of_piles)
    @property
    def payoff_count(self) -> int: ...

@attrs.frozen
class GameState:
    seats: tuple[Seat, ...] = attrs.field(converter=_seats)
    builds: tuple[Pile, ...] = attrs.field(converter=_tuple_of_piles)
    draw: Pile = attrs.field(converter=_cards)
    completed: Pile = attrs.field(converter=_cards)
    seat: int = 0
    turn: int = 0
    turn_moves: int = 0
    idle_turns: int = 0
    seed: int = 0
    shuffles: int = 0
    outcome: Outcome | None = None
    build_removed: tuple[int, ...] = attrs.field(default=(), converter=removed_counts)
    @property
    def is_over(self) -> bool: ...
    @property
    def build_tops(self) -> tuple[int, ...]: ...
    def all_cards(self) -> list[Card]: ...

def require_state(state: object, function: str, other: str = "",
                  error: Callable[[str], Exception] = ...) -> GameState: ...
def build_ranks(pile: Sequence[Card], removed: object = 0) -> tuple[int, ...]: ...
def top_ranks(builds: Sequence[Pile], removed: Sequence[int] = ()) -> tuple[int, ...]: ...
def new_seat(payoff: tuple[Pile, ...], hand: Pile, discards: tuple[Pile, ...],
             _slots: tuple[Any, ...] = ...) -> Seat: ...
def new_state(seats: tuple[Seat, ...], builds: tuple[Pile, ...], draw: Pile, completed: Pile,
              seat: int, turn: int, turn_moves: int, idle_turns: int, seed: int,
              shuffles: int, outcome: Outcome | None,
              build_removed: tuple[int, ...]) -> GameState: ...
def notation_repr(value: Any) -> str: ...
