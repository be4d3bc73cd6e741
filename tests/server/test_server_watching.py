"""Spectators (issue 36 §2): a table of bots alone is opened and watched through its watch
link; a spectator is sent what every seat may see and nothing else, and never takes a seat.

The privacy twins: at many positions of games under several rule sets, a twin position
whose hidden cards (every hand, the draw pile, the cards under the pay-off tops, the
completed cards) are shuffled among their places, with another seed, gives a spectator the
same ``public`` message byte for byte; and over a whole game at a server, two tables that
differ only in such cards send a spectator byte-identical streams.  Through Starlette's
test client."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")

from jsonschema import Draft202012Validator
from starlette.testclient import TestClient

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.engine.views import stand_in_state
from spitemalice.formats.schema import schema
from spitemalice.play import session as session_module
from spitemalice.play.table_view import Played
from spitemalice.server import tables, watching
from spitemalice.server.app import create_app
from spitemalice.server.store import Store
from spitemalice.server.tables import Hub
from tests.server.test_server_privacy import SAME_COMMITMENT, _card, _put, masked

TO_CLIENT = Draft202012Validator({**schema("message"), "oneOf": [
    {"$ref": "#/$defs/to-client"}]})
BOTS = {"type": "create", "ruleset": "blackwood-frey", "params": {"payoff_size": 5},
        "seats": [{"name": "Ada", "player": "greedy"}, {"name": "Bo", "player": "random"}]}
PEOPLE = {"type": "create", "ruleset": "blackwood-frey", "house_rules": ["mandatory-aces"],
          "params": {"payoff_size": 5},
          "seats": [{"name": "ann", "player": "human"}, {"name": "bob", "player": "human"}]}


@pytest.fixture
def app(tmp_path: Path) -> Iterator[TestClient]:
    hub = Hub(Store(tmp_path), bot_delay=0)
    with TestClient(create_app(hub)) as client:
        client.hub = hub  # type: ignore[attr-defined]
        yield client


def ask(ws: Any, message: dict[str, Any]) -> dict[str, Any]:
    ws.send_text(json.dumps(message))
    answer: dict[str, Any] = json.loads(ws.receive_text())
    return answer


def until(ws: Any, kind: str, seen: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    while True:
        message: dict[str, Any] = json.loads(ws.receive_text())
        if seen is not None:
            seen.append(message)
        if message["type"] == kind:
            return message


def valid(messages: list[dict[str, Any]]) -> None:
    for message in messages:
        errors = [e.message for e in TO_CLIENT.iter_errors(message)]
        assert errors == [], (message["type"], errors[:3])


def test_a_table_of_bots_alone_is_opened_and_watched_to_its_end_through_its_link(
        app: TestClient) -> None:
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, BOTS)
    assert created["type"] == "created", created
    assert [s["link"] for s in created["seats"]] == [None, None]
    assert created["watch"] == f"/watch/{created['table']}"
    page = app.get(created["watch"])
    assert page.status_code == 200 and "watch.js" in page.text
    assert app.get("/watch/not-a-table").status_code == 404
    seen: list[dict[str, Any]] = []
    with app.websocket_connect("/ws") as ws:
        first = ask(ws, {"type": "watch", "table": created["table"], "picture": True})
        seen.append(first)
        assert first["type"] == "watching" and first["match"] is None
        assert [(s["name"], s["player"]) for s in first["seats"]] == [("Ada", "greedy"),
                                                                      ("Bo", "random")]
        state = until(ws, "public", seen)
        assert state["number"] == 0 and state["log"] == []  # the bots wait for a watcher
        while state["table"]["outcome"] is None:
            state = until(ws, "public", seen)
    publics = [m for m in seen if m["type"] == "public"]
    assert [m["number"] for m in publics] == list(range(len(publics)))  # every move shown
    assert len(publics) > 10
    for message in publics:
        assert "hand" not in message["table"] and "viewer" not in message["table"]
        assert "legal" not in message
        assert "data-zone='seat0-hand'" in message["picture"]  # the hands are there...
        assert "class='card' data-card" not in _hands(message["picture"])  # ...face down
        assert "as a spectator sees it" in message["picture"]
    valid(seen)
    record = sm.load_record(app.hub.store.record_path(created["table"], 1))  # type: ignore[attr-defined]
    assert record.outcome is not None and len(record.moves) == publics[-1]["number"]
    assert created["table"] not in app.hub.tables  # type: ignore[attr-defined]


def _hands(svg: str) -> str:
    """The parts of a picture inside the hands' piles."""
    parts = svg.split("<g class='pile' data-zone='")
    return "".join(part for part in parts[1:] if part.split("'")[0].endswith("-hand"))


