"""The play server's web app: the lobby and table pages, and the protocol's WebSocket.

One ASGI app (Starlette), served by uvicorn (:func:`serve`).  Routes:

* ``GET /``: the lobby page (open a table);
* ``GET /table/ID``: a table's page; the seat and its token travel in the link's fragment
  (``#seat=0&token=...``), which a browser never sends to a server, so no server or proxy
  log holds a token;
* ``GET /static/NAME``: the pages' CSS and ES modules (package data; no build step, no CDN);
* ``/ws``: the WebSocket every page and program talks through
  (:mod:`spitemalice.server.protocol`).  A browser's WebSocket from a page of another site
  (an ``Origin`` that is not this server's) is refused; programs send no ``Origin``.

Every page is sent with a Content-Security-Policy that lets it load only this server's
own files and talk only to this server.
"""

from __future__ import annotations

import contextlib
import errno
import os
import socket
import sys
from collections.abc import AsyncIterator
from importlib import resources
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from spitemalice import limits, wording
from spitemalice.errors import SpiteMaliceError
from spitemalice.server.store import TABLE_ID, Store
from spitemalice.server.tables import Connection, Hub
from spitemalice.wording import for_terminal

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


def create_app(hub: Hub, *, restore: bool = True) -> Starlette:
    """The ASGI app around ``hub``; with ``restore`` it rebuilds the unfinished tables of
    ``hub.store`` when it starts (printing a line per table) and stops the bots when it
    stops."""
    files = _static()

    def page(name: str) -> Response:
        suffix = name[name.rfind("."):]
        return Response(files[name], media_type=_TYPES[suffix], headers=_HEADERS)

    async def lobby(request: Request) -> Response:
        return page("index.html")

    async def table(request: Request) -> Response:
        if not TABLE_ID.fullmatch(request.path_params["table"]):
            return PlainTextResponse("no such table", status_code=404)
        return page("table.html")

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        if name not in files or name.endswith(".html"):
            return PlainTextResponse("not found", status_code=404)
        return page(name)

    async def socket(websocket: WebSocket) -> None:
        origin = websocket.headers.get("origin")
        if origin is not None and not _same_origin(origin, websocket.headers.get("host", "")):
            await websocket.close(code=1008, reason="a page of another site may not connect")
            return
        await websocket.accept()
        client = websocket.client
        conn = Connection(websocket.send_text, client.host if client else "unknown")
        try:
            while True:
                received = await websocket.receive()
                if received["type"] == "websocket.disconnect":
                    break
                text = received.get("text")
                await hub.receive(conn, text if text is not None else received.get("bytes", b""))
        except WebSocketDisconnect:
            pass
        finally:
            await hub.leave(conn)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if restore:
            for line in hub.restore():
                print(f"spitemalice serve: {for_terminal(line)}", file=sys.stderr)
        yield
        await hub.close()

    return Starlette(routes=[
        Route("/", lobby), Route("/table/{table}", table), Route("/static/{name}", static),
        WebSocketRoute("/ws", socket),
    ], lifespan=lifespan)


def _same_origin(origin: str, host: str) -> bool:
    """Whether a browser's ``Origin`` names this server (the ``Host`` it was asked as)."""
    return urlsplit(origin).netloc.lower() == host.lower()


def serve(host: str, port: int, records: str, *, bot_delay: float = 0.6,
          max_tables: int = limits.MAX_TABLES,
          max_tables_per_client: int = limits.MAX_TABLES_PER_CLIENT) -> None:
    """Run the server until it is interrupted (``spitemalice serve``).  It binds the port
    itself before it says where it listens, so ``port`` 0 (any free port) is told as the port
    the system chose.

    Raises:
        SpiteMaliceError: the records folder cannot be made, or ``host`` and ``port`` cannot
            be listened on (the port in use, say): the message names both and what to try.
    """
    import uvicorn

    hub = Hub(Store(records), bot_delay=bot_delay, max_tables=max_tables,
              max_tables_per_client=max_tables_per_client)
    sock = listen(host, port)
    where = f"[{host}]" if ":" in host else host
    print(for_terminal(f"spitemalice serve: http://{where}:{sock.getsockname()[1]}/ (records "
                       f"in {hub.store.directory}; stop with Ctrl-C)"), file=sys.stderr)
    # Ctrl-C (or SIGTERM) closes open connections after at most 3 s; every move is already
    # in the records, so nothing waits on them.
    config = uvicorn.Config(create_app(hub), ws_max_size=limits.MAX_FRAME_BYTES,
                            log_level="warning", proxy_headers=True, timeout_graceful_shutdown=3)
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
