"""Leavers (issue 36 §2): a table's move clock, and a bot for a seat whose person is gone.

A ``create`` message may give a table a move clock and a grace for leavers (the table file
keeps them, :class:`~spitemalice.server.store.Leavers`):

* ``clock``: seconds per move (:data:`~spitemalice.server.protocol.CLOCK_SECONDS`; absent,
  the default: no clock).  The clock runs for a person's seat on turn from the moment the
  position is announced (or, at a table nobody has joined yet, from the first join) and
  starts again at each move; a seat that has not moved when it runs out is taken over,
  ``"out of time"``.
* ``grace``: seconds a person's seat may be without a connection
  (:data:`~spitemalice.server.protocol.GRACE_SECONDS`); past it the seat is taken over,
  ``"left"``.  A seat is away from the moment its last connection closes; a seat whose
  person has never sat down is not waited for by the grace (only by the clock), except
  that a process that first sees a game already under way (after a restart, or taking the
  table over from another process) counts every unconnected seat that has moved as away
  from then.  With ``clock`` and no ``grace`` the grace is :data:`DEFAULT_GRACE`.
* ``takeover``: the bot that takes a seat over (default :data:`DEFAULT_PLAYER`, the
  built-in heuristic bot).

A takeover lasts to the end of the game: the person may come back with the seat's link and
watch the bot play the seat (from the seat's own view), but may not move, take back or ask
for a hint (``taken-over``); the table's next game (a rematch, a match's next game) is the
person's again.  Giving the seat back mid-game would let a person leave a hard decision to
the bot, or stop the clock by leaving, and make the record harder to read.  The takeover is
written to the game's record first (:attr:`~spitemalice.formats.records.record.GameRecord.
takeovers`: the seat, the moves made before it, the bot, why), then told to every seat and
spectator (a ``takeover`` message; ``seats`` lists it per seat), then the bot plays.

With several processes (``serve --redis``) a process that takes a table over rebuilds it
from its record, which holds every takeover (none fires twice: each fires under the table's
lock, only while this process holds the table's lease, only if the position and the seat
are still the ones it was armed for).  The owner publishes its running clock with the
table's other facts on every lease round (:func:`clock_info`), in Redis's own clock so that
processes on other machines agree, and the new owner carries it on (:func:`resume_clock`):
the seat on turn keeps the time it had left, not a whole move's time again.  Only a move
made after the owner's last round (less than a lease before it died) restarts that seat's
clock, from the first join or move the new owner sees.  A whole site stopped and started
again gives the seat on turn a whole move's time: nobody could move while it was down.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import attrs

from spitemalice.bots.players import check_player
from spitemalice.errors import PlayError, ProtocolError, SpiteMaliceError
from spitemalice.formats.records.record import Takeover
from spitemalice.play.session import HUMAN
from spitemalice.server import messages
from spitemalice.server.protocol import Message
from spitemalice.server.reactions import on_react, tell
from spitemalice.server.seating import Connection, Table
from spitemalice.server.store import Leavers, TableEntry
from spitemalice.wording import a_or_an

if TYPE_CHECKING:
    from spitemalice.rules.book import RuleBook
    from spitemalice.server.tables import Hub

DEFAULT_GRACE = 60
"""Seconds a seat may be away at a table with a clock and no ``grace`` given."""

DEFAULT_PLAYER = "heuristic"
"""The bot that takes a seat over when ``create`` names none."""

SECOND = 1.0
"""Real seconds per second of a clock or a grace (the tests shorten it)."""

_TASKS: set[asyncio.Task[None]] = set()
"""The clocks and graces running (held here, so none is collected before it runs)."""


@attrs.define(eq=False)
class Keeper:
    """One table's clock and the seats away from it (in this process's memory)."""

    turn: tuple[int, int, int] | None = None
    """(game, moves made, seat on turn) the clock runs for, or ``None``."""
    deadline: float = 0.0
    """When the clock runs out (the event loop's time)."""
    timer: asyncio.Task[None] | None = None
    away: dict[int, float] = attrs.field(factory=dict)
    """Per seat away, since when (the event loop's time)."""


_KEEPERS: weakref.WeakKeyDictionary[Table, Keeper] = weakref.WeakKeyDictionary()


def table_options(entry: TableEntry, message: Message, rules: RuleBook) -> TableEntry:
    """``entry`` with a ``create`` message's ``clock``, ``grace`` and ``takeover``.

    Raises:
        ProtocolError: ``bad-rules``: ``takeover`` without ``clock`` or ``grace``, a
            ``takeover`` that is no bot (the message lists the bots), or one that cannot
            play ``rules`` (the ``learned`` bot plays one rule set: it would stop the table
            at its first move).
    """
    clock, grace, player = (message.get(key) for key in ("clock", "grace", "takeover"))
    if clock is None and grace is None:
        if player is not None:
            raise ProtocolError("bad-rules", "create.takeover: a bot takes a seat over only "
                                "at a table with a clock or a grace; give clock (seconds per "
                                "move) or grace (seconds away) too, or leave takeover out")
        return entry
    player = DEFAULT_PLAYER if player is None else player
    try:
        check_player(player, rules)
    except SpiteMaliceError as problem:
        raise ProtocolError("bad-rules", f"create.takeover: {problem}") from None
    grace = DEFAULT_GRACE if grace is None else grace
    return attrs.evolve(entry, leavers=Leavers(clock, grace, player))


def _keeper(table: Table) -> Keeper:
    """``table``'s keeper; made at the first contact, when every seat of a person with no
    connection that has moved in the game so far counts as away from now."""
    keeper = _KEEPERS.get(table)
    if keeper is None:
        keeper = _KEEPERS[table] = Keeper()
        moved = {played.seat for played in table.session.history}
        now = asyncio.get_running_loop().time()
        for seat in _people(table):
            if not table.clients[seat] and seat in moved:
                keeper.away[seat] = now
    return keeper


def _people(table: Table) -> list[int]:
    """The seats people play now (a person's and not taken over)."""
    session = table.session
    return [seat for seat, entry in enumerate(table.entry.seats)
            if entry.player == HUMAN and session.taken_over(seat) is None]


def arm_clock(hub: Hub, table: Table) -> None:
    """A position is about to be told at ``table`` (a move, an undo, a new game, a join; the
    caller holds its lock): start the clock for a person's seat on turn if it does not run
    for this position already, and the graces of the seats away."""
    rules = table.entry.leavers
    if rules is None:
        return
    known = table in _KEEPERS
    keeper = _keeper(table)
    for seat in [s for s in keeper.away if table.clients[s]]:
        del keeper.away[seat]  # came back
    if not known:
        for seat, since in keeper.away.items():
            _later(_away(hub, table, seat, since), rules.grace)
    session = table.session
    if rules.clock is None:
        return
    if session.is_over or session.bot_on_turn:
        _stop(keeper)
        return
    turn = (table.game, len(session.history), session.on_turn)
    if keeper.turn != turn:
        _stop(keeper)
        keeper.turn = turn
        keeper.deadline = asyncio.get_running_loop().time() + rules.clock * SECOND
        keeper.timer = _later(_out_of_time(hub, table, turn), rules.clock)


def clock_info(table: Table, now_ms: int) -> dict[str, Any] | None:
    """The clock running at ``table``, for another process to carry on: ``turn``, the
    position it runs for (game, moves made, seat on turn), and ``until_ms``, when it runs
    out in the clock ``now_ms`` reads (milliseconds; Redis's clock); ``None`` when no clock
    runs (no person on turn, no clock at this table)."""
    keeper = _KEEPERS.get(table)
    if keeper is None or keeper.turn is None:
        return None
    left = keeper.deadline - asyncio.get_running_loop().time()
    return {"turn": list(keeper.turn), "until_ms": now_ms + max(0, round(left * 1000))}


def resume_clock(hub: Hub, table: Table, info: Any, now_ms: int) -> None:
    """Carry on the clock the previous owner of ``table`` ran (``info``, what its
    :func:`clock_info` published, or ``None``; ``now_ms``: the same clock now), just after
    this process rebuilt the table from its record.  The seat on turn keeps the time it
    had left (none, if it ran out meanwhile: the takeover is at once); a clock published for
    another position, or none, leaves the clock to start at the first join or move."""
    rules, session = table.entry.leavers, table.session
    turn = (table.game, len(session.history), session.on_turn)
    if rules is None or rules.clock is None or not isinstance(info, dict) \
            or info.get("turn") != list(turn) or not isinstance(info.get("until_ms"), int):
        return
    arm_clock(hub, table)  # this process's first contact: the graces of the seats away too
    keeper = _keeper(table)
    if keeper.turn != turn:
        return  # a bot on turn, or the game over
    left = max(0.0, (info["until_ms"] - now_ms) / 1000)
    _stop(keeper)
    keeper.turn = turn
    keeper.deadline = asyncio.get_running_loop().time() + left
    keeper.timer = _later(_out_of_time(hub, table, turn), left / SECOND)


def _stop(keeper: Keeper) -> None:
    if keeper.timer is not None:
        keeper.timer.cancel()
    keeper.timer, keeper.turn = None, None


def _later(work: Coroutine[Any, Any, None], seconds: float | None
           ) -> asyncio.Task[None]:
    """Run ``work`` after ``seconds`` (clock seconds, :data:`SECOND`)."""
    async def wait() -> None:
        await asyncio.sleep((seconds or 0) * SECOND)
        await work
    task = asyncio.get_running_loop().create_task(wait())
    def done(_: asyncio.Task[None]) -> None:
        _TASKS.discard(task)
        work.close()  # never started when cancelled before its time: no warning then
    task.add_done_callback(done)
    _TASKS.add(task)
    return task


def seat_left(hub: Hub, table: Table, seat: int) -> None:
    """``seat``'s connection closed (the caller holds the lock): when no other sits there,
    the seat is away, and is taken over once the table's grace has passed."""
    rules = table.entry.leavers
    if rules is None or rules.grace is None or table.clients[seat] \
            or seat not in _people(table):
        return
    since = asyncio.get_running_loop().time()
    _keeper(table).away[seat] = since
    _later(_away(hub, table, seat, since), rules.grace)


async def _away(hub: Hub, table: Table, seat: int, since: float) -> None:
    async with table.lock:
        keeper = _KEEPERS.get(table)
        if keeper is None or keeper.away.get(seat) != since or table.clients[seat] \
                or not _ours(hub, table) or seat not in _people(table):
            return  # back meanwhile, gone again later (that grace runs), or closed
        del keeper.away[seat]
        await _take_over(hub, table, seat, "left")
    hub._start_bots(table)


async def _out_of_time(hub: Hub, table: Table, turn: tuple[int, int, int]) -> None:
    async with table.lock:
        keeper = _KEEPERS.get(table)
        session = table.session
        if keeper is None or keeper.turn != turn or not _ours(hub, table) \
                or (table.game, len(session.history), session.on_turn) != turn \
                or session.on_turn not in _people(table):
            return  # moved meanwhile, or the table is no longer this process's
        keeper.timer, keeper.turn = None, None
        await _take_over(hub, table, turn[2], "out of time")
    hub._start_bots(table)


def _ours(hub: Hub, table: Table) -> bool:
    return hub.tables.get(table.id) is table and hub.shared.holds(table.id) \
        and not table.session.is_over


async def _take_over(hub: Hub, table: Table, seat: int, why: str) -> None:
    """The table's bot takes ``seat`` over (the record first), and everyone is told."""
    rules = table.entry.leavers
    assert rules is not None
    try:
        taken = table.session.take_over(seat, rules.player, why)
    except PlayError as problem:  # the record could not be written: the person plays on
        await hub._not_kept(table, f"the takeover of seat {seat} by the {rules.player} bot",
                            problem, "the seat stays its person's")
        return
    await tell(hub, table, takeover(table, taken))
    await hub._broadcast(table, messages.seats(table.seat_list()))


def takeover(table: Table, taken: Takeover) -> dict[str, Any]:
    """The ``takeover`` message: which seat (and its name), from which move, which bot, why,
    and the words a page shows and its live region reads."""
    name = table.entry.seats[taken.seat].name
    reason = ("was away longer than the table's grace" if taken.why == "left" else
              "ran out of time on the move clock")
    return {"type": "takeover", "seat": taken.seat, "name": name, "at": taken.at,
            "player": taken.player, "why": taken.why,
            "message": f"{name} {reason}: seat {taken.seat} is played by the {taken.player} "
                       f"bot from move {taken.at + 1} to the end of the game"}


def stamp(message: dict[str, Any], table: Table) -> dict[str, Any]:
    """``message`` (a ``state`` or ``public``) with ``clock`` at a table with leavers: the
    table's ``per_move`` seconds (``None``: no clock), ``grace`` and takeover ``player``;
    the ``seat`` whose clock runs and the milliseconds ``left`` (both ``None`` while no
    person's clock runs: a bot on turn, the game over)."""
    rules = table.entry.leavers
    if rules is None:
        return message
    keeper = _KEEPERS.get(table)
    session = table.session
    running = keeper is not None and keeper.turn == (table.game, len(session.history),
                                                     session.on_turn)
    left_ms = None
    if running:
        assert keeper is not None
        left_ms = max(0, round((keeper.deadline - asyncio.get_running_loop().time())
                               / SECOND * 1000))
    message["clock"] = {"per_move": rules.clock, "grace": rules.grace, "player": rules.player,
                        "seat": session.on_turn if running else None, "left_ms": left_ms}
    return message


def check_playing(conn: Connection, kind: str) -> None:
    """Check that ``conn``'s seat is not played by a bot that took it over, for a message of
    ``kind`` (``move``, ``hint``, ``undo``: what only the seat's player may do).

    Raises:
        ProtocolError: ``taken-over``, naming the bot, the move and why.
    """
    table = conn.table
    taken = None if table is None else table.session.taken_over(conn.seat)
    if taken is not None and kind in ("move", "hint", "undo"):
        raise ProtocolError("taken-over", f"seat {taken.seat} is played by the {taken.player} "
                            f"bot since move {taken.at + 1} ({taken.why}), to the end of this "
                            f"game; {a_or_an(kind)} is for its player; the next game is yours "
                            "again")


def clocks_running() -> list[asyncio.Task[None]]:
    """The clocks and graces running (the hub cancels them when it closes)."""
    return list(_TASKS)


__all__ = ["DEFAULT_GRACE", "DEFAULT_PLAYER", "SECOND", "Keeper", "arm_clock", "check_playing",
           "clock_info", "clocks_running", "on_react", "resume_clock", "seat_left", "stamp",
           "table_options", "takeover"]
