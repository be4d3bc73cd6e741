"""What holds between a state and its successor: a discard ends the turn, pay-off piles only
shrink."""

from __future__ import annotations

from spitemalice.engine.invariants.violation import Violations
from spitemalice.model import GameState, require_state
from spitemalice.moves import Move


def discard_ends_the_turn(before: GameState, move: Move, after: GameState) -> Violations:
    """A discard ends the mover's turn: afterwards another seat is on turn, or the game is
    over.

    Raises:
        TypeError: ``before`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
            the message names what takes one).
    """
    require_state(before, "discard_ends_the_turn")
    require_state(after, "discard_ends_the_turn")
    from spitemalice.moves import Discard

    if isinstance(move, Discard) and after.outcome is None and after.turn == before.turn:
        return [f"the turn did not end after the discard {move}"]
    return []


def payoff_only_shrinks(before: GameState, after: GameState) -> Violations:
    """Pay-off piles lose cards only from the top and never gain any.

    Raises:
        TypeError: ``before`` is not a :class:`~spitemalice.model.GameState` (a seat's view, say:
            the message names what takes one).
    """
    require_state(before, "payoff_only_shrinks")
    require_state(after, "payoff_only_shrinks")
    problems = []
    for index, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        for pile, (was, now) in enumerate(zip(old.payoff, new.payoff, strict=True), 1):
            if was[: len(now)] != now:
                problems.append(f"seat {index} pay-off pile {pile} changed other than at the top")
    return problems
