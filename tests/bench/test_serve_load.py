"""``bench/serve_load.py`` stops by itself whatever the server does (issue 38): a server that
accepts a connection and never answers costs each client ``wait`` seconds, counted as an
error, and a client process that never reports is stopped."""

from __future__ import annotations

import asyncio
import importlib.util
import queue
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("websockets")

from websockets.asyncio.server import serve

BENCH = Path(__file__).parents[2] / "bench"
sys.path.insert(0, str(BENCH))  # serve_load imports reference.py beside it
_SPEC = importlib.util.spec_from_file_location("serve_load", BENCH / "serve_load.py")
assert _SPEC is not None and _SPEC.loader is not None
serve_load = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(serve_load)


async def _silent(websocket: Any) -> None:
    await websocket.wait_closed()  # reads nothing, answers nothing, until the client leaves


async def _against_a_silent_server() -> tuple[list[str], list[str], float]:
    async with serve(_silent, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        url = f"ws://127.0.0.1:{port}/ws"
        started = time.monotonic()
        seat_errors: list[str] = []
        await serve_load.seat(url, "t", 0, "x", 0.0, time.monotonic() + 60, [], seat_errors,
                              wait=0.3)
        table_errors: list[str] = []
        await serve_load.table_loop(url, time.monotonic() + 60, 0.0, [], table_errors, [],
                                    wait=0.3)
        return seat_errors, table_errors, time.monotonic() - started


def test_a_client_gives_up_on_a_server_that_never_answers() -> None:
    seat_errors, table_errors, seconds = asyncio.run(_against_a_silent_server())
    assert seat_errors == ["no message from the server in 0.3 s"]
    assert table_errors == ["no answer to create in 0.3 s"]
    assert seconds < 10


class _Hung:
    """A client process that never reports nor ends."""

    def __init__(self) -> None:
        self.stopped = False

    def join(self, timeout: float | None = None) -> None:
        time.sleep(min(timeout or 0, 0.05))

    def is_alive(self) -> bool:
        return not self.stopped

    def terminate(self) -> None:
        self.stopped = True


def test_a_client_process_that_never_reports_is_stopped_and_counted() -> None:
    results: queue.Queue[Any] = queue.Queue()
    results.put(([0.01], [], 1))
    workers = [_Hung(), _Hung()]
    started = time.monotonic()
    got = serve_load.collect(results, workers, 0.5)
    assert time.monotonic() - started < 5
    assert got[0] == ([0.01], [], 1)
    assert got[1] == ([], ["a client process did not report in time"], 0)
    assert all(worker.stopped for worker in workers)
