"""A real Redis for the tests: Debian's ``redis-server`` on a free port of 127.0.0.1, its
files in a temporary folder, stopped at the end.  A test that needs it is skipped, with the
reason, only when the binary is not installed (``.ci/run`` installs it)."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

BINARY = "redis-server"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_port(port: int, seconds: float = 20.0) -> None:
    """Wait until something listens on ``port`` of 127.0.0.1 (at most ``seconds``)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise RuntimeError(f"nothing listens on port {port} after {seconds:g} s"
                                   ) from None
            time.sleep(0.05)


@contextlib.contextmanager
def redis_server(folder: Path) -> Iterator[str]:
    """A ``redis-server`` of its own, with no persistence; yields its URL."""
    binary = shutil.which(BINARY)
    if binary is None:
        pytest.skip("redis-server is not installed (Debian's redis-server package; .ci/run "
                    "installs it): the Redis tests need a real one")
    port = free_port()
    process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1",
                                "--save", "", "--appendonly", "no", "--dir", str(folder)],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(port)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)
