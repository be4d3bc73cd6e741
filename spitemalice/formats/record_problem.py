"""The first thing wrong with a record's moves (:class:`RecordProblem`), as
:func:`~spitemalice.formats.replay.check_record` reports it for a record of either kind
(turn-based, or of seats that move at once)."""

from __future__ import annotations

import attrs

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import int_field
from spitemalice.model import GameState, Outcome
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
