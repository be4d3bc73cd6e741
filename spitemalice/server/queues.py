"""The quick-play queues (:mod:`spitemalice.server.quickplay`) behind one interface.

A queue is named by its key (``RULESET/PLAYERS``) and holds :class:`Entry` values, the
longest waiting first.  Every operation is atomic: an entry is handed out (in a group to
seat) at most once, so two people are never given one person's seat, and a cancelled entry
is never seated.

* :class:`LocalQueues`: this process's memory (``spitemalice serve``, one process);
* :class:`~spitemalice.server.redis_queues.RedisQueues`: a site's Redis (``spitemalice serve
  --redis URL``), shared by its processes.
"""

from __future__ import annotations

import abc
from collections import OrderedDict
from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from spitemalice.server.seating import Connection


@attrs.frozen
class Entry:
    """One person waiting: ``id`` (random hex), the seat ``name`` asked for, the client's
    ``address`` (the quotas count by it) and its connection (``None`` when it is another
    process's)."""

    id: str
    name: str
    address: str
    conn: Connection | None = attrs.field(default=None, eq=False)


class Queues(abc.ABC):
    """The quick-play queues of a site.

    Attributes:
        poll_seconds: how often a waiting person's process asks :meth:`poll` for a
            ``matched`` message another process left (``None``: never; one process).
    """

    poll_seconds: float | None = None

    async def deliver(self, entry: Entry, message: dict[str, Any]) -> None:  # noqa: B027
        """Leave ``message`` for ``entry``, a person waiting at another process (one
        process: there is none)."""

    async def poll(self, entry_id: str) -> dict[str, Any] | None:
        """The message left for entry ``entry_id`` by another process (taken), or ``None``;
        it also renews the entry (its client is still there)."""
        return None

    @abc.abstractmethod
    async def enqueue(self, key: str, entry: Entry, seats: int) -> list[Entry]:
        """Add ``entry`` to queue ``key``; when ``seats`` people then wait there, take the
        ``seats`` longest waiting out and return them (the group to seat now), else ``[]``.
        """

    @abc.abstractmethod
    async def take(self, key: str, entry_id: str, seats: int) -> list[Entry]:
        """The wait of entry ``entry_id`` is over: take it and up to ``seats - 1`` others
        of queue ``key`` out (the longest waiting first) and return them, it first; ``[]``
        when it is no longer there (seated or cancelled)."""

    @abc.abstractmethod
    async def cancel(self, key: str, entry_id: str) -> bool:
        """Take entry ``entry_id`` out of queue ``key``; whether it was there."""

    @abc.abstractmethod
    async def count(self, key: str) -> int:
        """How many people wait in queue ``key``."""


class LocalQueues(Queues):
    """The queues in this process's memory (the event loop runs one coroutine at a time,
    and no method awaits between reading and changing a queue, so each is atomic)."""

    def __init__(self) -> None:
        self.queues: dict[str, OrderedDict[str, Entry]] = {}

    async def enqueue(self, key: str, entry: Entry, seats: int) -> list[Entry]:
        queue = self.queues.setdefault(key, OrderedDict())
        queue[entry.id] = entry
        if len(queue) < seats:
            return []
        return self._pop(key, list(queue)[:seats])

    async def take(self, key: str, entry_id: str, seats: int) -> list[Entry]:
        queue = self.queues.get(key, OrderedDict())
        if entry_id not in queue:
            return []
        others = [e for e in queue if e != entry_id][:seats - 1]
        return self._pop(key, [entry_id, *others])

    async def cancel(self, key: str, entry_id: str) -> bool:
        queue = self.queues.get(key, OrderedDict())
        found = queue.pop(entry_id, None) is not None
        if not queue:
            self.queues.pop(key, None)
        return found

    async def count(self, key: str) -> int:
        return len(self.queues.get(key, ()))

    def _pop(self, key: str, ids: list[str]) -> list[Entry]:
        queue = self.queues[key]
        taken = [queue.pop(i) for i in ids]
        if not queue:
            self.queues.pop(key)
        return taken


__all__ = ["Entry", "LocalQueues", "Queues"]
