"""A match's running score (BF-19: games until a seat's total reaches ``match_target``):
what ``welcome``, ``watching``, ``state`` and ``public`` say of it
(:mod:`spitemalice.server.matches` plays the games); and the commitment to each game's deal
that ``state`` and ``public`` carry (:func:`with_match`)."""

from __future__ import annotations

from typing import Any

from spitemalice.engine.deal import new_seed
from spitemalice.server.leavers import stamp
from spitemalice.server.messages import dealt
from spitemalice.server.seating import Table
from spitemalice.server.store import TableEntry


def first_dealer(entry: TableEntry, players: int) -> int | None:
    """The dealer of a new table's first game: a random seat for a match (the deal then
    passes on, BF-11), ``None`` (the rule set's seeded cut) for single games."""
    return random_dealer(players) if entry.match is not None else None


def random_dealer(players: int) -> int:
    """A seat drawn from the operating system's randomness through the one door that draws
    (:func:`~spitemalice.engine.deal.new_seed`); the record keeps the dealer it gave."""
    return new_seed() % players


def _totals(table: Table) -> tuple[list[tuple[int, ...]], list[int]]:
    games = list(table.entry.scores)
    outcome = table.session.state.outcome
    if outcome is not None:
        games.append(tuple(outcome.scores))
    totals = [sum(points) for points in zip(*games, strict=True)] if games else \
        [0] * len(table.entry.seats)
    return games, totals


def standing(table: Table) -> dict[str, Any] | None:
    """The ``match`` field: the target, the game of the match (1, 2...), each finished
    game's points, the totals and the winner (the first seat to reach the target; the
    highest total if several did in one game, the lower seat of equal totals, as
    :func:`spitemalice.play_match`); ``None`` at a table that plays single games."""
    target = table.entry.match
    if target is None:
        return None
    games, totals = _totals(table)
    won = max(totals) >= target
    winner = max(range(len(totals)), key=lambda seat: totals[seat]) if won else None
    return {"target": target, "game": len(table.entry.scores) + 1,
            "games": [list(points) for points in games], "totals": totals, "winner": winner}


def with_match(message: dict[str, Any], table: Table) -> dict[str, Any]:
    """``message`` (a ``state`` or ``public``) with the running score at a match table, and
    the move clock at a table that has one (:func:`spitemalice.server.leavers.stamp`), and
    the ``deal`` field (:func:`spitemalice.server.messages.dealt`) of a game whose deal is
    committed to: the commitment, and once the game is over the seed that opens it."""
    if table.entry.match is not None:
        message["match"] = standing(table)
    session = table.session
    if session.commitment is not None:
        message["deal"] = dealt(session.commitment,
                                session.state.seed if session.is_over else None,
                                session.dealer)
    return stamp(message, table)


__all__ = ["first_dealer", "standing", "with_match"]
