"""Matches at a table (issue 36 §2): games played one after another until a seat's total
reaches the rule set's target (blackwood-frey BF-19: ``match_target``, 50 by default), the
deal passing to the next seat each game (BF-11), as :func:`spitemalice.play_match` plays
them.

A table plays a match when its ``create`` message asks for one (``match: true``): the table
file keeps the target and each finished game's points (:class:`~spitemalice.server.store.
TableEntry`), each game keeps its own record (``ID-1.json``, ``ID-2.json``... : the match
is the set of records its table file names), and ``welcome``, ``watching``, ``state`` and
``public`` carry the running score (:mod:`spitemalice.server.standings`).  When a game of a
match ends and no seat has reached the target, the next game is dealt by itself
:data:`NEXT_GAME_SECONDS` later (or at once on a ``rematch``); once a seat has, a
``rematch`` starts a new match.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import attrs

from spitemalice.errors import OutputError, PlayError
from spitemalice.play.session import Session
from spitemalice.server import messages, watching
from spitemalice.server.seating import Table
from spitemalice.server.standings import random_dealer, standing

if TYPE_CHECKING:
    from spitemalice.server.tables import Hub

_WAITING: set[asyncio.Task[None]] = set()
"""The deals waiting for their time (held here, so none is collected before it runs)."""

NEXT_GAME_SECONDS = 4.0
"""Seconds between the end of a game of a match and the deal of the next (time to see how
it ended)."""


async def deal_next(hub: Hub, table: Table) -> None:
    """Deal the table's next game (a rematch, or the next game of a match) and tell every
    seat and spectator; the caller holds the table's lock and has checked that the game
    is over.  In a match the finished game's points are kept and the deal passes on; after
    a won match a new one starts.  A record or table file that cannot be written is told
    to everyone at the table, and the old game stays."""
    old = table.session
    entry = attrs.evolve(table.entry, game=table.game + 1)
    dealer = None
    if entry.match is not None:
        result = standing(table)
        assert result is not None and old.state.outcome is not None
        won = result["winner"] is not None
        entry = attrs.evolve(entry, scores=() if won else (*entry.scores,
                                                           tuple(old.state.outcome.scores)))
        dealer = random_dealer(len(entry.seats)) if won or old.dealer is None else \
            (old.dealer + 1) % len(entry.seats)
    try:
        session = Session(old.rules, old.kinds, names=[s.name for s in old.seats],
                          dealer=dealer, commit=True,
                          record_path=hub.store.record_path(table.id, entry.game))
        hub.store.save(entry)
    except (PlayError, OutputError) as problem:
        await hub._not_kept(table, "the next game", problem)
        return
    table.entry, table.session = entry, session
    match = standing(table)
    for other, clients in enumerate(table.clients):
        for client in list(clients):
            await client.send(messages.welcome(
                table.id, other, table.game, session.rules, table.seat_list(),
                table.undo_allowed(other), match=match))
    await watching.welcome_again(table)
    await hub._announce(table, full=True)


def after_move(hub: Hub, table: Table) -> None:
    """A move was announced at ``table`` (or the table was resumed at a restart): when
    its game has ended, in a match that no seat has won yet, deal the next game
    :data:`NEXT_GAME_SECONDS` later (outside an event loop: nothing, the next restart of
    the web app deals it)."""
    if table.entry.match is None or not table.session.is_over:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return
    result = standing(table)
    if result is None or result["winner"] is not None:
        return
    task = asyncio.get_running_loop().create_task(_next_later(hub, table, table.game))
    _WAITING.add(task)
    task.add_done_callback(_WAITING.discard)


def waiting() -> list[asyncio.Task[None]]:
    """The next games waiting to be dealt (the hub cancels them when it closes)."""
    return list(_WAITING)


async def _next_later(hub: Hub, table: Table, game: int) -> None:
    await asyncio.sleep(NEXT_GAME_SECONDS)
    async with table.lock:
        if table.game != game or not table.session.is_over or hub.tables.get(table.id) \
                is not table:
            return  # a rematch dealt it already, an undo took the end back, or it closed
        await deal_next(hub, table)
    hub._start_bots(table)


__all__ = ["NEXT_GAME_SECONDS", "after_move", "deal_next", "waiting"]
