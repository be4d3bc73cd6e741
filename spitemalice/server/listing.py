"""The lobby's list of tables (issue 36 §2): public tables with seats free, tables being
played (to watch), and what became of the tables a browser holds seats at.

A table's creator chooses whether the lobby lists it (``create`` with ``public: true``).
At a public table every person's seat is free until someone sits there: the creator
through the seat's link, or anyone through the lobby (``claim``), who is then given a new
token for that seat (the creator's link to it stops working: the seat was offered to
all).  A private table is never listed; its watch link and its seats' links are all there
is.  Nothing listed is secret: a table's id is its watch link, and what a spectator sees is
public (:mod:`spitemalice.server.watching`).
"""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

import attrs

from spitemalice.errors import OutputError, ProtocolError
from spitemalice.formats.records.making import ruleset_ref
from spitemalice.play.session import HUMAN
from spitemalice.rules.book import RuleBook
from spitemalice.server import leavers
from spitemalice.server.protocol import Message
from spitemalice.server.seating import Connection, Table
from spitemalice.server.store import TableEntry, token_hash
from spitemalice.server.watching import watch_link

if TYPE_CHECKING:
    from spitemalice.server.tables import Hub

MAX_LISTED = 50
"""Most tables of each kind a ``tables`` answer lists (the newest first)."""


def table_options(entry: TableEntry, message: Message, rules: RuleBook) -> TableEntry:
    """``entry`` with the choices of a ``create`` message: ``public`` (every person's
    seat free in the lobby) and ``match`` (play games to the rule set's ``match_target``,
    BF-19)."""
    public = bool(message.get("public", False))
    free = tuple(n for n, seat in enumerate(entry.seats) if seat.player == HUMAN) \
        if public else ()
    match = rules.ruleset.match_target if message.get("match", False) else None
    return leavers.table_options(attrs.evolve(entry, public=public, free=free, match=match),
                                 message, rules)


def listed(table: Table, elsewhere: int = 0) -> dict[str, Any]:
    """One table as the lobby lists it (``elsewhere``: its spectators at other server
    processes)."""
    ref = ruleset_ref(table.session.rules)
    return {"table": table.id, "ruleset": ref.name, "house_rules": list(ref.house_rules),
            "seats": table.seat_list(), "free": list(table.entry.free), "game": table.game,
            "moves": len(table.session.history),
            "watchers": len(table.watchers) + elsewhere,
            "watch": watch_link(table.id), "match": table.entry.match}


async def tables(hub: Hub, conn: Connection, message: Message) -> None:
    """Answer a ``tables`` message: the public tables not yet over, those with a seat
    free (``open``) and the others (``playing``), newest first, and, of the ids in
    ``mine``, those still on this server with their game and whether it is over.  With
    several server processes, those of the others follow this process's own (as the
    site's shared store last heard of them, :mod:`spitemalice.server.shared`)."""
    open_tables: list[dict[str, Any]] = []
    playing: list[dict[str, Any]] = []
    for table in reversed(list(hub.tables.values())):
        if table.entry.public and not table.session.is_over:
            found = listed(table, hub.shared.remote_watchers(table.id))
            (open_tables if table.entry.free else playing).append(found)
    for found in await hub.shared.listings(hub):
        (open_tables if found["free"] else playing).append(found)
    asked = list(dict.fromkeys(message.get("mine", ())))
    others = await hub.shared.status([t for t in asked if t not in hub.tables])
    mine = [{"table": table_id, "game": hub.tables[table_id].game,
             "over": hub.tables[table_id].session.is_over} if table_id in hub.tables
            else others[table_id] for table_id in asked
            if table_id in hub.tables or table_id in others]
    await conn.send({"type": "tables", "open": open_tables[:MAX_LISTED],
                     "playing": playing[:MAX_LISTED], "mine": mine})


async def claim(hub: Hub, conn: Connection, message: Message) -> None:
    """Answer a ``claim`` message: take a free seat of a public table; the answer,
    ``claimed``, holds the seat's new token and link (then ``join`` with them).

    Raises:
        ProtocolError: ``no-table``; ``seat-not-free``: the table is not public, the
            seat is a bot's, or someone sits there already (the message says which seats
            are free); ``server-error``: the table file could not be written (nothing
            changed).
    """
    table = await hub._reach(message.get("table"))
    seat = message.get("seat")
    async with table.lock:
        entry = table.entry
        if seat not in entry.free or table.session.is_over:
            free = ", ".join(map(str, entry.free)) or "none"
            why = "is not listed in the lobby" if not entry.public else \
                f"has no free seat {seat} (free: {free})"
            raise ProtocolError("seat-not-free", f"table {table.id} {why}; a seat of a "
                                "private table is taken with the link its creator sends")
        token = secrets.token_hex(16)
        seats = list(entry.seats)
        seats[seat] = attrs.evolve(seats[seat], token_sha256=token_hash(token))
        taken = attrs.evolve(entry, seats=tuple(seats),
                             free=tuple(s for s in entry.free if s != seat))
        try:
            hub.store.save(taken)
        except OutputError as problem:
            raise ProtocolError("server-error", f"the seat could not be kept: {problem}; "
                                "nothing changed, try again") from None
        table.entry = taken
    await conn.send({"type": "claimed", "table": table.id, "seat": seat, "token": token,
                     "link": f"/table/{table.id}#seat={seat}&token={token}"})


def seat_joined(hub: Hub, table: Table, seat: int) -> None:
    """Someone sat at ``seat`` through its link: a public table no longer offers it (the
    caller holds the table's lock).  A table file that cannot be written is said in the
    server's log; the seat is taken all the same."""
    if seat in table.entry.free:
        entry = attrs.evolve(table.entry, free=tuple(s for s in table.entry.free if s != seat))
        try:
            hub.store.save(entry)
        except OutputError as problem:
            hub.log(f"table {table.id}: seat {seat} taken, not kept in the table file: "
                    f"{problem}")
        table.entry = entry


__all__ = ["MAX_LISTED", "claim", "listed", "seat_joined", "table_options", "tables"]
