"""Several play-server processes sharing one Redis (``spitemalice serve --redis URL``,
issue 36 §3): the :class:`~spitemalice.server.shared.Shared` that lives in Redis.

* **Ownership.** A table is owned by one process at a time under a lease, a Redis key
  (``PREFIX:lease:ID``, the owner's name) that expires after :data:`LEASE_SECONDS` unless
  renewed; every process renews the leases of the tables it holds three times a lease.  A
  process acts on a table (a move, an undo, a deal) only while its own reckoning says the
  lease holds: from the moment it sent the last renewal, the lease less a fifth, which ends
  before Redis lets the key go, so two processes never write one record.
* **A connection at the wrong process** (``join`` or ``claim`` for a table another process
  owns) is answered ``moved``: the owner's socket address (its ``--socket-url``), where the
  client sends the same message again.  A spectator stays where it is: the owner publishes
  each move to the table's channel and the spectator's process relays it
  (:mod:`spitemalice.server.relay`).
* **Takeover.** Records stay the source of truth.  Each renewal round a process also looks
  for unfinished tables whose lease has run out (their owner died, or stopped) and takes
  them over from their records (:meth:`~spitemalice.server.tables.Hub.resume`): every move
  announced was written first, and the move clock the owner published carries on
  (:func:`~spitemalice.server.leavers.resume_clock`).  A ``join`` for such a table takes it
  over at once.  The leases and the takeovers are :mod:`spitemalice.server.redis_leases`.
* **Quotas and the lobby rate** are Redis scripts, so one client counts the same on every
  process: the unfinished tables of the site and of each address (sorted sets whose scores
  are expiry times, refreshed each round by the owner, so a dead owner's tables stop counting
  unless taken over) and the per-address token bucket.
* **Live Spit tables** (:mod:`spitemalice.server.spit_live`) are leased and counted too,
  and marked ``live`` in their ``PREFIX:info:ID``: a ``join`` or ``watch`` of one at another
  process is answered ``moved`` (a spectator watches it at its owner).  One is taken over
  like a turn-based table, from its table file and record
  (:mod:`spitemalice.server.spit_restore`), and one whose lease is lost here is closed
  (:func:`~spitemalice.server.spit_live.lost`): its connections connect again.
* **The lobby** reads what each owner writes every round: a listing of each public
  unfinished table (``PREFIX:info:ID``) and the set of listed tables (``PREFIX:listed``).

The records folder must be the same folder for every process (one machine, or a shared
file system).  Redis Cluster is not supported (the scripts touch several keys).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket as sockets
import time
from collections.abc import AsyncIterator, Sequence
from typing import TYPE_CHECKING, Any

from spitemalice import guards, wording
from spitemalice.errors import ProtocolError, SpiteMaliceError
from spitemalice.server import listing, redis_leases, spit_restore
from spitemalice.server.redis_publish import publish
from spitemalice.server.redis_scripts import ADMIT, BUCKET, CLAIM, RELEASE, RENEW
from spitemalice.server.relay import CLOSE_SECONDS
from spitemalice.server.shared import (
    LOBBY_BURST,
    LOBBY_PER_SECOND,
    Elsewhere,
    Refusal,
    Shared,
)

if TYPE_CHECKING:
    from spitemalice.server.relay import Relay
    from spitemalice.server.seating import Connection, Table
    from spitemalice.server.tables import Hub

LEASE_SECONDS = 10.0
"""How long a table's lease lasts unless renewed (``--lease-seconds``): a dead owner's
tables are taken over this long (and at most a third more) after it died."""

CONNECTIONS = 64
"""Most connections one process holds to Redis (a message that finds them all busy waits
for one, at most a lease)."""

PREFIX = "spitemalice"
"""The first part of every Redis key and channel the server uses."""

def process_name() -> str:
    """A name for this process among the site's: host, process id and 3 random bytes."""
    return f"{sockets.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class RedisShared(Shared):
    """What a site's server processes share, kept in the Redis at ``url``.

    Args:
        url: ``redis://host:port/db`` (``rediss://`` for TLS, ``unix:///path``).
        socket: this process's WebSocket address as clients reach it (sent in ``moved``):
            ``ws://host:port/ws``, or a path (``/p/2/ws``) under the site's own address.
        lease_seconds: a table's lease (:data:`LEASE_SECONDS`); 0.2 to 3600.
        prefix: the first part of every key and channel (:data:`PREFIX`), so several
            sites can share one Redis.
        process: this process's name (default :func:`process_name`).

    Raises:
        SpiteMaliceError: the redis library is missing (the ``redis`` extra), or a value
            out of range (the message names it).
    """

    def __init__(self, url: str, socket: str, *, lease_seconds: float = LEASE_SECONDS,
                 prefix: str = PREFIX, process: str | None = None) -> None:
        try:
            import redis.asyncio as aioredis
        except ImportError:
            raise SpiteMaliceError("--redis needs the redis extra: pip install "
                                   "'spitemalice[redis]'") from None
        from spitemalice.server.relay import Relay

        self.lease = guards.check_real(lease_seconds, "lease_seconds", 0.2, 3600.0)
        if not isinstance(socket, str) or not socket.startswith(("ws://", "wss://", "/")):
            raise SpiteMaliceError(f"--socket-url {wording.shown(socket)}: give this "
                                   "process's WebSocket address as clients reach it, "
                                   "ws://host:port/ws, wss://site/p/2/ws or a path, /p/2/ws")
        self.url, self.socket, self.prefix = url, socket, prefix
        self.process = process or process_name()
        try:  # a burst of messages waits for one of the pool's connections, never fails
            self.redis: Any = aioredis.Redis(connection_pool=aioredis.BlockingConnectionPool
                                             .from_url(url, decode_responses=True,
                                                       max_connections=CONNECTIONS,
                                                       timeout=self.lease,
                                                       socket_timeout=max(self.lease, 2.0)))
            # the leases' own connection: a burst of lobby messages never delays a renewal
            self.leases: Any = aioredis.Redis.from_url(url, decode_responses=True,
                                                       max_connections=2,
                                                       socket_timeout=max(self.lease, 2.0))
        except ValueError as problem:
            raise SpiteMaliceError(f"--redis {wording.shown(url)}: {problem}, such as "
                                   "redis://127.0.0.1:6379/0") from None
        self.held: dict[str, float] = {}
        """Each table this process owns, with the time (time.monotonic) its lease may
        be counted on until."""
        self.created: dict[str, float] = {}
        self.relay: Relay = Relay(self)
        self.hub: Hub | None = None
        self._admit = self.redis.register_script(ADMIT)
        self._bucket = self.redis.register_script(BUCKET)
        self._claim = self.redis.register_script(CLAIM)
        self._renew = self.leases.register_script(RENEW)
        self._release = self.redis.register_script(RELEASE)
        self._round: asyncio.Task[None] | None = None
        self._taking = asyncio.Lock()
        """Held while a table is taken over here
        (:func:`~spitemalice.server.redis_leases.take_here`): one takeover at a time, so one
        table is never rebuilt twice."""

    def check_reachable(self) -> None:
        """Ping the Redis once, from outside any event loop (``spitemalice serve`` does,
        before it listens).

        Raises:
            SpiteMaliceError: it does not answer; the message names it and why.
        """
        import redis

        try:
            with redis.Redis.from_url(self.url, socket_timeout=5) as client:
                client.ping()
        except redis.RedisError as problem:
            raise SpiteMaliceError(f"cannot reach Redis at {wording.shown(self.url)}: "
                                   f"{problem}; start it, or check --redis") from None

    def key(self, *parts: str) -> str:
        """A Redis key or channel of this site: the prefix and ``parts``, joined by ``:``."""
        return ":".join((self.prefix, *parts))

    @property
    def hold_ms(self) -> int:
        """How long a quota entry, a listing or a process's address lasts unrenewed."""
        return int(self.lease * 3000)

    async def now_ms(self) -> int:
        """Redis's clock in milliseconds: one clock for every process of the site."""
        seconds, micros = await self.redis.time()
        return int(seconds) * 1000 + int(micros) // 1000

    # -- the process's life ----------------------------------------------------------------

    async def start(self, hub: Hub, restore: bool = True) -> list[str]:
        self.hub = hub
        try:
            await self.redis.ping()
        except Exception as problem:  # any failure to reach it: said
            raise SpiteMaliceError(f"cannot reach Redis at {wording.shown(self.url)}: "
                                   f"{problem}; start it, or check --redis") from None
        await self.redis.set(self.key("proc", self.process), self.socket, px=self.hold_ms)
        await self.relay.start()
        said = []
        if restore:  # the folder's unfinished tables that no live process holds
            others = 0
            for found in [*hub.store.unfinished(), *spit_restore.unfinished(hub.store)]:
                if isinstance(found, str):
                    said.append(found)
                elif await redis_leases.take(self, found[0].table):
                    said.append(await redis_leases.rebuild(self, hub, found))
                else:
                    others += 1
            if others:
                said.append(f"{wording.count_of(others, 'unfinished table')} held by other "
                            "server processes")
        said.append(f"sharing tables through Redis as process {self.process}, reached at "
                    f"{self.socket} (leases of {self.lease:g} s)")
        self._round = asyncio.create_task(self._rounds())
        return said

    async def close(self) -> None:
        if self._round is not None:
            self._round.cancel()
            await asyncio.wait([self._round], timeout=CLOSE_SECONDS)
        await self.relay.close()
        with contextlib.suppress(Exception):  # Redis gone: the leases run out by themselves
            await asyncio.wait_for(self._let_all_go(), CLOSE_SECONDS)
        self.held.clear()
        for client in (self.redis, self.leases):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(client.aclose(), CLOSE_SECONDS)

    async def _let_all_go(self) -> None:
        """Release every lease held and this process's address (a clean stop: the other
        processes take the tables over at their next round or ``join``)."""
        for table in list(self.held):
            await self._release(keys=[self.key("lease", table)], args=[self.process])
        await self.redis.delete(self.key("proc", self.process))

    # -- quotas and the lobby rate ----------------------------------------------------------

    async def admit(self, hub: Hub, table: str, client: str) -> Refusal | None:
        async with self._answering():
            sent = time.monotonic()
            code, count = await self._admit(
                keys=[self.key("live"), self.key("mine", client), self.key("lease", table),
                      self.key("creator", table)],
                args=[hub.max_tables, hub.max_tables_per_client, self.hold_ms, self.process,
                      int(self.lease * 1000), client, table])
        if code == 1:
            return Refusal("server-full", int(count))
        if code == 2:
            return Refusal("too-many-tables", int(count))
        if code == 3:  # 64 random bits met a live table's id
            raise ProtocolError("server-error", "the server could not open a table; try again")
        redis_leases.held_from(self, table, sent)
        return None

    async def allow(self, client: str) -> bool:
        async with self._answering():
            return bool(await self._bucket(keys=[self.key("rate", client)],
                                           args=[LOBBY_PER_SECOND, LOBBY_BURST]))

    # -- the directory ------------------------------------------------------------------------

    async def locate(self, hub: Hub, table: str) -> None:
        async with self._answering():
            for _ in range(2):  # a second look when another process took it meanwhile
                owner = await self.redis.get(self.key("lease", table))
                if owner is not None and owner != self.process:
                    socket = await self.redis.get(self.key("proc", owner))
                    if socket is None:
                        raise ProtocolError("server-error", f"table {table} is held by "
                                            f"server process {wording.shown(owner)}, not "
                                            "heard from lately; try again in "
                                            f"{self.lease:g} s")
                    raise Elsewhere(table, socket)
                if await redis_leases.take_here(self, hub, table):
                    return

    def holds(self, table: str) -> bool:
        return time.monotonic() < self.held.get(table, 0.0)

    async def renew_now(self, table: str) -> bool:
        if table not in self.held:
            return False
        sent = time.monotonic()  # the key is ours only if no other process took it
        async with self._answering():
            kept = await self._renew(keys=[self.key("lease", table)],
                                     args=[self.process, int(self.lease * 1000)])
        if kept and kept[0]:
            redis_leases.held_from(self, table, sent)
        return self.holds(table)

    async def listings(self, hub: Hub) -> list[dict[str, Any]]:
        async with self._answering():
            ids = [t for t in await self.redis.zrevrange(self.key("listed"), 0,
                                                         4 * listing.MAX_LISTED)
                   if t not in hub.tables]
            infos = await self.redis.mget([self.key("info", t) for t in ids]) if ids else []
            gone = [t for t, info in zip(ids, infos, strict=True) if info is None]
            if gone:
                await self.redis.zrem(self.key("listed"), *gone)
        found = [json.loads(info) for info in infos if info is not None]
        return [info["listed"] for info in found if info["public"] and not info["over"]]

    async def status(self, tables: Sequence[str]) -> dict[str, dict[str, Any]]:
        if not tables:
            return {}
        async with self._answering():
            infos = await self.redis.mget([self.key("info", t) for t in tables])
        return {table: {"table": table, "game": data["game"], "over": data["over"]}
                for table, data in ((t, json.loads(i)) for t, i in zip(tables, infos,
                                                                       strict=True) if i)}

    # -- spectators elsewhere -------------------------------------------------------------

    async def watch(self, hub: Hub, conn: Connection, table: str, socket: str,
                    picture: bool) -> None:
        async with self._answering():
            info = await self.redis.get(self.key("info", table))
            if info is not None and json.loads(info).get("live"):  # Spit: watched at its owner
                raise Elsewhere(table, socket)
            await self.relay.watch(hub, conn, table, picture)

    async def unwatch(self, conn: Connection) -> None:
        with contextlib.suppress(Exception):  # Redis gone: its interest runs out
            await self.relay.unwatch(conn)

    def announced(self, table: Table, full: bool) -> None:
        self.relay.announced(table, full)

    def remote_watchers(self, table: str) -> int:
        return self.relay.remote_count(table)

    def told(self, table: Table, text: str) -> None:
        self.relay.forward(table.id, text)

    # -- the rounds -----------------------------------------------------------------------

    async def _rounds(self) -> None:
        """Renew, publish and sweep every third of a lease, until cancelled."""
        while True:
            await asyncio.sleep(self.lease / 3)
            try:
                await self.round()
            except asyncio.CancelledError:
                raise
            except Exception as problem:  # Redis away: said, tried again
                if self.hub is not None:
                    self.hub.log(f"Redis round failed: {problem}; trying again")

    async def round(self) -> None:
        """One round: renew this process's leases (letting go of those lost), write its
        address, quotas and listings, take over tables whose lease ran out, and renew the
        spectators' interest (:mod:`spitemalice.server.relay`)."""
        hub = self.hub
        assert hub is not None
        await redis_leases.renew(self, hub)
        await publish(self, hub)
        await redis_leases.sweep(self, hub)
        await self.relay.round()

    @contextlib.asynccontextmanager
    async def _answering(self) -> AsyncIterator[None]:
        """Redis failing while a message is answered: a ``server-error`` to the client."""
        from redis.exceptions import RedisError

        try:
            yield
        except RedisError as problem:
            raise ProtocolError("server-error", "the site's shared store (Redis) did not "
                                f"answer: {problem}; try again") from None


__all__ = ["CONNECTIONS", "LEASE_SECONDS", "PREFIX", "RedisShared", "process_name"]
