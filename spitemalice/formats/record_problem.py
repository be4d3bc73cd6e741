"""The first thing wrong with a record's moves (:class:`RecordProblem`), as
:func:`~spitemalice.formats.replay.check_record` reports it for a record of either kind
(turn-based, or of seats that move at once)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from spitemalice.engine.apply import apply_move
from spitemalice.errors import IllegalMove, NotationError, RecordError, SpiteMaliceError
from spitemalice.guards import int_field
from spitemalice.model import GameState, Outcome
from spitemalice.rules.book import RuleBook
from spitemalice.rules.simultaneous import SimultaneousState


@attrs.frozen
class RecordProblem:
    """The first thing wrong with a record's moves.

    Attributes:
        number: the move's number (1 for the first move), or ``None`` for a problem after
            the last move (an outcome the replay does not reach).
        move: the move's text, or ``None``.
        before: the position before the move (after the last move for ``number=None``): a
            :class:`~spitemalice.model.GameState`, or the rule set's own state in a game
            whose seats move at once.
        error: the :class:`~spitemalice.errors.IllegalMove` (with ``reason`` and ``clause``)
            or :class:`~spitemalice.errors.NotationError`, or a
            :class:`~spitemalice.errors.SpiteMaliceError` for an outcome mismatch.
    """

    number: int | None = attrs.field(validator=int_field())
    move: str | None
    before: GameState | SimultaneousState
    error: SpiteMaliceError

    @property
    def message(self) -> str:
        if self.number is None:
            return f"after the last move: {self.error}"
        return f"move {self.number} ({self.move!r}): {self.error}"


def _outcome_text(outcome: Outcome | None) -> str:
    if outcome is None:
        return "none (the game is live)"
    winner = "" if outcome.winner is None else f" by seat {outcome.winner}"
    return f"{outcome.kind}{winner}, scores {list(outcome.scores)}"


def replay_moves(book: RuleBook, state: Any, moves: Sequence[str],
                 parse: Callable[[str], Any], outcome: Outcome | None) -> Iterator[Any]:
    """The state after each of a record's ``moves`` from ``state`` (its deal), each text read
    by ``parse`` and applied by the engine, for a record of either kind; the last must end
    as ``outcome`` states.

    Raises:
        RecordError: a move does not parse or is illegal where it stands (its
            :class:`RecordProblem` carries the number, reason and clause), or the replay's
            outcome differs from ``outcome``; the states before it have been yielded.
    """
    for number, text in enumerate(moves, 1):
        try:
            after = apply_move(book, state, parse(text))
        except (NotationError, IllegalMove) as error:
            raise RecordError(RecordProblem(number, text, state, error)) from None
        yield after
        state = after
    if state.outcome != outcome:
        mismatch = SpiteMaliceError(f"the record states outcome {_outcome_text(outcome)}, "
                                    f"but the replay ends with {_outcome_text(state.outcome)}")
        raise RecordError(RecordProblem(None, None, state, mismatch))

