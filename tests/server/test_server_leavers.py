"""Leavers and reactions (issue 36 §2) over the protocol, through Starlette's test client.

A table with a short move clock (:data:`spitemalice.server.leavers.SECOND` shortened, so a
clock of 5 s lasts a tenth of a second): a seat that does not move is taken over when its
clock runs out, a seat whose connection closes is taken over once the grace has passed; the
record and ``spitemalice check`` name the takeover; the person back at the seat may not
move.  Reactions: the fixed set, the rate, seats and spectators told."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.formats.records.record import Takeover
from spitemalice.play.session import Session
from spitemalice.server import leavers, reactions, tables
from spitemalice.server.app import create_app
from spitemalice.server.protocol import REACTIONS
from spitemalice.server.store import Store, read_entry
from spitemalice.server.tables import Hub
from tests.server.test_server_watching import ask, until, valid
from tests.serving import DEAL_SEED, deal_again

ANN_AND_BOT = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 3},
               "seats": [{"name": "Ann", "player": "human"},
                         {"name": "Bo", "player": "greedy"}], "clock": 5}
TWO_PEOPLE = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 3},
              "seats": [{"name": "Ann", "player": "human"}, {"name": "Cy", "player": "human"}],
              "grace": 5}


@pytest.fixture
def app(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:
    monkeypatch.setattr(leavers, "SECOND", 0.02)  # a clock second lasts 20 ms
    hub = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(hub)) as client:
        client.hub = hub  # type: ignore[attr-defined]
        yield client


def hub_of(app: TestClient) -> Hub:
    hub: Hub = app.hub  # type: ignore[attr-defined]
    return hub


def join(app: TestClient, ws: Any, created: dict[str, Any], seat: int) -> dict[str, Any]:
    return ask(ws, {"type": "join", "table": created["table"], "seat": seat,
                    "token": created["seats"][seat]["token"]})


def open_table(app: TestClient, message: dict[str, Any]) -> dict[str, Any]:
    """A new table, dealt again from :data:`~tests.serving.DEAL_SEED` (the server's own seed
    is unguessable: a test must not depend on who is on turn or on a bot ending the game
    before the person's turn)."""
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, message)
    assert created["type"] == "created", created
    deal_again(SimpleNamespace(hub=hub_of(app)), created["table"], DEAL_SEED)  # type: ignore[arg-type]
    return created


def to_the_end(ws: Any, seen: list[dict[str, Any]], seat: int | None = None) -> None:
    """Read ``ws`` until the game is over; ``seat``: play its first legal move on its turn,
    starting from the last state already read (the seat may be on turn now: no new state
    comes until it moves)."""
    last = [m for m in seen if m["type"] == "state"]
    state = last[-1] if last else until(ws, "state", seen)
    while True:
        if state["view"]["outcome"] is not None:
            return
        if seat is not None and state["legal"] and state["view"]["seat"] == seat:
            ws.send_text(json.dumps({"type": "move", "move": state["legal"][0]["move"],
                                     "number": state["number"] + 1}))
        state = until(ws, "state", seen)


def check_says(path: Path, capsys: pytest.CaptureFixture[str]) -> str:
    assert main(["check", str(path)]) == 0
    return capsys.readouterr().out


