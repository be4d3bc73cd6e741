"""Who sits where at the play server's tables: a client's :class:`Connection` and a
:class:`Table`'s seats.

A person's seat holds one connection at a time (issue 38, class 2).  The table's creator
receives every seat's link, so a second holder of a link is possible; it never sits unseen:
a ``join`` at a seat that a connection holds takes the seat from it, and that connection is
sent an ``error`` (``seat-taken``) and closed, while the new one's ``welcome`` says
``replaced``.  Taking the seat over, rather than refusing the join, lets a person whose
connection dropped (a closed laptop, a lost network not yet noticed by the server) sit down
again at once from the same link, and whoever is put out is told at once; a person who
sees the notice without having opened the link elsewhere knows that someone else has it.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable
from typing import Any

import attrs

from spitemalice import limits
from spitemalice.play.session import HUMAN, Session
from spitemalice.server import messages
from spitemalice.server.protocol import encode, error
from spitemalice.server.rate import Rate
from spitemalice.server.store import TableEntry

SEND_SECONDS = 10.0
"""Seconds a message may wait to be taken by a client before the client is closed as stalled
(a person on a slow phone network takes a state message in well under a second)."""


class Connection:
    """One client's connection: where it comes from, what it may send, where it sits.

    Args:
        send: sends one text message to the client (an error sending is ignored: the
            connection is closing, and :meth:`Hub.leave
            <spitemalice.server.tables.Hub.leave>` follows).
        address: the client's network address (the tables-per-client bound counts by it).
        clock: seconds, for the rate bound (default :func:`time.monotonic`).
        close: closes the connection with a status code and a reason (the web app's
            WebSocket close); ``None``: the connection cannot be closed from here.
    """

    def __init__(self, send: Callable[[str], Awaitable[None]], address: str,
                 clock: Callable[[], float] = time.monotonic,
                 close: Callable[[int, str], Awaitable[None]] | None = None) -> None:
        self._send = send
        self._close = close
        self.address = address
        self.clock = clock
        self.rate = Rate(clock=clock)
        self.warned = -1.0e9
        self.table: Table | None = None
        self.watching: Table | None = None
        """The table this connection watches as a spectator (it then sits at no seat)."""
        self.live: Any = None
        """The live table whose seats move at once this connection sits at
        (:mod:`spitemalice.server.spit_live`), or ``None``."""
        self.relay: str | None = None
        """The id of the table this connection watches that another server process owns
        (:mod:`spitemalice.server.shared`: its moves are relayed)."""
        self.seat = -1
        self.picture = False
        self.stalled = False
        """Whether a message waited more than :data:`SEND_SECONDS` (the client was closed)."""

    async def send(self, message: dict[str, Any]) -> None:
        """Send ``message`` as compact JSON."""
        await self.send_text(encode(message))

    async def send_text(self, text: str) -> None:
        """Send text as it is (a message already encoded).  A client that does not take a
        message within :data:`SEND_SECONDS` (it stopped reading: its buffers are full) is
        closed with status 1008, and nothing more is sent to it: messages go out under the
        table's lock, so one stalled spectator or seat must not hold up the table."""
        if self.stalled:
            return
        try:
            await asyncio.wait_for(self._send(text), SEND_SECONDS)
        except TimeoutError:
            self.stalled = True
            if self._close is not None:
                with contextlib.suppress(Exception):  # it may be stuck closing too
                    await asyncio.wait_for(self._close(1008, "too slow: messages were not "
                                                       "read"), SEND_SECONDS)
        except Exception:  # a closed socket: Hub.leave follows
            pass

    async def close_moved(self, reason: str) -> None:
        """Close the connection with status 1012 (service restart: the table it sat at is
        now another process's) and ``reason``; nothing when it cannot be closed from here,
        or is closed already."""
        if self._close is not None:
            with contextlib.suppress(Exception):  # closed already
                await self._close(1012, reason)

    async def over_rate(self) -> bool:
        """Whether this message is past the connection's message rate: then it is ignored,
        and the client told so at most once a second (not once per message)."""
        if self.rate.allow():
            return False
        now = self.clock()
        if now - self.warned >= 1.0:
            self.warned = now
            await self.send(error("rate-limited", f"more than {limits.MESSAGES_PER_SECOND} "
                                  "messages a second; this one and others until the rate "
                                  "drops are ignored"))
        return True

    async def put_out(self, why: str) -> None:
        """Tell the client ``why`` it no longer sits at its seat (a ``seat-taken`` error), and
        close the connection (status 1008, a short reason)."""
        await self.send(error("seat-taken", why))
        if self._close is not None:
            with contextlib.suppress(Exception):  # closed already
                await self._close(1008, "this seat was taken by another connection")


@attrs.define(eq=False)
class Table:
    """One table: its seats (names, players, token hashes), the current game, the
    connections sitting at each seat (one at most at a person's seat), and its spectators
    (:mod:`spitemalice.server.watching`)."""

    entry: TableEntry
    session: Session
    creator: str | None
    clients: list[set[Connection]]
    lock: asyncio.Lock = attrs.field(factory=asyncio.Lock)
    watchers: set[Connection] = attrs.field(factory=set)
    bots: asyncio.Task[None] | None = None

    @property
    def id(self) -> str:
        return self.entry.table

    @property
    def game(self) -> int:
        return self.entry.game

    def seat_list(self) -> list[dict[str, Any]]:
        names = [(seat.name, seat.player) for seat in self.entry.seats]
        here = [seat.player != HUMAN or bool(clients)
                for seat, clients in zip(self.entry.seats, self.clients, strict=True)]
        listed = messages.seat_list(names, here)
        for taken in self.session.takeovers:  # a bot took the person's seat over
            listed[taken.seat]["takeover"] = {"player": taken.player, "at": taken.at,
                                              "why": taken.why}
        return listed

    def undo_allowed(self, seat: int) -> bool:
        return all(s == seat or entry.player != HUMAN for s, entry in enumerate(self.entry.seats))

    async def take_seat(self, conn: Connection, seat: int, picture: bool) -> bool:
        """Seat ``conn`` at ``seat`` (the caller holds :attr:`lock`); any connection that
        sat there is told and closed (:meth:`Connection.put_out`).  Returns whether one was."""
        others = list(self.clients[seat])
        for other in others:
            self.clients[seat].discard(other)
            other.table = None
            await other.put_out(f"seat {seat} of table {self.id} was joined from another "
                                "connection, which sits there now; if that was not you, "
                                "someone else has this seat's link")
        conn.table, conn.seat, conn.picture = self, seat, picture
        self.clients[seat].add(conn)
        return bool(others)
