"""The lobby's list of tables (issue 36 §2): a table its creator made public is listed with
its free seats, anyone may take one (a new token: the creator's link to that seat stops
working), a table with no seat free is listed as being played, a private or finished one
never; the answer says which of a browser's remembered tables are still on the server; the
choices survive a restart.  Through Starlette's test client."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from spitemalice.server.app import create_app
from spitemalice.server.store import Store, read_entry
from spitemalice.server.tables import Hub
from tests.server.test_server_watching import ask, until, valid

TWO = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 5},
       "seats": [{"name": "ann", "player": "human"}, {"name": "bob", "player": "human"},
                 {"name": "cy", "player": "greedy"}], "public": True}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    hub = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(hub)) as client:
        client.hub = hub  # type: ignore[attr-defined]
        yield client


def listing(app: TestClient, mine: list[str] | None = None) -> dict[str, Any]:
    with app.websocket_connect("/ws") as ws:
        message = {"type": "tables"} if mine is None else {"type": "tables", "mine": mine}
        answer = ask(ws, message)
    valid([answer])
    return answer


def test_a_public_table_is_listed_with_its_free_seats_and_anyone_may_take_one(
        app: TestClient) -> None:
    with app.websocket_connect("/ws") as lobby:
        public = ask(lobby, TWO)
        private = ask(lobby, {**TWO, "public": False})
    found = listing(app)
    assert [t["table"] for t in found["open"]] == [public["table"]]
    (entry,) = found["open"]
    assert entry["free"] == [0, 1] and entry["watch"] == public["watch"]
    assert [s["name"] for s in entry["seats"]] == ["ann", "bob", "cy"]
    assert found["playing"] == [] and entry["match"] is None
    # the creator sits at seat 0 with its link: seat 0 is no longer offered
    with app.websocket_connect("/ws") as ann:
        ask(ann, {"type": "join", "table": public["table"], "seat": 0,
                  "token": public["seats"][0]["token"]})
        assert listing(app)["open"][0]["free"] == [1]
        # a stranger takes seat 1 from the lobby, with a new token
        with app.websocket_connect("/ws") as stranger:
            claimed = ask(stranger, {"type": "claim", "table": public["table"], "seat": 1})
            valid([claimed])
            assert claimed["type"] == "claimed" and claimed["seat"] == 1
            assert claimed["token"] != public["seats"][1]["token"]
            assert claimed["link"] == (f"/table/{public['table']}#seat=1"
                                       f"&token={claimed['token']}")
            again = ask(stranger, {"type": "claim", "table": public["table"], "seat": 1})
            assert again["error"] == "seat-not-free" and "free: none" in again["message"]
            welcome = ask(stranger, {"type": "join", "table": public["table"], "seat": 1,
                                     "token": claimed["token"]})
            assert welcome["type"] == "welcome"
        with app.websocket_connect("/ws") as creator:  # the creator's old link to seat 1
            old = ask(creator, {"type": "join", "table": public["table"], "seat": 1,
                                "token": public["seats"][1]["token"]})
            assert old["error"] == "bad-token"
        found = listing(app, [public["table"], private["table"], "0" * 16])
    assert found["open"] == [] and [t["table"] for t in found["playing"]] == [public["table"]]
    assert found["mine"] == [{"table": public["table"], "game": 1, "over": False},
                             {"table": private["table"], "game": 1, "over": False}]
    entry_file = read_entry(app.hub.store.directory / f"{public['table']}.table.json")  # type: ignore[attr-defined]
    assert entry_file.public and entry_file.free == ()


@pytest.mark.parametrize("change,seat,says", [
    ({"public": False}, 0, "is not listed in the lobby"),
    ({}, 2, "has no free seat 2 (free: 0, 1)"),  # a bot's seat
    ({}, 7, "has no free seat 7"),
])
def test_a_seat_that_is_not_free_is_refused_and_nothing_changes(
        app: TestClient, change: dict[str, Any], seat: int, says: str) -> None:
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, {**TWO, **change})
        before = app.hub.tables[created["table"]].entry  # type: ignore[attr-defined]
        answer = ask(lobby, {"type": "claim", "table": created["table"], "seat": seat})
    assert answer["error"] == "seat-not-free" and says in answer["message"], answer
    assert app.hub.tables[created["table"]].entry == before  # type: ignore[attr-defined]


def test_a_table_of_bots_is_listed_as_being_played_and_a_finished_one_is_not(
        app: TestClient) -> None:
    bots = {**TWO, "seats": [{"name": "a", "player": "greedy"},
                             {"name": "b", "player": "random"}]}
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, bots)
    found = listing(app)
    assert [t["table"] for t in found["playing"]] == [created["table"]]
    with app.websocket_connect("/ws") as spy:
        ask(spy, {"type": "watch", "table": created["table"]})
        state = until(spy, "public")
        assert listing(app)["playing"][0]["watchers"] == 1
        while state["table"]["outcome"] is None:
            state = until(spy, "public")
        assert listing(app)["playing"] == []


def test_the_lobby_choices_survive_a_restart(tmp_path: Path) -> None:
    hub = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(hub)) as client, client.websocket_connect("/ws") as lobby:
        created = ask(lobby, {**TWO, "match": True})
    again = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(again)) as client:
        (entry,) = listing(client)["open"]
    assert entry["table"] == created["table"] and entry["free"] == [0, 1]
    assert entry["match"] == 50  # blackwood-frey's match_target (BF-19)
    raw = json.loads((tmp_path / f"{created['table']}.table.json").read_text())
    assert raw["version"] == 2 and raw["public"] is True and raw["match"] == 50
