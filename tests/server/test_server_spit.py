"""A live Spit table over the protocol (issue 37 §4): intents in arrival order under the
table's lock, a late one answered ``stale`` (SP-9), the barriers waiting for both seats
(SP-4, SP-12), every move pushed to both seats, the record with its clock (it checks), and
the twin test of the seat stream: two tables that differ only in face-down cards send each
seat byte-identical messages, and a spectator too (its stream: test_server_spit_watch.py)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")

from jsonschema import Draft202012Validator

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.formats.commitment import commit
from spitemalice.formats.schema import schema
from spitemalice.runs.arrival import ReactionTimes, game_bots, play_arrival
from spitemalice.server import spit_table
from spitemalice.server.spit_live import live_tables
from tests.server.test_server_privacy import SAME_COMMITMENT
from tests.serving import Client, LiveServer

SP = sm.load("spit")
GAME = SP.simultaneous
TO_CLIENT = Draft202012Validator({**schema("message"), "oneOf": [{"$ref": "#/$defs/to-client"}]})
PEOPLE = {"type": "create", "ruleset": "spit",
          "seats": [{"name": "ann", "player": "human"}, {"name": "bob", "player": "human"}]}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with LiveServer(tmp_path_factory.mktemp("records")) as live:
        yield live


def open_table(server: LiveServer, message: dict[str, Any] = PEOPLE,
               state: Any = None) -> dict[str, Any]:
    """A new table; with ``state``, its game set to that position before anyone joins (and
    committed to anew, unless the commitment is patched to a fixed one)."""
    with server.client() as lobby:
        created = lobby.ask(message)
    assert created["type"] == "created", created
    if state is not None:
        table = live_tables(server.hub)[created["table"]]
        table.state, table.seed = state, state.seed
        if table.commitment != SAME_COMMITMENT:
            table.commitment = commit(SP, state.seed, None)
    return created


def sit(server: LiveServer, created: dict[str, Any], seat: int) -> Client:
    client = server.client()
    client.send({"type": "join", "table": created["table"], "seat": seat,
                 "token": created["seats"][seat]["token"]})
    welcome = client.until("welcome")
    assert welcome["seat"] == seat and welcome["ruleset"]["name"] == "spit"
    return client


def position(client: Client, number: int) -> dict[str, Any]:
    """The next ``spit`` message with ``number`` moves made."""
    while True:
        message = client.until("spit")
        assert not list(TO_CLIENT.iter_errors(message)), message
        if message["number"] == number:
            return message


def drain(client: Client, seconds: float = 1.5) -> list[dict[str, Any]]:
    """Every message ``client`` receives until none comes for ``seconds``."""
    seen = []
    while True:
        try:
            seen.append(client.recv(seconds))
        except TimeoutError:
            return seen


def after_spits(seed: int) -> Any:
    state = sm.deal(SP, seed)
    for seat in (0, 1):
        state = GAME.apply(state, GAME.parse_move(f"S{seat}:spit"))
    return state


def _race_seed() -> tuple[int, str, str]:
    """A seed after whose spits both seats can lay a card on the same spit pile."""
    for seed in range(500):
        state = after_spits(seed)
        for pile in (1, 2):
            lays = [[str(m) for m in GAME.legal_moves(state, seat)
                     if str(m).endswith(f">C{pile}")] for seat in (0, 1)]
            if lays[0] and lays[1]:
                return seed, lays[0][0], lays[1][0]
    raise AssertionError("no seed gives a race")


def test_two_intents_for_one_pile_at_once_exactly_one_lands_the_other_is_stale(
        server: LiveServer) -> None:
    """SP-9: both seats lay on the same spit pile, chosen in the same position and sent at
    once; the server applies the first to arrive and answers the other ``stale`` (its card
    no longer fits), and the record counts the stale intent."""
    seed, ours, theirs = _race_seed()
    created = open_table(server, state=sm.deal(SP, seed))
    with sit(server, created, 0) as ann, sit(server, created, 1) as bob:
        ann.send({"type": "move", "move": "S0:spit", "number": 1})
        bob.send({"type": "move", "move": "S1:spit", "number": 1})  # both land: no race
        assert position(ann, 2)["legal"] and position(bob, 2)["legal"]
        ann.send({"type": "move", "move": ours, "number": 3})
        bob.send({"type": "move", "move": theirs, "number": 3})
        got = {name: drain(client) for name, client in (("ann", ann), ("bob", bob))}
        stale = [name for name, seen in got.items() if any(m["type"] == "error" for m in seen)]
        assert len(stale) == 1, got  # exactly one intent landed
        errors = [m for seen in got.values() for m in seen if m["type"] == "error"]
        assert [e["error"] for e in errors] == ["stale"], errors
        for seen in got.values():  # both seats see the one card that landed, once
            laid = [m for m in seen if m["type"] == "spit"]
            assert [m["number"] for m in laid] == [3]
            assert laid[0]["last"]["move"] in (ours, theirs)
        winner = laid[0]["last"]["move"]
        assert (winner == ours) == (stale == ["bob"])
        assert GAME.parse_move(winner).seat == (1 if stale == ["ann"] else 0)
    table = live_tables(server.hub)[created["table"]]
    record = sm.load_record(table.record_path(1))
    assert record.moves[-1] == winner and record.arrivals.stale == 1
    assert sorted(record.moves[:2]) == ["S0:spit", "S1:spit"] and len(record.moves) == 3
    assert record.arrivals.policy is None  # a table's clock, not a simulated policy


def test_a_move_by_either_seat_is_pushed_to_both_with_only_its_own_legal_moves(
        server: LiveServer) -> None:
    """Cards move as they are played: each seat's connection gets the position after every
    move, whoever made it; the barrier waits for both (SP-4): one spit flips nothing."""
    created = open_table(server, state=sm.deal(SP, _race_seed()[0]))  # both can lay after
    with sit(server, created, 0) as ann, sit(server, created, 1) as bob:
        first = position(ann, 0)
        assert first["legal"] == ["S0:spit"] and first["view"]["phase"] == "spit"
        ann.send({"type": "move", "move": "S0:spit", "number": 1})
        for client in (ann, bob):
            after = position(client, 1)
            assert after["view"]["centre"] == [] and after["view"]["ready"] == [0]
            assert after["last"] == {"seat": 0, "move": "S0:spit"}
        bob.send({"type": "move", "move": "S1:spit"})
        for seat, client in enumerate((ann, bob)):
            flipped = position(client, 2)
            assert len(flipped["view"]["centre"]) == 2 and flipped["view"]["phase"] == "play"
            assert all(move.startswith(f"S{seat}") for move in flipped["legal"])
        ann.send({"type": "move", "move": "S1:spit"})
        refused = ann.until("refused")
        assert refused["reason"] == "wrong-seat" and refused["clause"] == "SP-5"
        ann.send({"type": "hint"})
        assert ann.until("error")["error"] == "real-time"
        ann.send({"type": "record"})
        assert ann.until("error")["error"] == "game-not-over"


def test_a_bot_says_spit_at_once_and_plays_on_its_timer_and_the_record_checks(
        server: LiveServer, tmp_path: Path, capsys: Any) -> None:
    """Against a bot with a reaction time of 100 ms: the bot says spit at once (its
    readiness is in the first position the person sees after joining), lays cards by itself
    (moves of seat 1 arrive with no message from the person), and the record written after
    every move has the table's clock (times never decreasing) and passes ``check``."""
    created = open_table(server, {**PEOPLE, "reaction_ms": 100, "seats": [
        {"name": "ann", "player": "human"}, {"name": "bot", "player": "greedy"}]},
        state=sm.deal(SP, _race_seed()[0]))  # the bot can lay after the spits
    assert created["seats"][1]["link"] is None
    assert created["seats"][0]["link"].startswith(f"/spit/{created['table']}#seat=0&token=")
    with sit(server, created, 0) as ann:
        ready = ann.until("spit")
        while ready["view"]["ready"] != [1]:
            ready = ann.until("spit")
        ann.send({"type": "move", "move": "S0:spit", "number": ready["number"] + 1})
        deadline = time.monotonic() + 20
        seen: dict[str, Any] = ready
        while time.monotonic() < deadline:
            seen = ann.until("spit")
            if seen["last"] and seen["last"]["seat"] == 1 and seen["number"] > 2:
                break
        assert seen["last"]["seat"] == 1, "the bot made no move of its own"
    table = live_tables(server.hub)[created["table"]]
    path = table.record_path(1)
    record = sm.load_record(path)
    assert record.seats[1].kind == "greedy" and len(record.moves) >= 3
    times = record.arrivals.times_ms
    assert list(times) == sorted(times) and times[-1] > 0
    assert main(["check", str(path)]) == 0
    assert "valid" in capsys.readouterr().out


