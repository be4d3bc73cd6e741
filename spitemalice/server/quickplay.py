"""Quick play (issue 36 §2): "play now" seats a person at a new table of the chosen rule set
with whoever else is waiting for the same rule set and seat count, or with a bot once a
stated wait has passed.

* A client sends ``quickplay`` (``ruleset``, an installed turn-based rule set; ``players``,
  a seat count the rule set allows, default its first; ``name``, the seat's name, default
  ``Player``).  It is answered ``queued``: how long it may wait (``wait``, seconds), which
  bot takes the empty seats then (``bot``), and how many people wait in that queue.
* When as many people wait in one queue as the table has seats, they are seated together
  at once; when the first of them has waited ``wait`` seconds, the table is opened with
  everyone then waiting in that queue and bots (:data:`BOT`) in the other seats.  Each
  person is sent ``matched``: the table, their seat, its token and link (then ``join``
  with them, on this connection or from the link's page), and the table's seats.
* ``unqueue`` leaves the queue (answered ``unqueued``); a connection that closes leaves it
  too (:func:`leave`), so the queue holds only people whose page is open.
* The table opened counts against the quotas of the person who waited longest
  (:func:`~spitemalice.server.shared.open_table`); a refusal is sent to each person of the
  group, who is out of the queue.  ``quickplay`` counts in the per-address lobby rate.

The queues are behind :class:`~spitemalice.server.queues.Queues`
(:class:`~spitemalice.server.queues.LocalQueues`: this process's memory;
:class:`~spitemalice.server.redis_queues.RedisQueues`: a site's Redis, where a group may
hold people waiting at several processes: the process that forms it opens the table).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import attrs

from spitemalice import guards, wording
from spitemalice.errors import OutputError, PlayError, ProtocolError
from spitemalice.play.session import HUMAN, Session
from spitemalice.rules.loader import load
from spitemalice.rules.registry import installed
from spitemalice.server import lobby, standings
from spitemalice.server.protocol import Message, error
from spitemalice.server.queues import Entry, LocalQueues, Queues
from spitemalice.server.seating import Connection, Table
from spitemalice.server.shared import open_table
from spitemalice.server.store import SeatEntry, TableEntry, token_hash

if TYPE_CHECKING:
    from spitemalice.server.tables import Hub

WAIT_SECONDS = 20.0
"""How long a person waits for others before bots take the empty seats (``spitemalice serve
--quickplay-wait``)."""

MAX_WAIT_SECONDS = 50.0
"""The longest wait a server may state: below :data:`~spitemalice.limits.JOIN_SECONDS`, so a
waiting connection (which sits at no seat) is matched before the server closes it."""

BOT = "heuristic"
"""The bot that takes the seats nobody came for."""

DEFAULT_NAME = "Player"
"""A waiting person's seat name when ``quickplay`` gives none."""

FOLLOW_SECONDS = 10.0
"""How long a process looks for the ``matched`` message of a person another process took
from the shared queues at the moment their wait ended or they left (opening the table
there takes well under this)."""


@attrs.define(eq=False)
class Desk:
    """One hub's quick play: its queues, who waits on this process (by connection: the
    queue, the entry's id and its timer), the wait and the bot."""

    queues: Queues
    wait: float = WAIT_SECONDS
    bot: str = BOT
    waiting: dict[Connection, tuple[str, str, asyncio.Task[None]]] = attrs.field(factory=dict)
    following: set[asyncio.Task[None]] = attrs.field(factory=set)
    """Tasks passing on the ``matched`` of people who left a queue just as another process
    seated them (:func:`_drop`)."""


_DESKS: weakref.WeakKeyDictionary[Any, Desk] = weakref.WeakKeyDictionary()


def desk(hub: Hub) -> Desk:
    """``hub``'s quick-play desk (made with :class:`LocalQueues` and the defaults when first
    asked; :func:`configure` changes them)."""
    found = _DESKS.get(hub)
    if found is None:
        found = _DESKS[hub] = Desk(LocalQueues())
    return found


def configure(hub: Hub, *, wait: float = WAIT_SECONDS, queues: Queues | None = None) -> None:
    """Set ``hub``'s quick-play wait (seconds, 0 to :data:`MAX_WAIT_SECONDS`) and its
    queues (default: this process's memory).

    Raises:
        SpiteMaliceError: a wait that is not a number of seconds in that range.
    """
    chosen = desk(hub)
    chosen.wait = guards.check_real(wait, "quickplay_wait", 0.0, MAX_WAIT_SECONDS,
                                    what="a number of seconds")
    if queues is not None:
        chosen.queues = queues


def waiting(hub: Hub, conn: Connection) -> bool:
    """Whether ``conn`` waits in a quick-play queue of ``hub``."""
    found = _DESKS.get(hub)
    return found is not None and conn in found.waiting


