"""How many connections the play server holds, and for how long (issue 38, class 1).

One client that opens connections and leaves them idle must not shut every other client
out, nor run the server out of file descriptors.  The bounds, all in
:mod:`spitemalice.limits`:

* :class:`Gate` counts the open connections, per network address and in total; a
  connection past either bound is closed as soon as it is accepted, before any byte of it is
  read, and counted (a line in the server's log at most once a minute, never one per
  connection).  The total is lowered below the process's descriptor limit
  (:func:`total_bound`), so the server never runs out of descriptors;
* :func:`guarded` wraps the web server's protocol classes (uvicorn's ``http`` and ``ws``):
  every connection passes the gate when it is accepted and leaves it when it closes, HTTP or
  WebSocket; a connection that has not become a WebSocket
  :data:`~spitemalice.limits.HANDSHAKE_SECONDS` after it opened is closed (once its current
  answer, if any, is sent);
* :func:`quiet_accept_errors`: should the process run out of descriptors all the same
  (other files open), Python's event loop logs a traceback for every connection it fails to
  accept, thousands a second; the handler installed here says it in one line, at most every
  ten seconds.

A WebSocket that never sits at a seat is closed by the web app
(:data:`~spitemalice.limits.JOIN_SECONDS`, :mod:`spitemalice.server.app`).  This module
knows nothing of HTTP: it wraps whatever protocol classes it is given.
"""

from __future__ import annotations

import asyncio
import sys
import time
from collections.abc import Callable, Collection
from typing import Any

from spitemalice import guards, limits

_RESERVE = 64
"""Descriptors kept back from the connections: the listening socket, the event loop's own,
standard streams, the record and table files being written."""


