"""Quick play on a site of several processes (issue 36 §3): the queues live in a real Redis
(``redis-server``), so a person at one ``spitemalice serve --redis`` process and a person at
another are seated together at one table; a person alone gets a bot after the wait; a
person who leaves is never seated."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("redis")

from tests.redis_server import free_port, redis_server, wait_for_port
from tests.server.test_server_redis import join
from tests.serving import Client

ROOT = Path(__file__).parents[2]
ASK = {"type": "quickplay", "ruleset": "blackwood-frey", "players": 2}
WAIT = 2.0
"""The quick-play wait before a bot is seated, seconds: short, so a person alone is seated
soon."""
TOGETHER = 30.0
"""The wait where two people must meet: the second may reach its process seconds late on a
loaded machine (a person alone at 2 s was given a bot before the second asked), and the
match is made as the second asks, so a long wait costs nothing."""


class Process:
    """``spitemalice serve --redis URL --quickplay-wait WAIT`` in a subprocess of its own."""

    def __init__(self, url: str, records: Path, log: Path, wait: float = WAIT) -> None:
        self.port = free_port()
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "spitemalice", "serve", "--port", str(self.port),
             "--records", str(records), "--redis", url, "--lease-seconds", "1",
             "--bot-delay", "0.1", "--quickplay-wait", str(wait)],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log.open("w"),
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        wait_for_port(self.port)

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait(10)


@pytest.fixture
def site(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[tuple[Process, Process]]:
    """Two processes sharing one Redis; the quick-play wait is ``WAIT`` unless a test
    gives another (``indirect`` parametrisation)."""
    wait = getattr(request, "param", WAIT)
    records = tmp_path / "records"
    with redis_server(tmp_path) as url:
        one = Process(url, records, tmp_path / "one.log", wait)
        try:
            two = Process(url, records, tmp_path / "two.log", wait)
            try:
                yield one, two
            finally:
                two.stop()
        finally:
            one.stop()


@pytest.mark.parametrize("site", [TOGETHER], indirect=True)
def test_people_at_two_processes_are_seated_together(site: tuple[Process, Process]) -> None:
    one, two = site
    with Client(one.ws, {}) as ann, Client(two.ws, {}) as bob:
        queued = ann.ask({**ASK, "name": "Ann"})
        assert (queued["type"], queued["waiting"]) == ("queued", 1)
        bob.send({**ASK, "name": "Bob"})
        first, second = ann.until("matched", 10), bob.until("matched", 10)
        assert first["table"] == second["table"]
        assert {first["seat"], second["seat"]} == {0, 1}
        assert first["bots"] == second["bots"] == 0
        assert [s["name"] for s in first["seats"]] == ["Ann", "Bob"]
        seated = []
        for got, where in ((first, one), (second, two)):  # the owner's, or moved there
            seated.append(join({"type": "join", "table": got["table"], "seat": got["seat"],
                                "token": got["token"]}, where.ws))
        for client in seated:
            assert client.until("state")["type"] == "state"
            client.close()


def test_alone_a_bot_comes_and_who_left_is_never_seated(
        site: tuple[Process, Process]) -> None:
    one, two = site
    with Client(one.ws, {}) as gone:
        gone.ask({**ASK, "name": "Gone"})
    with Client(two.ws, {}) as cancel:
        cancel.ask({**ASK, "name": "Cancel"})
        assert cancel.ask({"type": "unqueue"})["type"] == "unqueued"
    with Client(two.ws, {}) as ann:
        ann.ask({**ASK, "name": "Ann"})
        matched = ann.until("matched", WAIT * 5)
        assert matched["bots"] == 1
        assert matched["seats"][0]["name"] == "Ann"


def test_people_asking_at_once_at_both_processes_each_get_one_seat_of_their_own(
        site: tuple[Process, Process]) -> None:
    """Eight people, four at each process, ask at the same moment: each is told one seat,
    and no seat of any table is given to two of them (the match is one Redis script)."""
    import threading

    clients = [Client(p.ws, {}) for p in site for _ in range(4)]
    try:
        start = threading.Barrier(len(clients))

        def ask(client: Client) -> None:
            start.wait()
            client.send({**ASK, "name": "P"})

        threads = [threading.Thread(target=ask, args=(c,)) for c in clients]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        told = [c.until("matched", WAIT * 5) for c in clients]
        seats = [(m["table"], m["seat"]) for m in told]
        assert len(set(seats)) == len(seats)
        for message in told:
            assert message["bots"] + sum(
                1 for other in told if other["table"] == message["table"]) == 2
    finally:
        for client in clients:
            client.close()


def test_a_dead_processs_waiting_people_leave_the_queue(site: tuple[Process, Process]) -> None:
    """A process killed (SIGKILL) while a person waits there: that entry expires
    (redis_queues.ENTRY_MS unrenewed) and nobody is seated with a person who is gone."""
    import time

    from spitemalice.server.redis_queues import ENTRY_MS

    one, two = site
    ghost = Client(one.ws, {})
    assert ghost.ask({**ASK, "name": "Ghost"})["type"] == "queued"
    one.stop()
    ghost.close()
    time.sleep(ENTRY_MS / 1000 + 0.5)
    with Client(two.ws, {}) as ann:
        assert ann.ask({**ASK, "name": "Ann"})["waiting"] == 1
        matched = ann.until("matched", WAIT * 5)
        assert matched["seats"][0]["name"] == "Ann"
        assert matched["bots"] == 1
