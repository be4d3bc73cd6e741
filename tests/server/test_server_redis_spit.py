"""A live Spit table on a site of two server processes sharing a real Redis (issue 36 §3):
the process that opened it owns it under a lease it renews, so a seat's ``join`` and a
spectator's ``watch`` that reach the other process are answered ``moved`` to the owner
(never ``no-table``, never a relay that stays silent), and followed there they play and
watch the game.  When its owner is killed mid-game, the other process takes the table over
from its table file and record once the lease has run out: the seats join there, at the
position of the last move recorded, and play on with no move lost."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("redis")

from spitemalice.formats.records.reading import load_record
from tests.server.test_server_redis import LEASE, Process, join, site  # noqa: F401
from tests.serving import Client

PEOPLE = {"type": "create", "ruleset": "spit",
          "seats": [{"name": "ann", "player": "human"}, {"name": "bob", "player": "human"}]}
SPIT = {"type": "create", "ruleset": "spit", "reaction_ms": 200,
        "seats": [{"name": "ann", "player": "human"}, {"name": "bo", "player": "greedy"}]}


def test_a_spit_table_asked_of_the_other_process_is_sent_to_its_owner(
        site: tuple[Process, Process, Path]) -> None:  # noqa: F811
    one, two, records = site
    with Client(one.ws, {}) as lobby:
        created = lobby.ask(SPIT)
    assert created["type"] == "created", created
    table = created["table"]
    seat = {"type": "join", "table": table, "seat": 0, "token": created["seats"][0]["token"]}
    time.sleep(LEASE * 2.5)  # past the first lease: the owner renews it
    for message in (seat, {"type": "watch", "table": table}):
        with Client(two.ws, {}) as asked:
            answer = asked.ask(message)
        assert answer["type"] == "moved" and answer["socket"] == one.ws, answer
    ann = join(seat, two.ws)  # followed to the owner
    fan = join({"type": "watch", "table": table}, two.ws)
    first = ann.until("spit")
    assert fan.until("spit")["view"]["seat"] is None
    ann.send({"type": "move", "move": "S0:spit", "number": first["number"] + 1})
    deadline = time.monotonic() + 20
    seen = fan.until("spit")
    while not (seen["last"] and seen["last"]["seat"] == 1 and seen["number"] > 2):
        assert time.monotonic() < deadline, "the bot made no move the spectator saw"
        try:
            seen = fan.until("spit", timeout=1)
        except TimeoutError:  # the bot has no card to play: Ann plays on, as a person would
            mine = ann.until("spit", timeout=10)
            while mine["number"] < seen["number"]:
                mine = ann.until("spit", timeout=10)
            if mine["legal"]:
                ann.send({"type": "move", "move": mine["legal"][0],
                          "number": mine["number"] + 1})
    assert (records / f"{table}-1.json").exists()
    assert "lease ran out" not in one.said() + two.said()
    ann.close()
    fan.close()


def spit_play(seats: list[Client], latest: list[dict[str, Any]],
              moves: int) -> list[dict[str, Any]]:
    """Make ``moves`` moves between two people's seats (``latest``: each one's last ``spit``
    message), each by a seat with a legal move, its first; the last messages."""
    for _ in range(moves):
        seat = next(s for s, message in enumerate(latest) if message["legal"])
        number = latest[seat]["number"] + 1
        seats[seat].send({"type": "move", "move": latest[seat]["legal"][0], "number": number})
        latest = [client.until("spit") for client in seats]
        assert [m["number"] for m in latest] == [number, number]
    return latest


def test_a_spit_table_survives_its_owner_killed_mid_game(
        site: tuple[Process, Process, Path]) -> None:  # noqa: F811
    one, two, records = site
    with Client(one.ws, {}) as lobby:
        created = lobby.ask(PEOPLE)
    table = created["table"]
    seat = [{"type": "join", "table": table, "seat": n, "token": created["seats"][n]["token"]}
            for n in (0, 1)]
    people = [join(seat[n], one.ws) for n in (0, 1)]
    latest = spit_play(people, [c.until("spit") for c in people], 10)
    one.popen.send_signal(signal.SIGKILL)  # mid-game: no goodbye, its lease left to run out
    one.popen.wait(10)
    killed = time.monotonic()
    for client in people:
        client.close()
    people = [join(seat[n], two.ws) for n in (0, 1)]
    waited = time.monotonic() - killed
    now = [c.until("spit") for c in people]
    assert now == latest  # the position of the last move made, its number and last move
    assert waited >= LEASE * 0.5, "taken over before the lease could have run out"
    latest = spit_play(people, now, 5)  # the game goes on at process two
    record = load_record(records / f"{table}-1.json")
    assert len(record.moves) == latest[0]["number"] == 15
    assert f"resumed live table {table}, game 1, after 10 moves" in two.said()
    for client in people:
        client.close()