def descriptor_limit() -> int | None:
    """The process's soft limit on open file descriptors, or ``None`` when it has none or
    the platform does not say (Windows)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to stay under
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def total_bound(wanted: int, limit: int | None = None,
                backlog: int = limits.CONNECTION_BACKLOG) -> int:
    """The connections a server may hold: ``wanted``, lowered so that they, a burst of
    ``backlog`` accepted at once, and a reserve for the server's own files stay under the
    descriptor ``limit`` (default: :func:`descriptor_limit`); at least 1."""
    limit = descriptor_limit() if limit is None else limit
    if limit is None:
        return wanted
    return max(1, min(wanted, limit - backlog - _RESERVE))


class Gate:
    """The connections open now, per address and in total.

    Args:
        total: most connections at once.
        per_client: most connections from one address at once.
        exempt: addresses counted in the total only (a reverse proxy's, which carries every
            client's connections; the web app bounds those by the address the proxy names).
        say: where the summary of refused connections goes (default: a line on stderr).
        clock: seconds (default :func:`time.monotonic`).

    Raises:
        SpiteMaliceError: ``total`` or ``per_client`` not a whole number from 1 to
            :data:`~spitemalice.limits.MAX_INT`.
        TypeError: ``exempt`` a str or no collection.
    """

    def __init__(self, total: int = limits.MAX_CONNECTIONS,
                 per_client: int = limits.MAX_CONNECTIONS_PER_CLIENT, *,
                 exempt: Collection[str] = (), say: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        guards.check_list(exempt, "Gate", "exempt, a list of addresses,", '["127.0.0.1"]')
        self.total = guards.check_int(total, "total", 1)
        self.per_client = guards.check_int(per_client, "per_client", 1)
        self.exempt = frozenset(exempt)
        self.say = say or _stderr
        self.clock = clock
        self.held: dict[object, str] = {}
        self.by_address: dict[str, int] = {}
        self.refused = 0
        self.said = clock()

    def admit(self, key: object, address: str) -> bool:
        """Count the connection ``key`` from ``address`` if both bounds allow it; false (and
        the refusal counted) when one does not."""
        if key in self.held:
            return True
        mine = self.by_address.get(address, 0)
        if len(self.held) >= self.total or (address not in self.exempt
                                            and mine >= self.per_client):
            self._refuse()
            return False
        self.held[key] = address
        self.by_address[address] = mine + 1
        return True

    def release(self, key: object) -> None:
        """The connection ``key`` closed (a second release of it does nothing)."""
        address = self.held.pop(key, None)
        if address is None:
            return
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]

    def count(self, address: str) -> int:
        """Connections open now from ``address``."""
        return self.by_address.get(address, 0)

    def _refuse(self) -> None:
        # One line a minute at most, whatever the flood: a log nobody reads must not fill a
        # disk or block the server on a full pipe.
        self.refused += 1
        now = self.clock()
        if now - self.said >= 60:
            self.say(f"refused {self.refused:,} connections in the last {now - self.said:.0f} s "
                     f"(at most {self.total:,} at once, {self.per_client:,} per address)")
            self.refused, self.said = 0, now


def _stderr(line: str) -> None:
    print(f"spitemalice serve: {line}", file=sys.stderr, flush=True)


class _Forward(asyncio.Protocol):
    """A protocol that hands every event to ``inner`` (the web server's own protocol)."""

    inner: Any = None
    timer: asyncio.TimerHandle | None = None

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return None if self.inner is None else self.inner.eof_received()

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


def _abort(transport: asyncio.BaseTransport) -> None:
    """Close ``transport`` now, dropping what it has not sent (a socket's transport)."""
    abort = getattr(transport, "abort", None)
    if abort is not None:
        abort()
    else:
        transport.close()


def _address(transport: asyncio.BaseTransport) -> str:
    peer = transport.get_extra_info("peername")
    return str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"


def guarded(gate: Gate, http: Callable[..., Any], ws: Callable[..., Any] | None,
            handshake: float = limits.HANDSHAKE_SECONDS) -> tuple[type, type | None]:
    """The protocol classes ``http`` and ``ws`` (uvicorn's, built with keyword arguments
    only), each wrapped so that every connection passes ``gate``: an HTTP protocol for a
    connection the gate refuses is never made (the connection is aborted), a connection
    leaves the gate when it closes, whether it became a WebSocket or not, and one that is not
    a WebSocket after ``handshake`` seconds is closed.  ``ws`` ``None``: no WebSockets."""
    handshake = guards.check_delay(handshake, "handshake")

    class GuardedHTTP(_Forward):
        def __init__(self, **kwargs: Any) -> None:
            self.kwargs = kwargs
            self.timer: asyncio.TimerHandle | None = None
            self.transport: asyncio.BaseTransport | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            if not gate.admit(transport, _address(transport)):
                _abort(transport)  # nothing read, nothing logged: the gate counted it
                return
            self.transport, self.inner = transport, http(**self.kwargs)
            self.inner.connection_made(transport)
            loop = asyncio.get_running_loop()
            self.timer = loop.call_later(handshake, _late, self, transport, handshake)

        def connection_lost(self, exc: Exception | None) -> None:
            if self.timer is not None:
                self.timer.cancel()
            if self.inner is not None:  # an aborted connection was never counted
                gate.release(self.transport)
                self.inner.connection_lost(exc)

    if ws is None:
        return GuardedHTTP, None
    socket_class = ws

    class GuardedWS(_Forward):
        def __init__(self, **kwargs: Any) -> None:
            self.inner = socket_class(**kwargs)
            self.transport: asyncio.BaseTransport | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self.transport = transport  # counted when it was an HTTP connection
            self.inner.connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            gate.release(self.transport)
            self.inner.connection_lost(exc)

    return GuardedHTTP, GuardedWS


def _late(protocol: _Forward, transport: asyncio.BaseTransport, after: float) -> None:
    # Still this HTTP protocol's (not handed to a WebSocket) and open: close it once any
    # answer being sent is done (uvicorn's shutdown), for good after as long again.
    handed_on = transport.get_protocol() is not protocol
    if transport.is_closing() or handed_on:
        return
    shutdown = getattr(protocol.inner, "shutdown", None)
    if shutdown is not None and protocol.timer is not None:
        shutdown()
        protocol.timer = asyncio.get_running_loop().call_later(after, _abort, transport)
    else:
        _abort(transport)


def quiet_accept_errors(loop: asyncio.AbstractEventLoop,
                        say: Callable[[str], None] | None = None,
                        clock: Callable[[], float] = time.monotonic) -> None:
    """Make ``loop`` say a failed accept (out of descriptors or memory) in one line at most
    every ten seconds, with how many failed, instead of a traceback per connection; every
    other error goes to the handler it had."""
    say = say or _stderr
    previous = loop.get_exception_handler()
    seen = {"count": 0, "said": -1.0e9}

    def handle(loop_: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if context.get("message") != "socket.accept() out of system resource":
            if previous is None:
                loop_.default_exception_handler(context)
            else:
                previous(loop_, context)
            return
        seen["count"] += 1
        now = clock()
        if now - seen["said"] >= 10:
            error = context.get("exception")
            why = error.strerror if isinstance(error, OSError) else error
            say(f"cannot accept connections ({why}): {seen['count']:,} failed since the last "
                f"such line; the descriptor limit is {descriptor_limit() or 'none'}")
            seen["count"], seen["said"] = 0, now

    loop.set_exception_handler(handle)
