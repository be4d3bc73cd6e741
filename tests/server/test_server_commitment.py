"""Deals anyone can check (issue 36 §2) at the play server: every seat and spectator is
shown the same commitment to the deal's seed from the deal on, and nothing sent before the
game is over holds the seed or the salt that opens it (no state, public, welcome, watching,
seats or watchers message, with or without pictures); the last messages reveal them, and
the record checks.  Through Starlette's test client."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.server import matches
from spitemalice.server.app import create_app
from spitemalice.server.store import Store
from spitemalice.server.tables import Hub
from tests.server.test_server_watching import BOTS, ask, valid

ONE_PERSON = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 3},
              "seats": [{"name": "ann", "player": "human"}, {"name": "Bo", "player": "greedy"}]}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    hub = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(hub)) as client:
        client.hub = hub  # type: ignore[attr-defined]
        yield client


def _texts(ws: Any, kind: str, texts: list[str]) -> dict[str, Any]:
    """Every text ``ws`` receives, kept in ``texts``, up to the next ``kind`` message."""
    while True:
        text = ws.receive_text()
        texts.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == kind:
            return message


def _over(message: dict[str, Any]) -> bool:
    if message["type"] not in ("state", "public"):
        return False
    view = message["view"] if message["type"] == "state" else message["table"]
    return view.get("outcome") is not None


def _check_secret_kept(texts: list[str], record: sm.GameRecord) -> None:
    """No text before the first that says the game is over holds the seed or the salt."""
    assert record.commitment is not None
    seed, salt = str(record.seed), record.commitment.salt
    messages = [json.loads(text) for text in texts]
    end = next(i for i, m in enumerate(messages) if _over(m))
    for text in texts[:end]:
        assert salt not in text
        assert not re.search(rf"(?<![0-9]){seed}(?![0-9])", text), text[:200]
    for message in messages[:end]:
        if "deal" in message:
            assert set(message["deal"]) == {"scheme", "commitment"}
            assert message["deal"]["commitment"] == record.commitment.sha256
    last = messages[end]["deal"]
    assert last["seed"] == seed and last["salt"] == salt and last["dealer"] == record.dealer
    who = "none" if record.dealer is None else record.dealer
    opened = hashlib.sha256(f"spitemalice-deal-v1:{seed}:{who}:{salt}".encode()).hexdigest()
    assert opened == last["commitment"] and f"'spitemalice-deal-v1:{seed}:" in last["check"]
    valid(messages)


def test_a_seat_and_a_spectator_see_the_commitment_and_the_seed_only_at_the_end(
        app: TestClient, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, ONE_PERSON)
    table = created["table"]
    seat_texts: list[str] = []
    spy_texts: list[str] = []
    with app.websocket_connect("/ws") as ann, app.websocket_connect("/ws") as spy:
        ann.send_text(json.dumps({"type": "join", "table": table, "seat": 0,
                                  "token": created["seats"][0]["token"]}))
        state = _texts(ann, "state", seat_texts)
        spy.send_text(json.dumps({"type": "watch", "table": table, "picture": True}))
        public = _texts(spy, "public", spy_texts)
        assert state["deal"]["commitment"] == public["deal"]["commitment"]
        assert re.fullmatch("[0-9a-f]{64}", state["deal"]["commitment"])
        while not _over(state):
            if state["legal"]:
                ann.send_text(json.dumps({"type": "move", "move": state["legal"][0]["move"],
                                          "number": state["number"] + 1}))
            state = _texts(ann, "state", seat_texts)
        while not _over(public):
            public = _texts(spy, "public", spy_texts)
        ann.send_text(json.dumps({"type": "record"}))
        sent = json.loads(_texts(ann, "record", seat_texts)["text"])
    path = app.hub.store.record_path(table, 1)  # type: ignore[attr-defined]
    record = sm.load_record(path)
    assert sent["commitment"]["sha256"] == state["deal"]["commitment"]
    _check_secret_kept(seat_texts, record)
    _check_secret_kept(spy_texts, record)
    assert main(["check", str(path)]) == 0
    assert f"seed matches commitment {record.commitment.sha256}" in capsys.readouterr().out


def test_each_game_of_a_match_is_committed_to_anew(app: TestClient,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(matches, "NEXT_GAME_SECONDS", 0.0)
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, {**BOTS, "match": True, "params": {"payoff_size": 3}})
    assert created["type"] == "created", created
    texts: list[str] = []
    with app.websocket_connect("/ws") as spy:
        spy.send_text(json.dumps({"type": "watch", "table": created["table"]}))
        public = _texts(spy, "public", texts)
        while public["game"] < 2:
            public = _texts(spy, "public", texts)
    store = app.hub.store  # type: ignore[attr-defined]
    first = sm.load_record(store.record_path(created["table"], 1))
    second = sm.load_record(store.record_path(created["table"], 2))
    assert first.commitment and second.commitment
    assert first.commitment.sha256 != second.commitment.sha256
    assert public["deal"] == {"scheme": "spitemalice-deal-v1",
                              "commitment": second.commitment.sha256}
    _check_secret_kept(texts, first)
