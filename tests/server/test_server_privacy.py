"""Every message the play server sends a seat is built from that seat's view only (issue 18
§3), tested as tests/engine/test_privacy.py tests refusals: two tables that differ only in cards
seat 0 never sees, and in their seeds, send seat 0 byte-identical message streams over a
whole game, while seat 1, who holds some of those cards, is sent different ones.

The twin deal swaps cards of equal rank between places seat 0 cannot see (seat 1's hand, the
draw pile, the pay-off piles under their tops), keeping only swaps after which the game's
moves stay legal and seat 0's view stays the same at every move; so both tables can play
the same moves, and any difference in seat 0's stream would be a leak."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
import pytest

pytest.importorskip("starlette")

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer
from spitemalice.engine.views import stand_in_state
from spitemalice.formats.records.record import DealCommitment
from spitemalice.play import session as session_module
from spitemalice.server import tables
from tests.serving import LiveServer, create, join

RULES = sm.load("blackwood-frey", ["mandatory-aces"], {"payoff_size": 5})
GAME = {"type": "create", "ruleset": "blackwood-frey", "house_rules": ["mandatory-aces"],
        "params": {"payoff_size": 5},
        "seats": [{"name": "ann", "player": "human"}, {"name": "bob", "player": "human"}]}
Place = tuple[Any, ...]


def _greedy_game(deal: sm.GameState) -> tuple[list[str], list[sm.GameState]]:
    bots = [GreedyPlayer(seat) for seat in range(RULES.players)]
    state, moves, states = deal, [], [deal]
    while state.outcome is None:
        seen = stand_in_state(sm.view_of(state, state.seat))
        move = bots[state.seat].choose(RULES, seen, sm.legal_moves(RULES, seen))
        moves.append(str(move))
        state = sm.apply_move(RULES, state, sm.parse_move(str(move)))
        states.append(state)
    return moves, states


def _hidden_places(state: sm.GameState, viewer: int) -> Iterator[Place]:
    for i, seat in enumerate(state.seats):
        for k, pile in enumerate(seat.payoff):
            yield from (("payoff", i, k, j) for j in range(len(pile) - 1))
        if i != viewer:
            yield from (("hand", i, j) for j in range(len(seat.hand)))
    yield from (("draw", j) for j in range(len(state.draw)))


def _card(state: sm.GameState, place: Place) -> sm.Card:
    if place[0] == "draw":
        return state.draw[place[1]]
    seat = state.seats[place[1]]
    return seat.hand[place[2]] if place[0] == "hand" else seat.payoff[place[2]][place[3]]


def _put(state: sm.GameState, place: Place, card: sm.Card) -> sm.GameState:
    def swap(pile: tuple[sm.Card, ...], index: int) -> tuple[sm.Card, ...]:
        return pile[:index] + (card,) + pile[index + 1:]

    if place[0] == "draw":
        return attrs.evolve(state, draw=swap(state.draw, place[1]))
    seats = list(state.seats)
    seat = seats[place[1]]
    if place[0] == "hand":
        seat = attrs.evolve(seat, hand=swap(seat.hand, place[2]))
    else:
        payoff = list(seat.payoff)
        payoff[place[2]] = swap(payoff[place[2]], place[3])
        seat = attrs.evolve(seat, payoff=tuple(payoff))
    seats[place[1]] = seat
    return attrs.evolve(state, seats=tuple(seats))


def _same_for_seat_0(twin: sm.GameState, moves: list[str],
                     states: list[sm.GameState]) -> bool:
    state = twin
    for move, original in zip(moves, states[1:], strict=True):
        try:
            state = sm.apply_move(RULES, state, sm.parse_move(move))
        except sm.IllegalMove:
            return False
        if sm.view_of(state, 0) != sm.view_of(original, 0):
            return False
    return True


def twin_of(deal: sm.GameState, moves: list[str], states: list[sm.GameState]) -> sm.GameState:
    """``deal`` with cards of equal rank swapped between places seat 0 never sees during
    the game ``moves`` plays, and another seed."""
    twin = attrs.evolve(deal, seed=deal.seed + 1)
    places = list(_hidden_places(deal, 0))
    swaps = 0
    for p, q in itertools.combinations(places, 2):
        a, b = _card(twin, p), _card(twin, q)
        if a == b or a.rank != b.rank:
            continue
        candidate = _put(_put(twin, p, b), q, a)
        if _same_for_seat_0(candidate, moves, states):
            twin, swaps = candidate, swaps + 1
    return twin


def _views(deal: sm.GameState, moves: list[str], seat: int) -> list[sm.SeatView]:
    state, views = deal, [sm.view_of(deal, seat)]
    for move in moves:
        state = sm.apply_move(RULES, state, sm.parse_move(move))
        views.append(sm.view_of(state, seat))
    return views


SAME_COMMITMENT = DealCommitment("c" * 64, "5" * 32, "d" * 64)
"""The commitment both twins announce (``commit_deal`` patched): a real one is the SHA-256 of
the hidden seed and a fresh random salt, so the twins' differ as two random values do; the
same one here lets the rest of the streams be compared byte for byte."""

REVEALED = re.compile(r'"seed":"[0-9]+","dealer":(null|[0-9]+),"salt":"[0-9a-f]{32}",'
                      r'"check":"[^"]*"')
"""The part of the ``deal`` field that reveals the seed once the game is over (the twins'
seeds differ by construction)."""


def masked(texts: list[str]) -> list[str]:
    """``texts`` with the seed revealed at the end masked; refuses a stream without it."""
    assert any(REVEALED.search(text) for text in texts), "the seed was never revealed"
    return [REVEALED.sub('"seed":"(revealed)"', text) for text in texts]


def _stream(server: LiveServer, created: dict[str, Any], moves: list[str],
            movers: list[int]) -> tuple[list[str], list[str]]:
    """Play ``moves`` at the table (each by its seat, one at a time, each announced to both
    before the next); seat 0 also asks for hints, tries a move the rules forbid and sends a
    bad message along the way.  Returns the texts each seat received."""
    ann = join(server, created, 0, picture=True)
    bob = join(server, created, 1, picture=True)
    clients = (ann, bob)
    for client in clients:
        client.until("state")
    ann.until("seats")  # bob sat down
    for number, (move, seat) in enumerate(zip(moves, movers, strict=True), 1):
        if seat == 0 and number % 7 == 1:
            ann.send({"type": "move", "move": "pass"})
            ann.until("refused")
            ann.send({"type": "move", "move": "pass", "colour": 3})
            ann.until("error")
        if seat == 0 and number in (1, 2, 3, 4):
            ann.send({"type": "hint"})
            ann.until("hint", timeout=60)
        clients[seat].send({"type": "move", "move": move, "number": number})
        for client in clients:
            assert client.until("state")["number"] == number
    for client in clients:
        client.close()
    return ann.raw_texts, bob.raw_texts


def test_a_seat_receives_the_same_bytes_from_tables_that_differ_only_in_what_it_cannot_see(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    deal = sm.deal(RULES, 20261201)
    moves, states = _greedy_game(deal)
    twin = twin_of(deal, moves, states)
    assert twin != deal and twin.seed != deal.seed
    assert _views(twin, moves, 0) == _views(deal, moves, 0)
    assert _views(twin, moves, 1) != _views(deal, moves, 1)  # seat 1 holds other cards
    assert len(moves) > 30 and states[-1].outcome is not None
    movers = [state.seat for state in states[:-1]]
    streams = []
    for number, dealt in enumerate((deal, twin)):
        # Two servers, each with one table of the same id and tokens: only the deal differs.
        monkeypatch.setattr(session_module, "deal", lambda rules, seed, dealer, d=dealt: d)
        monkeypatch.setattr(tables.secrets, "token_hex", lambda n: "ab" * n)
        monkeypatch.setattr(session_module, "commit_deal", lambda *_: SAME_COMMITMENT)
        with LiveServer(tmp_path / str(number)) as server:
            streams.append(_stream(server, create(server, GAME), moves, movers))
    (seat_0, seat_1), (twin_0, twin_1) = ((masked(a), masked(b)) for a, b in streams)
    assert len(seat_0) > len(moves) + 10
    assert twin_0 == seat_0  # byte for byte: welcome, states, pictures, refusals, errors, hints
    assert twin_1 != seat_1
    assert str(deal.seed) not in "".join(seat_0) and str(twin.seed) not in "".join(twin_0)


def test_a_hint_depends_on_the_seats_view_not_on_the_deals_seed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two sessions whose deals differ only in their seeds: the seat's views are equal at
    every move, so its hints must be too.  Seeded from the deal's seed, the hint after ten
    moves of deal 4 was 10C>D2 at one table and 4S>B1 at the other."""
    rules = sm.load("blackwood-frey", params={"payoff_size": 10})
    deal = sm.deal(rules, 4)
    twin = attrs.evolve(deal, seed=deal.seed + 12345)
    first = session_module.Session(rules, ["human", "greedy"], seed=4)
    monkeypatch.setattr(session_module, "deal", lambda rules, seed, dealer: twin)
    second = session_module.Session(rules, ["human", "greedy"])
    for _ in range(4):
        while first.bot_on_turn:
            first.play_bot()
            second.play_bot()
        assert sm.view_of(first.state, 0) == sm.view_of(second.state, 0)
        assert first.hint(0) == second.hint(0)
        move = first.table_view(0).legal[0]
        first.play(0, move)
        second.play(0, move)