def test_a_seat_that_does_not_move_is_taken_over_when_its_clock_runs_out(
        app: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    created = open_table(app, ANN_AND_BOT)
    entry = read_entry(hub_of(app).store.directory / f"{created['table']}.table.json")
    assert entry.leavers is not None and (entry.leavers.clock, entry.leavers.grace,
                                          entry.leavers.player) == (5, 60, "heuristic")
    seen: list[dict[str, Any]] = []
    with app.websocket_connect("/ws") as ann:
        assert join(app, ann, created, 0)["type"] == "welcome"
        state = until(ann, "state", seen)
        while state["view"]["seat"] != 0:  # the bot first, if it is on turn
            state = until(ann, "state", seen)
        clock = state["clock"]
        assert clock["per_move"] == 5 and clock["seat"] == 0
        assert 0 < clock["left_ms"] <= 5000 and clock["player"] == "heuristic"
        taken = until(ann, "takeover", seen)  # Ann never moves
        assert (taken["seat"], taken["why"], taken["player"]) == (0, "out of time",
                                                                  "heuristic")
        assert taken["at"] == state["number"]
        assert "Ann ran out of time" in taken["message"]
        seats = until(ann, "seats", seen)["seats"]
        assert seats[0]["takeover"] == {"player": "heuristic", "at": taken["at"],
                                        "why": "out of time"}
        to_the_end(ann, seen)
        last = [m for m in seen if m["type"] == "state"][-1]
        assert last["clock"]["seat"] is None  # no clock runs once the game is over
        # Ann may not move, ask a hint or take back at her seat for the rest of the game
        ann.send_text(json.dumps({"type": "hint"}))
        answer = json.loads(ann.receive_text())
        assert answer["error"] in ("taken-over", "game-over"), answer
    assert sum(m["type"] == "takeover" for m in seen) == 1  # fired once
    valid(seen)
    path = hub_of(app).store.record_path(created["table"], 1)
    record = sm.load_record(path)
    assert record.outcome is not None
    assert record.takeovers == (Takeover(0, taken["at"], "heuristic", "out of time"),)
    assert record.seats[0].kind == "human"  # the seat stays Ann's in the record
    assert {m.seat for m in [*Session.resume(record).history[taken["at"]:]]} == {0, 1}
    said = check_says(path, capsys)
    assert "valid:" in said.splitlines()[1]  # after the deal commitment checked
    assert (f"seat 0 (Ann) taken over by the heuristic bot from move {taken['at'] + 1}: "
            "out of time") in said


def test_a_seat_whose_person_leaves_is_taken_over_after_the_grace(
        app: TestClient, capsys: pytest.CaptureFixture[str]) -> None:
    created = open_table(app, TWO_PEOPLE)
    seen: list[dict[str, Any]] = []
    with app.websocket_connect("/ws") as ann, app.websocket_connect("/ws") as spy:
        join(app, ann, created, 0)
        with app.websocket_connect("/ws") as cy:
            join(app, cy, created, 1)
            until(cy, "state")
        # Cy's connection closed: after the grace (5 clock seconds) a bot plays seat 1
        assert ask(spy, {"type": "watch", "table": created["table"]})["type"] == "watching"
        taken = until(ann, "takeover", seen)
        assert (taken["seat"], taken["name"], taken["why"]) == (1, "Cy", "left")
        assert "Cy was away longer than the table's grace" in taken["message"]
        watched = until(spy, "takeover")
        assert watched == taken  # spectators are told too
        to_the_end(ann, seen, seat=0)
        # Cy comes back with the link: the seat is shown taken over, and moves are refused
        with app.websocket_connect("/ws") as back:
            welcome = join(app, back, created, 1)
            assert welcome["seats"][1]["takeover"]["why"] == "left"
    path = hub_of(app).store.record_path(created["table"], 1)
    record = sm.load_record(path)
    assert record.outcome is not None and [t.why for t in record.takeovers] == ["left"]
    assert record.takeovers[0].seat == 1
    assert "seat 1 (Cy) taken over by the heuristic bot" in check_says(path, capsys)


def test_the_person_back_at_a_seat_taken_over_may_not_move_until_the_next_game(
        app: TestClient) -> None:
    created = open_table(app, {**TWO_PEOPLE, "clock": 600})
    with app.websocket_connect("/ws") as ann:
        join(app, ann, created, 0)
        until(ann, "state")
        with app.websocket_connect("/ws") as cy:
            join(app, cy, created, 1)
        until(ann, "takeover")
        with app.websocket_connect("/ws") as cy:
            join(app, cy, created, 1)
            state = until(cy, "state")
            for message in ({"type": "move", "move": "pass"}, {"type": "hint"},
                            {"type": "undo"}):
                cy.send_text(json.dumps(message))
                answer = until(cy, "error")  # bot moves may be announced meanwhile
                assert answer["error"] == "taken-over", answer
                assert "seat 1 is played by the heuristic bot" in answer["message"]
            assert state["clock"]["per_move"] == 600
            # a reaction is still the person's
            cy.send_text(json.dumps({"type": "react", "reaction": "oops"}))
            assert until(cy, "reaction")["seat"] == 1
        table = hub_of(app).tables[created["table"]]
        assert table.session.taken_over(1) is not None
        assert table.session.taken_over(0) is None


def test_clock_grace_and_takeover_values_are_checked(app: TestClient) -> None:
    with app.websocket_connect("/ws") as lobby:
        for extra, code, words in [
                ({"clock": 2}, "wrong-type", "create.clock: expected a whole number from 5 "
                 "to 3600, not 2"),
                ({"clock": 3601}, "wrong-type", "from 5 to 3600"),
                ({"grace": 0}, "wrong-type", "create.grace: expected a whole number from 5"),
                ({"clock": "30"}, "wrong-type", "create.clock"),
                ({"takeover": "greedy"}, "bad-rules", "give clock"),
                ({"clock": 30, "takeover": "nobody"}, "bad-rules", "create.takeover")]:
            answer = ask(lobby, {**ANN_AND_BOT, **extra, "clock": extra.get("clock")}
                         if "clock" in extra else {**{k: v for k, v in ANN_AND_BOT.items()
                                                      if k != "clock"}, **extra})
            assert answer["type"] == "error" and answer["error"] == code, (extra, answer)
            assert words in answer["message"], answer
        plain = ask(lobby, {k: v for k, v in ANN_AND_BOT.items() if k != "clock"})
    assert plain["type"] == "created"
    with app.websocket_connect("/ws") as ann:
        join(app, ann, plain, 0)
        assert "clock" not in until(ann, "state")  # no clock: the state is as it was


def test_reactions_from_the_fixed_set_reach_every_seat_and_spectator_and_are_rate_limited(
        app: TestClient) -> None:
    created = open_table(app, {**TWO_PEOPLE, "grace": 600})
    with app.websocket_connect("/ws") as ann, app.websocket_connect("/ws") as cy, \
            app.websocket_connect("/ws") as spy:
        join(app, ann, created, 0)
        join(app, cy, created, 1)
        assert ask(spy, {"type": "watch", "table": created["table"]})["type"] == "watching"
        ann.send_text(json.dumps({"type": "react", "reaction": "nice"}))
        expected = {"type": "reaction", "seat": 0, "name": "Ann", "reaction": "nice",
                    "emoji": REACTIONS["nice"][0], "text": "Nice move!"}
        for ws in (ann, cy, spy):
            assert until(ws, "reaction") == expected
        answer = ask(cy, {"type": "react", "reaction": "lol"})
        assert answer["error"] == "bad-reaction"
        assert ", ".join(REACTIONS) in answer["message"]
        answer = ask(spy, {"type": "react", "reaction": "nice"})
        assert answer["error"] == "not-joined" and "spectator" in answer["message"]
        for _ in range(reactions.BURST - 1):  # Ann has sent one: the burst's rest passes
            assert ask(ann, {"type": "react", "reaction": "wow"})["type"] == "reaction"
        answer = ask(ann, {"type": "react", "reaction": "wow"})
        assert answer["type"] == "error" and answer["error"] == "rate-limited", answer
        assert f"{reactions.PER_MINUTE} a minute" in answer["message"]
        # the rate is the seat's: another seat reacts as before
        assert ask(cy, {"type": "react", "reaction": "thanks"})["type"] == "reaction"
    record = sm.load_record(hub_of(app).store.record_path(created["table"], 1))
    assert "nice" not in json.dumps(sm.formats.record_to_dict(record))  # not in the record


def test_a_takeover_is_kept_over_a_restart_and_never_fires_twice(
        app: TestClient, tmp_path: Path) -> None:
    created = open_table(app, TWO_PEOPLE)
    with app.websocket_connect("/ws") as ann:
        join(app, ann, created, 0)
        with app.websocket_connect("/ws") as cy:
            join(app, cy, created, 1)
        seen: list[dict[str, Any]] = []
        taken = until(ann, "takeover", seen)
        state = [m for m in seen if m["type"] == "state"][-1]  # Ann's turn now, or Cy's
        while state["view"]["seat"] != 0:  # the bot plays Cy's seat up to Ann's turn
            state = until(ann, "state")
        public = hub_of(app).tables[created["table"]]
        assert public.session.taken_over(1) is not None
    hub = Hub(Store(tmp_path), bot_delay=0)  # another process, from the records
    hub.restore()
    table = hub.tables[created["table"]]
    assert table.session.taken_over(1) == Takeover(1, taken["at"], "heuristic", "left")
    assert not table.session.bot_on_turn and table.session.on_turn == 0
    with pytest.raises(sm.PlayError, match="not played by a person"):
        table.session.take_over(1, "heuristic", "left")  # a second takeover: refused
    assert len(sm.load_record(hub.store.record_path(created["table"], 1)).takeovers) == 1


def test_a_clock_does_not_fire_at_a_process_that_no_longer_holds_the_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With several processes, only the owner of a table's lease takes a seat over: a
    process whose lease ran out lets its clock go (the new owner's clock runs)."""
    monkeypatch.setattr(leavers, "SECOND", 0.01)

    async def play() -> tuple[list[str], bool]:
        hub = Hub(Store(tmp_path), bot_delay=0)
        sent: list[str] = []

        async def send(text: str) -> None:
            sent.append(text)
        lobby = tables.Connection(send, "a")
        await hub.receive(lobby, json.dumps(TWO_PEOPLE | {"clock": 5}))
        created = json.loads(sent[-1])
        ann = tables.Connection(send, "a")
        await hub.receive(ann, json.dumps({"type": "join", "table": created["table"],
                                           "seat": 0, "token": created["seats"][0]["token"]}))
        monkeypatch.setattr(hub.shared, "holds", lambda table: False)  # the lease is lost
        await asyncio.sleep(0.3)  # 30 clock seconds: six clocks of 5 s
        await hub.close()
        return [json.loads(text)["type"] for text in sent], \
            hub.tables[created["table"]].session.taken_over(0) is None
    kinds, untouched = asyncio.run(play())
    assert "takeover" not in kinds and untouched


def test_a_takeover_bot_that_cannot_play_the_tables_rules_is_refused_at_create(
        app: TestClient) -> None:
    """The learned bot plays one rule set: as a takeover at a table of other rules it would
    stop the table at its first move, so create refuses it, as it does in a seat."""
    with app.websocket_connect("/ws") as lobby:
        for extra in ({"house_rules": ["mandatory-aces"]}, {"grace": 5}):
            message = {**ANN_AND_BOT, "takeover": "learned", **extra}
            if "grace" in extra:  # three seats: learned plays two
                message["seats"] = [*ANN_AND_BOT["seats"], {"name": "Cy", "player": "human"}]
            answer = ask(lobby, message)
            assert answer["type"] == "error" and answer["error"] == "bad-rules", answer
            assert answer["message"].startswith("create.takeover: "), answer
    assert not hub_of(app).tables  # nothing opened


def test_a_bot_that_cannot_move_is_said_to_the_log_and_the_table_not_lost_silently(
        app: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    logged: list[str] = []
    hub_of(app).log = logged.append
    monkeypatch.setattr(Session, "play_bot", lambda self: (_ for _ in ()).throw(
        sm.SpiteMaliceError("this bot cannot play here")))
    created = open_table(app, {**ANN_AND_BOT, "seats": [
        {"name": "Ada", "player": "greedy"}, {"name": "Bo", "player": "greedy"}]})
    with app.websocket_connect("/ws") as spy:
        assert ask(spy, {"type": "watch", "table": created["table"]})["type"] == "watching"
        told = until(spy, "error")
    assert told["error"] == "server-error" and "this bot cannot play here" in told["message"]
    assert any("this bot cannot play here" in line and "stops here" in line for line in logged)