def _request(message: Message) -> tuple[str, int]:
    """The rule set and seat count a ``quickplay`` message asks for.

    Raises:
        ProtocolError: ``bad-rules``: a rule set not installed or not turn-based, or a seat
            count it does not allow; the message names the choices.
    """
    rulesets = {r["name"]: r["players"] for r in lobby.catalog()["rulesets"]}
    name = message.get("ruleset")
    if name not in rulesets:
        live = name in {i.name for i in installed() if i.kind == "ruleset"}
        what = ("is played live, its seats moving at once (open /spit to play it)" if live
                else "is not an installed rule set")
        raise ProtocolError("bad-rules", f"quickplay.ruleset: {wording.shown(name)} {what}; "
                            f"quick play seats a turn-based one: {', '.join(rulesets)}")
    counts = rulesets[name]
    players = message.get("players", counts[0])
    if players not in counts:
        *most, last = map(str, counts)
        either = f"{', '.join(most)} or {last}" if most else last
        raise ProtocolError("bad-rules", f"quickplay.players: {name} is played by {either} "
                            f"players, not {players}")
    return name, players


async def on_quickplay(hub: Hub, conn: Connection, message: Message) -> None:
    """Answer ``quickplay``: wait in the queue of its rule set and seat count (``queued``),
    or be seated at once with those waiting there (``matched``).

    Raises:
        ProtocolError: ``bad-rules`` (:func:`_request`); ``already-queued``: this
            connection waits already; ``already-joined``: it sits at a seat or watches.
    """
    here = desk(hub)
    if conn in here.waiting:
        key = here.waiting[conn][0]
        raise ProtocolError("already-queued", f"this connection waits for {key} already; "
                            'send {"type": "unqueue"} first to choose again')
    if conn.table is not None or conn.watching is not None or conn.live is not None:
        raise ProtocolError("already-joined", "this connection sits at a table or watches "
                            "one; open another connection for quick play")
    ruleset, players = _request(message)
    key = f"{ruleset}/{players}"
    entry = Entry(secrets.token_hex(8), message.get("name", DEFAULT_NAME), conn.address, conn)
    group = await here.queues.enqueue(key, entry, players)
    if group:
        return await _seat(hub, ruleset, players, group)
    timer = asyncio.create_task(_timer(hub, conn, key, entry.id, ruleset, players))
    here.waiting[conn] = (key, entry.id, timer)
    await conn.send({"type": "queued", "ruleset": ruleset, "players": players,
                     "wait": here.wait, "bot": here.bot,
                     "waiting": await here.queues.count(key)})


async def on_unqueue(hub: Hub, conn: Connection, message: Message) -> None:
    """Answer ``unqueue``: leave the quick-play queue (``unqueued``).

    Raises:
        ProtocolError: ``not-queued``: this connection waits in no queue (or was just
            matched: its ``matched`` message is on its way).
    """
    key = await _drop(hub, conn, follow=True)
    if key is None:
        raise ProtocolError("not-queued", "this connection waits in no quick-play queue; "
                            'send {"type": "quickplay", "ruleset": ...} to wait in one')
    ruleset, players = key.rsplit("/", 1)
    await conn.send({"type": "unqueued", "ruleset": ruleset, "players": int(players)})


async def leave(hub: Hub, conn: Connection) -> None:
    """``conn`` closed: it leaves any quick-play queue it waited in (with Redis away, its
    entry expires by itself)."""
    with contextlib.suppress(ProtocolError):
        await _drop(hub, conn)


async def close(hub: Hub) -> None:
    """Stop every quick-play timer of ``hub`` (the server stops)."""
    found = _DESKS.get(hub)
    if found is None:
        return
    timers = [timer for _, _, timer in found.waiting.values()] + list(found.following)
    found.waiting.clear()
    found.following.clear()
    for timer in timers:
        timer.cancel()
    await asyncio.gather(*timers, return_exceptions=True)


async def _drop(hub: Hub, conn: Connection, *, follow: bool = False) -> str | None:
    """Take ``conn`` out of its queue and stop its timer; the queue's key, or ``None``
    when it waited in none (or its group was being seated).

    With ``follow``, an entry already gone from a site's shared queues (another process
    took it into a group a moment before) is followed: its ``matched`` message, left for
    this process to find, is still passed on when it comes (:func:`_follow`), as the
    ``not-queued`` answer promises.  Without it (the connection closed) nobody is told."""
    found = _DESKS.get(hub)
    if found is None or conn not in found.waiting:
        return None
    key, entry_id, timer = found.waiting.pop(conn)
    if timer is not asyncio.current_task():
        timer.cancel()
    if await found.queues.cancel(key, entry_id):
        return key
    if follow and found.queues.poll_seconds is not None:
        task = asyncio.create_task(_follow(hub, conn, entry_id))
        found.following.add(task)
        task.add_done_callback(found.following.discard)
    return None


async def _timer(hub: Hub, conn: Connection, key: str, entry_id: str, ruleset: str,
                 players: int) -> None:
    """After the wait, seat the entry with whoever waits in its queue then, and bots;
    meanwhile (several processes) look for a group another process seated it in."""
    try:
        await _wait_out(hub, conn, key, entry_id, ruleset, players)
    except ProtocolError as problem:  # the site's Redis did not answer
        desk(hub).waiting.pop(conn, None)
        await conn.send(error(problem.code, str(problem)))


