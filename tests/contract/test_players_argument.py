"""Every door that takes players (objects with ``choose``) refuses anything else by name,
with the seat and, for a bot's name, the call that makes its player, before any game state
is made: a bot's name given to play_game failed mid-game with a raw AttributeError."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

import spitemalice as sm
import spitemalice.study as study
from spitemalice.bots import GreedyPlayer, move_from_view
from spitemalice.bots.ismcts import IsmctsPlayer
from spitemalice.runs.arrival import ReactionTimes, play_arrival

BF = sm.load("blackwood-frey")
PLAYER = "a player (an object with a method choose(rules, state, moves))"
MAKE = 'a bot\'s name; make its player with spitemalice.bots.make_player("greedy", seed)'

# name -> the call with the players given
DOORS: dict[str, Callable[[list[Any]], object]] = {
    "play_game": lambda players: study.play_game(BF, players, seed=1),
    "play_match": lambda players: study.play_match(BF, players, seed=1),
}


@pytest.mark.parametrize("door", sorted(DOORS))
def test_a_bot_name_is_refused_naming_make_player(door: str) -> None:
    with pytest.raises(TypeError) as raised:
        DOORS[door](["greedy", "greedy"])
    assert str(raised.value) == (f'{door} takes players, each {PLAYER}, not the str "greedy" '
                                 f"at players[0]: {MAKE}")


@pytest.mark.parametrize("door", sorted(DOORS))
@pytest.mark.parametrize(("given", "says"), [
    (None, "None at players[1]"), (3, "int at players[1]"),
    (GreedyPlayer, "the class GreedyPlayer at players[1]: make one, GreedyPlayer(seed)"),
])
def test_another_non_player_is_refused_naming_its_seat(door: str, given: object,
                                                      says: str) -> None:
    with pytest.raises(TypeError) as raised:
        DOORS[door]([GreedyPlayer(1), given])
    assert str(raised.value) == f"{door} takes players, each {PLAYER}, not {says}"


def test_the_refusal_comes_before_the_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    dealt: list[object] = []
    monkeypatch.setattr("spitemalice.runs.loop.deal", lambda *args: dealt.append(args))
    with pytest.raises(TypeError):
        study.play_game(BF, [GreedyPlayer(1), "greedy"], seed=1)
    assert dealt == []


def test_players_given_rightly_still_play() -> None:
    result = study.play_game(BF, [GreedyPlayer(1), GreedyPlayer(2)], seed=1)
    assert result.final.outcome is not None


def test_move_from_view_refuses_a_bot_name() -> None:
    view = sm.view_of(sm.deal(BF, 1), 0)
    with pytest.raises(TypeError) as raised:
        move_from_view("greedy", BF, view, sm.legal_moves(BF, sm.deal(BF, 1)))  # type: ignore[arg-type]
    assert str(raised.value) == (f'move_from_view takes player, {PLAYER}, not the str '
                                 f'"greedy": {MAKE}')


def test_ismcts_refuses_a_bot_name_as_its_policy_the_same_way() -> None:
    with pytest.raises(sm.SpiteMaliceError) as raised:
        IsmctsPlayer(1, policy="greedy")  # type: ignore[arg-type]
    assert str(raised.value) == (f'IsmctsPlayer takes policy, {PLAYER}, not the str "greedy": '
                                 f"{MAKE}")


def test_play_arrival_refuses_a_bot_name() -> None:
    with pytest.raises(TypeError) as raised:
        play_arrival(sm.load("spit"), ["random", "random"], 1, ReactionTimes())
    assert str(raised.value) == (
        "play_arrival takes bots, each a seat bot (a function bot(view, moves, rng) that "
        'returns one of moves), not the str "random" at bots[0]; a bot\'s name: '
        'game_bots(rules.simultaneous)["random"] is its bot')
