"""The hub's side of the live tables whose seats move at once (Spit): which messages go to
them, and the answer to each.

:meth:`Hub.receive <spitemalice.server.tables.Hub.receive>` asks :func:`route` first: a
``create`` naming such a rule set, a ``join`` of such a table, and every message of a
connection sitting at one are answered here; everything else goes on to the turn-based
tables.  The protocol is the turn-based one's (``create``, ``join``, ``move`` with its
``number``, ``record``, ``rematch``), with these differences:

* ``create`` may give ``reaction_ms``, the bots' mean reaction time (milliseconds, from
  :data:`~spitemalice.server.spit_table.MIN_REACTION_MS` to
  :data:`~spitemalice.server.spit_table.MAX_REACTION_MS`), and a seat's player is
  ``"human"`` or one of the game's bots (``greedy``, ``random``); the links are
  ``/spit/ID#seat=N&token=...``;
* the position comes in ``spit`` messages (:func:`~spitemalice.server.spit_table.spit_message`),
  sent to both seats after every move, whoever made it;
* a move that no longer fits because another card got there first is answered ``stale``;
* ``hint`` and ``undo`` are answered ``real-time``: such a table has neither; so is
  ``claim`` of it (it is never public);
* ``watch`` of it makes the connection a spectator (:mod:`spitemalice.server.spit_watching`):
  the watch link is ``/spit/ID``, a table may be all bots, and they play while someone
  watches;
* every deal is committed to (the ``deal`` field of ``spit``; the record's ``commitment``);
* the table survives a restart, and with Redis its owner's death: its file (seats, token
  hashes, reaction time, current game) and its current game's record rebuild it
  (:mod:`spitemalice.server.spit_restore`), at the server's start (:func:`restore`), when
  another process takes it over, and at a ``join`` or ``watch`` of it (an ended game then
  too, for its rematch).
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING

from spitemalice import wording
from spitemalice.errors import NotationError, PlayError, ProtocolError
from spitemalice.play.session import HUMAN
from spitemalice.runs.arrival import game_bots
from spitemalice.server import lobby, messages, spit_restore, spit_watching
from spitemalice.server.protocol import Message
from spitemalice.server.seating import Connection
from spitemalice.server.shared import open_table
from spitemalice.server.spit_bots import start_bots, stop_bots
from spitemalice.server.spit_table import (
    MAX_REACTION_MS,
    MIN_REACTION_MS,
    REACTION_MS,
    SpitTable,
    registry,
)
from spitemalice.server.store import token_hash

if TYPE_CHECKING:
    from spitemalice.server.tables import Hub

Handler = Callable[["Hub", Connection, Message], Awaitable[None]]

def live_tables(hub: Hub) -> dict[str, SpitTable]:
    """The live tables of ``hub`` whose seats move at once, by id."""
    return registry(hub)


def route(hub: Hub, conn: Connection, message: Message) -> Handler | None:
    """The handler of this module that answers ``message``, or ``None`` when the turn-based
    tables do: a ``create`` naming a rule set whose seats move at once, a ``join`` of a live
    table of this module, and every message of a connection sitting at one (but ``tables``),
    or watching one (:mod:`~spitemalice.server.spit_watching`); a ``watch`` of a live table
    is a spectator's arrival, a ``claim`` of one is answered ``real-time``."""
    kind = message.type
    if kind == "create":
        return _create if message.get("ruleset") in lobby.moving_at_once() else None
    if conn.live is not None and kind != "tables":  # the lobby's list is anyone's
        if spit_watching.is_spectator(conn):
            return _SPECTATOR_HANDLERS.get(kind, _seated_elsewhere)
        return _HANDLERS.get(kind, _seated_elsewhere)
    if kind in ("join", "watch", "claim") and message.get("table") in live_tables(hub):
        return {"join": _join, "watch": _watch}.get(kind, _no_help)
    if kind in ("join", "watch") and spit_restore.kept(hub.store, message.get("table")):
        return _arrive  # a live table this process does not hold (yet)
    return None


def restore(hub: Hub) -> list[str]:
    """Rebuild every live table of ``hub.store`` whose current game has not ended
    (:func:`spitemalice.server.spit_restore.restore`); one line per table resumed or
    skipped."""
    return spit_restore.restore(hub)


