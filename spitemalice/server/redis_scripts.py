"""The Lua scripts :class:`~spitemalice.server.redis_shared.RedisShared` runs in Redis: each
reads and changes several keys in one step, so two server processes never both take the last
table of a quota, the last token of a bucket, or one table's lease.

Every time is Redis's own clock (``TIME``), so the processes' clocks need not agree.  The
keys and arguments of each are listed below it.
"""

from __future__ import annotations

ADMIT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
local all = redis.call('ZCARD', KEYS[1])
if all >= tonumber(ARGV[1]) then return {1, all} end
local mine = redis.call('ZCARD', KEYS[2])
if mine >= tonumber(ARGV[2]) then return {2, mine} end
if not redis.call('SET', KEYS[3], ARGV[4], 'NX', 'PX', ARGV[5]) then return {3, 0} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[7])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[3]), ARGV[7])
redis.call('SET', KEYS[4], ARGV[6], 'PX', ARGV[3])
return {0, 0}
"""
"""Count a new table against the site's and its client's quotas, and lease it.  KEYS: the
site's unfinished tables, the client's, the table's lease, its creator (sorted sets scored
by expiry, strings); ARGV: the site's and the client's quota, how long an entry holds (ms),
this process, the lease (ms), the client's address, the table.  Returns ``{0, 0}`` when
admitted, ``{1, count}`` (the site is full), ``{2, count}`` (the client's quota), ``{3, 0}``
(the id is taken)."""

BUCKET = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'last')
local tokens = tonumber(saved[1]) or burst
local last = tonumber(saved[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - last) * rate)
local allowed = 0
if tokens >= 1 then tokens = tokens - 1; allowed = 1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'last', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return allowed
"""
"""One address's lobby token bucket.  KEYS: its hash (tokens, last); ARGV: the rate a
second, the burst.  Returns 1 when one more message may pass (it is counted), else 0."""

CLAIM = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""
"""Take a table's lease when nobody holds it (or renew it when this process does).  KEYS:
the lease; ARGV: this process, the lease (ms).  Returns 1 when held, else 0."""

RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2]); kept[i] = 1
  else kept[i] = 0 end
end
return kept
"""
"""Renew every lease of ``KEYS`` that this process (``ARGV[1]``) holds, for ``ARGV[2]``
ms; returns 1 or 0 for each."""

RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
"""Let a lease go (``KEYS[1]``), if this process (``ARGV[1]``) holds it."""


__all__ = ["ADMIT", "BUCKET", "CLAIM", "RELEASE", "RENEW"]
