"""The play server's web app: the lobby and table pages, and the protocol's WebSocket.

One ASGI app (Starlette), served by uvicorn (:func:`serve`).  Routes:

* ``GET /``: the lobby page (open a table);
* ``GET /table/ID``: a table's page; the seat and its token travel in the link's fragment
  (``#seat=0&token=...``), which a browser never sends to a server, so no server or proxy
  log holds a token;
* ``GET /spit`` and ``GET /spit/ID``: the page of a live table whose seats move at once
  (Spit): ``/spit`` opens one, ``/spit/ID#seat=0&token=...`` plays a seat
  (:mod:`spitemalice.server.spit_live`);
* ``GET /watch/ID``, ``/replay`` and ``/games...``: watching a table and replaying
  finished games (:mod:`spitemalice.server.browse`);
* ``GET /static/NAME``: the pages' CSS and ES modules (package data; no build step, no CDN);
* ``/ws``: the WebSocket every page and program talks through
  (:mod:`spitemalice.server.protocol`).  A browser's WebSocket from a page of another site
  is refused: its ``Origin`` must be one of the server's own names (the loopback names at the
  port it listens on, and those ``--allowed-origin`` adds), never merely the ``Host`` it was
  asked as, which a rebound DNS name makes anything; programs send no ``Origin``.  A
  WebSocket that has not joined a seat :data:`~spitemalice.limits.JOIN_SECONDS` after it
  opened is closed, and one address holds at most ``max_connections_per_client`` of them.

:func:`server_config` puts the app behind the connection bounds of
:mod:`spitemalice.server.guard`; :func:`serve` runs it.

Every page is sent with a Content-Security-Policy that lets it load only this server's
own files and talk only to this server.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import socket
import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Collection
from importlib import resources
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from spitemalice import guards, limits, wording
from spitemalice.errors import SpiteMaliceError
from spitemalice.server import browse, quickplay
from spitemalice.server.guard import Gate, guarded, quiet_accept_errors, total_bound
from spitemalice.server.store import TABLE_ID, Store
from spitemalice.server.tables import Connection, Hub
from spitemalice.wording import for_terminal

if TYPE_CHECKING:
    import uvicorn

_TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
          ".js": "text/javascript; charset=utf-8"}
_HEADERS = {
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "img-src 'self' data:; connect-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
}


def _static() -> dict[str, bytes]:
    folder = resources.files("spitemalice.server") / "static"
    return {item.name: item.read_bytes() for item in folder.iterdir()
            if item.name.endswith(tuple(_TYPES))}


def create_app(hub: Hub, *, restore: bool = True, origins: Collection[str] = (),
               max_connections_per_client: int = limits.MAX_CONNECTIONS_PER_CLIENT,
               join_seconds: float = limits.JOIN_SECONDS) -> Starlette:
    """The ASGI app around ``hub``; with ``restore`` it rebuilds the unfinished tables of
    ``hub.store`` when it starts (printing a line per table) and stops the bots when it
    stops.

    Args:
        origins: the origins (``https://play.example.org``) whose pages may open the
            WebSocket besides the loopback names at the server's own port
            (:func:`allowed_origins` reads them).
        max_connections_per_client: WebSockets one address may hold at once (the address a
            trusted proxy names, when one does).
        join_seconds: how long a WebSocket may stay open without sitting at a seat.

    Raises:
        SpiteMaliceError: an origin that is not ``scheme://host[:port]``, or a bound out of
            range.
    """
    _check_origins(origins, "create_app")
    files = _static()
    allowed = allowed_origins(origins)
    join_seconds = guards.check_delay(join_seconds, "join_seconds")

    def page(name: str) -> Response:
        suffix = name[name.rfind("."):]
        return Response(files[name], media_type=_TYPES[suffix], headers=_HEADERS)

    async def lobby(request: Request) -> Response:
        return page("index.html")

    async def table(request: Request) -> Response:  # and /spit, a live spit table's page
        if not TABLE_ID.fullmatch(request.path_params.get("table", "0" * 16)):
            return PlainTextResponse("no such table", status_code=404)
        return page("spit.html" if request.url.path.startswith("/spit") else "table.html")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in files or name.endswith(".html"):
            return PlainTextResponse("not found", status_code=404)
        return page(name)

    socket = _socket(hub, allowed, Gate(limits.MAX_INT, max_connections_per_client),
                     join_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        quiet_accept_errors(asyncio.get_running_loop())
        for line in await hub.shared.start(hub, restore):
            print(f"spitemalice serve: {for_terminal(line)}", file=sys.stderr)
        yield
        await hub.close()
        await hub.shared.close()

    return Starlette(routes=[
        Route("/", lobby), Route("/table/{table}", table), Route("/static/{name}", static),
        Route("/spit", table), Route("/spit/{table}", table),
        *browse.routes(hub.store, page),
        WebSocketRoute("/ws", socket),
    ], lifespan=lifespan)


def _socket(hub: Hub, allowed: frozenset[str], sockets: Gate,
            join_seconds: float) -> Callable[[WebSocket], Awaitable[None]]:
    """The ``/ws`` endpoint: the Origin check, the per-address count (``sockets``), then
    each message to ``hub``."""

    async def socket(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if origin is not None and not _origin_allowed(origin, websocket.scope, allowed):
            await websocket.close(code=1008, reason="a page of another site may not connect")
            return
        client = websocket.client
        address = client.host if client else "unknown"
        if not sockets.admit(websocket, address):
            await websocket.accept()
            await websocket.close(code=1013, reason=f"{sockets.per_client} connections from "
                                  "this address are open already; close one first")
            return
        try:
            await websocket.accept()
            conn = Connection(websocket.send_text, address, close=_closer(websocket))
            await _talk(hub, websocket, conn, join_seconds)
        finally:
            sockets.release(websocket)

    return socket


async def _talk(hub: Hub, websocket: WebSocket, conn: Connection, join_seconds: float) -> None:
    """Hand each message of ``websocket`` to ``hub`` until it closes; closed by the server
    when it sits at no seat ``join_seconds`` after it opened (or after it lost its seat)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + join_seconds
    try:
        while True:
            seated = (conn.table is not None or conn.watching is not None
                      or conn.live is not None or bool(conn.relay))
            wait = None if seated else deadline - loop.time()
            try:
                received = await asyncio.wait_for(websocket.receive(), wait)
            except TimeoutError:
                await websocket.close(code=1008, reason="no seat joined within "
                                      f"{join_seconds:g} s; connect again to join a table")
                break
            if received["type"] == "websocket.disconnect":
                break
            text = received.get("text")
            await hub.receive(conn, text if text is not None else received.get("bytes", b""))
    except WebSocketDisconnect:
        pass
    finally:
        await hub.leave(conn)


def _closer(websocket: WebSocket) -> Callable[[int, str], Awaitable[None]]:
    async def close(code: int, reason: str) -> None:
        await websocket.close(code=code, reason=reason)
    return close


def allowed_origins(origins: Collection[str]) -> frozenset[str]:
    """``origins`` (``https://play.example.org``, ``http://192.168.1.5:8000``) in the form
    compared with a browser's ``Origin`` (scheme, host and port, always with its port).

    Raises:
        SpiteMaliceError: one is not ``http`` or ``https`` ``://host[:port]`` with nothing
            after it; the message names it and shows the form.
        TypeError: ``origins`` is a str or no collection (a list of origins belongs there).
    """
    _check_origins(origins, "allowed_origins")
    normal = set()
    for origin in origins:
        found = _normal_origin(origin) if isinstance(origin, str) else None
        if found is None:
            raise SpiteMaliceError(f"--allowed-origin {wording.shown(origin)} is not an "
                                   "origin: give scheme://host[:port] with nothing after it, "
                                   "such as https://play.example.org or http://10.0.0.5:8000")
        normal.add(found)
    return frozenset(normal)


def _check_origins(origins: object, function: str) -> None:
    guards.check_list(origins, function, "origins, a list of origins,",
                      '["https://play.example.org"]')


def _normal_origin(origin: str) -> str | None:
    """``scheme://host:port`` of an origin, lower case, the port always given; ``None``
    when it is no http(s) origin (a path, a user, ``null``)."""
    try:
        parts = urlsplit(origin.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.username \
            or parts.password is not None or parts.path not in ("", "/") or parts.query \
            or parts.fragment or origin.strip().endswith(("?", "#")):
        return None
    host = parts.hostname.lower()
    host = f"[{host}]" if ":" in host else host
    return f"{parts.scheme}://{host}:{port or (443 if parts.scheme == 'https' else 80)}"


_LOOPBACK = ("127.0.0.1", "localhost", "[::1]")


def _origin_allowed(origin: str, scope: Any, allowed: frozenset[str]) -> bool:
    """Whether a browser's ``Origin`` is one of this server's names: a loopback name at the
    port the connection came in on, or one of ``allowed``.  (Comparing it with the ``Host``
    header lets in a page of another site whose name was made to resolve to this server.)"""
    normal = _normal_origin(origin)
    if normal is None:
        return False
    server = scope.get("server")
    port = server[1] if isinstance(server, tuple | list) and len(server) > 1 else None
    own = {f"http://{host}:{port}" for host in _LOOPBACK} if port else set()
    return normal in allowed or normal in own


def server_config(hub: Hub, *, origins: Collection[str] = (),
                  max_connections: int = limits.MAX_CONNECTIONS,
                  max_connections_per_client: int = limits.MAX_CONNECTIONS_PER_CLIENT,
                  **options: Any) -> uvicorn.Config:
    """uvicorn's configuration of the app around ``hub`` behind the connection bounds
    (:mod:`spitemalice.server.guard`): at most ``max_connections`` (lowered below the
    descriptor limit) and ``max_connections_per_client`` per address; ``options`` go to
    :class:`uvicorn.Config`, but ``restore`` and ``join_seconds`` to :func:`create_app` and
    ``handshake_seconds`` (default :data:`~spitemalice.limits.HANDSHAKE_SECONDS`) to
    :func:`~spitemalice.server.guard.guarded`.

    Raises:
        SpiteMaliceError: a bound that is not a whole number from 1 to
            :data:`~spitemalice.limits.MAX_INT`, or an origin :func:`allowed_origins` refuses.
    """
    import uvicorn

    _check_origins(origins, "server_config")
    restore = options.pop("restore", True)
    join_seconds = options.pop("join_seconds", limits.JOIN_SECONDS)
    handshake_seconds = options.pop("handshake_seconds", limits.HANDSHAKE_SECONDS)
    app = create_app(hub, restore=restore, origins=origins,
                     max_connections_per_client=max_connections_per_client,
                     join_seconds=join_seconds)
    options = {"ws_max_size": limits.MAX_FRAME_BYTES, "log_level": "warning",
               "backlog": limits.CONNECTION_BACKLOG, **options}
    config = uvicorn.Config(app, **options)
    config.load()  # the protocol classes it chose, wrapped below
    # Addresses whose forwarded headers are trusted are proxies: every client comes through
    # them, so the gate counts them in the total only (the app bounds the clients they name).
    trusted = config.forwarded_allow_ips
    exempt = [trusted] if isinstance(trusted, str) else list(trusted or ())
    exempt = [ip.strip() for item in exempt for ip in item.split(",") if ip.strip() != "*"]
    gate = Gate(total_bound(guards.check_int(max_connections, "max_connections", 1)),
                max_connections_per_client, exempt=exempt)
    config.http_protocol_class, config.ws_protocol_class = guarded(
        gate, config.http_protocol_class, config.ws_protocol_class, handshake_seconds)
    config.gate = gate  # type: ignore[attr-defined]  # the tests look at it
    return config


def serve(host: str, port: int, records: str, *, bot_delay: float = 0.6,
          max_tables: int = limits.MAX_TABLES,
          max_tables_per_client: int = limits.MAX_TABLES_PER_CLIENT,
          origins: Collection[str] = (), max_connections: int = limits.MAX_CONNECTIONS,
          max_connections_per_client: int = limits.MAX_CONNECTIONS_PER_CLIENT,
          redis: str | None = None, socket_url: str | None = None,
          lease_seconds: float | None = None, quickplay_wait: float = 20.0) -> None:
    """Run the server until it is interrupted (``spitemalice serve``).  It binds the port
    itself before it says where it listens, so ``port`` 0 (any free port) is told as the port
    the system chose.  ``origins``, ``max_connections`` and ``max_connections_per_client``
    are :func:`server_config`'s.

    With ``redis`` (a URL), the process is one of a site's several, sharing that Redis
    (:class:`~spitemalice.server.redis_shared.RedisShared`): ``socket_url`` is its WebSocket
    address as clients reach it (default ``ws://HOST:PORT/ws``), ``lease_seconds`` its
    tables' lease.  ``quickplay_wait`` is how long quick play waits for people before bots
    take the empty seats (:mod:`spitemalice.server.quickplay`).

    Raises:
        SpiteMaliceError: the records folder cannot be made, ``host`` and ``port`` cannot be
            listened on (the port in use, say): the message names both and what to try; an
            origin or bound :func:`server_config` refuses; or, with ``redis``, the redis
            extra missing or a ``socket_url`` or ``lease_seconds`` out of form.
    """
    import uvicorn

    _check_origins(origins, "serve")
    sock = listen(host, port)
    where = f"[{host}]" if ":" in host else host
    shared = None
    if redis is not None:
        from spitemalice.server.redis_shared import LEASE_SECONDS, RedisShared

        shared = RedisShared(redis, socket_url or f"ws://{where}:{sock.getsockname()[1]}/ws",
                             lease_seconds=lease_seconds or LEASE_SECONDS)
        shared.check_reachable()
    hub = Hub(Store(records), bot_delay=bot_delay, max_tables=max_tables,
              max_tables_per_client=max_tables_per_client, shared=shared)
    queues = None
    if shared is not None:
        from spitemalice.server.redis_queues import RedisQueues

        queues = RedisQueues(shared)
    quickplay.configure(hub, wait=quickplay_wait, queues=queues)
    # Ctrl-C (or SIGTERM) closes open connections after at most 3 s; every move is already
    # in the records, so nothing waits on them.
    config = server_config(hub, origins=origins, max_connections=max_connections,
                           max_connections_per_client=max_connections_per_client,
                           proxy_headers=True, timeout_graceful_shutdown=3)
    print(for_terminal(f"spitemalice serve: http://{where}:{sock.getsockname()[1]}/ (records "
                       f"in {hub.store.directory}; stop with Ctrl-C)"), file=sys.stderr)
    if config.gate.total < max_connections:  # type: ignore[attr-defined]
        print(f"spitemalice serve: at most {config.gate.total:,} connections at once "  # type: ignore[attr-defined]
              "(the process's descriptor limit; raise it with ulimit -n)", file=sys.stderr)
    uvicorn.Server(config).run(sockets=[sock])


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` (an IPv6 address when it holds a colon) and ``port``
    (0: any free port).

    Raises:
        SpiteMaliceError: the address cannot be listened on; the message says why.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family, reuse_port=False)
    except OSError as error:
        # create_server adds "(while attempting to bind ...)" to strerror; a failed name
        # lookup has a negative code, which os.strerror does not know: its own words then
        why = os.strerror(error.errno) if error.errno and error.errno > 0 else \
            (error.strerror or str(error)).split(" (while attempting")[0]
        hint = ("choose another with --port, or --port 0 for any free one"
                if error.errno == errno.EADDRINUSE else "check --host and --port")
        raise SpiteMaliceError(f"cannot listen on {wording.shown(host)} port {port}: {why}; "
                               f"{hint}") from None
