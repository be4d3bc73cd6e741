"""Connections an address can hold (issue 38, class 1): hundreds of idle connections, raw
TCP and completed WebSocket upgrades, held by other addresses while a client plays a whole
game; connections past the bounds closed at once and never logged one by one; connections
that never become a WebSocket or never join closed by time; the total kept below the
descriptor limit.

The idle clients use source addresses 127.0.0.2 and up (all of 127.0.0.0/8 is this machine's
loopback on Linux), so the server sees other addresses than the player's 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("uvicorn")

from websockets.exceptions import ConnectionClosed

from spitemalice import limits
from spitemalice.server import guard
from tests.serving import LiveServer, create, join

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="127.0.0.2 and up are "
                                "loopback addresses on Linux only")


def idle_tcp(port: int, source: str) -> socket.socket:
    """A TCP connection to the server from ``source`` that sends nothing."""
    return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0))


def upgraded(port: int, source: str) -> socket.socket:
    """A WebSocket upgrade completed by hand from ``source`` (the server answered 101), then
    left idle: no message, no join."""
    sock = idle_tcp(port, source)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                  f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                  "Sec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        chunk = sock.recv(4096)
        if not chunk:
            raise ConnectionError("closed during the upgrade")
        answer += chunk
    assert answer.startswith(b"HTTP/1.1 101"), answer[:80]
    return sock


def closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` within ``seconds`` (a WebSocket's close frame and
    the end of the stream both count)."""
    sock.settimeout(seconds)
    try:
        while True:
            data = sock.recv(4096)
            if not data:
                return True
            if data[:1] == b"\x88":  # a close frame
                return True
    except TimeoutError:
        return False
    except OSError:  # reset
        return True


def play_timed(server: LiveServer, created: dict[str, Any]) -> list[float]:
    """Play seat 0 of ``created``'s table (the first legal move each turn) to the end; the
    seconds from sending each move to the state that announces it."""
    client = join(server, created)
    latencies = []
    state = client.until("state")
    with client:
        for _ in range(3000):
            view = state["view"]
            if view["outcome"] is not None:
                return latencies
            if view["seat"] == 0 and state["legal"]:
                number = state["number"] + 1
                sent = time.perf_counter()
                client.send({"type": "move", "move": state["legal"][0]["move"],
                             "number": number})
                state = client.until("state")
                while state["number"] < number:
                    state = client.until("state")
                latencies.append(time.perf_counter() - sent)
            else:
                state = client.until("state")
    raise AssertionError("the game did not end")


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]


