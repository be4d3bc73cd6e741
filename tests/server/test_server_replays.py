"""The replay page's data (issue 36 §2): the finished games of public tables are listed,
newest first; any finished game is stepped through by its id, each position the one the
record replays to, every hand face up, each move in words; an unfinished game, a game of
no table, a move past the end and a malformed id are each a 404 saying why.  Through
Starlette's test client."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")

from starlette.testclient import TestClient

import spitemalice as sm
from spitemalice.formats.records.reading import load_record
from spitemalice.server.app import create_app
from spitemalice.server.store import Store
from spitemalice.server.tables import Hub
from tests.server.test_server_watching import ask, until

BOTS = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 4},
        "seats": [{"name": "Ada", "player": "greedy"}, {"name": "Bo", "player": "random"}]}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    hub = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(hub)) as client:
        client.hub = hub  # type: ignore[attr-defined]
        yield client


def finished(app: TestClient, public: bool) -> str:
    """The id of a game played to its end by bots at a new table."""
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, {**BOTS, "public": public})
    with app.websocket_connect("/ws") as spy:
        ask(spy, {"type": "watch", "table": created["table"]})
        state = until(spy, "public")
        while state["table"]["outcome"] is None:
            state = until(spy, "public")
    return f"{created['table']}-1"


def cards(svg: str) -> list[tuple[str, str]]:
    found = re.findall(r"class='card' data-card=\"([^\"]+)\" data-zone='([^']+)'", svg)
    assert found, "no card found in the picture"
    return found


def test_finished_games_are_listed_and_stepped_through_with_every_hand_face_up(
        app: TestClient) -> None:
    first = finished(app, public=True)
    private = finished(app, public=False)
    second = finished(app, public=True)
    listed = app.get("/games").json()["games"]
    assert [g["game"] for g in listed] == [second, first]  # newest first, no private one
    assert listed[0]["seats"] == ["Ada", "Bo"] and listed[0]["ruleset"] == "blackwood-frey"
    page = app.get("/replay")
    assert page.status_code == 200 and "replay.js" in page.text
    store: Store = app.hub.store  # type: ignore[attr-defined]
    for game_id in (first, private):  # a private table's game, by its id
        record = load_record(store.record_path(game_id[:16], 1))
        summary = app.get(f"/games/{game_id}").json()
        assert [m["move"] for m in summary["moves"]] == list(record.moves)
        assert summary["outcome"] == record.outcome.describe()  # type: ignore[union-attr]
        assert summary["seats"] == [{"name": "Ada", "player": "greedy"},
                                    {"name": "Bo", "player": "random"}]
        states = list(sm.replay(record))
        for number in (0, 1, len(record.moves) // 2, len(record.moves)):
            drawn = app.get(f"/games/{game_id}/{number}").json()
            assert drawn["number"] == number
            expected = sm.formats.position_svg(states[number])
            assert cards(drawn["picture"]) == cards(expected)
            hands = [c for c in cards(drawn["picture"]) if c[1].endswith("-hand")]
            held = sum(len(seat.hand) for seat in states[number].seats)
            assert len(hands) == held  # every hand face up
        words = summary["moves"][0]["words"]
        mover = summary["seats"][states[0].seat]["name"]
        assert words.startswith(f"{mover} ") and ("plays" in words or "discards" in words)


def _unfinished(app: TestClient) -> str:
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, BOTS)
    return f"{created['table']}-1"


@pytest.mark.parametrize("path,says", [
    (lambda app, done: f"/games/{_unfinished(app)}", "has not ended"),
    (lambda app, done: "/games/0123456789abcdef-1", "no game 0123456789abcdef-1"),
    (lambda app, done: "/games/../../etc", "Not Found"),
    (lambda app, done: "/games/nothing-1", "is not a game id"),
    (lambda app, done: f"/games/{done}/9999", "not 9999"),
    (lambda app, done: f"/games/{done}/-1", 'not "-1"'),
    # a number past Python's integer-text limit, and digits that are not ASCII (issue 38,
    # class 7): refused naming what was sent, never int()'s own error
    (lambda app, done: f"/games/{done}/{'9' * 5000}", 'not "999'),
    (lambda app, done: f"/games/{done}/\u0663", "in digits 0-9, not"),
])
def test_a_game_that_cannot_be_replayed_is_a_404_saying_why(app: TestClient, path: Any,
                                                            says: str) -> None:
    done = finished(app, public=False)
    answer = app.get(path(app, done))
    assert answer.status_code == 404 and says in answer.text, answer.text


def test_a_record_file_sent_from_the_replay_page_is_stepped_through_and_bounded(
        app: TestClient, tmp_path: Path) -> None:
    """POST /games with a record file's text (the replay page's "Open a record file"): the
    answer names an id ``file-...`` that /games/ID and /games/ID/K then take, as for a game
    of the server's own; an unfinished game replays too; a file past the bound is a 413 and
    a file that is not a record a 400 saying why, and neither is kept."""
    from spitemalice.play import Session
    from spitemalice.server import replays

    rules = sm.load("blackwood-frey", params={"payoff_size": 4})
    session = Session(rules, ["greedy", "random"], names=["Ada", "Bo"], seed=7,
                      record_path=tmp_path / "game.json")
    while not session.is_over and len(session.history) < 12:
        session.play_bot()
    text = (tmp_path / "game.json").read_bytes()
    answer = app.post("/games", content=text)
    assert answer.status_code == 200, answer.text
    game = answer.json()["game"]
    assert replays.FILE_ID.fullmatch(game)
    assert app.post("/games", content=text).json()["game"] == game  # one id per file
    summary = app.get(f"/games/{game}").json()
    assert [m["move"] for m in summary["moves"]] == [p.text for p in session.history]
    assert summary["outcome"] == "not finished"
    position = app.get(f"/games/{game}/12").json()
    hand = {card for card, zone in cards(position["picture"]) if zone == "seat0-hand"}
    assert hand == {str(card) for card in session.state.seats[0].hand}
    too_long = app.post("/games", content=b" " * (replays.MAX_FILE_BYTES + 1))
    assert too_long.status_code == 413 and "at most" in too_long.text
    wrong = app.post("/games", content=b'{"format": "not a record"}')
    assert wrong.status_code == 400 and wrong.text.startswith("that file cannot be replayed")
    assert len(replays._files) <= replays.MAX_FILES


def test_a_committed_deal_is_shown_with_its_revealed_seed_and_how_to_check_it(
        app: TestClient) -> None:
    """Issue 36 §2: a game a server dealt shows, on the replay page, the commitment
    announced before its first move, the seed and salt its record reveals, that they open
    it, and the command lines that check it; a record whose salt was changed replays, but
    its deal is shown not to check (naming the commitment); a record with none has none."""
    import hashlib
    import json

    from spitemalice.formats.records import dumps_record, loads_record

    game_id = finished(app, public=True)
    store: Store = app.hub.store  # type: ignore[attr-defined]
    record = load_record(store.record_path(game_id[:16], 1))
    deal = app.get(f"/games/{game_id}").json()["deal"]
    assert record.commitment is not None and deal["commitment"] == record.commitment.sha256
    assert deal["seed"] == str(record.seed) and deal["salt"] == record.commitment.salt
    assert deal["holds"] is True and deal["problem"] is None
    who = "none" if deal["dealer"] is None else deal["dealer"]
    opened = f"{deal['scheme']}:{deal['seed']}:{who}:{deal['salt']}"
    assert hashlib.sha256(opened.encode("ascii")).hexdigest() == deal["commitment"]
    assert "spitemalice check" in deal["check"] and "| sha256sum" in deal["check"]
    assert opened in deal["check"]
    data = json.loads(dumps_record(record))
    data["commitment"]["salt"] = "0" * 32  # the record no longer opens what was announced
    sent = app.post("/games", content=json.dumps(data).encode()).json()["game"]
    broken = app.get(f"/games/{sent}").json()["deal"]
    assert broken["holds"] is False and broken["problem"].startswith("commitment:")
    del data["commitment"]
    plain = app.post("/games", content=dumps_record(loads_record(json.dumps(data))).encode())
    assert app.get(f"/games/{plain.json()['game']}").json()["deal"] is None
    page = app.get("/replay").text
    assert 'id="deal-commitment"' in page and 'id="deal-how"' in page
