"""Spectators of a live Spit table and deals anyone can check there (issue 36 §2).

A table of bots alone is opened and watched to its end through its watch link (``/spit/ID``):
the spectator is sent the view every seat shares and nothing else, may not move, and the
bots play only while someone watches.  Every deal is committed to before the first move: the
seats and the spectator are shown one commitment, the end reveals the seed and salt that hash
to it, the record keeps it, ``spitemalice check`` verifies it and refuses a tampered seed
naming the commitment; a rematch commits to its own deal.  (The byte-for-byte twin test of
the spectator stream is ``test_twin_tables_...`` in ``test_server_spit.py``, beside the
seats'.)"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from jsonschema import Draft202012Validator

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.formats.schema import schema
from spitemalice.server.spit_live import live_tables
from tests.serving import Client, LiveServer

TO_CLIENT = Draft202012Validator({**schema("message"), "oneOf": [{"$ref": "#/$defs/to-client"}]})
BOTS = {"type": "create", "ruleset": "spit", "reaction_ms": 100,
        "seats": [{"name": "ada", "player": "greedy"}, {"name": "bo", "player": "greedy"}]}
FACE_DOWN = {"seat", "stock", "spit_cards", "centre", "spitters", "phase", "ready", "slaps",
             "out", "round", "moves", "scores", "outcome"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("records")) as live:
        yield live


def create(server: LiveServer, message: dict[str, Any]) -> dict[str, Any]:
    with server.client() as lobby:
        created = lobby.ask(message)
    assert created["type"] == "created", created
    return created


def to_the_end(client: Client, seen: list[dict[str, Any]], seconds: float = 300) -> None:
    """Read ``client``'s messages into ``seen`` until a ``spit`` message with an outcome.

    The server deals from a seed of its own, so the game's length varies: greedy bots'
    Spit games run 249 moves on average, 557 at the 95th percentile (``spitemalice simulate
    spit --games 200``), each bot move after its reaction time (100 ms on average here).  A
    liveness bound, not a speed one: 90 s was passed once on a loaded machine."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        message = client.recv(seconds)
        seen.append(message)
        if message["type"] == "spit" and message["view"]["outcome"] is not None:
            return
    raise AssertionError(f"the game did not end in {seconds} s")


def test_a_table_of_bots_alone_is_watched_to_its_end_through_its_link(
        server: LiveServer, tmp_path: Path, capsys: Any) -> None:
    created = create(server, BOTS)
    table_id = created["table"]
    assert created["watch"] == f"/spit/{table_id}"
    assert [seat["link"] for seat in created["seats"]] == [None, None]
    table = live_tables(server.hub)[table_id]
    time.sleep(0.5)
    assert table.log == []  # nobody watches: the bots wait
    seen: list[dict[str, Any]] = []
    with server.client() as spy:
        spy.send({"type": "watch", "table": table_id})
        seen += [spy.recv(), spy.recv(), spy.recv()]
        assert [m["type"] for m in seen] == ["watching", "spit", "watchers"]
        assert seen[0]["watch"] == created["watch"] and seen[0]["match"] is None
        assert seen[2]["count"] == 1
        spy.send({"type": "move", "move": "S0:spit"})
        spy.send({"type": "record"})
        to_the_end(spy, seen)
        errors = [m["error"] for m in seen if m["type"] == "error"]
        assert errors == ["not-joined", "game-not-over"]
        spy.send({"type": "record"})  # once over, the record is anyone's at the table
        record = spy.until("record")
    for message in seen:
        assert not list(TO_CLIENT.iter_errors(message)), message
    positions = [m for m in seen if m["type"] == "spit"]
    assert [m["number"] for m in positions] == list(range(len(positions)))  # every move
    assert len(positions) > 10 and {m["last"]["seat"] for m in positions[1:]} == {0, 1}
    for message in positions:  # what every seat sees: tops and counts, no legal moves
        assert message["legal"] == [] and message["view"]["seat"] is None
        assert set(message["view"]) == FACE_DOWN
        assert all(len(pile) == 2 for seat in message["view"]["stock"] for pile in seat)
    assert all("seed" not in m["deal"] for m in positions[:-1])
    path = tmp_path / record["name"]
    path.write_text(record["text"])
    assert main(["check", str(path)]) == 0
    assert "seed matches commitment" in capsys.readouterr().out


