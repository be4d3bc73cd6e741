"""The quick-play queues in Redis (``spitemalice serve --redis URL``): several server
processes share them, so two people at different processes are seated together.

Each queue is a sorted set (``PREFIX:qp:q:RULESET/PLAYERS``: entry ids by arrival, Redis's
own clock); each entry's data (name, address, process) is a key of its own
(``PREFIX:qp:e:ID``) that expires :data:`ENTRY_MS` after its process last renewed it, so the
entries of a process that died leave the queues by themselves.  Matching, taking at the end
of a wait and cancelling are Lua scripts (:data:`ENQUEUE`, :data:`TAKE`, :data:`CANCEL`): one
step each, so two processes never hand out one waiting person twice.

The process that forms a group opens the table (it owns it) and tells its own people at
once; a person waiting at another process is told through ``PREFIX:qp:r:ID``, which that
process reads every :data:`POLL_SECONDS` while the person waits (:meth:`RedisQueues.poll`),
renewing the entry at the same time.  The ``matched`` message's link is then answered, at
the other process, with ``moved`` to the owner, as every join of another process's table is.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from spitemalice.server.queues import Entry, Queues

if TYPE_CHECKING:
    from spitemalice.server.redis_shared import RedisShared
    from spitemalice.server.seating import Connection

ENTRY_MS = 5000
"""How long a waiting entry lasts unrenewed (its process renews it every poll)."""

RESULT_MS = 60_000
"""How long a ``matched`` message for another process's person is kept."""

POLL_SECONDS = 0.25
"""How often a process looks for its waiting people's ``matched`` messages."""

_LIVE = """
local function live(queue, prefix, first, most)
  local found = {}
  if first then found[1] = first end
  for _, id in ipairs(redis.call('ZRANGE', queue, 0, -1)) do
    if #found >= most then break end
    if id ~= first then
      if redis.call('EXISTS', prefix .. id) == 1 then found[#found + 1] = id
      else redis.call('ZREM', queue, id) end
    end
  end
  return found
end
local function pop(queue, prefix, ids)
  local out = {}
  for _, id in ipairs(ids) do
    out[#out + 1] = id
    out[#out + 1] = redis.call('GET', prefix .. id) or '{}'
    redis.call('ZREM', queue, id)
    redis.call('DEL', prefix .. id)
  end
  return out
end
"""

ENQUEUE = _LIVE + """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('SET', ARGV[2] .. ARGV[1], ARGV[3], 'PX', ARGV[4])
redis.call('ZADD', KEYS[1], now, ARGV[1])
local seats = tonumber(ARGV[5])
local found = live(KEYS[1], ARGV[2], nil, seats)
if #found < seats then return {} end
return pop(KEYS[1], ARGV[2], found)
"""
"""Add an entry and, when enough wait, take the group.  KEYS: the queue; ARGV: the entry's
id, the entries' key prefix, its data, how long it lasts (ms), the seats.  Returns id, data,
id, data... of the group taken (the longest waiting first), or nothing."""

TAKE = _LIVE + """
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) then return {} end
if redis.call('EXISTS', ARGV[2] .. ARGV[1]) == 0 then
  redis.call('ZREM', KEYS[1], ARGV[1]); return {} end
return pop(KEYS[1], ARGV[2], live(KEYS[1], ARGV[2], ARGV[1], tonumber(ARGV[3])))
"""
"""An entry's wait is over: take it and up to seats - 1 others.  KEYS: the queue; ARGV: the
entry's id, the entries' key prefix, the seats.  Returns id, data... (it first), or nothing
when it is gone (seated or cancelled)."""

CANCEL = """
local removed = redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('DEL', ARGV[2] .. ARGV[1])
return removed
"""
"""Take an entry out.  KEYS: the queue; ARGV: its id, the entries' key prefix.  Returns 1
when it was there."""


class RedisQueues(Queues):
    """The quick-play queues of the site whose Redis ``shared`` uses."""

    poll_seconds: float | None = POLL_SECONDS

    def __init__(self, shared: RedisShared) -> None:
        self.shared = shared
        self.redis: Any = shared.redis
        self.mine: dict[str, Connection | None] = {}
        """This process's waiting entries, with their connections."""
        self._enqueue = self.redis.register_script(ENQUEUE)
        self._take = self.redis.register_script(TAKE)
        self._cancel = self.redis.register_script(CANCEL)

    def _queue(self, key: str) -> str:
        return self.shared.key("qp", "q", key)

    @property
    def _entries(self) -> str:
        return self.shared.key("qp", "e", "")

    def _group(self, found: list[str]) -> list[Entry]:
        group = []
        for entry_id, data in zip(found[::2], found[1::2], strict=True):
            info = json.loads(data)
            group.append(Entry(entry_id, str(info.get("name", "Player")),
                               str(info.get("address", "unknown")), self.mine.pop(entry_id, None)))
        return group

    async def enqueue(self, key: str, entry: Entry, seats: int) -> list[Entry]:
        self.mine[entry.id] = entry.conn
        data = json.dumps({"name": entry.name, "address": entry.address,
                           "process": self.shared.process})
        async with self.shared._answering():
            found = await self._enqueue(keys=[self._queue(key)], args=[
                entry.id, self._entries, data, ENTRY_MS, seats])
        return self._group(found)

    async def take(self, key: str, entry_id: str, seats: int) -> list[Entry]:
        async with self.shared._answering():
            found = await self._take(keys=[self._queue(key)],
                                     args=[entry_id, self._entries, seats])
        return self._group(found)

    async def cancel(self, key: str, entry_id: str) -> bool:
        self.mine.pop(entry_id, None)
        async with self.shared._answering():
            return bool(await self._cancel(keys=[self._queue(key)],
                                           args=[entry_id, self._entries]))

    async def count(self, key: str) -> int:
        async with self.shared._answering():
            return int(await self.redis.zcard(self._queue(key)))

    async def deliver(self, entry: Entry, message: dict[str, Any]) -> None:
        async with self.shared._answering():
            await self.redis.set(self.shared.key("qp", "r", entry.id), json.dumps(message),
                                 px=RESULT_MS)

    async def poll(self, entry_id: str) -> dict[str, Any] | None:
        result = self.shared.key("qp", "r", entry_id)
        pipe = self.redis.pipeline(transaction=True)
        pipe.get(result)
        pipe.delete(result)
        pipe.pexpire(self._entries + entry_id, ENTRY_MS)
        async with self.shared._answering():
            found, _, _ = await pipe.execute()
        if found is None:
            return None
        self.mine.pop(entry_id, None)
        return dict(json.loads(found))


__all__ = ["CANCEL", "ENQUEUE", "ENTRY_MS", "POLL_SECONDS", "RESULT_MS", "TAKE", "RedisQueues"]