def test_hundreds_of_idle_connections_do_not_keep_a_client_from_its_game(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """600 idle connections held by the server (20 addresses, each 15 raw TCP and 15
    completed upgrades), and one more address trying 300 of which the server keeps only its
    bound: four games on other connections are played to the end, one after another, and
    their moves' p99 latency is printed (``-s``).  The bound below is a sanity bound for a
    loaded test machine, not the figure: the issue's target is 50 ms (measured in the
    report)."""
    timeouts = {"handshake_seconds": 120, "join_seconds": 120}
    with LiveServer(tmp_path, connections=timeouts) as server, contextlib.ExitStack() as held:
        gate = server.config.gate
        for n in range(20):
            source = f"127.0.0.{n + 2}"
            for _ in range(15):
                held.enter_context(idle_tcp(server.port, source))
                held.enter_context(upgraded(server.port, source))
        flood = [held.enter_context(idle_tcp(server.port, "127.0.0.99")) for _ in range(300)]
        deadline = time.monotonic() + 10
        while len(gate.held) < 600 + limits.MAX_CONNECTIONS_PER_CLIENT \
                and time.monotonic() < deadline:
            time.sleep(0.05)
        assert gate.count("127.0.0.99") == limits.MAX_CONNECTIONS_PER_CLIENT
        assert len(gate.held) == 600 + limits.MAX_CONNECTIONS_PER_CLIENT
        refused = sum(closed_within(sock, 0.01) for sock in flood)
        assert refused == 300 - limits.MAX_CONNECTIONS_PER_CLIENT
        latencies = [x for _ in range(4) for x in play_timed(server, create(server))]
        assert len(latencies) >= 80
        assert len(gate.held) >= 600  # the idle ones were held all through the game
        figure = p99(latencies)
        with capsys.disabled():
            print(f"\nmove p99 with {len(gate.held)} idle connections held: "
                  f"{1000 * figure:.1f} ms over {len(latencies)} moves")
        assert figure < 2.0
    assert "Traceback" not in capsys.readouterr().err


def test_connections_past_the_bounds_are_closed_at_once_and_never_logged_one_by_one(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    bounds = {"max_connections": 12, "max_connections_per_client": 5}
    with LiveServer(tmp_path, connections=bounds) as server, contextlib.ExitStack() as held:
        gate = server.config.gate
        mine = [held.enter_context(idle_tcp(server.port, "127.0.0.2")) for _ in range(9)]
        assert [closed_within(sock, 0.3) for sock in mine] == [False] * 5 + [True] * 4
        others = [held.enter_context(idle_tcp(server.port, f"127.0.0.{n}"))
                  for n in range(3, 12)]
        # 5 + 9 asked, 12 at most in all: the last two are closed though their address
        # holds none
        assert [closed_within(sock, 0.3) for sock in others] == [False] * 7 + [True] * 2
        assert len(gate.held) == 12
        for sock in mine[:5]:
            sock.close()
        deadline = time.monotonic() + 5
        while len(gate.held) > 7 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(gate.held) == 7  # a closed connection leaves the count
        with server.client() as client:  # room again, for anyone
            assert client.ask({"type": "catalog"})["type"] == "catalog"
    logged = [r for r in caplog.records if r.exc_info or "accept" in r.getMessage()]
    assert logged == []
    assert "Traceback" not in capsys.readouterr().err
    assert gate.refused == 6  # counted, not logged (a summary line comes once a minute)


def test_a_connection_that_never_becomes_a_websocket_or_never_joins_is_closed(
        tmp_path: Path) -> None:
    timeouts = {"handshake_seconds": 0.5, "join_seconds": 1.0}
    with LiveServer(tmp_path, connections=timeouts) as server:
        silent = idle_tcp(server.port, "127.0.0.2")
        half = idle_tcp(server.port, "127.0.0.2")
        half.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finishes its request
        lobby = upgraded(server.port, "127.0.0.2")
        created = create(server)
        seated = join(server, created)
        assert closed_within(silent, 3) and closed_within(half, 3)
        assert not closed_within(lobby, 0.2)  # a WebSocket: the join timeout applies
        assert closed_within(lobby, 3)
        time.sleep(0.5)
        seated.send({"type": "catalog"})  # a seated connection stays past both
        assert seated.until("catalog")["type"] == "catalog"
        # a WebSocket that joins nothing is told why it closes
        with server.client() as late, pytest.raises(ConnectionClosed) as closed:
            late.recv(5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
        assert "no seat joined within 1 s" in closed.value.rcvd.reason
        seated.close()
        for sock in (silent, half, lobby):
            sock.close()


def test_a_page_loaded_over_a_connection_is_answered_before_it_is_closed(
        tmp_path: Path) -> None:
    with LiveServer(tmp_path, connections={"handshake_seconds": 0.5}) as server:
        sock = idle_tcp(server.port, "127.0.0.2")
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        answer = b""
        sock.settimeout(5)
        with contextlib.suppress(OSError):
            while chunk := sock.recv(65536):
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 200") and b"</html>" in answer
        sock.close()


def test_the_total_stays_below_the_descriptor_limit() -> None:
    assert guard.total_bound(1000, 1024) == 1024 - limits.CONNECTION_BACKLOG - 64
    assert guard.total_bound(1000, 20000) == 1000
    assert guard.total_bound(1000, 10) == 1
    limit = guard.descriptor_limit()
    assert limit is None or guard.total_bound(10**9) < limit


def test_a_failed_accept_is_said_in_one_line_at_most_every_ten_seconds() -> None:
    said: list[str] = []
    now = [0.0]
    loop = asyncio.new_event_loop()
    try:
        guard.quiet_accept_errors(loop, said.append, clock=lambda: now[0])
        failure = OSError(24, "Too many open files")
        for _ in range(5000):
            loop.call_exception_handler({"message": "socket.accept() out of system resource",
                                         "exception": failure})
        now[0] = 10.5
        loop.call_exception_handler({"message": "socket.accept() out of system resource",
                                     "exception": failure})
    finally:
        loop.close()
    assert len(said) == 2 and "Too many open files" in said[0]
    assert "5,000 failed" in said[1]


def _serve(records: Path, *options: str, preexec_fn: Any = None
           ) -> tuple[subprocess.Popen[str], int]:
    """``spitemalice serve`` in a process of its own on a free port, with ``records`` as its
    records folder, once it accepts connections: the process and its port (the process is
    stopped if it does not start within 30 s)."""
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    server = subprocess.Popen(
        [sys.executable, "-m", "spitemalice", "serve", "--port", str(port), "--records",
         str(records), *options],
        stderr=subprocess.PIPE, text=True, preexec_fn=preexec_fn,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])})
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return server, port
        except OSError:
            if time.monotonic() > deadline or server.poll() is not None:
                server.kill()
                raise AssertionError(f"serve did not start: {server.communicate()[1]}"
                                     ) from None
            time.sleep(0.1)