def test_a_spectator_sees_a_game_of_people_and_takes_no_seat(app: TestClient) -> None:
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, PEOPLE)
    table = created["table"]
    with app.websocket_connect("/ws") as ann, app.websocket_connect("/ws") as spy:
        welcome = ask(ann, {"type": "join", "table": table, "seat": 0,
                            "token": created["seats"][0]["token"]})
        assert welcome["type"] == "welcome" and not welcome["replaced"]
        seat_state = until(ann, "state")
        assert ask(spy, {"type": "watch", "table": table})["type"] == "watching"
        public = until(spy, "public")
        assert "picture" not in public
        # how many watch, told to the spectator and to the seat alike (issue 36 §2)
        assert json.loads(spy.receive_text()) == {"type": "watchers", "count": 1}
        assert until(ann, "watchers") == {"type": "watchers", "count": 1}
        assert public["table"]["seats"] == seat_state["view"]["seats"]
        assert public["table"]["builds"] == seat_state["view"]["builds"]
        # a spectator makes no move, asks no hint, and cannot sit down on this connection
        for message, code in [({"type": "move", "move": "pass"}, "not-joined"),
                              ({"type": "hint"}, "not-joined"),
                              ({"type": "undo"}, "not-joined"),
                              ({"type": "watch", "table": table}, "already-joined"),
                              ({"type": "join", "table": table, "seat": 1,
                                "token": created["seats"][1]["token"]}, "already-joined")]:
            answer = ask(spy, message)
            assert (answer["type"], answer["error"]) == ("error", code), answer
        # ann is still at her seat and plays; the spectator sees her move
        mover = seat_state["view"]["seat"]
        if mover == 0:
            move = seat_state["legal"][0]["move"]
            ann.send_text(json.dumps({"type": "move", "move": move, "number": 1}))
            assert until(ann, "state")["number"] == 1
            shown = until(spy, "public")
            assert shown["last"]["move"] == move and shown["last"]["seat"] == 0
        assert app.hub.tables[table].clients[0]  # type: ignore[attr-defined]
    with app.websocket_connect("/ws") as late:
        answer = ask(late, {"type": "watch", "table": "0" * 16})
        assert answer["error"] == "no-table"


def test_a_table_holds_only_so_many_spectators(app: TestClient,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(app.hub, "max_watchers", 1)  # type: ignore[attr-defined]
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, PEOPLE)
    with app.websocket_connect("/ws") as one, app.websocket_connect("/ws") as two:
        assert ask(one, {"type": "watch", "table": created["table"]})["type"] == "watching"
        answer = ask(two, {"type": "watch", "table": created["table"]})
        assert answer["error"] == "watchers-full" and "1 spectator(s)" in answer["message"]


# -- the privacy twins -----------------------------------------------------------------------

def _hidden(state: sm.GameState) -> list[tuple[Any, ...]]:
    """Every place whose card no seat sees face up (for a spectator, every hand too)."""
    places: list[tuple[Any, ...]] = []
    for i, seat in enumerate(state.seats):
        for k, pile in enumerate(seat.payoff):
            places += [("payoff", i, k, j) for j in range(len(pile) - 1)]
        places += [("hand", i, j) for j in range(len(seat.hand))]
    return places + [("draw", j) for j in range(len(state.draw))]


