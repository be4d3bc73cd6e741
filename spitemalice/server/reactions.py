"""Reactions (issue 36 §2): a seat sends one of a fixed set, everyone at the table sees it.

A ``react`` message names one of :data:`~spitemalice.server.protocol.REACTIONS` (``"nice"``,
``"good-game"``...): no free text, so there is nothing to moderate.  The server sends a
``reaction`` message (the seat, its name, the reaction's name, emoji and words) to every
seat and spectator of the table, those other processes relay included; pages show it for a
few seconds and read it out through their live region.

* Only a seat reacts: a spectator watches (a table's spectators, up to 200, would drown
  its seats, and a spectator has no name at the table).  A seat a bot took over may still
  react: its person is there, watching.
* A seat may react :data:`BURST` times at once and :data:`PER_MINUTE` times a minute on
  average (a token bucket per seat of each table, whichever connection it sits on; past
  it a ``rate-limited`` error says when to try again).
* Reactions are not moves: the game's record holds none, and they are never replayed.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from spitemalice.errors import ProtocolError
from spitemalice.server.protocol import REACTIONS, Message, encode
from spitemalice.server.rate import Rate
from spitemalice.server.seating import Connection, Table

if TYPE_CHECKING:
    from spitemalice.server.tables import Hub

BURST = 3
"""Reactions one seat may send at once."""

PER_MINUTE = 12
"""Reactions one seat may send a minute on average, past :data:`BURST`."""

_RATES: weakref.WeakKeyDictionary[Table, dict[int, Rate]] = weakref.WeakKeyDictionary()


def reaction(table: Table, seat: int, name: str) -> dict[str, Any]:
    """The ``reaction`` message: ``seat`` (and its name at ``table``) sent reaction ``name``
    (a key of :data:`~spitemalice.server.protocol.REACTIONS`), with its emoji and words."""
    emoji, words = REACTIONS[name]
    return {"type": "reaction", "seat": seat, "name": table.entry.seats[seat].name,
            "reaction": name, "emoji": emoji, "text": words}


async def on_react(hub: Hub, conn: Connection, message: Message) -> None:
    """Answer a ``react`` message: tell the reaction to everyone at the seat's table.

    Raises:
        ProtocolError: ``not-joined`` (a spectator, or a connection at no seat), or
            ``rate-limited`` (past :data:`BURST` at once or :data:`PER_MINUTE` a minute).
    """
    table = conn.table
    if table is None:
        what = "a spectator watches and does not react" if conn.watching or conn.relay \
            else 'send {"type": "join", ...} first'
        raise ProtocolError("not-joined", f"a reaction comes from a seat; {what}")
    rates = _RATES.setdefault(table, {})
    rate = rates.setdefault(conn.seat, Rate(PER_MINUTE / 60.0, BURST, clock=conn.clock))
    if not rate.allow():
        raise ProtocolError("rate-limited", f"a seat sends at most {BURST} reactions at once "
                            f"and {PER_MINUTE} a minute; wait {60 / PER_MINUTE:g} s and send "
                            "it again")
    async with table.lock:
        await tell(hub, table, reaction(table, conn.seat, message.get("reaction")))


async def tell(hub: Hub, table: Table, message: dict[str, Any]) -> None:
    """Send ``message`` to every seat and spectator of ``table``, those other processes
    relay included (the caller holds the lock)."""
    text = encode(message)
    hub.shared.told(table, text)
    for client in [*(c for clients in table.clients for c in clients), *table.watchers]:
        await client.send_text(text)


__all__ = ["BURST", "PER_MINUTE", "on_react", "reaction", "tell"]
