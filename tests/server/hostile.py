"""Servers that are not a spitemalice server, for the remote bot's tests (issue 38, class 3):
one that answers the HTTP request with bytes of the test's choosing, and a WebSocket server
that sends the test's messages after the bot's ``join`` and then closes as told."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections.abc import Iterator, Sequence

from websockets.asyncio.server import ServerConnection, serve


@contextlib.contextmanager
def raw_http(answer: bytes) -> Iterator[str]:
    """A server on a free port of 127.0.0.1 that answers every connection's request with
    ``answer`` and closes; yields a seat's link to it."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()

    def run() -> None:
        while not stop.is_set():
            try:
                peer, _ = listener.accept()
            except OSError:
                continue
            with peer:
                peer.settimeout(2)
                with contextlib.suppress(OSError):
                    peer.recv(65536)
                    peer.sendall(answer)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield link(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join(5)
        listener.close()


def link(port: int) -> str:
    """A seat's link to a server on ``port`` of 127.0.0.1."""
    return f"http://127.0.0.1:{port}/table/0123456789abcdef#seat=0&token=ab"


@contextlib.contextmanager
def scripted(messages: Sequence[str | bytes], close: tuple[int, str] | None = (1000, ""),
             ) -> Iterator[str]:
    """A WebSocket server that waits for the bot's first message, sends ``messages``, then
    closes with ``close`` (code, reason), or drops the connection without a closing
    handshake when ``close`` is ``None``; yields a seat's link to it."""
    ready = threading.Event()
    port: list[int] = []
    loop = asyncio.new_event_loop()
    done: asyncio.Future[None] = loop.create_future()

    async def handler(peer: ServerConnection) -> None:
        await peer.recv()
        for message in messages:
            await peer.send(message)
        if close is None:
            peer.transport.abort()
        else:
            await peer.close(*close)

    async def main() -> None:
        async with serve(handler, "127.0.0.1", 0, max_size=None) as server:
            port.append(next(iter(server.sockets)).getsockname()[1])
            ready.set()
            await done

    thread = threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True)
    thread.start()
    ready.wait(10)
    try:
        yield link(port[0])
    finally:
        loop.call_soon_threadsafe(done.set_result, None)
        thread.join(10)
        loop.close()
