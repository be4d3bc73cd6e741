"""How a game ended (:class:`Outcome`) and a finished game (:class:`GameResult`).

They are attrs classes whose converters and validators mypyc does not compile, so they live
here, in a module the compiled build leaves as Python, while :mod:`spitemalice.model` (which
is compiled, with native :class:`~spitemalice.model.Seat` and
:class:`~spitemalice.model.GameState`) imports and re-exports them under their usual names.
This module does not import the model (the model imports it): :class:`GameResult`'s check of
its final state is the model's :func:`~spitemalice.model.require_state`, registered in
:data:`STATE_CHECK` by the model.
"""

from __future__ import annotations

import operator
import typing
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING, Any, Literal

import attrs

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, int_field, ints_field
from spitemalice.limits import MAX_INT
from spitemalice.moves import Move
from spitemalice.wording import kind

if TYPE_CHECKING:
    from spitemalice.model import GameState

OutcomeKind = Literal["win", "drawn", "blocked", "turn-limit"]
OUTCOME_KINDS: tuple[OutcomeKind, ...] = typing.get_args(OutcomeKind)
"""Every :data:`OutcomeKind`, in the order summaries list them."""


_KINDS_WORDS = ", ".join(f'"{kind}"' for kind in OUTCOME_KINDS)


def _kind(value: Any) -> OutcomeKind:
    """``value`` as a plain ``str`` (numpy's text too), one of :data:`OUTCOME_KINDS`."""
    if isinstance(value, str) and value in OUTCOME_KINDS:
        return typing.cast(OutcomeKind, str(value))
    refusal = SpiteMaliceError if isinstance(value, str) else TypeError
    raise refusal(f"Outcome.kind is one of {_KINDS_WORDS}, not {kind(value)}")


def _whole(value: Any, what: str) -> int:
    """``value`` as an ``int`` (numpy's integers too, through ``__index__``); a bool, text, a
    float or ``None`` refused: ``what`` and the value named."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)
        except TypeError:
            pass
    raise TypeError(f"{what} {kind(value)}")


def _winner(value: Any) -> int | None:
    if value is None:
        return None
    winner = _whole(value, "Outcome.winner is a seat (a whole number) or None, not")
    return check_int(winner, "Outcome.winner, a seat,", 0, MAX_INT)


def _ints(values: Iterable[int]) -> tuple[int, ...]:
    what = "Outcome.scores is a list of whole numbers, one per seat"
    if isinstance(values, str | bytes | Mapping | AbstractSet):
        # text would be read character by character, a dict by its keys, a set in no order
        raise TypeError(f"{what}, not {kind(values)}")
    try:
        items = tuple(values)
    except TypeError:
        raise TypeError(f"{what}, not {kind(values)}") from None
    return tuple([_whole(score, f"{what}, not a list holding") for score in items])


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
        TypeError: a kind that is not text, a winner that is not a whole number or ``None``,
            or scores that are not whole numbers (a bool, a float, text), naming the field.
        SpiteMaliceError: a kind that is not one of :data:`OUTCOME_KINDS`, a winner below 0,
            or a number of more than :data:`~spitemalice.limits.MAX_DIGITS` digits; a kind
            and a winner that disagree (a ``"win"`` has a winner and no other kind has one);
            a winner with no score (not below ``len(scores)``, the number of seats).
    """

    kind: OutcomeKind = attrs.field(converter=_kind)
    winner: int | None = attrs.field(converter=_winner)
    scores: tuple[int, ...] = attrs.field(converter=_ints, validator=ints_field())

    def __attrs_post_init__(self) -> None:
        # The fields agree with each other: the engine ends a game as a win only with the
        # seat that emptied its pay-off piles, and every other end with no winner
        # (spitemalice.engine.flow.finish's callers); a record or a caller could say both.
        if (self.kind == "win") != (self.winner is not None):
            raise SpiteMaliceError(
                f"Outcome.winner is a seat when kind is \"win\" and None otherwise, not "
                f"{self.winner} with kind \"{self.kind}\"")
        if self.winner is not None and self.winner >= len(self.scores):
            raise SpiteMaliceError(
                f"Outcome.winner is a seat of the game, below {len(self.scores)} (one score "
                f"per seat), not {self.winner:,}")

    def describe(self) -> str:
        """One line for people: ``"win by seat 0; scores 35, 0"``."""
        who = "" if self.winner is None else f" by seat {self.winner}"
        return f"{self.kind}{who}; scores {', '.join(str(score) for score in self.scores)}"


STATE_CHECK: list[Callable[[object, str, str], object]] = []
""":func:`spitemalice.model.require_state`, which the model registers here once it is
defined: the model imports this module, so this module does not import the model (the
packages' layers, ``tests/contract/test_layers.py``)."""


def _final_state(_: Any, __: Any, value: Any) -> None:
    STATE_CHECK[0](value, "GameResult", "a finished game keeps its whole final state")


@attrs.frozen
class GameResult:
    """One finished game: its seed, the seat that moved first, the final state and the moves
    made in order (what :func:`~spitemalice.runs.loop.play_game` returns and
    :func:`~spitemalice.formats.records.making.record_result` records)."""

    seed: int = attrs.field(validator=int_field())
    first_seat: int = attrs.field(validator=int_field())
    final: GameState = attrs.field(validator=_final_state)
    moves: tuple[Move, ...]

    @property
    def turns(self) -> int:
        """Turns the game lasted (``final.turn``)."""
        return self.final.turn
