"""The play server's tables: who may do what, and what each seat is told.

:class:`Hub` holds the tables in memory and answers every client message
(:mod:`spitemalice.server.protocol`).  It knows nothing of HTTP or WebSockets: the web app
(:mod:`spitemalice.server.app`) hands it each message's text with the :class:`Connection`
it came on, and a connection sends text back.

* A table is one :class:`~spitemalice.play.session.Session` at a time (a rematch starts the
  next).  Each person's seat has a token of 128 bits from :mod:`secrets`; only its SHA-256
  is kept, and a connection acts for a seat only after ``join`` with that token.
* Every move is written to the table's record (the session rewrites it) before it is
  announced; then each connection at the table receives a ``state`` built from its own
  seat's view (:func:`spitemalice.server.messages.state`).
* Bots move one at a time, ``bot_delay`` seconds apart; each kind of message has one
  handler (:data:`HANDLERS`); clocks and leavers are :mod:`~spitemalice.server.leavers`'.
* A message the server will not act on gets an ``error`` (or, for a move the rules forbid,
  ``refused``) and changes nothing; the connection and the table stay.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import secrets
import sys
from collections.abc import Awaitable, Callable
from typing import Any

from spitemalice import guards, limits, wording
from spitemalice.errors import (
    IllegalMove,
    NotationError,
    OutputError,
    PlayError,
    ProtocolError,
    SpiteMaliceError,
)
from spitemalice.formats.records.record import GameRecord
from spitemalice.play.session import HUMAN, Session
from spitemalice.server import listing, lobby, matches, messages, spit_live, standings, watching
from spitemalice.server import quickplay as quickplay  # its own line: the one above is full
from spitemalice.server.leavers import arm_clock, check_playing, clocks_running, on_react, seat_left
from spitemalice.server.protocol import Message, encode, error, read_message
from spitemalice.server.seating import Connection, Table
from spitemalice.server.shared import Elsewhere, Local, Shared, check_rate, moved, open_table
from spitemalice.server.store import TABLE_ID, SeatEntry, Store, TableEntry, token_hash


class Hub:
    """Every table of one server, and the answer to every message.

    Args:
        store: where records and table files go (:class:`~spitemalice.server.store.Store`).
        bot_delay: seconds a bot waits before each move, so people can follow it.
        max_tables: unfinished tables held at once (:data:`~spitemalice.limits.MAX_TABLES`).
        max_tables_per_client: unfinished tables one address may have created
            (:data:`~spitemalice.limits.MAX_TABLES_PER_CLIENT`).
        max_watchers: spectators one table holds at once
            (:data:`~spitemalice.server.watching.WATCHERS_PER_TABLE`).
        shared: what it shares with a site's other processes (:mod:`spitemalice.server.
            shared`; default :class:`~spitemalice.server.shared.Local`: none).

    Raises:
        SpiteMaliceError: a limit that is not a whole number from 1 to
            :data:`~spitemalice.limits.MAX_INT`, or a ``bot_delay`` that is not 0 to
            :data:`~spitemalice.limits.MAX_SECONDS` seconds.
    """

    def __init__(self, store: Store, *, bot_delay: float = 0.6,
                 max_tables: int = limits.MAX_TABLES,
                 max_tables_per_client: int = limits.MAX_TABLES_PER_CLIENT,
                 max_watchers: int = watching.WATCHERS_PER_TABLE,
                 shared: Shared | None = None) -> None:
        self.store = store
        self.shared = Local() if shared is None else shared
        self.bot_delay = guards.check_delay(bot_delay, "bot_delay")
        self.max_tables = guards.check_int(max_tables, "max_tables", 1)
        self.max_tables_per_client = guards.check_int(max_tables_per_client,
                                                      "max_tables_per_client", 1)
        self.max_watchers = guards.check_int(max_watchers, "max_watchers", 1)
        self.tables: dict[str, Table] = {}
        self.log: Callable[[str], None] = _log
        """Where a failure to keep a change goes besides the table's seats (default: a line
        on stderr); the tests collect it."""

    # -- the server's life -------------------------------------------------------------

    def restore(self) -> list[str]:
        """Rebuild every unfinished table, live ones too (:func:`~spitemalice.server.
        spit_live.restore`), from its files; returns one line per table resumed or skipped."""
        return [found if isinstance(found, str) else self.resume(*found)
                for found in self.store.unfinished()] + spit_live.restore(self)

    def resume(self, entry: TableEntry, record: GameRecord, creator: str | None = None) -> str:
        """Rebuild one table from its table file's ``entry`` and its current game's
        ``record`` (at a restart, or taken over from a process that died); returns the line
        that says so, or why the table was skipped."""
        try:
            session = Session.resume(record, record_path=self.store.record_path(
                entry.table, entry.game), overwrite=True)  # the file it was read from
        except SpiteMaliceError as problem:
            return f"skipped table {entry.table}: {problem}"
        self.tables[entry.table] = table = Table(entry, session, creator,
                                                 [set() for _ in entry.seats])
        matches.after_move(self, table)  # a match between two games: the next is dealt
        return (f"resumed table {entry.table}, game {entry.game}, after "
                + wording.count_of(len(record.moves), "move"))

    async def close(self) -> None:
        """Stop every bot (their moves so far are in the records)."""
        tasks = [*(t.bots for t in self.tables.values() if t.bots is not None),
                 *matches.waiting(), *clocks_running()]  # next games, clocks, graces
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await spit_live.close(self)
        await quickplay.close(self)

    # -- messages ------------------------------------------------------------------------

    async def receive(self, conn: Connection, data: str | bytes) -> None:
        """Answer one message from ``conn``: act on it, or send an ``error`` (a
        ``refused`` for a move the rules forbid) and change nothing."""
        if await conn.over_rate():
            return
        try:
            message = read_message(data)
            await check_rate(self.shared, message.type, conn.address)
            handler = spit_live.route(self, conn, message) or HANDLERS[message.type]
            await handler(self, conn, message)
        except Elsewhere as where:  # the table is another process's: go there
            await conn.send(moved(where))
        except ProtocolError as problem:
            await conn.send(error(problem.code, str(problem)))
        except SpiteMaliceError as problem:  # a check the handler missed: said, not dropped
            self.log(f"a {type(problem).__name__} answering a message: {problem}")
            await conn.send(error("server-error", f"the server could not answer: {problem}"))

    async def leave(self, conn: Connection) -> None:
        """``conn`` closed: it leaves its seat or queue, and the table is told."""
        await quickplay.leave(self, conn)
        if conn.live is not None:  # a live table whose seats move at once
            return await spit_live.leave(self, conn)
        table = conn.table
        if table is None:
            await (self.shared.unwatch(conn) if conn.relay else watching.leave(self, conn))
            return
        async with table.lock:  # every message to a table's seats is sent under its lock
            table.clients[conn.seat].discard(conn)
            conn.table = None
            seat_left(self, table, conn.seat)
            if not any(table.clients) and not table.watchers and table.session.is_over:
                self.tables.pop(table.id, None)  # its files stay; nobody is left to rematch
                return
            await self._broadcast(table, messages.seats(table.seat_list()))

    async def _on_catalog(self, conn: Connection, message: Message) -> None:
        await conn.send(lobby.catalog())

    async def _on_create(self, conn: Connection, message: Message) -> None:
        rules, kinds, names = lobby.table_rules(message)
        table_id = secrets.token_hex(8)
        await open_table(self, table_id, conn.address)
        tokens = [secrets.token_hex(16) if kind == HUMAN else None for kind in kinds]
        entry = listing.table_options(TableEntry(table_id, 1, tuple(
            SeatEntry(name, kind, None if token is None else token_hash(token))
            for name, kind, token in zip(names, kinds, tokens, strict=True))), message, rules)
        try:
            session = Session(rules, kinds, names=names,
                              dealer=standings.first_dealer(entry, len(kinds)), commit=True,
                              record_path=self.store.record_path(table_id, 1))
            self.store.save(entry)
        except (PlayError, OutputError) as problem:
            self.log(f"a new table was not opened: {problem}")
            raise ProtocolError("server-error", f"the server cannot keep a new table: "
                                f"{problem}") from None
        self.tables[table_id] = Table(entry, session, conn.address, [set() for _ in kinds])
        await conn.send(lobby.created(entry, tokens))

    async def _on_watch(self, conn: Connection, message: Message) -> None:
        await watching.watch(self, conn, message)

    async def _on_tables(self, conn: Connection, message: Message) -> None:
        await listing.tables(self, conn, message)

    async def _on_claim(self, conn: Connection, message: Message) -> None:
        await listing.claim(self, conn, message)

    async def _on_join(self, conn: Connection, message: Message) -> None:
        if conn.watching is not None:
            raise ProtocolError("already-joined", f"this connection watches table "
                                f"{conn.watching.id}; open another connection to sit down")
        if conn.table is not None:
            raise ProtocolError("already-joined", f"this connection sits at seat {conn.seat} "
                                f"of table {conn.table.id}; open another connection to "
                                "join another seat")
        table = await self._reach(message.get("table"))
        seat = message.get("seat")
        entries = table.entry.seats
        if seat >= len(entries):
            raise ProtocolError("wrong-type", f"join.seat: table {table.id} has seats 0 to "
                                f"{len(entries) - 1}, not {seat}")
        expected = entries[seat].token_sha256
        if expected is None:
            people = ", ".join(str(s) for s, e in enumerate(entries) if e.token_sha256)
            raise ProtocolError("bad-token", f"seat {seat} is played by the "
                                f"{entries[seat].player} bot; a person joins seat {people}")
        if not hmac.compare_digest(token_hash(message.get("token")), expected):
            raise ProtocolError("bad-token", f"that is not the token of seat {seat} of table "
                                f"{table.id}; use the seat's own link")
        # The welcome comes first: every message to a table's seats is sent under its lock,
        # and this join (the connection's first) gets welcome and state in one hold of it.
        async with table.lock:
            arm_clock(self, table)
            replaced = await table.take_seat(conn, seat, message.get("picture", False))
            listing.seat_joined(self, table, seat)
            await conn.send(messages.welcome(table.id, seat, table.game, table.session.rules,
                                             table.seat_list(), table.undo_allowed(seat),
                                             replaced, standings.standing(table)))
            await conn.send(self._state(table, seat, conn.picture, full=True))
            if table.watchers:
                await conn.send(watching.count(table))
            await self._broadcast(table, messages.seats(table.seat_list()), skip=conn)
        self._start_bots(table)

    async def _on_move(self, conn: Connection, message: Message) -> None:
        table, seat = self._seated(conn, "move")
        if message.get("seat", seat) != seat:
            raise ProtocolError("not-your-seat", f"move.seat: this connection sits at seat "
                                f"{seat}, not {message.get('seat')}; a move is made only for "
                                "the seat joined (leave seat out, or give your own)")
        async with table.lock:
            await self.shared.check_holds(table.id)
            session = table.session
            if session.is_over:
                out = session.state.outcome
                raise ProtocolError("game-over", f"game {table.game} has ended "
                                    f"({out and out.describe()}); no move can be "
                                    'made: send {"type": "record"} for its record or '
                                    '{"type": "rematch"} for a new game')
            number = len(session.history) + 1
            if message.get("number", number) != number:
                raise ProtocolError("stale", f"move.number: the next move is number {number} "
                                    f"(the moves so far plus one), not {message.get('number')};"
                                    " choose again from the latest state's number and moves")
            try:
                session.play(seat, message.get("move"))
            except NotationError as problem:
                raise ProtocolError("not-a-move", str(problem)) from None
            except IllegalMove as refusal:
                await conn.send(messages.refused(session.refusal(refusal)))
                return
            except PlayError as problem:  # the record could not be written: no move made
                await self._not_kept(table, f"seat {seat}'s move {message.get('move')}",
                                     problem)
                return
            await self._announce(table)
        self._start_bots(table)

    async def _on_hint(self, conn: Connection, message: Message) -> None:
        table, seat = self._seated(conn, "hint")
        async with table.lock:
            session = table.session
            self._check_on_turn(table, seat, "a hint")
            move = await asyncio.to_thread(session.hint, seat)
        await conn.send(messages.hint(move, lobby.HINT_PLAYER))

    async def _on_undo(self, conn: Connection, message: Message) -> None:
        table, seat = self._seated(conn, "undo")
        async with table.lock:
            await self.shared.check_holds(table.id)
            try:
                table.session.undo(seat)
            except PlayError as problem:
                # The session raises PlayError both for an undo the rules of undo refuse and
                # for a record it could not write (that one in the context of an OutputError).
                if not isinstance(problem.__context__, OutputError):
                    raise ProtocolError("no-undo", f"{problem}") from None
                await self._not_kept(table, f"seat {seat}'s undo", problem)
                return
            await self._announce(table, full=True)
        self._start_bots(table)

    async def _on_rematch(self, conn: Connection, message: Message) -> None:
        table, _ = self._seated(conn, "rematch")
        async with table.lock:
            await self.shared.check_holds(table.id)
            if not table.session.is_over:
                raise ProtocolError("game-not-over", f"game {table.game} is still on; a "
                                    "rematch is dealt once it has ended")
            await matches.deal_next(self, table)  # in a match: its next game
        self._start_bots(table)

    async def _on_record(self, conn: Connection, message: Message) -> None:
        table, _ = self._seated(conn, "record")
        if not table.session.is_over:
            raise ProtocolError("game-not-over", "the record holds the deal's seed, which "
                                "decides every hidden card, so it is sent once the game has "
                                "ended")
        await conn.send(messages.record(table.session.record(),
                                        f"spitemalice-{table.id}-{table.game}.json"))

    # -- helpers ---------------------------------------------------------------------------

    def _table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise ProtocolError("no-table", f"no table {wording.shown(table_id)} on this "
                                "server (a finished table closes once everyone has left it; "
                                "its record stays in the server's records folder)")
        return table

    async def _reach(self, table_id: str) -> Table:
        """``_table``, after asking the site whether another process owns it (raising
        :class:`~spitemalice.server.shared.Elsewhere`) or it is to be taken over here."""
        if table_id not in self.tables and TABLE_ID.fullmatch(table_id):
            await self.shared.locate(self, table_id)
        return self._table(table_id)

    @staticmethod
    def _seated(conn: Connection, kind: str) -> tuple[Table, int]:
        if conn.table is None:
            raise ProtocolError("not-joined", f"{wording.a_or_an(kind)} message needs a seat: send "
                                '{"type": "join", "table": ..., "seat": ..., "token": ...} '
                                "first")
        check_playing(conn, kind)  # a seat a bot took over: refused
        return conn.table, conn.seat

    @staticmethod
    def _check_on_turn(table: Table, seat: int, what: str) -> None:
        session = table.session
        if session.is_over:
            raise ProtocolError("game-over", f"game {table.game} has ended; {what} is for "
                                "a live game")
        if session.on_turn != seat:
            raise ProtocolError("not-on-turn", f"{what} is for the seat on turn; seat "
                                f"{session.on_turn} is on turn, not seat {seat}")

    def _state(self, table: Table, seat: int, picture: bool, full: bool) -> dict[str, Any]:
        session = table.session
        return standings.with_match(messages.state(
            session.table_view(seat), table.game, log=session.history if full else None,
            picture=picture, ruleset=session.rules.name), table)

    async def _announce(self, table: Table, full: bool = False) -> None:
        """Send every connection at ``table`` the position from its own seat (the caller
        holds ``table.lock``: what a seat is told keeps the order of the moves)."""
        built: dict[tuple[int, bool], str] = {}
        arm_clock(self, table)
        for seat, clients in enumerate(table.clients):
            for client in list(clients):
                key = (seat, client.picture)
                if key not in built:
                    built[key] = encode(self._state(table, seat, client.picture, full))
                await client.send_text(built[key])
        await watching.announce(table, full)
        self.shared.announced(table, full)
        matches.after_move(self, table)

    async def _broadcast(self, table: Table, message: dict[str, Any],
                         skip: Connection | None = None) -> None:
        """Send ``message`` to every connection at ``table`` but ``skip`` (the caller holds
        ``table.lock``, as for :meth:`_announce`)."""
        text = encode(message)
        for client in [*(c for clients in table.clients for c in clients), *table.watchers]:
            if client is not skip:
                await client.send_text(text)

    def _start_bots(self, table: Table) -> None:
        if table.session.bot_on_turn and (table.bots is None or table.bots.done()):
            table.bots = asyncio.create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        wait, failed = self.bot_delay, 0
        while True:
            await asyncio.sleep(wait)
            async with table.lock:
                session = table.session
                if not session.bot_on_turn or not self.shared.holds(table.id):
                    return
                try:
                    await _finish(asyncio.to_thread(session.play_bot))
                except PlayError as problem:  # the record could not be written: no move
                    # made; the table waits and tries again, longer each time (at most a
                    # minute), and goes on by itself once the record can be written
                    failed += 1
                    wait = min(RETRY_SECONDS * 2 ** min(failed - 1, 10), 60.0)
                    await self._not_kept(table, f"the {session.kinds[session.on_turn]} bot's "
                                         f"move (seat {session.on_turn})", problem,
                                         f"the server tries again in {wait:g} s")
                    continue
                except SpiteMaliceError as problem:  # a bot that cannot move: said, not lost
                    return await self._not_kept(table, f"the {session.kinds[session.on_turn]} "
                                                "bot's move", problem, "the table stops here")
                if failed:
                    self.log(f"table {table.id}: the record is written again; the game goes on")
                    wait, failed = self.bot_delay, 0
                await self._announce(table)

    async def _not_kept(self, table: Table, what: str, problem: Exception,
                        then: str = "nothing changed; try again") -> None:
        """``what`` could not be written to ``table``'s record or table file: say so in the
        server's log and to every seat at the table (the caller holds ``table.lock``)."""
        text = f"{what} was not kept: {problem}; {then}"
        self.log(f"table {table.id}: {text}")
        await self._broadcast(table, error("server-error", f"{wording.clipped(text, 600)}"))


HANDLERS: dict[str, Callable[[Hub, Connection, Message], Awaitable[None]]] = {
    "catalog": Hub._on_catalog,
    "create": Hub._on_create,
    "join": Hub._on_join,
    "watch": Hub._on_watch,
    "tables": Hub._on_tables,
    "claim": Hub._on_claim,
    "move": Hub._on_move,
    "hint": Hub._on_hint,
    "undo": Hub._on_undo,
    "rematch": Hub._on_rematch,
    "record": Hub._on_record,
    "react": on_react,  # spitemalice.server.reactions
    **quickplay.HANDLERS,
}
"""The handler of each client message kind (:meth:`Hub.receive` calls it): its keys are
:data:`spitemalice.server.protocol.KINDS`, as ``tests/server/test_server_protocol.py`` checks."""


RETRY_SECONDS = 1.0
"""Seconds before a bot's move whose record could not be written is tried again (doubling)."""


def _log(line: str) -> None:
    print(wording.for_terminal(f"spitemalice serve: {line}"), file=sys.stderr, flush=True)


async def _finish(work: Awaitable[Any]) -> Any:
    """Await ``work`` (a bot's move in a thread) to its end even when cancelled meanwhile, then
    pass the cancellation on: a thread cannot be stopped, so a bot stopped by
    :meth:`Hub.close` finishes the move it is making (and writes its record) before the
    table's lock is let go and the server is called closed."""
    task = asyncio.ensure_future(work)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception):
            await task
        raise
