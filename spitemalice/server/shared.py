"""What the play server's processes share (issue 36 §3): one interface, two keepers.

A :class:`~spitemalice.server.tables.Hub` asks its :class:`Shared` everything that must be
the same in every process of a site: may this client open another table (the quotas), may
it send another lobby message (the rate), which process owns a table (the directory and
its leases), which public tables the lobby lists, and who watches a table from another
process (the spectators' fan-out).

* :class:`Local` (the default, ``spitemalice serve``): one process, no outside service.
  Everything is this process's memory; every table is its own.
* :class:`~spitemalice.server.redis_shared.RedisShared` (``spitemalice serve --redis
  URL``): several processes share one Redis.  A table is owned by one process at a time
  under a lease; a connection that asks another process for it is sent to the owner
  (``moved``); spectators may watch from any process (Redis pub/sub carries the moves).

Either way the records folder is the source of truth: a table is rebuilt from its files
(:meth:`~spitemalice.server.tables.Hub.resume`), at a restart or when a process takes a
dead owner's tables over.
"""

from __future__ import annotations

import abc
from collections import OrderedDict
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from spitemalice import wording
from spitemalice.errors import ProtocolError
from spitemalice.server.rate import Rate

if TYPE_CHECKING:
    from spitemalice.server.seating import Connection, Table
    from spitemalice.server.tables import Hub

LOBBY_PER_SECOND = 10.0
"""Lobby messages (``create``, ``join``, ``watch``, ``claim``, ``tables``) one client address
may send a second on average, over all its connections (and, with Redis, all processes)."""

LOBBY_BURST = 60
"""Lobby messages one client address may send at once before :data:`LOBBY_PER_SECOND`
applies."""

LOBBY_KINDS = frozenset({"create", "join", "watch", "claim", "tables", "quickplay"})
"""The messages the per-address lobby rate counts (a seat's moves are bounded per
connection, :data:`~spitemalice.limits.MESSAGES_PER_SECOND`)."""

_ADDRESSES = 10_000
"""Client addresses :class:`Local` keeps a lobby rate for (the least recent are let go)."""


@attrs.frozen
class Refusal:
    """Why a client may not open a table: ``code`` (``server-full`` or
    ``too-many-tables``) and ``count``, the unfinished tables counted against it."""

    code: str
    count: int


class Elsewhere(Exception):
    """Table ``table_id`` is owned by another process: ``socket`` is that process's
    WebSocket address (``ws://host:port/ws``, or a path such as ``/p/2/ws`` on the same
    site)."""

    def __init__(self, table: str, socket: str) -> None:
        super().__init__(f"table {table} is at {socket}")
        self.table_id, self.socket = table, socket


def moved(error: Elsewhere) -> dict[str, Any]:
    """The ``moved`` message: connect to ``socket`` and send the same message there."""
    return {"type": "moved", "table": error.table_id, "socket": error.socket,
            "message": f"table {error.table_id} is played on another server process; connect "
                       f"to {error.socket} and send the message again there"}


