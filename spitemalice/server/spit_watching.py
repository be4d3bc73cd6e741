"""Spectators of a live table whose seats move at once (Spit; issue 36 §2).

The watch link of a live table is ``/spit/ID`` (the ``created`` message's ``watch``): the
Spit page opened with no seat and token in its fragment sends ``{"type": "watch", "table":
ID}``.  A spectator is sent a ``watching`` message on arrival (the table, the rules, who
sits where; again at each new game), then a ``spit`` message after every move built from
the view every seat shares (:meth:`~spitemalice.server.spit_table.SpitTable.public_message`:
every face-up card and the counts, no legal moves, ``view.seat`` null), the ``deal`` field
with it, and a ``watchers`` message whenever one arrives or leaves.  Never a face-down
stock card, never a spit card, never the seed before the end: two tables that differ only
in face-down cards send a spectator the same bytes (``tests/server/test_server_spit_watch.py``).

A spectator sits at no seat: it may ask for the record once the game is over (``record``)
and for the catalog; a ``move`` or ``rematch`` is answered ``not-joined``.  The bots of a
table play while a person sits there or someone watches, so a table of bots alone plays
for its spectators, at the bots' reaction time, and waits while nobody watches.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spitemalice.errors import ProtocolError
from spitemalice.server import messages
from spitemalice.server.protocol import Message, encode
from spitemalice.server.seating import Connection
from spitemalice.server.spit_table import SpitTable
from spitemalice.wording import a_or_an

if TYPE_CHECKING:
    from spitemalice.server.tables import Hub

SPECTATOR = -1
"""The ``seat`` of a connection that watches a live table (it sits at none)."""


def watch_link(table_id: str) -> str:
    """A live table's watch link, relative to the server: ``/spit/ID`` (no fragment)."""
    return f"/spit/{table_id}"


def is_spectator(conn: Connection) -> bool:
    """Whether ``conn`` watches a live table (rather than sitting at one of its seats)."""
    return conn.live is not None and conn.seat == SPECTATOR


def watching(table: SpitTable) -> dict[str, Any]:
    """The ``watching`` message of a live table: a seat's ``welcome`` less everything about
    a seat of its own, with the watch link and no match (a live table plays single games)."""
    welcome = messages.welcome(table.id, 0, table.game, table.rules, table.seat_list(), False)
    for key in ("seat", "undo", "replaced"):
        del welcome[key]
    return {**welcome, "type": "watching", "watch": watch_link(table.id), "match": None}


async def watch(hub: Hub, conn: Connection, table: SpitTable) -> None:
    """``conn`` becomes a spectator of ``table``: it is sent ``watching`` and the position,
    every connection at the table how many watch, and the bots are woken (a table of bots
    alone plays while someone watches).

    Raises:
        ProtocolError: ``already-joined`` (the connection sits at a seat or watches a
            table already) or ``watchers-full`` (``hub.max_watchers`` watch it already).
    """
    where = (conn.live.id if conn.live is not None else conn.watching.id if conn.watching
             else conn.table.id if conn.table else conn.relay)
    if where is not None:
        raise ProtocolError("already-joined", f"this connection is at table {where} "
                            "already; open another connection to watch another table")
    if len(table.watchers) >= hub.max_watchers:
        raise ProtocolError("watchers-full", f"table {table.id} has {hub.max_watchers} "
                            "spectator(s), as many as it takes; try again later")
    async with table.lock:  # as a join: the first message it is sent comes first
        conn.live, conn.seat = table, SPECTATOR
        table.watchers.add(conn)
        await conn.send(watching(table))
        await conn.send(table.public_message())
        await tell_count(table)
        for wake in table.wakes:
            wake.set()  # a bot waits for someone to play for


async def tell_count(table: SpitTable) -> None:
    """Send every seat and spectator of ``table`` the ``watchers`` message (the caller
    holds its lock)."""
    await table.broadcast({"type": "watchers", "count": len(table.watchers)})


async def welcome_again(table: SpitTable) -> None:
    """A new game at ``table`` (a rematch): every spectator is sent ``watching`` again (the
    caller holds the lock)."""
    if table.watchers:
        text = encode(watching(table))
        for client in list(table.watchers):
            await client.send_text(text)


async def leave(table: SpitTable, conn: Connection) -> bool:
    """``conn``, a spectator of ``table``, closed: it stops watching and the others are
    told how many watch.  Returns whether the table is now finished with nobody at it (the
    caller lets it go)."""
    async with table.lock:
        table.watchers.discard(conn)
        conn.live, conn.seat = None, -1
        await tell_count(table)
        return table.is_over and not table.watchers and not any(table.clients)


async def not_seated(hub: Hub, conn: Connection, message: Message) -> None:
    """A spectator's ``move`` or ``rematch``: refused ``not-joined``."""
    raise ProtocolError("not-joined", f"{a_or_an(message.type)} message needs a seat: this "
                        f"connection watches table {conn.live.id}; a seat's own link sits "
                        "at it")


__all__ = ["SPECTATOR", "is_spectator", "leave", "not_seated", "tell_count", "watch",
           "watch_link", "watching", "welcome_again"]