async def leave(hub: Hub, conn: Connection) -> None:
    """``conn`` closed: it leaves its seat (or stops watching) and the table is told; a
    table that has ended and that nobody sits at or watches any more is closed (its record
    stays)."""
    table: SpitTable = conn.live
    if spit_watching.is_spectator(conn):
        if not await spit_watching.leave(table, conn):
            return
        live_tables(hub).pop(table.id, None)
        return await stop_bots(table)
    async with table.lock:
        table.clients[conn.seat].discard(conn)
        conn.live = None
        if not any(table.clients) and not table.watchers and table.is_over:
            live_tables(hub).pop(table.id, None)
        else:
            await table.broadcast(messages.seats(table.seat_list()))
            return
    await stop_bots(table)


async def lost(hub: Hub, table_id: str) -> None:
    """This process no longer owns live table ``table_id`` (its lease ran out: with Redis,
    :mod:`spitemalice.server.redis_shared`, this process stalled past it): its bots stop and
    its connections are closed (status 1012), to connect again.  Another process takes the
    table over from its files (:mod:`spitemalice.server.spit_restore`), at the last move
    its record holds."""
    table = live_tables(hub).pop(table_id, None)
    if table is None:
        return
    hub.log(f"table {table_id}: its lease ran out; another process takes the live table "
            "over from its record")
    await stop_bots(table)
    for conn in [*(c for clients in table.clients for c in clients), *table.watchers]:
        await conn.close_moved("this table moved to another server process; connect again")


async def close(hub: Hub) -> None:
    """Stop every bot of ``hub``'s live tables (their moves so far are in the records)."""
    for table in list(live_tables(hub).values()):
        await stop_bots(table)


def _reaction(message: Message) -> int:
    value = message.get("reaction_ms", REACTION_MS)
    if not MIN_REACTION_MS <= value <= MAX_REACTION_MS:
        raise ProtocolError("wrong-type", f"create.reaction_ms: a bot's mean reaction time is "
                            f"{MIN_REACTION_MS} to {MAX_REACTION_MS} milliseconds, not {value}")
    return int(value)


async def _create(hub: Hub, conn: Connection, message: Message) -> None:
    reaction = _reaction(message)
    ours = [t for t in live_tables(hub).values() if not t.is_over]
    live = ours + [t for t in hub.tables.values() if not t.session.is_over]
    if len(live) >= hub.max_tables:
        raise ProtocolError("server-full", f"the server holds "
                            f"{wording.count_of(hub.max_tables, 'unfinished table')}, as "
                            "many as it may; try again later")
    mine = [t for t in live if t.creator == conn.address]
    if len(mine) >= hub.max_tables_per_client:
        raise ProtocolError("too-many-tables", f"this client has "
                            f"{wording.count_of(len(mine), 'unfinished table')}, as many as "
                            "it may; finish one first")
    for flag in ("public", "match", "clock", "grace", "takeover"):
        if message.get(flag):
            raise ProtocolError("bad-rules", f"create.{flag}: a table whose seats move at "
                                "once is private and plays single games; leave it out")
    rules, kinds, names = lobby.table_rules(message, live=True)
    assert rules.simultaneous is not None  # routed here by the rule set's name
    players = [HUMAN, *game_bots(rules.simultaneous)]
    for at, kind in enumerate(kinds):
        if kind not in players:
            raise ProtocolError("bad-rules", f"create.seats[{at}].player: {rules.name} is "
                                f"played by {', '.join(players)}, not {wording.shown(kind)}")
    table_id = secrets.token_hex(8)
    await open_table(hub, table_id, conn.address)  # with Redis: the site's quotas, a lease
    tokens = [secrets.token_hex(16) if kind == HUMAN else None for kind in kinds]
    table = SpitTable(table_id, rules, tuple(kinds), tuple(names),
                      tuple(None if t is None else token_hash(t) for t in tokens),
                      reaction, conn.address,
                      lambda game: hub.store.record_path(table_id, game),
                      holds=lambda: hub.shared.holds(table_id))
    try:  # with the table's file, what a restart needs besides the record
        table.new_game(also=lambda: spit_restore.save(hub.store, table))
    except PlayError as problem:
        hub.log(f"a new table was not opened: {problem}")
        raise ProtocolError("server-error", f"the server cannot keep a new table: "
                            f"{problem}") from None
    live_tables(hub)[table_id] = table
    start_bots(table)
    seats = []
    for number, (name, kind, token) in enumerate(zip(names, kinds, tokens, strict=True)):
        link = None if token is None else f"/spit/{table_id}#seat={number}&token={token}"
        seats.append({"seat": number, "name": name, "player": kind, "token": token,
                      "link": link})
    await conn.send({"type": "created", "table": table_id, "seats": seats,
                     "watch": spit_watching.watch_link(table_id)})