class Shared(abc.ABC):
    """What the processes of one site share; one per :class:`~spitemalice.server.tables.Hub`.

    Attributes:
        process: this process's name among the site's processes.
    """

    process: str = "local"

    async def start(self, hub: Hub, restore: bool = True) -> list[str]:
        """Begin (the web app's start); with ``restore``, rebuild the unfinished tables
        of ``hub.store`` this process may take; returns one line per table resumed or
        skipped."""
        return hub.restore() if restore else []

    async def close(self) -> None:  # noqa: B027 (nothing to close by default)
        """Stop background work and let the tables go (the web app's end)."""

    @abc.abstractmethod
    async def admit(self, hub: Hub, table: str, client: str) -> Refusal | None:
        """Count a new table ``table`` opened by ``client`` against the hub's quotas
        (``max_tables`` unfinished tables on the site, ``max_tables_per_client`` per
        client address) and own it; ``None`` when admitted, else why not (nothing
        counted)."""

    @abc.abstractmethod
    async def allow(self, client: str) -> bool:
        """Whether ``client`` may send one more lobby message now (:data:`LOBBY_BURST`,
        :data:`LOBBY_PER_SECOND`); counted when it may."""

    async def locate(self, hub: Hub, table: str) -> None:  # noqa: B027 (one process)
        """Make sure ``table`` is in ``hub.tables`` if this process may hold it (taking it
        over from its records when its owner is gone), or say where it is.

        Raises:
            Elsewhere: another live process owns it.
        """

    def holds(self, table: str) -> bool:
        """Whether this process still owns ``table`` (a move is made only while it does)."""
        return True

    async def renew_now(self, table: str) -> bool:
        """Renew this process's hold on ``table`` at once, when :meth:`holds` is in doubt
        (a round late on a loaded machine); whether it still holds it."""
        return self.holds(table)

    async def check_holds(self, table: str) -> None:
        """Check that this process still owns ``table`` (:meth:`holds`, or else
        :meth:`renew_now`: a late round is no reason to refuse a move).

        Raises:
            ProtocolError: ``server-error``: its lease ran out; the client connects again.
        """
        if not self.holds(table) and not await self.renew_now(table):
            raise ProtocolError("server-error", f"table {table} is no longer played by this "
                                "server process (its lease ran out); connect again")

    async def listings(self, hub: Hub) -> list[dict[str, Any]]:
        """The public unfinished tables other processes own, as the lobby lists them
        (:func:`spitemalice.server.listing.listed`), newest first."""
        return []

    async def status(self, tables: Sequence[str]) -> dict[str, dict[str, Any]]:
        """Of ``tables`` (none of them this process's), those other processes hold, each
        ``{"table", "game", "over"}``."""
        return {}

    async def watch(self, hub: Hub, conn: Connection, table: str, socket: str,
                    picture: bool) -> None:
        """``conn`` watches ``table``, which another process owns (``socket``): its moves
        come through the site's fan-out.

        Raises:
            ProtocolError: ``watchers-full``: this process relays as many as it may.
        """
        raise Elsewhere(table, socket)

    async def unwatch(self, conn: Connection) -> None:  # noqa: B027 (nothing relayed)
        """``conn`` stops watching a table of another process."""

    def announced(self, table: Table, full: bool) -> None:  # noqa: B027 (no other process)
        """A move (``full``: a new game, an undo) was announced at ``table``: send it on to
        the spectators other processes hold (never waits)."""

    def remote_watchers(self, table: str) -> int:
        """Spectators of ``table`` that other processes hold."""
        return 0

    def told(self, table: Table, text: str) -> None:  # noqa: B027 (no other process)
        """``text`` (a ``reaction`` or ``takeover`` message) was sent to everyone at
        ``table``: send it on to the spectators other processes hold (never waits)."""


class Local(Shared):
    """One process and its memory: the default.  Quotas count the hub's unfinished
    tables; the lobby rate is one token bucket per client address."""

    def __init__(self) -> None:
        self._rates: OrderedDict[str, Rate] = OrderedDict()

    async def admit(self, hub: Hub, table: str, client: str) -> Refusal | None:
        return admission(hub, [t.creator for t in hub.tables.values()
                               if not t.session.is_over], client)

    async def allow(self, client: str) -> bool:
        rate = self._rates.pop(client, None) or Rate(LOBBY_PER_SECOND, LOBBY_BURST)
        self._rates[client] = rate  # the most recent last
        while len(self._rates) > _ADDRESSES:
            self._rates.popitem(last=False)
        return rate.allow()


def admission(hub: Hub, creators: Collection[str | None], client: str) -> Refusal | None:
    """Whether ``client`` may open one more table, the unfinished tables being those of
    ``creators`` (each one's creator address)."""
    if len(creators) >= hub.max_tables:
        return Refusal("server-full", len(creators))
    mine = sum(1 for creator in creators if creator == client)
    if mine >= hub.max_tables_per_client:
        return Refusal("too-many-tables", mine)
    return None


async def check_rate(shared: Shared, kind: str, client: str) -> None:
    """Count a message of ``kind`` from ``client`` against the lobby rate.

    Raises:
        ProtocolError: ``rate-limited``: a lobby message (:data:`LOBBY_KINDS`) past the
            rate (:meth:`Shared.allow`).
    """
    if kind in LOBBY_KINDS and not await shared.allow(client):
        raise ProtocolError("rate-limited", f"more than {LOBBY_BURST} lobby messages "
                            "(create, join, watch, claim, tables, quickplay) at once, or "
                            f"{LOBBY_PER_SECOND:g} a second, from this address; wait a "
                            "moment and send it again")


async def open_table(hub: Hub, table: str, client: str) -> None:
    """Count table ``table``, which ``client`` opens, against the quotas
    (:meth:`Shared.admit`).

    Raises:
        ProtocolError: ``server-full`` or ``too-many-tables``, in words
            (:func:`refusal_words`).
    """
    refusal = await hub.shared.admit(hub, table, client)
    if refusal is not None:
        raise ProtocolError(refusal.code, refusal_words(refusal, hub))


def refusal_words(refusal: Refusal, hub: Hub) -> str:
    """What a client refused a table is told."""
    if refusal.code == "server-full":
        tables = wording.count_of(hub.max_tables, "unfinished table")
        return f"the server holds {tables}, as many as it may; try again later"
    tables = wording.count_of(refusal.count, "unfinished table")
    return f"this client has {tables}, as many as it may; finish one first"


__all__ = ["LOBBY_BURST", "LOBBY_KINDS", "LOBBY_PER_SECOND", "Elsewhere", "Local", "Refusal",
           "Shared", "admission", "check_rate", "moved", "open_table", "refusal_words"]