async def _wait_out(hub: Hub, conn: Connection, key: str, entry_id: str, ruleset: str,
                    players: int) -> None:
    here = desk(hub)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + here.wait
    step = here.queues.poll_seconds
    while (left := deadline - loop.time()) > 0:
        await asyncio.sleep(left if step is None else min(left, step))
        if step is not None and await _told(hub, conn, entry_id):
            return
    group = await here.queues.take(key, entry_id, players)
    if group:
        await _seat(hub, ruleset, players, group)
        return
    await _follow(hub, conn, entry_id)


async def _follow(hub: Hub, conn: Connection, entry_id: str) -> None:
    """Entry ``entry_id`` left the shared queues without this process seating it: another
    process seated it at the last moment, so pass on the ``matched`` it leaves, looking for
    up to :data:`FOLLOW_SECONDS` (one process: nothing to look for)."""
    step = desk(hub).queues.poll_seconds
    for _ in range(int(FOLLOW_SECONDS / step) if step else 0):
        if await _told(hub, conn, entry_id):
            return
        await asyncio.sleep(step or 0)


async def _told(hub: Hub, conn: Connection, entry_id: str) -> bool:
    """Whether another process seated ``conn``'s entry: its ``matched`` is sent on."""
    message = await desk(hub).queues.poll(entry_id)
    if message is None:
        return False
    desk(hub).waiting.pop(conn, None)
    await conn.send(message)
    return True


async def _seat(hub: Hub, ruleset: str, players: int, group: Sequence[Entry]) -> None:
    """Open a table of ``ruleset`` for ``group`` (the longest waiting first), bots in the
    seats left, and send each person ``matched``; a refusal (quotas, the records folder)
    is sent to each of them instead."""
    here = desk(hub)
    for entry in group:  # out of the queue: their timers stop
        conn = entry.conn
        if conn is not None and conn in here.waiting:
            _, _, timer = here.waiting.pop(conn)
            if timer is not asyncio.current_task():
                timer.cancel()
    try:
        table, tokens = await _open(hub, ruleset, players, group)
    except ProtocolError as problem:
        for entry in group:
            await _tell(here, entry, error(problem.code, str(problem)))
        return
    made = lobby.created(table.entry, tokens)
    for seat, entry in enumerate(group):
        token = tokens[seat]
        await _tell(here, entry, {"type": "matched", "table": table.id, "seat": seat,
                            "token": token, "link": made["seats"][seat]["link"],
                            "ruleset": ruleset, "seats": table.seat_list(),
                            "bots": players - len(group), "watch": made["watch"]})


async def _tell(here: Desk, entry: Entry, message: dict[str, Any]) -> None:
    """Send ``message`` to ``entry``'s person, here or at another process."""
    if entry.conn is not None:
        await entry.conn.send(message)
    else:
        await here.queues.deliver(entry, message)


async def _open(hub: Hub, ruleset: str, players: int,
                group: Sequence[Entry]) -> tuple[Table, list[str | None]]:
    """A new table: ``group``'s people in the first seats, :data:`BOT` bots after them.

    Raises:
        ProtocolError: ``server-full`` or ``too-many-tables`` (counted against the first
            person's address), or ``server-error`` (the records folder cannot be written).
    """
    here = desk(hub)
    table_id = secrets.token_hex(8)
    await open_table(hub, table_id, group[0].address)
    kinds = [HUMAN] * len(group) + [here.bot] * (players - len(group))
    names = [e.name for e in group] + [f"{here.bot} bot" + (f" {n + 1}" if players -
                                                            len(group) > 1 else "")
                                       for n in range(players - len(group))]
    tokens: list[str | None] = [secrets.token_hex(16) for _ in group]
    tokens += [None] * (players - len(group))
    entry = TableEntry(table_id, 1, tuple(
        SeatEntry(name, kind, None if token is None else token_hash(token))
        for name, kind, token in zip(names, kinds, tokens, strict=True)))
    try:
        rules = load(ruleset, (), {"players": players})
        session = Session(rules, kinds, names=names,
                          dealer=standings.first_dealer(entry, players), commit=True,
                          record_path=hub.store.record_path(table_id, 1))
        hub.store.save(entry)
    except (PlayError, OutputError) as problem:
        hub.log(f"a quick-play table was not opened: {problem}")
        raise ProtocolError("server-error", f"the server cannot keep a new table: "
                            f"{problem}") from None
    table = Table(entry, session, group[0].address, [set() for _ in kinds])
    hub.tables[table_id] = table
    return table, tokens


HANDLERS: dict[str, Callable[[Hub, Connection, Message], Awaitable[None]]] = {
    "quickplay": on_quickplay,
    "unqueue": on_unqueue,
}
"""The quick-play messages' handlers (part of :data:`spitemalice.server.tables.HANDLERS`)."""

__all__ = ["BOT", "DEFAULT_NAME", "HANDLERS", "MAX_WAIT_SECONDS", "WAIT_SECONDS", "Desk",
           "close", "configure", "desk", "leave", "on_quickplay", "on_unqueue", "waiting"]