def position_twin(state: sm.GameState, rng: random.Random) -> sm.GameState:
    """``state`` with the cards of every hidden place shuffled among those places, the
    completed cards shuffled, and another seed and shuffle count."""
    places = _hidden(state)
    cards = [_card(state, place) for place in places]
    rng.shuffle(cards)
    twin = state
    for place, card in zip(places, cards, strict=True):
        twin = _put(twin, place, card)
    completed = list(state.completed)
    rng.shuffle(completed)
    return attrs.evolve(twin, completed=tuple(completed), seed=state.seed + 977,
                        shuffles=state.shuffles + 3)


CASES = [("blackwood-frey", (), {"payoff_size": 8}), ("blackwood-frey", (), {"players": 3}),
         ("misery", (), {}), ("g4a", (), {}), ("blackwood-frey", ("jokers-to-king",), {})]


@pytest.mark.parametrize("name,house,params", CASES)
def test_twin_positions_give_a_spectator_the_same_bytes(name: str, house: tuple[str, ...],
                                                       params: dict[str, Any]) -> None:
    rules = sm.load(name, list(house), params)
    rng = random.Random(36)
    compared = differing = 0
    for seed in range(3):
        state = sm.deal(rules, seed)
        bots = [GreedyPlayer(seat) for seat in range(rules.players)]
        history: list[Played] = []
        names = [f"seat {n}" for n in range(rules.players)]
        while state.outcome is None and len(history) < 400:
            seen = stand_in_state(sm.view_of(state, state.seat))
            move = bots[state.seat].choose(rules, seen, sm.legal_moves(rules, seen))
            mover = state.seat
            state = sm.apply_move(rules, state, move)
            history.append(Played(mover, move, str(move)))
            if len(history) % 3:
                continue
            twin = position_twin(state, rng)
            differing += twin != state and any(
                sm.view_of(twin, s) != sm.view_of(state, s) for s in range(rules.players))
            args = (history, names, name, 1)
            ours = json.dumps(watching.public(state, *args, full=True, picture=True))
            theirs = json.dumps(watching.public(twin, *args, full=True, picture=True))
            assert ours == theirs, (seed, len(history))
            compared += 1
    assert compared > 40
    assert differing > compared * 0.8  # the twins are other positions for some seat


def _public_same(state: sm.GameState, twin: sm.GameState) -> bool:
    return watching.public_view(state) == watching.public_view(twin)


def spectator_twin(deal: sm.GameState, moves: list[str],
                   states: list[sm.GameState]) -> sm.GameState:
    """``deal`` with cards of equal rank swapped between places no seat shows face up
    during the game ``moves`` plays (any seat's hand among them), and another seed."""
    twin = attrs.evolve(deal, seed=deal.seed + 1)
    rules = RULES
    places = _hidden(deal)
    rng = random.Random(7)
    hands = [p for p in places if p[0] == "hand"]
    pairs = [(p, q) for p in hands for q in places if q != p]  # a hand's cards first
    pairs += [tuple(rng.sample(places, 2)) for _ in range(300)]
    for p, q in pairs:
        a, b = _card(twin, p), _card(twin, q)
        if a == b or a.rank != b.rank:
            continue
        candidate = _put(_put(twin, p, b), q, a)
        state, same = candidate, True
        for move, original in zip(moves, states[1:], strict=True):
            try:
                state = sm.apply_move(rules, state, sm.parse_move(move))
            except sm.IllegalMove:
                same = False
                break
            if not _public_same(state, original):
                same = False
                break
        if same:
            twin = candidate
    return twin


RULES = sm.load("blackwood-frey", ["mandatory-aces"], {"payoff_size": 5})


