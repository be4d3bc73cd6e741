"""The public entry points work end to end."""

import spitemalice as sm
from spitemalice.bots.players import GreedyPlayer, RandomPlayer
from spitemalice.runs.loop import play_game


def test_a_greedy_game_ends_with_a_declared_outcome(bf: sm.RuleBook) -> None:
    result = play_game(bf, [GreedyPlayer(1), GreedyPlayer(2)], seed=3)
    assert result.final.outcome is not None
    assert result.final.outcome.kind in ("win", "drawn", "blocked", "turn-limit")
    assert len(result.moves) > 10


def test_a_random_game_ends(bf: sm.RuleBook) -> None:
    result = play_game(bf, [RandomPlayer(1), RandomPlayer(2)], seed=4)
    assert result.final.outcome is not None
