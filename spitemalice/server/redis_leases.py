"""A table's lease and its takeover, for :class:`~spitemalice.server.redis_shared.RedisShared`
(``spitemalice serve --redis URL``): taking a table's lease, renewing this process's leases
each round (a table whose lease was lost here is let go), and rebuilding here, one at a
time, a table whose owner's lease has run out (at a ``join`` or a round's sweep), from its
records.  The lease keys, the scripts that set them and the lock that makes the takeovers
take turns are the :class:`~spitemalice.server.redis_shared.RedisShared`'s."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from spitemalice.server import leavers, spit_live, spit_restore

if TYPE_CHECKING:
    from spitemalice.formats.records.record import GameRecord
    from spitemalice.server.redis_shared import RedisShared
    from spitemalice.server.spit_restore import SpitEntry
    from spitemalice.server.store import TableEntry
    from spitemalice.server.tables import Hub


def held_from(shared: RedisShared, table: str, sent: float) -> None:
    """``table``'s lease was set or renewed by a request sent at ``sent``."""
    shared.held[table] = sent + shared.lease * 0.8


async def take(shared: RedisShared, table: str) -> bool:
    """Take ``table``'s lease when nobody holds it (or renew it when this process does);
    whether this process holds it now."""
    sent = time.monotonic()
    if await shared._claim(keys=[shared.key("lease", table)],
                           args=[shared.process, int(shared.lease * 1000)]):
        held_from(shared, table, sent)
        return True
    return False


async def take_here(shared: RedisShared, hub: Hub, table: str) -> bool:
    """Take ``table``'s lease and rebuild it here (:func:`take_over`), unless it is
    here already; whether this process took it (or held it).

    A ``join`` (:meth:`~spitemalice.server.redis_shared.RedisShared.locate`) and a round's
    sweep may both find the lease run out and both win it (the claim renews a lease this
    process holds), and a second rebuild would replace the first table in ``hub.tables``
    while a connection that joined between them sits at the first: its moves would be
    written to the record by one table and told to nobody at the other.  So the takeovers
    take turns, and each looks again, once its turn has come, whether the table is here."""
    async with shared._taking:
        if table in hub.tables or table in spit_live.live_tables(hub):
            return True
        if not await take(shared, table):
            return False
        await take_over(shared, hub, table)
        return True


async def _creator(shared: RedisShared, table: str) -> str | None:
    creator = await shared.redis.get(shared.key("creator", table))
    return str(creator) if creator is not None else None


async def take_over(shared: RedisShared, hub: Hub, table: str) -> None:
    """Rebuild ``table`` from its records, its lease just taken; a table whose game
    has ended (or a table whose files cannot be read) is let go again."""
    found = hub.store.table(table) or spit_restore.unended(hub.store, table)
    if isinstance(found, tuple):
        hub.log(await rebuild(shared, hub, found))
        if table in hub.tables or table in spit_live.live_tables(hub):
            return
    elif found is not None:
        hub.log(found)
    shared.held.pop(table, None)
    await shared._release(keys=[shared.key("lease", table)], args=[shared.process])
    await shared.redis.zrem(shared.key("live"), table)


async def rebuild(shared: RedisShared, hub: Hub,
                 found: tuple[TableEntry | SpitEntry, GameRecord]) -> str:
    """Rebuild a table whose lease was just taken, carrying on the clock its last owner
    published (:func:`spitemalice.server.leavers.resume_clock`); what to log."""
    entry, record = found
    if isinstance(entry, spit_restore.SpitEntry):  # a live table: no move clock
        return spit_restore.resume(hub, entry, record)
    table = entry.table
    info = await shared.redis.get(shared.key("info", table))
    said = hub.resume(entry, record, await _creator(shared, table))
    if table in hub.tables and info is not None:
        leavers.resume_clock(hub, hub.tables[table], json.loads(info).get("clock"),
                             await shared.now_ms())
    return said


async def let_go(shared: RedisShared, hub: Hub, table: str) -> None:
    """``table``'s lease was lost (this process stalled past it, and another took the
    table over): stop its bots and close its connections, which connect again."""
    shared.held.pop(table, None)
    found = hub.tables.pop(table, None)
    if found is None:
        return
    hub.log(f"table {table}: its lease ran out and another process took it over")
    if found.bots is not None:
        found.bots.cancel()
    for conn in [*(c for clients in found.clients for c in clients), *found.watchers]:
        await conn.close_moved("this table moved to another server process; connect "
                               "again")


async def renew(shared: RedisShared, hub: Hub) -> None:
    """A round's renewal: let go of the leases of tables closed here, renew the others,
    and let go of each table whose lease was lost (:func:`let_go`,
    :func:`spitemalice.server.spit_live.lost`)."""
    live = spit_live.live_tables(hub)  # Spit tables, leased as the others
    for table in [t for t in shared.held if t not in hub.tables and t not in live]:
        shared.held.pop(table)  # closed: let it go
        await shared._release(keys=[shared.key("lease", table)], args=[shared.process])
    owned = [*hub.tables, *live]
    sent = time.monotonic()
    kept = await shared._renew(keys=[shared.key("lease", t) for t in owned],
                               args=[shared.process, int(shared.lease * 1000)]) \
        if owned else []
    for table, ok in zip(owned, kept, strict=True):
        if ok:
            held_from(shared, table, sent)
        else:
            await (let_go(shared, hub, table) if table in hub.tables
                   else spit_live.lost(hub, table))


async def sweep(shared: RedisShared, hub: Hub) -> None:
    """Take over the unfinished tables whose owner's lease has run out."""
    seconds, _ = await shared.redis.time()
    live = [t for t in await shared.redis.zrangebyscore(shared.key("live"),
                                                        int(seconds) * 1000, "+inf")
            if t not in hub.tables]
    if not live:
        return
    owners = await shared.redis.mget([shared.key("lease", t) for t in live])
    for table, owner in zip(live, owners, strict=True):
        if owner is None:
            await take_here(shared, hub, table)
