"""A live Spit table on a site of two server processes sharing a real Redis (issue 36 §3):
the process that opened it owns it under a lease it renews, so a seat's ``join`` and a
spectator's ``watch`` that reach the other process are answered ``moved`` to the owner
(never ``no-table``, never a relay that stays silent), and followed there they play and
watch the game.  A Spit table is not taken over when its owner dies (its record stays):
docs/playing.md says so."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("redis")

from tests.server.test_server_redis import LEASE, Process, join, site  # noqa: F401
from tests.serving import Client

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
        seen = fan.until("spit")
    assert (records / f"{table}-1.json").exists()
    assert "lease ran out" not in one.said() + two.said()
    ann.close()
    fan.close()