@pytest.mark.parametrize(("change", "code", "words"), [
    ({"reaction_ms": 50}, "wrong-type", "100 to 60000"),
    ({"seats": [{"name": "a", "player": "human"}, {"name": "b", "player": "mcts"}]},
     "bad-rules", "greedy"),
    ({"public": True}, "bad-rules", "private"),
    ({"ruleset": "blackwood-frey", "reaction_ms": 500}, "bad-rules", "reaction_ms"),
])
def test_a_create_the_live_table_cannot_honour_is_refused_by_name(
        server: LiveServer, change: dict[str, Any], code: str, words: str) -> None:
    before = len(live_tables(server.hub))
    with server.client() as lobby:
        answer = lobby.ask({**PEOPLE, **change})
    assert answer["type"] == "error" and answer["error"] == code, answer
    assert words in answer["message"]
    assert len(live_tables(server.hub)) == before


# -- the twin test of the seat stream ------------------------------------------------------


def _round_zero(seed: int) -> tuple[Any, list[str], set[sm.Card]]:
    """A greedy game's deal from ``seed``, its moves up to the end of its first round, and
    every card that is face up in some position on the way."""
    bot = game_bots(GAME)["greedy"]
    played = play_arrival(SP, [bot, bot], seed, ReactionTimes())
    state = sm.deal(SP, seed)
    deal, moves, seen = state, [], set()
    for _, _, text, _ in played.log:
        if state.round or state.phase == "slap" or state.outcome:
            break
        for view in (state.view(0), state.view(1)):
            seen |= {top for piles in view.stock for _, top in piles if top is not None}
            seen |= {top for _, top in view.centre}
        moves.append(text)
        state = GAME.apply(state, GAME.parse_move(text))
    return deal, moves, seen