def test_two_tables_that_differ_only_in_hidden_cards_send_a_spectator_the_same_stream(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal = sm.deal(RULES, 20261201)
    bots = [GreedyPlayer(seat) for seat in range(2)]
    state, moves, states = deal, [], [deal]
    while state.outcome is None:
        seen = stand_in_state(sm.view_of(state, state.seat))
        move = bots[state.seat].choose(RULES, seen, sm.legal_moves(RULES, seen))
        moves.append(str(move))
        state = sm.apply_move(RULES, state, move)
        states.append(state)
    twin = spectator_twin(deal, moves, states)
    twins = [twin]
    for move in moves:
        twins.append(sm.apply_move(RULES, twins[-1], sm.parse_move(move)))
    differs = [any(sm.view_of(t, s) != sm.view_of(o, s) for t, o in zip(twins, states,
                                                                          strict=True))
               for s in range(2)]
    assert twin.seed != deal.seed and all(differs)  # both seats hold other cards
    movers = [s.seat for s in states[:-1]]
    streams = []
    for number, dealt in enumerate((deal, twin)):
        monkeypatch.setattr(session_module, "deal", lambda rules, seed, dealer, d=dealt: d)
        monkeypatch.setattr(tables.secrets, "token_hex", lambda n: "ab" * n)
        monkeypatch.setattr(session_module, "commit_deal", lambda *_: SAME_COMMITMENT)
        hub = Hub(Store(tmp_path / str(number)), bot_delay=0)
        with TestClient(create_app(hub)) as client:
            with client.websocket_connect("/ws") as lobby:
                created = ask(lobby, PEOPLE)
            streams.append(masked(_watched(client, created, moves, movers)))
    assert len(streams[0]) > len(moves) + 2
    assert streams[0] == streams[1]  # byte for byte
    assert str(deal.seed) not in "".join(streams[0])


def _watched(client: TestClient, created: dict[str, Any], moves: list[str],
             movers: list[int]) -> list[str]:
    """The texts a spectator receives while both seats play ``moves`` (and one asks for
    hints and makes a refused move along the way)."""
    texts: list[str] = []
    with client.websocket_connect("/ws") as spy:
        spy.send_text(json.dumps({"type": "watch", "table": created["table"],
                                  "picture": True}))
        # watching, the position, and how many watch (one: the spy)
        texts += [spy.receive_text(), spy.receive_text(), spy.receive_text()]
        seats = []
        for seat in range(2):
            ws = client.websocket_connect("/ws").__enter__()
            ws.send_text(json.dumps({"type": "join", "table": created["table"], "seat": seat,
                                     "token": created["seats"][seat]["token"]}))
            until(ws, "state")
            seats.append(ws)
            texts.append(spy.receive_text())  # the seat list: one more person here
        for number, (move, seat) in enumerate(zip(moves, movers, strict=True), 1):
            if number in (1, 2):
                on_turn = seats[seat]
                on_turn.send_text(json.dumps({"type": "hint"}))
                until(on_turn, "hint")
                on_turn.send_text(json.dumps({"type": "move", "move": "pass"}))
                until(on_turn, "refused")
            seats[seat].send_text(json.dumps({"type": "move", "move": move, "number": number}))
            for ws in seats:
                until(ws, "state")
            texts.append(spy.receive_text())
            assert json.loads(texts[-1])["number"] == number
        for ws in seats:
            ws.__exit__(None, None, None)
    return texts


def test_a_table_of_spit_is_live_and_watched_at_its_own_page(app: TestClient) -> None:
    # SP-5: a spit table plays in real time (spit_live), at its own page; its watch link is
    # that page with no seat (spit_watching), and a claim of one of its seats is refused
    # saying so (try-out s41: the server once called spit "not an installed rule set")
    spit = {"type": "create", "ruleset": "spit",
            "seats": [{"name": "ann", "player": "human"}, {"name": "bo", "player": "greedy"}]}
    with app.websocket_connect("/ws") as lobby:
        created = ask(lobby, spit)
    assert created["type"] == "created", created
    assert created["seats"][0]["link"].startswith(f"/spit/{created['table']}#seat=0")
    assert created["watch"] == f"/spit/{created['table']}"
    with app.websocket_connect("/ws") as watcher:
        answer = ask(watcher, {"type": "watch", "table": created["table"]})
        assert answer["type"] == "watching" and answer["watch"] == created["watch"], answer
        valid([answer])
    with app.websocket_connect("/ws") as claimer:
        answer = ask(claimer, {"type": "claim", "table": created["table"], "seat": 0})
    assert (answer["type"], answer["error"]) == ("error", "real-time"), answer
    assert "seats move at once" in answer["message"]
