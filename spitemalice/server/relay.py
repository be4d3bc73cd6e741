"""Spectators at one process of a table another process owns (issue 36 §3): Redis pub/sub.

A spectator may connect to any process of a site (a popular table's watchers spread over
them all).  Its process (the relay) subscribes to the table's channel
(``PREFIX:pub:ID``) and asks the owner, on the owner's own channel (``PREFIX:ctl:NAME``),
for the table's moves: ``{"want": ID, "picture": ..., "count": ..., "new": ...}``.  The
owner then publishes, after each announced move, the same ``public`` text its own
spectators are sent (one text for those who asked for pictures, one for the others), and,
when a spectator is new or the owner has just taken the table over, a snapshot: the
``watching`` message and the whole position (one for a new spectator only, ``"all":
false``, is passed over by the spectators already sent theirs).  A relay sends a new
spectator nothing before its snapshot, then every text in the order published, so what a
spectator sees is what it would see at the owner (:mod:`spitemalice.server.watching`).

Interest runs out: the relay asks again every round (a third of a lease), and an owner
stops publishing for a table three leases after the last ask; a table taken over by another
process is asked of the new owner at the next round, which sends a snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import TYPE_CHECKING, Any

from spitemalice.errors import ProtocolError
from spitemalice.server import watching
from spitemalice.server.protocol import encode

if TYPE_CHECKING:
    from spitemalice.server.redis_shared import RedisShared
    from spitemalice.server.seating import Connection, Table
    from spitemalice.server.tables import Hub


CLOSE_SECONDS = 3.0
"""Longest wait for each step of closing (Redis may be gone)."""


class Relay:
    """Both ends of the spectators' fan-out for one process: the tables it relays to its
    own spectators, and the tables it owns that other processes' spectators watch."""

    def __init__(self, shared: RedisShared) -> None:
        self.shared = shared
        self.pubsub: Any = None
        self.watchers: dict[str, set[Connection]] = {}
        """Per table owned elsewhere: this process's spectators of it."""
        self.pending: set[Connection] = set()
        """Spectators not yet sent their snapshot."""
        self.interest: dict[str, dict[tuple[str, bool], tuple[int, float]]] = {}
        """Per table this process owns: per (process, picture) its spectators' count and
        when that interest runs out (time.monotonic)."""
        self.snapped: dict[str, set[bool]] = {}
        self.games: dict[str, int] = {}
        self.outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[None]] = []
        self._closing = False

    async def start(self) -> None:
        """Subscribe to this process's own channel and start reading and publishing."""
        self.pubsub = self.shared.redis.pubsub(ignore_subscribe_messages=True)
        await self.pubsub.subscribe(self._control(self.shared.process))
        self._tasks = [asyncio.create_task(self._read()), asyncio.create_task(self._send())]

    async def close(self) -> None:
        """Stop reading and publishing (within a few seconds whatever Redis does)."""
        self._closing = True
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=CLOSE_SECONDS)
        if self.pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.pubsub.aclose(), CLOSE_SECONDS)

    def _control(self, process: str) -> str:
        return self.shared.key("ctl", process)

    def _channel(self, table: str) -> str:
        return self.shared.key("pub", table)

    # -- the relay's end: spectators here of a table owned elsewhere --------------------------

    async def watch(self, hub: Hub, conn: Connection, table: str, picture: bool) -> None:
        """``conn`` watches ``table`` from here (the caller checked that it is free).

        Raises:
            ProtocolError: ``watchers-full``: this process relays ``hub.max_watchers``
                spectators of the table already.
        """
        here = self.watchers.get(table, set())
        if len(here) >= hub.max_watchers:
            raise ProtocolError("watchers-full", f"table {table} has {hub.max_watchers} "
                                "spectator(s) at this server process, as many as it takes; "
                                "try again later")
        conn.relay, conn.picture = table, picture
        if not here:
            self.watchers[table] = here
            await self.pubsub.subscribe(self._channel(table))
        here.add(conn)
        self.pending.add(conn)
        await self._ask(table, {picture}, new=True)

    async def unwatch(self, conn: Connection) -> None:
        """``conn`` stops watching (it closed)."""
        table, conn.relay = conn.relay, None
        self.pending.discard(conn)
        here = self.watchers.get(table or "")
        if here is None:
            return
        here.discard(conn)
        if not here:
            del self.watchers[table or ""]
            await self.pubsub.unsubscribe(self._channel(table or ""))

    async def _ask(self, table: str, pictures: set[bool], new: bool) -> None:
        owner = await self.shared.redis.get(self.shared.key("lease", table))
        if owner is None:  # between owners: the next round asks the new one
            return
        here = self.watchers.get(table, set())
        for picture in pictures:
            count = sum(1 for c in here if c.picture == picture)
            await self.shared.redis.publish(self._control(owner), json.dumps(
                {"want": table, "from": self.shared.process, "picture": picture,
                 "count": count, "new": new}))

    async def round(self) -> None:
        """Ask the owner of every table relayed here again (a new owner sends a snapshot)."""
        for table, here in list(self.watchers.items()):
            pictures = {c.picture for c in here}
            await self._ask(table, pictures, new=any(c in self.pending for c in here))

    async def _on_published(self, table: str, data: dict[str, Any]) -> None:
        snapshot, picture = bool(data.get("snapshot")), data.get("picture")
        everyone = data.get("all", True)  # an owner that does not say: every spectator
        for conn in list(self.watchers.get(table, ())):
            pending = conn in self.pending
            if conn.picture != picture or (pending and not snapshot) or \
                    (snapshot and not pending and not everyone):
                continue
            self.pending.discard(conn)
            for text in data.get("texts", ()):
                await conn.send_text(text)

    # -- the owner's end: tables here watched from elsewhere -----------------------------------

    def remote_count(self, table: str) -> int:
        """Spectators of ``table`` (owned here) at other processes, as they last said."""
        now = time.monotonic()
        return sum(count for count, until in self.interest.get(table, {}).values()
                   if until > now)

    def announced(self, table: Table, full: bool) -> None:
        """Publish ``table``'s position after a move to the spectators elsewhere (the
        caller holds its lock, so the texts go out in the order of the moves)."""
        pictures = self._wanted(table.id)
        if not pictures:
            return
        welcome = []
        if self.games.get(table.id) != table.game:  # a new game: everyone is welcomed again
            self.games[table.id] = table.game
            welcome = [encode(watching.watching(table))] if full else []
        for picture in pictures:
            self._queue(table.id, {"picture": picture, "snapshot": False, "texts": [
                *welcome, watching.public_text(table, full, picture)]})

    def forward(self, table: str, text: str) -> None:
        """Publish ``text`` (a ``reaction`` or ``takeover``, the same with or without
        pictures) to the spectators elsewhere of ``table`` (owned here; the caller holds its
        lock)."""
        for picture in self._wanted(table):
            self._queue(table, {"picture": picture, "snapshot": False, "texts": [text]})

    def _wanted(self, table: str) -> set[bool]:
        now = time.monotonic()
        wanted = self.interest.get(table, {})
        for key in [k for k, (_, until) in wanted.items() if until <= now]:
            del wanted[key]
        return {picture for _, picture in wanted}

    async def _on_want(self, data: dict[str, Any]) -> None:
        hub = self.shared.hub
        table_id, picture = str(data.get("want")), bool(data.get("picture"))
        table = hub.tables.get(table_id) if hub is not None else None
        if hub is None or table is None:
            return
        self.interest.setdefault(table_id, {})[(str(data.get("from")), picture)] = (
            int(data.get("count", 1)), time.monotonic() + 3 * self.shared.lease)
        snapped = self.snapped.setdefault(table_id, set())
        # The first snapshot since this process took the table over (or lost a publish) is
        # for every spectator: moves may have been missed.  One more, for a new spectator,
        # is for those not yet sent theirs only: a relay asks each round until the snapshot
        # has come, and an ask that crossed it on its way would otherwise send a spectator
        # the position and ``watching`` twice, between two moves.
        everyone = picture not in snapped
        if data.get("new") or everyone:
            snapped.add(picture)
            async with table.lock:  # between two announcements
                self.games[table_id] = table.game
                self._queue(table_id, {"picture": picture, "snapshot": True, "all": everyone,
                                       "texts": [encode(watching.watching(table)),
                                                 watching.public_text(table, True, picture)]})
        if watching.bots_only(table):
            hub._start_bots(table)

    def _queue(self, table: str, data: dict[str, Any]) -> None:
        self.outbox.put_nowait((self._channel(table), json.dumps(data)))

    # -- the tasks --------------------------------------------------------------------------

    async def _send(self) -> None:
        """Publish what is queued, in order, as many at a time as are waiting."""
        while True:
            batch = [await self.outbox.get()]
            while not self.outbox.empty():
                batch.append(self.outbox.get_nowait())
            pipe = self.shared.redis.pipeline(transaction=False)
            for channel, text in batch:
                pipe.publish(channel, text)
            try:
                await pipe.execute()
            except Exception as problem:  # Redis away: those moves are lost
                # to spectators elsewhere, who get a snapshot once it is back)
                self._say(f"publishing to spectators elsewhere failed: {problem}")
                self.snapped.clear()

    async def _read(self) -> None:
        """Act on every message of the channels subscribed to."""
        control = self._control(self.shared.process)
        published = self.shared.key("pub", "")
        while not self._closing:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception as problem:  # Redis away: said, tried again
                if self._closing:  # the client may turn a cancellation into its own error
                    return
                self._say(f"reading from Redis failed: {problem}")
                await asyncio.sleep(1.0)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                data = json.loads(message["data"])
                if message["channel"] == control:
                    await self._on_want(data)
                elif message["channel"].startswith(published):
                    await self._on_published(message["channel"][len(published):], data)
            except (ValueError, TypeError, AttributeError) as problem:
                self._say(f"a message on {message.get('channel')!r} was not understood: "
                          f"{problem}")

    def _say(self, line: str) -> None:
        if self.shared.hub is not None:
            self.shared.hub.log(line)


__all__ = ["Relay"]
