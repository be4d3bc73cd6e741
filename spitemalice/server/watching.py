"""Spectators: a connection that watches a table without a seat (issue 36 §2).

Every table has a watch link, ``/watch/ID``: the table's id is all it takes, no token.  A
spectator is sent what every seat may see and nothing more (a ``watching`` message on
arrival, then a ``public`` message per move), built from one view with no hand in it
(:func:`public_view`), so two tables that differ only in cards no seat shows face up send
a spectator the same bytes (``tests/server/test_server_watching.py``): no hand, no card under
a pay-off top, no draw-pile order, no hint, no legal moves, no seed.

A spectator is no seat: a table holds spectators up to the hub's ``max_watchers``
(:data:`WATCHERS_PER_TABLE` by default), and watching never takes a seat from anyone.  A
table of bots alone plays while someone watches it, one move every ``bot_delay`` seconds
(the hub's pace for bots), and waits while nobody does.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import attrs

from spitemalice.engine.views import SeatView, view_of
from spitemalice.errors import ProtocolError
from spitemalice.formats.picture import isolated, position_svg
from spitemalice.formats.serialize import view_to_dict
from spitemalice.model import GameState
from spitemalice.play.session import HUMAN
from spitemalice.play.table_view import Played
from spitemalice.server import messages, standings
from spitemalice.server.protocol import Message, encode
from spitemalice.server.seating import Connection, Table
from spitemalice.server.shared import Elsewhere

if TYPE_CHECKING:
    from spitemalice.server.tables import Hub

WATCHERS_PER_TABLE = 200
"""Most spectators one table holds at once (each is also a connection the server's
per-address and total bounds count)."""

_PRIVATE = ("format", "version", "viewer", "hand")
"""The fields of a seat's view a spectator's ``public`` message leaves out."""


def watch_link(table_id: str) -> str:
    """The table's watch page, relative to the server: ``/watch/ID``."""
    return f"/watch/{table_id}"


def public_view(state: GameState) -> SeatView:
    """What every seat, and a spectator, may see of ``state``: a view whose hand is empty
    (every seat's hand is a count only), whatever the seat it is taken from."""
    return attrs.evolve(view_of(state, 0), hand=())


def bots_only(table: Table) -> bool:
    """Whether no person sits at ``table`` (every seat is a bot's)."""
    return all(seat.player != HUMAN for seat in table.entry.seats)


def watching(table: Table) -> dict[str, Any]:
    """The ``watching`` message: the table, the game, the rules, the seats and the match,
    as a seat's ``welcome`` has them, less everything about a seat of its own."""
    welcome = messages.welcome(table.id, 0, table.game, table.session.rules,
                               table.seat_list(), False)
    for key in ("seat", "undo", "replaced"):
        del welcome[key]
    return {**welcome, "type": "watching", "watch": watch_link(table.id),
            "match": standings.standing(table)}


def public(state: GameState, history: Sequence[Played], names: Sequence[str], ruleset: str,
           game: int, *, full: bool, picture: bool,
           teams: tuple[tuple[int, ...], ...] = ()) -> dict[str, Any]:
    """The ``public`` message: the position after the last move as a spectator sees it,
    built from :func:`public_view` of ``state`` and the public move log alone.

    Args:
        state: the position (only its public part is read).
        history: every move so far (each card a move moves lands face up: public).
        names: who sits at each seat, in seat order.
        ruleset: the rule set's name, for the picture's caption.
        game: the game's number at the table.
        full: add ``log``, every move so far (on arrival, after an undo or a rematch).
        picture: add the position drawn as SVG, every hand face down.
        teams: the teams, in a game with teams.
    """
    view = public_view(state)
    played = history[-1] if history else None
    data = view_to_dict(view, teams)
    for key in _PRIVATE:
        del data[key]
    message: dict[str, Any] = {"type": "public", "game": game, "number": len(history),
                               "last": _last(played, len(history), len(view.builds)),
                               "table": data}
    if full:
        message["log"] = [messages.noted({"seat": p.seat, "move": p.text}, p) for p in history]
    if picture:
        if played is None:
            caption = f"{ruleset}: the deal"
        else:
            done = ", completing its build pile" if played.completed else ""
            caption = (f"{ruleset}, move {len(history)}: "
                       f"{isolated(names[played.seat])} played {played.text}{done}")
        message["picture"] = position_svg(view, caption=caption, teams=teams,
                                          names=list(names), spectator=True)
    return message


