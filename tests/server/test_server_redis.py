"""Several server processes sharing one Redis (issue 36 §3), tested with real ones: two
``spitemalice serve --redis`` processes (uvicorn in subprocesses), a real ``redis-server``,
clients on both.  A table opened at one process is reached from either (a seat asked of the
other is sent to the owner, ``moved``; a spectator at the other is relayed its moves), then
the owner is killed with SIGKILL mid-game and the other takes its tables over from their
records once the lease (1 s here) has run out, with no announced move lost."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("redis")

from spitemalice.formats.records.reading import load_record
from tests.redis_server import free_port, redis_server, wait_for_port
from tests.serving import Client

ROOT = Path(__file__).parents[2]
LEASE = 1.0
PEOPLE = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 10},
          "seats": [{"name": "ann", "player": "human"}, {"name": "bob", "player": "human"}]}
BOTS = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 10},
        "seats": [{"name": "b1", "player": "greedy"}, {"name": "b2", "player": "greedy"}]}


class Process:
    """``spitemalice serve --redis URL`` in a subprocess of its own."""

    def __init__(self, url: str, records: Path, log: Path) -> None:
        self.port = free_port()
        self.ws = f"ws://127.0.0.1:{self.port}/ws"
        self.log = log
        self.popen = subprocess.Popen(
            [sys.executable, "-m", "spitemalice", "serve", "--port", str(self.port),
             "--records", str(records), "--redis", url, "--lease-seconds", str(LEASE),
             "--bot-delay", "0.25"],
            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=log.open("w"),
            env={**os.environ, "PYTHONPATH": str(ROOT)})
        wait_for_port(self.port)

    def said(self) -> str:
        return self.log.read_text(encoding="utf-8")

    def stop(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait(10)


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Process, Process, Path]]:
    records = tmp_path / "records"
    with redis_server(tmp_path) as url:
        one = Process(url, records, tmp_path / "one.log")
        try:
            two = Process(url, records, tmp_path / "two.log")
            try:
                yield one, two, records
            finally:
                two.stop()
        finally:
            one.stop()


def join(message: dict[str, Any], socket: str, seconds: float = 10.0) -> Client:
    """A client of ``socket`` that sent ``message`` (a join or watch) and was welcomed,
    following ``moved`` and trying again (within ``seconds``) while a table is between
    owners."""
    deadline = time.monotonic() + seconds
    said: list[Any] = []
    to = socket
    while True:
        try:
            client = Client(to, {})
        except OSError as problem:  # a dead owner, still named until its lease runs out
            said.append(problem)
            client = None
        to = socket
        if client is not None:
            answer = client.ask(message)
            if answer["type"] in ("welcome", "watching"):
                return client
            client.close()
            said.append(answer)
            if answer["type"] == "moved":
                to = answer["socket"]
                continue
        assert time.monotonic() < deadline, f"no welcome within {seconds:g} s: {said[-3:]}"
        time.sleep(0.1)


def play(seats: list[Client], moves: int) -> list[tuple[int, str]]:
    """Make ``moves`` moves, each by the seat on turn with its first legal move; returns
    every move announced, (seat, move), as the seats' states told it."""
    states = [next((m for m in reversed(c.received) if m["type"] == "state"), None)
              or c.until("state") for c in seats]
    announced = []
    for _ in range(moves):
        on_turn = next(s for s, state in enumerate(states) if state["legal"])
        state = states[on_turn]
        seats[on_turn].send({"type": "move", "move": state["legal"][0]["move"],
                             "number": state["number"] + 1})
        states = [c.until("state") for c in seats]
        last = states[0]["last"]
        announced.append((last["seat"], last["move"]))
    return announced


def test_a_table_is_reached_from_either_process_and_survives_its_owner_killed(
        site: tuple[Process, Process, Path]) -> None:
    one, two, records = site
    with Client(one.ws, {}) as lobby:
        created = lobby.ask(PEOPLE)
        bots = lobby.ask(BOTS)
    table = created["table"]
    seat = [{"type": "join", "table": table, "seat": n, "token": created["seats"][n]["token"]}
            for n in (0, 1)]
    ann = join(seat[0], one.ws)
    # bob asks process two, which sends him to the owner
    with Client(two.ws, {}) as asked:
        answer = asked.ask(seat[1])
    assert answer["type"] == "moved" and answer["socket"] == one.ws
    bob = join(seat[1], two.ws)
    # spectators at process two: of the people's table, and of the bots' (which starts it)
    fan = join({"type": "watch", "table": table}, two.ws)
    bots_fan = join({"type": "watch", "table": bots["table"]}, two.ws)
    assert fan.until("public")["number"] == 0
    announced = play([ann, bob], 8)
    seen = [fan.until("public") for _ in announced]  # relayed through Redis, in order
    assert [(p["last"]["seat"], p["last"]["move"]) for p in seen] == announced
    assert bots_fan.until("public")["number"] >= 0
    bots_fan.until("public")  # the bots play while someone watches, at process two

    one.popen.send_signal(signal.SIGKILL)  # mid-game: no goodbye, leases left to run out
    one.popen.wait(10)
    killed = time.monotonic()
    for client in (ann, bob):
        client.close()
    ann = join(seat[0], two.ws)
    waited = time.monotonic() - killed
    state = ann.until("state")
    assert [(e["seat"], e["move"]) for e in state["log"]] == announced  # none lost
    assert waited >= LEASE * 0.5, "taken over before the lease could have run out"
    bob = join(seat[1], two.ws)
    announced += play([ann, bob], 4)  # the game goes on at process two
    record = load_record(records / f"{table}-1.json")
    assert len(record.moves) == len(announced) == 12
    assert f"resumed table {table}" in two.said()
    # the bots' table, which nobody joined, was taken over by process two's own rounds,
    # and its spectator there is sent the position again by its new owner, then its moves
    deadline = time.monotonic() + 10
    while f"resumed table {bots['table']}" not in two.said():
        assert time.monotonic() < deadline, two.said()
        time.sleep(0.1)
    assert bots_fan.until("watching", timeout=10)["table"] == bots["table"]
    after = bots_fan.until("public", timeout=10)["number"]
    assert bots_fan.until("public", timeout=10)["number"] == after + 1
    for client in (ann, bob, fan, bots_fan):
        client.close()


