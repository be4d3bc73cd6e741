"""What the owner of tables writes to Redis every lease round
(:class:`~spitemalice.server.redis_shared.RedisShared`): its own address, and per table
it holds whether it is live (the sorted sets the quotas count), its listing for the lobby,
and its facts (``PREFIX:info:ID``: public, over, game, the listing, and the move clock
running there, which a process that takes the table over carries on,
:func:`spitemalice.server.leavers.clock_info`)."""

from __future__ import annotations

import json
import time
from typing import TYPE_CHECKING

from spitemalice.server import leavers, listing, spit_live

if TYPE_CHECKING:
    from spitemalice.server.redis_shared import RedisShared
    from spitemalice.server.tables import Hub


async def publish(shared: RedisShared, hub: Hub) -> None:
    """One round's writes for ``hub``'s tables, in one pipeline; every time in Redis's clock
    (milliseconds), every key expiring unrenewed after three leases."""
    hold = shared.hold_ms
    now = await shared.now_ms()
    until = now + hold
    pipe = shared.redis.pipeline(transaction=False)
    pipe.set(shared.key("proc", shared.process), shared.socket, px=hold)
    for table in hub.tables.values():
        live = not table.session.is_over
        mine = shared.key("mine", table.creator) if table.creator else None
        if live:
            pipe.zadd(shared.key("live"), {table.id: until})
            if mine:
                pipe.zadd(mine, {table.id: until})
                pipe.pexpire(shared.key("creator", table.id), hold)
        else:
            pipe.zrem(shared.key("live"), table.id)
            if mine:
                pipe.zrem(mine, table.id)
        created = shared.created.setdefault(table.id, time.time())
        info = {"public": table.entry.public, "over": not live, "game": table.game,
                "listed": listing.listed(table, shared.relay.remote_count(table.id)),
                "clock": leavers.clock_info(table, now)}
        pipe.set(shared.key("info", table.id), json.dumps(info), px=hold)
        if table.entry.public and live:
            pipe.zadd(shared.key("listed"), {table.id: created})
        else:
            pipe.zrem(shared.key("listed"), table.id)
    for spit in spit_live.live_tables(hub).values():  # counted, found; never listed
        keys = [shared.key("live")] + ([shared.key("mine", spit.creator)] if spit.creator else [])
        for key in keys:
            pipe.zrem(key, spit.id) if spit.is_over else pipe.zadd(key, {spit.id: until})
        info = {"public": False, "over": spit.is_over, "game": spit.game, "live": True}
        pipe.set(shared.key("info", spit.id), json.dumps(info), px=hold)
    pipe.zremrangebyscore(shared.key("live"), "-inf", now)
    await pipe.execute()