def _ann_and_bot(server: LiveServer) -> tuple[dict[str, Any], Client]:
    created = create(server, {**BOTS, "seats": [{"name": "ann", "player": "human"},
                                                {"name": "bo", "player": "greedy"}]})
    ann = server.client()
    ann.send({"type": "join", "table": created["table"], "seat": 0,
              "token": created["seats"][0]["token"]})
    ann.until("welcome")
    return created, ann


def _play_out(client: Client, seat: int, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """Play ``seat`` (its first legal move each time) until the game ends; the last ``spit``
    message."""
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        message = client.recv(30)
        seen.append(message)
        if message["type"] != "spit":
            continue
        if message["view"]["outcome"] is not None:
            return message
        if message["legal"]:
            client.send({"type": "move", "move": message["legal"][0],
                         "number": message["number"] + 1})
    raise AssertionError("the game did not end")


def test_every_seat_and_spectator_is_shown_the_commitment_and_the_end_opens_it(
        server: LiveServer, tmp_path: Path, capsys: Any) -> None:
    created, ann = _ann_and_bot(server)
    table = live_tables(server.hub)[created["table"]]  # let go once everybody has left
    seen: list[dict[str, Any]] = []
    with ann, server.client() as spy:
        spy.send({"type": "watch", "table": created["table"]})
        spy.until("watching")
        first = spy.until("spit")
        promised = first["deal"]["commitment"]
        assert set(first["deal"]) == {"scheme", "commitment"}
        watched: list[dict[str, Any]] = []
        reader = threading.Thread(target=to_the_end, args=(spy, watched))
        reader.start()  # the spectator reads along (a client that stops reading stalls)
        last = _play_out(ann, 0, seen)
        reader.join(60)
    assert next(m for m in seen if m["type"] == "spit")["number"] == 0  # before any move
    openers = [m["deal"] for m in seen if m["type"] == "spit"]
    assert {deal["commitment"] for deal in openers} == {promised}  # one, from the deal on
    assert all("seed" not in deal for deal in openers[:-1])
    opened = last["deal"]
    assert watched[-1]["deal"] == opened  # the spectator is shown the same
    text = f"spitemalice-deal-v1:{opened['seed']}:none:{opened['salt']}"
    assert hashlib.sha256(text.encode("ascii")).hexdigest() == promised
    record = sm.load_record(table.record_path(1))
    assert record.commitment is not None and record.commitment.sha256 == promised
    assert str(record.seed) == opened["seed"]
    assert main(["check", str(table.record_path(1))]) == 0
    assert f"seed matches commitment {promised}" in capsys.readouterr().out
    data = json.loads(table.record_path(1).read_text())
    data["seed"] += 1  # another seed than the one committed to
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data))
    assert main(["check", str(tampered)]) == 1
    said = capsys.readouterr().out
    assert "invalid" in said and "commitment:" in said and promised in said


def test_a_rematch_commits_to_its_own_deal(server: LiveServer) -> None:
    created, ann = _ann_and_bot(server)
    table = live_tables(server.hub)[created["table"]]
    with ann:
        first = _play_out(ann, 0, [])
        ann.send({"type": "rematch"})
        again = ann.until("spit", 30)  # a new deal and its broadcast: slow on a loaded machine
        while again["game"] != 2:
            again = ann.until("spit", 30)
    assert set(again["deal"]) == {"scheme", "commitment"} and again["number"] == 0
    assert again["deal"]["commitment"] != first["deal"]["commitment"]
    second = sm.load_record(table.record_path(2))
    assert second.commitment is not None
    assert second.commitment.sha256 == again["deal"]["commitment"]
    assert sm.load_record(table.record_path(1)).commitment.sha256 == first["deal"]["commitment"]


def test_a_spectator_is_no_seat_and_a_claim_is_refused(server: LiveServer) -> None:
    created, ann = _ann_and_bot(server)
    with ann, server.client() as spy, server.client() as other:
        spy.send({"type": "watch", "table": created["table"]})
        spy.until("watching")
        assert ann.until("watchers")["count"] == 1  # the seat is told how many watch
        spy.send({"type": "watch", "table": created["table"]})
        assert spy.until("error")["error"] == "already-joined"
        spy.send({"type": "join", "table": created["table"], "seat": 0,
                  "token": created["seats"][0]["token"]})
        join = spy.until("error")
        assert join["error"] == "already-joined" and "watches" in join["message"]
        claim = other.ask({"type": "claim", "table": created["table"], "seat": 0})
        assert claim["error"] == "real-time"
    table = live_tables(server.hub)[created["table"]]
    deadline = time.monotonic() + 5
    while table.watchers and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not table.watchers
