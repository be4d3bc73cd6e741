"""The members of issue 38's classes at the play server, found in the code, each with a row
here that says how it is held and which test holds it.  A new member (a new place that
accepts a connection, seats one, writes to the records folder, reads a message's field, or
serves a WebSocket) fails these tests until it has a row: the class stays closed.

* class 1, connections: every place a connection is accepted or a listener made;
* class 2, seat credentials: every place a connection is put at a seat or taken from one;
* class 6, the durable log: every place the server writes a record, a table file or the
  records folder;
* class 8, the reader's types: every field a handler reads from a message, and the form the
  reader gives it;
* class 9, DNS rebinding: every route of the web app, and the Origin check of each
  WebSocket route.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")

from starlette.routing import Route, WebSocketRoute

from spitemalice.server import KINDS, app, tables
from spitemalice.server.protocol import _READERS
from spitemalice.server.store import Store

SERVER = Path(app.__file__).parent
PACKAGE = SERVER.parent

Member = tuple[str, str, str]
"""(file under spitemalice/, the function it is in, the code)."""


def members(paths: list[Path], match: Callable[[ast.AST], str | None]) -> Iterator[Member]:
    """Every node of ``paths`` that ``match`` names, with its file and enclosing function."""
    for path in paths:
        name = str(path.relative_to(PACKAGE))
        yield from _visit(ast.parse(path.read_text(encoding="utf-8")), "", name, match)


def _visit(node: ast.AST, where: str, name: str,
           match: Callable[[ast.AST], str | None]) -> Iterator[Member]:
    for child in ast.iter_child_nodes(node):
        inner = where
        if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            inner = f"{where}.{child.name}" if where else child.name
        hit = match(child)
        if hit is not None:
            yield name, inner, hit
        yield from _visit(child, inner, name, match)


def found(paths: list[Path], match: Callable[[ast.AST], str | None]) -> set[Member]:
    return set(members(paths, match))


# --- class 1: where connections are accepted

ACCEPTING = {"accept", "create_server", "start_server", "create_unix_server", "serve", "listen"}
"""The last name of a call that accepts connections or makes a listener (besides uvicorn's
and websockets' own server entry points)."""


def _accepting(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call):
        text = ast.unparse(node.func)
        if text.rsplit(".", 1)[-1] in ACCEPTING or text in (
                "uvicorn.Config", "uvicorn.Server", "uvicorn.run", "websockets.serve"):
            return text
    return None


CONNECTIONS: dict[Member, str] = {
    ("server/app.py", "listen", "socket.create_server"):
        "the listening socket; its backlog is set by uvicorn to CONNECTION_BACKLOG "
        "(server_config), so at most that many are accepted before the gate counts them",
    ("server/app.py", "serve", "listen"): "the socket above, for spitemalice serve",
    ("server/app.py", "server_config", "uvicorn.Config"):
        "every connection uvicorn accepts goes through guard.guarded's protocols: the gate "
        "(per address, total below the descriptor limit), the handshake timeout; "
        "test_server_connections",
    ("server/app.py", "serve", "uvicorn.Server"): "runs server_config's configuration only",
    ("server/app.py", "_socket.socket", "websocket.accept"):
        "a WebSocket, after the Origin check and the per-address count of the app "
        "(one accept to say why it closes past the bound); the join timeout (_talk); "
        "test_server_connections, test_server_origins",
    ("cli/serve.py", "run_serve", "serve"): "app.serve, above",
}


def test_every_place_that_accepts_a_connection_has_a_row() -> None:
    assert found(sorted(PACKAGE.rglob("*.py")), _accepting) == set(CONNECTIONS)


# --- class 2: where a connection sits down or leaves a seat


def _seating(node: ast.AST) -> str | None:
    if isinstance(node, ast.Assign | ast.AugAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        for target in targets:
            for part in target.elts if isinstance(target, ast.Tuple) else [target]:
                if isinstance(part, ast.Attribute) and part.attr == "table":
                    return f"{ast.unparse(part)} ="
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
            and node.func.attr in ("add", "discard", "append", "update") \
            and "clients" in ast.unparse(node.func.value):
        return ast.unparse(node.func)
    return None


SEATING: dict[Member, str] = {
    ("server/seating.py", "Table.take_seat", "other.table ="):
        "the connection that held the seat is taken off it, told (seat-taken) and closed",
    ("server/seating.py", "Table.take_seat", "self.clients[seat].discard"): "the same",
    ("server/seating.py", "Table.take_seat", "conn.table ="):
        "the one place a connection sits down: after every other holder was put out",
    ("server/seating.py", "Table.take_seat", "self.clients[seat].add"): "the same; "
        "test_server_seats (a seat never holds two connections)",
    ("server/tables.py", "Hub.leave", "table.clients[conn.seat].discard"):
        "a closed connection leaves its seat; the table is told (seats)",
    ("server/tables.py", "Hub.leave", "conn.table ="): "the same",
    ("server/spit_live.py", "_join", "table.clients[seat].discard"):
        "a live spit table's seat: the connection that held it is told (seat-taken) and closed",
    ("server/spit_live.py", "_join", "table.clients[seat].add"):
        "the one place a connection sits at a live spit table: after every other holder was "
        "put out; test_server_spit",
    ("server/spit_live.py", "leave", "table.clients[conn.seat].discard"):
        "a closed connection leaves its live spit seat; the table is told (seats)",
}


def test_every_place_that_seats_a_connection_has_a_row() -> None:
    assert found(sorted(SERVER.glob("*.py")), _seating) == set(SEATING)


# --- class 6: where the server writes its records folder

WRITERS = {"play", "play_bot", "undo", "save", "resume", "Session", "write_file",
           "_write_record", "make_folder"}


def _writing(node: ast.AST) -> str | None:
    # a reference counts, not only a call: asyncio.to_thread(session.play_bot)
    if isinstance(node, ast.Attribute) and node.attr in WRITERS:
        return ast.unparse(node)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
            and node.func.id in WRITERS:
        return node.func.id
    return None


DURABLE: dict[Member, str] = {
    ("server/store.py", "Store.__init__", "make_folder"):
        "the records folder, made when the server starts: an error before it listens",
    ("server/store.py", "Store.save", "write_file"): "the table file; see its callers",
    ("server/tables.py", "Hub.resume", "Session.resume"):
        "at start (or, with Redis, when a dead owner's lease has run out), before anyone "
        "sits: the table is skipped with a line in the log and resumes at the next start",
    ("server/tables.py", "Hub.restore", "self.resume"): "Hub.resume, above, for each table",
    ("server/redis_leases.py", "rebuild", "hub.resume"):
        "with Redis, at start (each unfinished table whose lease this process took; the "
        "others are live elsewhere) and at a takeover (a dead owner's table, its lease "
        "taken): Hub.resume; a table that ended or cannot be read is let go again; "
        "test_server_redis (SIGKILL mid-game)",
    ("server/redis_leases.py", "rebuild", "spit_restore.resume"):
        "the same for a live Spit table (spit_restore.resume, which writes nothing); "
        "test_server_redis_spit (SIGKILL mid-game)",
    ("server/spit_restore.py", "restore", "resume"):
        "at start, before anyone sits: a live table that does not rebuild is skipped with "
        "a line in the log (it writes nothing); test_server_spit_restore",
    ("server/spit_live.py", "_arrive", "spit_restore.resume"):
        "a join or watch of a live table not in memory (its game ended before a restart, "
        "or its lease was lost and found again): skipped with a log line and no-table to "
        "the client; test_server_spit_restore",
    ("server/spit_restore.py", "save", "write_file"): "the live table file; see its callers",
    ("server/spit_live.py", "_create", "spit_restore.save"):
        "a new live table's file: server-error to its creator and a log line, the table "
        "not opened (nobody else sits there)",
    ("server/spit_live.py", "_rematch", "spit_restore.save"):
        "a rematch's file: a log line; the new game is played, but a restart finds the "
        "table at its previous game",
    ("server/tables.py", "Hub._on_create", "Session"):
        "a new table's first record: server-error to its creator (nobody else sits there) "
        "and a log line; test_server_seats",
    ("server/tables.py", "Hub._on_create", "self.store.save"): "the same",
    ("server/tables.py", "Hub._on_move", "session.play"):
        "a person's move: every seat and the log are told (Hub._not_kept), the move is not "
        "made; test_server_seats",
    ("server/tables.py", "Hub._run_bots", "session.play_bot"):
        "a bot's move: every seat and the log are told, the bot tries again (1 s, doubling "
        "to a minute) and the table goes on once it is written; test_server_seats",
    ("server/tables.py", "Hub._on_undo", "table.session.undo"):
        "an undo: told to every seat and the log when it is a write that failed (an "
        "OutputError in its context), no-undo otherwise",
    ("server/quickplay.py", "_open", "Session"):
        "a quick-play table's first record: server-error to the people matched (nobody is "
        "seated) and a log line; test_server_quickplay",
    ("server/quickplay.py", "_open", "hub.store.save"): "the same",
    ("server/matches.py", "deal_next", "Session"):
        "a rematch's (or a match's next game's) first record: every seat and the log are "
        "told, the old game stays",
    ("server/matches.py", "deal_next", "hub.store.save"): "the same",
    ("server/listing.py", "claim", "hub.store.save"):
        "a seat taken from the lobby: server-error to the client, nothing changed (the seat "
        "stays free, its old token stands)",
    ("server/spit_table.py", "SpitTable.write", "write_file"):
        "a live spit table's record: for a new game, server-error to the creator (or the "
        "rematch's asker) and nothing dealt; for a move, every seat and the log are told and "
        "the move is taken back; for a stale count, kept for the next move's write",
    ("server/listing.py", "seat_joined", "hub.store.save"):
        "a public table's free seat joined through its link: a log line; the seat is taken "
        "all the same, and after a restart the lobby offers it until it is joined again",
}


def test_every_write_to_the_records_folder_has_a_row() -> None:
    paths = [p for p in sorted(SERVER.glob("*.py")) if p.name != "remote.py"]  # a client
    assert found(paths, _writing) == set(DURABLE)


# --- class 8: every field a handler reads, and its reader


def _field_reads() -> set[tuple[str, str]]:
    reads = set()
    for name, handler in inspect.getmembers(tables.Hub, inspect.iscoroutinefunction):
        if not name.startswith("_on_"):
            continue
        for node in ast.walk(ast.parse(inspect.getsource(handler).strip().replace(
                "\n    ", "\n"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "get" and ast.unparse(node.func.value) == "message":
                key = node.args[0]
                assert isinstance(key, ast.Constant), ast.unparse(node)
                reads.add((name[4:], key.value))
            if isinstance(node, ast.Attribute) and node.attr == "fields":
                reads.add((name[4:], "fields"))  # read past the reader: needs a row
    return reads


def test_every_field_a_handler_reads_is_one_the_reader_checked() -> None:
    reads = _field_reads()
    assert ("join", "seat") in reads and ("move", "move") in reads
    for kind, field in reads:
        required, optional = KINDS[kind]
        assert field in required or field in optional, (kind, field)
    # lobby.table_rules, and listing.table_options (public, match), reaction_ms
    # (lobby._check_live, spit_live._reaction), and leavers.table_options (clock, grace,
    # takeover)
    lobby_reads = {"ruleset", "ruleset_file", "house_rules", "seats", "params", "public",
                   "match", "reaction_ms", "clock", "grace", "takeover"}
    assert lobby_reads == set(KINDS["create"][0]) | set(KINDS["create"][1])


def test_every_field_has_a_reader_for_its_form() -> None:
    for required, optional in KINDS.values():
        for form in (*required.values(), *optional.values()):
            assert form in _READERS
    # test_server_errors sends every JSON type at every one of these fields and at "type"


# --- class 9: the routes, and the Origin check of each WebSocket


def test_every_route_has_a_row_and_every_websocket_checks_its_origin(tmp_path: Path) -> None:
    application = app.create_app(tables.Hub(Store(tmp_path)), restore=False)
    routes = {(type(r).__name__, r.path) for r in application.routes}
    assert routes == {("Route", "/"), ("Route", "/table/{table}"),
                      ("Route", "/static/{name}"), ("WebSocketRoute", "/ws"),
                      ("Route", "/watch/{table}"), ("Route", "/replay"), ("Route", "/games"),
                      ("Route", "/games/{game}"), ("Route", "/games/{game}/{number}"),
                      ("Route", "/spit"), ("Route", "/spit/{table}")}
    posted = []
    for route in application.routes:
        if isinstance(route, WebSocketRoute):
            assert "_origin_allowed" in inspect.getsource(route.endpoint)
        elif isinstance(route, Route) and route.methods == {"POST"}:
            posted.append(route.path)
        else:  # pages only: GET (and HEAD), nothing changes
            assert isinstance(route, Route) and route.methods == {"GET", "HEAD"}
    # but one: a record file the replay page sends, bounded, kept in memory a while, and
    # changing no table nor any file (tests/server/test_server_replays.py)
    assert posted == ["/games"]


# --- the error codes: every one the code sends is documented (test_server_errors provokes
# each documented one)


def _code_sent(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call) and ast.unparse(node.func) in ("ProtocolError", "error") \
            and node.args and isinstance(node.args[0], ast.Constant) \
            and isinstance(node.args[0].value, str):
        return node.args[0].value
    return None


def test_every_error_code_the_server_sends_is_documented() -> None:
    from spitemalice.server import ERROR_CODES
    paths = [p for p in sorted(SERVER.glob("*.py")) if p.name != "remote.py"]
    sent = {code for _, _, code in found(paths, _code_sent)}
    assert {"seat-taken", "server-error", "rate-limited", "not-on-turn"} <= sent
    assert sent <= set(ERROR_CODES), sent - set(ERROR_CODES)