def _twins(seed: int) -> tuple[Any, list[str], Any, Any] | None:
    """The deal, the moves, a twin deal (two cards face down all along swapped) and a
    control deal (seat 0's first spit card, turned up but never named by a move, swapped
    with a face-down card of its rank), or ``None`` when ``seed``'s game has no such cards."""
    deal, moves, seen = _round_zero(seed)
    hidden = [card for seat in deal.seats for card in (*seat.spit,
              *(c for pile in seat.stock for c in pile)) if card not in seen]
    first = [c for c in hidden if c in deal.seats[0].spit]
    second = [c for c in hidden if c in deal.seats[1].spit]
    flipped = deal.seats[0].spit[-1]
    alike = [c for c in hidden if c.rank == flipped.rank]
    if not (first and second and alike) or len(moves) < 10:
        return None
    return (deal, moves, _swapped(deal, first[0], second[0]),
            _swapped(deal, flipped, alike[0]))


def _swapped(state: Any, first: sm.Card, second: sm.Card) -> Any:
    """``state`` with two cards changing places."""
    def swap(card: sm.Card) -> sm.Card:
        return second if card == first else first if card == second else card
    seats = [attrs.evolve(seat, stock=[[swap(c) for c in pile] for pile in seat.stock],
                          spit=[swap(c) for c in seat.spit]) for seat in state.seats]
    return attrs.evolve(state, seats=seats)


def _streams(server: LiveServer, state: Any, moves: list[str]) -> list[list[str]]:
    """Each seat's ``spit`` messages, as sent, while both people play ``moves`` at a table
    dealt ``state`` (each move waited for before the next is sent), then a spectator's
    whole stream from its ``watch`` on (every message, as sent)."""
    created = open_table(server, state=state)
    with sit(server, created, 0) as ann, sit(server, created, 1) as bob, \
            server.client() as spy:
        spy.send({"type": "watch", "table": created["table"]})
        clients = (ann, bob, spy)
        for client in clients:
            position(client, 0)
        for number, text in enumerate(moves, 1):
            clients[int(text[1])].send({"type": "move", "move": text, "number": number})
            for client in clients:
                position(client, number)
        seats = [[t for t in c.raw_texts if json.loads(t)["type"] == "spit"] for c in clients]
        return [*seats[:2], [t.replace(created["table"], "ID") for t in spy.raw_texts]]


def test_twin_tables_differing_only_in_face_down_cards_send_each_seat_the_same_bytes(
        server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """Privacy (SP-3): two tables whose deals differ only in two cards that stay face down
    through a whole round send both seats, and a spectator, byte-identical streams (the
    commitment to the deal patched to one value: a real one is a fresh random hash); the
    control, two tables differing in a card that is turned up (same rank, so the same moves
    stay legal), sends different ones: the test can fail."""
    monkeypatch.setattr(spit_table, "commit", lambda *_: SAME_COMMITMENT)
    found = next(t for t in map(_twins, range(1, 60)) if t is not None)
    deal, moves, twin, control = found
    same = _streams(server, deal, moves)
    assert same == _streams(server, twin, moves)
    assert [len(stream) for stream in same[:2]] == [len(moves) + 1] * 2
    spectator = [json.loads(text) for text in same[2]]
    assert [m["type"] for m in spectator[:3]] == ["watching", "spit", "watchers"]
    assert [m["number"] for m in spectator if m["type"] == "spit"] == list(range(len(moves) + 1))
    assert all(m["deal"]["commitment"] == "c" * 64 for m in spectator if m["type"] == "spit")
    differs = _streams(server, control, moves)
    assert differs[0] != same[0] and differs[1] != same[1] and differs[2] != same[2]


def test_a_second_join_of_a_seat_takes_it_and_the_first_connection_is_told(
        server: LiveServer) -> None:
    """One connection per seat, as at a turn-based table: the second holder of a link sits
    down, the first is sent ``seat-taken``; a wrong token is refused ``bad-token``."""
    created = open_table(server)
    first = sit(server, created, 0)
    second = server.client()
    second.send({"type": "join", "table": created["table"], "seat": 0,
                 "token": created["seats"][0]["token"]})
    assert second.until("welcome")["replaced"] is True
    assert first.until("error")["error"] == "seat-taken"
    table = live_tables(server.hub)[created["table"]]
    assert [len(clients) for clients in table.clients] == [1, 0]
    with server.client() as stranger:
        answer = stranger.ask({"type": "join", "table": created["table"], "seat": 1,
                               "token": "0" * 32})
    assert answer["error"] == "bad-token"
    first.close()
    second.close()