async def _join(hub: Hub, conn: Connection, message: Message) -> None:
    if conn.live is not None or conn.table is not None or conn.watching is not None:
        await _seated_elsewhere(hub, conn, message)
    table = live_tables(hub)[message.get("table")]
    seat = message.get("seat")
    _check_token(table.id, table.kinds, table.hashes, message)
    async with table.lock:  # the welcome first, then the position, in one hold of the lock
        others = list(table.clients[seat])
        for other in others:
            table.clients[seat].discard(other)
            other.live = None
            await other.put_out(f"seat {seat} of table {table.id} was joined from another "
                                "connection, which sits there now; if that was not you, "
                                "someone else has this seat's link")
        conn.live, conn.seat = table, seat
        table.clients[seat].add(conn)
        start_bots(table)  # a table rebuilt outside the event loop has none running yet
        await conn.send(messages.welcome(table.id, seat, table.game, table.rules,
                                         table.seat_list(), False, bool(others)))
        await conn.send(table.message(seat))
        if table.watchers:
            await conn.send({"type": "watchers", "count": len(table.watchers)})
        await table.broadcast(messages.seats(table.seat_list()), skip=conn)
        for wake in table.wakes:
            wake.set()  # a bot waits for a person to sit down


def _check_token(table_id: str, kinds: Sequence[str], hashes: Sequence[str | None],
                 message: Message) -> None:
    """Check a ``join``'s seat and token against a live table's seats (``kinds``) and their
    token hashes.

    Raises:
        ProtocolError: ``wrong-type`` for a seat the table does not have, ``bad-token`` for
            a bot's seat or a token that is not the seat's.
    """
    seat = message.get("seat")
    if seat >= len(kinds):
        raise ProtocolError("wrong-type", f"join.seat: table {table_id} has seats 0 to "
                            f"{len(kinds) - 1}, not {seat}")
    expected = hashes[seat]
    if expected is None:
        people = ", ".join(str(s) for s, h in enumerate(hashes) if h)
        raise ProtocolError("bad-token", f"seat {seat} is played by the {kinds[seat]} "
                            f"bot; a person joins seat {people}")
    if not hmac.compare_digest(token_hash(message.get("token")), expected):
        raise ProtocolError("bad-token", f"that is not the token of seat {seat} of table "
                            f"{table_id}; use the seat's own link")


async def _move(hub: Hub, conn: Connection, message: Message) -> None:
    table: SpitTable = conn.live
    seat = conn.seat
    if message.get("seat", seat) != seat:
        raise ProtocolError("not-your-seat", f"move.seat: this connection sits at seat "
                            f"{seat}, not {message.get('seat')}; a move is made only for the "
                            "seat joined")
    try:
        move = table.simultaneous.parse_move(message.get("move"))
    except NotationError as problem:
        raise ProtocolError("not-a-move", str(problem)) from None
    async with table.lock:
        await hub.shared.check_holds(table.id)  # renewed at once if a round is late
        try:
            refusal = table.intent(seat, move, message.get("number"))
        except PlayError as problem:
            text = f"seat {seat}'s move {move} was not kept: {problem}; nothing changed"
            hub.log(f"table {table.id}: {text}")
            await table.broadcast({"type": "error", "error": "server-error",
                                   "message": wording.clipped(text, 600)})
            return
        if refusal is not None:
            await conn.send(messages.refused(refusal))
            return
        await table.announce()


async def _watch(hub: Hub, conn: Connection, message: Message) -> None:
    table = live_tables(hub)[message.get("table")]
    start_bots(table)  # a table rebuilt outside the event loop has none running yet
    await spit_watching.watch(hub, conn, table)