def test_a_server_with_few_descriptors_refuses_a_flood_quietly_and_serves_after_it(
        tmp_path: Path) -> None:
    """``spitemalice serve`` itself, with a descriptor limit of 256: 400 connections from
    20 addresses; the server keeps fewer than its limit, writes no traceback, and serves a
    client once the flood has gone."""
    import resource

    def low_limit() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (256, resource.getrlimit(
            resource.RLIMIT_NOFILE)[1]))

    server, port = _serve(tmp_path, "--max-connections-per-client", "1000",
                          preexec_fn=low_limit)
    try:
        flood = []
        for n in range(400):
            with contextlib.suppress(OSError):
                flood.append(idle_tcp(port, f"127.0.0.{n % 20 + 2}"))
        kept = sum(not closed_within(sock, 0.02) for sock in flood)
        assert 0 < kept <= 256 - limits.CONNECTION_BACKLOG - 64
        fds = len(os.listdir(f"/proc/{server.pid}/fd"))
        assert fds < 256
        for sock in flood:
            sock.close()
        time.sleep(0.5)
        from websockets.sync.client import connect
        with connect(f"ws://127.0.0.1:{port}/ws") as client:
            client.send('{"type": "catalog"}')
            assert '"type":"catalog"' in str(client.recv(10))
    finally:
        server.terminate()
        _, err = server.communicate(timeout=20)
    # where it listens, its connection bound, at most one line of refused accepts, and the
    # line saying SIGTERM stopped it
    lines = err.splitlines()
    assert "Traceback" not in err and len(lines) <= 4, err[-2000:]
    assert lines[-1] == "spitemalice serve: stopped (SIGTERM)", err[-2000:]


def test_serve_stopped_by_sigterm_exits_0(tmp_path: Path) -> None:
    """A supervisor (systemd, docker stop) stops the server with SIGTERM: it shuts down
    cleanly and exits 0, not 130 as after Ctrl-C (docs/playing.md)."""
    server, _ = _serve(tmp_path)
    server.terminate()
    _, err = server.communicate(timeout=20)
    assert server.returncode == 0, err[-2000:]
    assert "Traceback" not in err and "interrupted" not in err, err[-2000:]
