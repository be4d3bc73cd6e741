"""The engine's doors for a rule set whose seats move at once.

``deal``, ``legal_moves``, ``check_move`` and ``apply_move`` reach these functions only for a
state that is not a :class:`~spitemalice.model.GameState` (the turn-based path tests the
state's type already, so it pays nothing for them), or, for ``deal``, a rule book whose
:attr:`~spitemalice.rules.book.RuleBook.simultaneous` is set.  The rules themselves are the
rule set's :class:`~spitemalice.rules.simultaneous.SimultaneousGame`; here are the checks
every door makes: the seat, the move's own seat, and the refusal with its clause.
"""

from __future__ import annotations

from typing import Any

from spitemalice.errors import IllegalMove
from spitemalice.guards import check_int
from spitemalice.rules.book import RuleBook
from spitemalice.rules.simultaneous import SimultaneousGame, SimultaneousState


def game_of(rules: RuleBook, state: object) -> SimultaneousGame | None:
    """The simultaneous rules that own ``state``, or ``None`` (a turn-based rule book, or a
    state that is no simultaneous state)."""
    game = rules.simultaneous
    if game is None or not isinstance(state, SimultaneousState):
        return None
    return game


def seat_moves(game: SimultaneousGame, rules: RuleBook, state: SimultaneousState,
               seat: object) -> tuple[Any, ...]:
    """``legal_moves`` of a simultaneous state: one seat's moves, or, with ``seat`` None,
    those of every seat that may move (seat order).

    Raises:
        SpiteMaliceError: ``seat`` is not a seat of the rules.
    """
    if seat is None:
        return tuple(move for at in game.to_move(state) for move in game.legal_moves(state, at))
    return game.legal_moves(state, check_int(seat, "seat", 0, rules.players - 1))


def check_simultaneous(game: SimultaneousGame, rules: RuleBook, state: SimultaneousState, move: Any,
           seat: object) -> None:
    """``check_move`` of a simultaneous state: return when ``move`` is legal now.

    Raises:
        IllegalMove: the move is refused; its reason code and the clause of the rule sheet
            that is the authority for it, as every refusal carries them.  A move whose seat
            differs from ``seat`` (when given) is refused ``wrong-seat``.
        TypeError: ``move`` is not one of the game's moves (it has no ``seat``).
    """
    if not hasattr(move, "seat"):
        raise TypeError(f"check_move takes one of {rules.name}'s moves, which name their seat "
                        f"(parse its text with the rule set's parse_move), not "
                        f"{type(move).__name__}")
    if seat is not None and check_int(seat, "seat", 0, rules.players - 1) != move.seat:
        found: tuple[str, str] | None = ("wrong-seat", f"the move is seat {move.seat}'s, "
                                         f"not seat {seat}'s")
    else:
        found = game.refusal(state, move)
    if found is not None:
        code, sentence = found
        raise IllegalMove(code, sentence, rules.clause_for.get(code, ""), str(move))