async def _arrive(hub: Hub, conn: Connection, message: Message) -> None:
    """A ``join`` or ``watch`` of a live table this process does not hold: its owner is
    elsewhere (:class:`~spitemalice.server.shared.Elsewhere`: ``moved``), or it is rebuilt
    here from its files (taken over, with Redis), even if its game has ended."""
    table_id = message.get("table")
    await hub.shared.locate(hub, table_id)  # with Redis: moved, or taken over here
    if table_id not in live_tables(hub) and hub.shared.holds(table_id) and \
            not spit_restore.refused_before(hub.store, table_id):  # said once is enough
        found = spit_restore.found(hub.store, table_id)
        if isinstance(found, tuple) and message.type == "join":  # before the replay: a
            seats = found[0].seats  # wrong token costs no rebuild and no line in the log
            _check_token(table_id, [s.player for s in seats], [s.token_sha256 for s in seats],
                         message)
        if found is not None:
            hub.log(found if isinstance(found, str) else spit_restore.resume(hub, *found))
    table = live_tables(hub).get(table_id)
    if table is None:
        raise ProtocolError("no-table", f"no table {table_id} on this server: its files "
                            "could not be read, or another server process is taking it "
                            "over (then try again)")
    try:
        await (_join if message.type == "join" else _watch)(hub, conn, message)
    except ProtocolError:
        if table.is_over and not any(table.clients) and not table.watchers:
            live_tables(hub).pop(table_id, None)  # nobody came for its rematch
            await stop_bots(table)
        raise


async def _record(hub: Hub, conn: Connection, message: Message) -> None:
    table: SpitTable = conn.live
    if not table.is_over:
        raise ProtocolError("game-not-over", "the record holds the deal's seed, which "
                            "decides every hidden card, so it is sent once the game has ended")
    await conn.send(messages.record(table.record(),
                                    f"spitemalice-{table.id}-{table.game}.json"))


async def _rematch(hub: Hub, conn: Connection, message: Message) -> None:
    table: SpitTable = conn.live
    async with table.lock:
        if not table.is_over:
            raise ProtocolError("game-not-over", f"game {table.game} is still on; a rematch "
                                "is dealt once it has ended")
        await hub.shared.check_holds(table.id)  # never two processes writing its records
        try:  # the table's file names the new game, or there is none: a restart finds it
            table.new_game(also=lambda: spit_restore.save(hub.store, table))
        except PlayError as problem:
            hub.log(f"table {table.id}: game {table.game + 1} was not dealt: {problem}")
            raise ProtocolError("server-error", f"the next game was not dealt: {problem}; "
                                "try again") from None
        await spit_watching.welcome_again(table)
        await table.broadcast(messages.seats(table.seat_list()))
        await table.announce()


async def _catalog(hub: Hub, conn: Connection, message: Message) -> None:
    await conn.send(lobby.catalog())


async def _no_help(hub: Hub, conn: Connection, message: Message) -> None:
    raise ProtocolError("real-time", f"{message.type} is for a turn-based table; at a table "
                        "whose seats move at once every seat plays as fast as it can, no move "
                        "is taken back, and nobody takes a seat from the lobby (its watch "
                        "link, /spit/ID, is for watching)")


async def _seated_elsewhere(hub: Hub, conn: Connection, message: Message) -> None:
    where = conn.live.id if conn.live is not None else "another table"
    at = ("watches" if spit_watching.is_spectator(conn) else f"sits at seat {conn.seat} of")
    raise ProtocolError("already-joined", f"this connection {at} table {where}; open "
                        f"another connection for {wording.a_or_an(message.type)}")


_HANDLERS: dict[str, Handler] = {
    "move": _move, "record": _record, "rematch": _rematch, "hint": _no_help,
    "undo": _no_help, "catalog": _catalog, "react": _no_help,
}

_SPECTATOR_HANDLERS: dict[str, Handler] = {
    "move": spit_watching.not_seated, "rematch": spit_watching.not_seated,
    "record": _record, "catalog": _catalog, "hint": _no_help, "undo": _no_help,
    "react": _no_help,
}


__all__ = ["close", "leave", "live_tables", "lost", "restore", "route"]
