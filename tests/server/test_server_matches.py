"""Matches at a table (issue 36 §2; blackwood-frey BF-19: a match is played to
match_target points; BF-11: the deal passes to the next seat each game): games are dealt
one after another until a seat's total reaches the target, every message carries the
running score, each game keeps its record, and nothing more is dealt once the match is
won.  Through Starlette's test client."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

from spitemalice.formats.records.reading import load_record
from spitemalice.server import matches
from spitemalice.server.app import create_app
from spitemalice.server.store import Store, read_entry
from spitemalice.server.tables import Hub
from tests.server.test_server_watching import ask, until, valid

MATCH = {"type": "create", "ruleset": "blackwood-frey",
         "params": {"payoff_size": 4, "match_target": 12}, "match": True,
         "seats": [{"name": "Ada", "player": "greedy"}, {"name": "Bo", "player": "heuristic"}]}


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(matches, "NEXT_GAME_SECONDS", 0.05)
    hub = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(hub)) as client:
        client.hub = hub  # type: ignore[attr-defined]
        yield client


def test_a_table_plays_a_match_to_its_target_and_shows_the_running_score(
        app: TestClient) -> None:
    """BF-19 and BF-11, watched by a spectator from the first deal to the match's end."""
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, MATCH)
    table = created["table"]
    seen: list[dict[str, Any]] = []
    with app.websocket_connect("/ws") as spy:
        first = ask(spy, {"type": "watch", "table": table})
        seen.append(first)
        assert first["match"] == {"target": 12, "game": 1, "games": [], "totals": [0, 0],
                                  "winner": None}
        while True:
            message = until(spy, "public", seen)
            if message["match"]["winner"] is not None:
                break
        time.sleep(0.3)  # long past NEXT_GAME_SECONDS: no game is dealt after the match
    hub: Hub = app.hub  # type: ignore[attr-defined]
    valid(seen)
    last = message["match"]
    games = len(last["games"])
    entry = read_entry(hub.store.directory / f"{table}.table.json")
    assert games >= 2 and last["game"] == games and entry.game == games
    records = [load_record(hub.store.record_path(table, n)) for n in range(1, games + 1)]
    assert [list(r.outcome.scores) for r in records] == last["games"]  # type: ignore[union-attr]
    totals = [sum(points) for points in zip(*last["games"], strict=True)]
    assert last["totals"] == totals and max(totals) >= 12
    assert max(sum(p) for p in zip(*last["games"][:-1], strict=True)) < 12  # not before
    assert last["winner"] == max(range(2), key=lambda seat: totals[seat])
    dealers = [r.dealer for r in records]
    assert dealers == [(dealers[0] + n) % 2 for n in range(games)]  # BF-11: the deal passes
    welcomes = [m for m in seen if m["type"] == "watching"]
    assert [m["game"] for m in welcomes] == list(range(1, games + 1))
    assert [m["match"]["game"] for m in welcomes] == list(range(1, games + 1))
    assert entry.match == 12 and [list(g) for g in entry.scores] == last["games"][:-1]


def until_one_of(ws: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The next message whose type is one of ``kinds`` (the others let go)."""
    while True:
        message: dict[str, Any] = json.loads(ws.receive_text())
        if message["type"] in kinds:
            return message


def test_a_person_in_a_match_is_dealt_the_next_game_on_a_rematch_and_sees_the_score(
        app: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matches, "NEXT_GAME_SECONDS", 60)  # only the rematch deals
    people = {**MATCH, "seats": [{"name": "Ann", "player": "human"},
                                 {"name": "Bo", "player": "greedy"}]}
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, people)
    with app.websocket_connect("/ws") as ann:
        welcome = ask(ann, {"type": "join", "table": created["table"], "seat": 0,
                            "token": created["seats"][0]["token"]})
        assert welcome["match"]["target"] == 12 and welcome["match"]["totals"] == [0, 0]
        ann.send_text(json.dumps({"type": "rematch"}))
        seen: list[dict[str, Any]] = []
        early = until(ann, "error", seen)
        assert early["error"] == "game-not-over"
        states = [m for m in seen if m["type"] == "state"]
        state = states[-1] if states else until(ann, "state")
        assert state["match"]["game"] == 1
        while state["view"]["outcome"] is None:
            if state["view"]["seat"] == 0 and state["legal"]:
                ann.send_text(json.dumps({"type": "move", "move": state["legal"][0]["move"],
                                          "number": state["number"] + 1}))
            answer = until_one_of(ann, ("state", "error"))
            if answer["type"] == "error":
                # a whole game's moves sent as fast as the test can: past the rate a person
                # never reaches, the server refuses one (rate-limited); wait, send it again
                assert answer["error"] == "rate-limited", answer
                time.sleep(1.0)
                continue
            state = answer
        scores = state["view"]["outcome"]["scores"]
        assert state["match"]["games"] == [scores] and state["match"]["totals"] == scores
        ann.send_text(json.dumps({"type": "rematch"}))
        second = until(ann, "welcome")
        assert second["game"] == 2 and second["match"]["game"] == 2
        assert second["match"]["totals"] == scores
        assert until(ann, "state")["view"]["outcome"] is None


def test_a_table_of_single_games_sends_no_running_score(app: TestClient) -> None:
    single = {**MATCH, "match": False}
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, single)
    with app.websocket_connect("/ws") as spy:
        assert ask(spy, {"type": "watch", "table": created["table"]})["match"] is None
        assert "match" not in until(spy, "public")


def test_a_match_stopped_between_two_games_deals_the_next_when_the_server_starts_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """BF-19: the match goes on across a restart that fell after a game ended and before
    the next was dealt."""
    monkeypatch.setattr(matches, "NEXT_GAME_SECONDS", 600)
    hub = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(hub)) as client:
        with client.websocket_connect("/ws") as lobby:
            created = ask(lobby, MATCH)
        with client.websocket_connect("/ws") as spy:
            ask(spy, {"type": "watch", "table": created["table"]})
            state = until(spy, "public")
            while state["table"]["outcome"] is None:
                state = until(spy, "public")
    assert read_entry(tmp_path / f"{created['table']}.table.json").game == 1
    monkeypatch.setattr(matches, "NEXT_GAME_SECONDS", 0)
    again = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(again)) as client, client.websocket_connect("/ws") as spy:
        watching = ask(spy, {"type": "watch", "table": created["table"]})
        if watching["game"] == 1:  # dealt a moment after the restart
            watching = until(spy, "watching")
    assert watching["game"] == 2 and watching["match"]["games"] == [
        state["table"]["outcome"]["scores"]]