def test_our_bot_at_a_remote_table_follows_moved_to_the_owner(
        site: tuple[Process, Process, Path]) -> None:
    """``spitemalice bot --connect`` with a link naming the process that does not own the
    table: the bot is sent to the owner and plays the game to its end there."""
    import asyncio

    from spitemalice.server.remote import RemoteBot, parse_link

    one, two, _ = site
    short = {**PEOPLE, "params": {"payoff_size": 2},
             "seats": [PEOPLE["seats"][0], {"name": "bot", "player": "greedy"}]}
    with Client(one.ws, {}) as lobby:
        created = lobby.ask(short)
    link = f"http://127.0.0.1:{two.port}{created['seats'][0]['link']}"
    bot = RemoteBot(parse_link(link), say=lambda line: None)
    outcome = asyncio.run(asyncio.wait_for(bot.run(), 60))
    assert outcome is not None and bot.address == one.ws


def test_a_moved_message_is_followed_only_on_the_link_s_own_host() -> None:
    from spitemalice.errors import SpiteMaliceError
    from spitemalice.server.remote import moved_to

    assert moved_to("ws://play.example.org/ws", "/p/2/ws") == "ws://play.example.org/p/2/ws"
    assert moved_to("ws://127.0.0.1:8001/ws", "ws://127.0.0.1:8002/ws") \
        == "ws://127.0.0.1:8002/ws"
    for elsewhere in ("ws://attacker.example/ws", "http://play.example.org/ws", 7):
        with pytest.raises(SpiteMaliceError, match=r"moved.socket|another host"):
            moved_to("ws://play.example.org/ws", elsewhere)


def test_serve_refuses_a_redis_it_cannot_use_in_one_line(tmp_path: Path) -> None:
    """A URL that is no Redis URL, or a Redis that does not answer: one line naming it,
    exit status 1, before the server listens."""
    nobody = f"redis://127.0.0.1:{free_port()}/0"
    for url, words in (("nonsense", "redis://127.0.0.1:6379/0"),
                       (nobody, "cannot reach Redis")):
        done = subprocess.run([sys.executable, "-m", "spitemalice", "serve", "--port", "0",
                               "--records", str(tmp_path), "--redis", url],
                              cwd=ROOT, capture_output=True, text=True, timeout=60,
                              env={**os.environ, "PYTHONPATH": str(ROOT)})
        assert done.returncode != 0 and words in done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and url in done.stderr


def test_a_table_taken_over_carries_on_the_move_clock_of_its_dead_owner(
        site: tuple[Process, Process, Path]) -> None:
    """The seat on turn keeps the time it had left when its table's owner dies (the owner
    publishes its clock each lease round, in Redis's clock), instead of a whole move's time
    again at the new owner."""
    one, two, _ = site
    clocked = {**PEOPLE, "clock": 30}
    with Client(one.ws, {}) as lobby:
        created = lobby.ask(clocked)
    seat = [{"type": "join", "table": created["table"], "seat": n,
             "token": created["seats"][n]["token"]} for n in (0, 1)]
    ann, bob = join(seat[0], one.ws), join(seat[1], one.ws)
    told = time.monotonic()
    first = bob.until("state")["clock"]
    assert first["per_move"] == 30 and first["seat"] in (0, 1)
    assert 28_000 < first["left_ms"] <= 30_000
    time.sleep(LEASE * 1.5)  # rounds publish the clock meanwhile
    one.popen.send_signal(signal.SIGKILL)
    one.popen.wait(10)
    for client in (ann, bob):
        client.close()
    ann = join(seat[0], two.ws)
    clock = ann.until("state")["clock"]
    gone_ms = (time.monotonic() - told) * 1000
    assert gone_ms > 2_000  # the lease ran out before the takeover: the test can tell
    assert clock["seat"] == first["seat"]
    # the time left is the time the seat had less the time gone, not 30 s again
    assert first["left_ms"] - gone_ms - 500 <= clock["left_ms"] <= first["left_ms"] - gone_ms + 500
    ann.close()