def _last(played: Played | None, number: int, builds: int) -> dict[str, Any] | None:
    if played is None:
        return None
    source, target = messages.zones(played.move, played.seat)
    if played.completed:
        target = None
    elif target == "build-new":
        target = f"build{builds}" if builds else None
    return messages.noted({"number": number, "seat": played.seat, "move": played.text,
                           "from": source, "to": target, "completed": played.completed}, played)


def _public(table: Table, full: bool, picture: bool) -> dict[str, Any]:
    session = table.session
    teams = session.rules.teams
    return public(session.state, session.history, [seat.name for seat in session.seats],
                  session.rules.name, table.game, full=full, picture=picture,
                  teams=teams.teams if teams.any else ())


def public_text(table: Table, full: bool, picture: bool) -> str:
    """The ``public`` message of ``table``'s position, with the match's standing, as the
    compact JSON text every spectator with ``picture`` is sent (the caller holds the
    table's lock)."""
    return encode(standings.with_match(_public(table, full, picture), table))


async def watch(hub: Hub, conn: Connection, message: Message) -> None:
    """Answer a ``watch`` message: ``conn`` becomes a spectator of the table and is sent
    ``watching`` and the whole position; a table of bots alone starts to play.  A table
    another server process owns is watched from here all the same, its moves relayed
    (:meth:`~spitemalice.server.shared.Shared.watch`).

    Raises:
        ProtocolError: ``already-joined`` (the connection sits at a seat or watches a table
            already), ``no-table``, or ``watchers-full``.
    """
    check_free(conn)
    try:
        table = await hub._reach(message.get("table"))
    except Elsewhere as where:  # its moves come through the site's fan-out
        await hub.shared.watch(hub, conn, where.table_id, where.socket,
                               bool(message.get("picture", False)))
        return
    if len(table.watchers) >= hub.max_watchers:
        raise ProtocolError("watchers-full", f"table {table.id} has {hub.max_watchers} "
                            "spectator(s), as many as it takes; try again later")
    async with table.lock:  # as a join: the first message it is sent comes first
        conn.watching, conn.picture = table, bool(message.get("picture", False))
        table.watchers.add(conn)
        await conn.send(watching(table))
        await conn.send(standings.with_match(_public(table, True, conn.picture), table))
        await tell_count(table)
    if bots_only(table):
        hub._start_bots(table)


def check_free(conn: Connection) -> None:
    """Check that ``conn`` neither sits at a seat nor watches a table.

    Raises:
        ProtocolError: ``already-joined``, naming the table it is at.
    """
    where = conn.watching.id if conn.watching else conn.table.id if conn.table else conn.relay
    if where is not None:
        raise ProtocolError("already-joined", f"this connection is at table {where} "
                            "already; open another connection to watch another table")


async def announce(table: Table, full: bool) -> None:
    """Send every spectator of ``table`` the position (the caller holds its lock)."""
    built: dict[bool, str] = {}
    for client in list(table.watchers):
        if client.picture not in built:
            built[client.picture] = encode(standings.with_match(
                _public(table, full, client.picture), table))
        await client.send_text(built[client.picture])


def count(table: Table) -> dict[str, Any]:
    """The ``watchers`` message: how many spectators watch ``table`` now (a number, public:
    every seat and spectator is told the same)."""
    return {"type": "watchers", "count": len(table.watchers)}


async def tell_count(table: Table) -> None:
    """Send every seat and spectator of ``table`` the ``watchers`` message (when one
    arrives or leaves; the caller holds the table's lock)."""
    text = encode(count(table))
    for client in [*(c for clients in table.clients for c in clients), *table.watchers]:
        await client.send_text(text)


async def welcome_again(table: Table) -> None:
    """A new game at ``table`` (a rematch, the next game of a match): every spectator is
    sent ``watching`` again (the caller holds the lock)."""
    if table.watchers:
        text = encode(watching(table))
        for client in list(table.watchers):
            await client.send_text(text)


async def leave(hub: Hub, conn: Connection) -> None:
    """``conn``, a spectator, closed: it stops watching; a finished table nobody is at
    any more is let go (its records stay)."""
    table = conn.watching
    if table is None:
        return
    async with table.lock:
        table.watchers.discard(conn)
        conn.watching = None
        await tell_count(table)
        if not table.watchers and not any(table.clients) and table.session.is_over:
            hub.tables.pop(table.id, None)


__all__ = ["WATCHERS_PER_TABLE", "announce", "bots_only", "check_free", "count", "leave",
           "public", "public_text", "public_view", "tell_count", "watch", "watch_link",
           "watching", "welcome_again"]
