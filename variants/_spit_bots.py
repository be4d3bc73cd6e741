"""Spit's bots beyond ``random``: what a seat decides from its own view (:class:`SpitView`)
when it may move.  Each is ``bot(view, moves, rng)`` and returns one of ``moves``."""

from __future__ import annotations

import random

from ._spit_game import Fill, Lay, Slap, SpitMove, SpitView
from ._spit_rules import adjacent


def greedy(view: SpitView, moves: tuple[SpitMove, ...], rng: random.Random) -> SpitMove:
    """Lay a card when one fits, preferring the lay that turns up a new card and leaves a
    top its other stock cards fit on (it unlocks more); else fill an empty pile from the
    fullest one; slap the smaller spit pile (a seed's aim: « la plus petite »)."""
    lays = [move for move in moves if isinstance(move, Lay)]
    if lays:
        return max(lays, key=lambda move: _unlocks(view, move))
    fills = [move for move in moves if isinstance(move, Fill)]
    if fills:
        return max(fills, key=lambda move: view.stock[view.seat][move.stock][0])
    slaps = [move for move in moves if isinstance(move, Slap)]
    if slaps:
        return min(slaps, key=lambda move: view.centre[move.pile][0])
    return moves[0]


def _unlocks(view: SpitView, move: Lay) -> tuple[int, int, int]:
    """How good a lay is: a card turned up under it, then own tops that fit on it after,
    then the bigger pile (ties broken by the card's place in the list, for determinism)."""
    own = view.stock[view.seat]
    count = own[move.stock][0]
    follow = sum(1 for at, (_, top) in enumerate(own)
                 if at != move.stock and top is not None and adjacent(top, move.card))
    return (count > 1, follow, count)


BOTS = {"greedy": greedy}
"""Spit's own bots by name (``random`` is every simultaneous game's)."""
