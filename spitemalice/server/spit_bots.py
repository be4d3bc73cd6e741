"""The bots of a live table whose seats move at once (Spit): each on a timer of its own.

A bot's seat runs one :mod:`asyncio` task (:func:`run_bot`).  Whenever the bot may move it
decides from its own view (the game's bot, :func:`~spitemalice.runs.arrival.game_bots`),
waits its reaction time (drawn each time from the table's
:class:`~spitemalice.runs.arrival.ReactionTimes`: log-normal around the table's mean), and
sends its intent, which the table applies in arrival order like a person's
(:meth:`~spitemalice.server.spit_table.SpitTable.intent`).  An intent that no longer fits when
it arrives is stale: counted, and the bot decides again from the new position.

Two exceptions to the reaction time: a bot says spit at once (the spit barrier is
readiness, not a race: it waits for every seat, SP-4), and slaps after its reaction time
(the slap is a race: the first hand on a pile takes it, SP-12).  A bot moves only while a
person sits at the table or someone watches it (a table of bots alone plays for its
spectators): nobody comes back to a game the bots finished alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from typing import Any

from spitemalice.engine.deal import new_seed
from spitemalice.errors import PlayError
from spitemalice.runs.arrival import ReactionTimes, game_bots
from spitemalice.server.protocol import error
from spitemalice.server.spit_table import SpitTable
from spitemalice.wording import clipped

SPREAD = 0.35
"""The log-normal spread of a live bot's reaction times (the simulation's default)."""

RETRY_SECONDS = 1.0
"""Seconds a bot waits before trying again a move whose record could not be written."""

DOUBT_SECONDS = 0.1
"""Seconds a bot waits before looking again while its process's lease on the table is in
doubt (a renewal late, on a loaded machine): the next round usually renews it, and a
second's wait each time would stall the table for nothing."""


def start_bots(table: SpitTable) -> None:
    """Start one task per bot seat of ``table`` (none runs yet for it); each stops when
    cancelled (:func:`stop_bots`)."""
    if table.bots:
        return
    offered = game_bots(table.simultaneous)
    policy = ReactionTimes((float(table.reaction_ms),), SPREAD)
    table.wakes = [asyncio.Event() for _ in table.kinds]
    for seat, kind in enumerate(table.kinds):
        if kind in offered:
            rng = random.Random(new_seed())  # never the deal's seed
            table.bots.append(asyncio.create_task(run_bot(table, seat, offered[kind], rng,
                                                          policy)))


async def stop_bots(table: SpitTable) -> None:
    """Cancel ``table``'s bot tasks and wait for them to end."""
    tasks, table.bots = table.bots, []
    for task in tasks:
        task.cancel()
    for task in tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task


def _person_here(table: SpitTable) -> bool:
    return bool(table.watchers) or any(clients for clients in table.clients)


async def run_bot(table: SpitTable, seat: int, bot: Any, rng: random.Random,
                  policy: ReactionTimes) -> None:
    """Play ``seat`` of ``table`` with ``bot`` until cancelled: decide, wait the reaction
    time, send the intent; wait for a change whenever the seat has nothing to do."""
    wake = table.wakes[seat]
    game = table.simultaneous
    while True:
        async with table.lock:
            state, number = table.state, table.game
            moves = game.legal_moves(state, seat) if _person_here(table) else ()
            if not moves:
                wake.clear()  # under the lock: a change after this sets it again
        if not moves:
            await wake.wait()
            continue
        move = bot(state.view(seat), moves, rng)
        if game.barrier(state) != "spit":
            await asyncio.sleep(policy.draw(rng, seat) / 1000)
        wait = 0.0
        async with table.lock:
            if table.game != number or table.is_over:
                continue
            if not table.holds():
                wait = DOUBT_SECONDS  # the lease is in doubt: no move until it is renewed
            elif move not in game.legal_moves(table.state, seat):
                table.count_stale()  # another card got there first: decide again
                continue
            else:
                try:
                    table.intent(seat, move, None)
                except PlayError as problem:
                    wait = RETRY_SECONDS
                    await table.broadcast(error("server-error", clipped(
                        f"the {table.kinds[seat]} bot's move (seat {seat}) was not kept: "
                        f"{problem}; the table tries again in {RETRY_SECONDS:g} s", 600)))
                else:
                    await table.announce()
        if wait:
            await asyncio.sleep(wait)


__all__ = ["DOUBT_SECONDS", "RETRY_SECONDS", "SPREAD", "run_bot", "start_bots", "stop_bots"]
