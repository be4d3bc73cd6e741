"""The intervals of a game's length stay within what a game can last: a game ends after
``turn_limit`` turns and a turn after ``turn_limit`` moves, so a mean's interval past them
claims games no rule lets be played (a fresh user: ``simulate blackwood-frey --set
build_ceiling=2``, a configuration load now refuses for its dead cards, printed a turns
interval whose upper end was past the turn limit)."""

from __future__ import annotations

import math

import spitemalice as sm
from spitemalice.study.simulate import Summary, length_ranges, simulate


def test_games_that_all_reach_the_turn_limit_keep_their_interval_within_it() -> None:
    rules = sm.load("blackwood-frey", turn_limit=10)  # no pay-off pile empties in 10
    summary = simulate(rules, ["greedy"], 3, seed=1)
    assert summary.outcomes["turn-limit"] == 3 and summary.mean_turns == 10
    turns, moves = summary.intervals()["mean_turns"], summary.intervals()["mean_moves"]
    assert turns.low < 10 and turns.high == 10  # a count's least width, cut at the limit
    assert 0 <= moves.low <= moves.high <= 100
    data = summary.as_dict(timing=False)["intervals"]
    assert data["mean_turns"]["high"] == 10


def test_a_wide_interval_is_cut_at_the_limit_and_none_means_any_count() -> None:
    summary = Summary("bf", 2, ("greedy",), 2, {"win": 1, "drawn": 0, "blocked": 0,
                                                "turn-limit": 1}, (1, 0), 1, 40.0, 70, 1505.0,
                      3000, 1.0, 80, sd_moves=40.0, sd_turns=2100.0, turn_limit=3000)
    turns = summary.intervals()["mean_turns"]
    assert (turns.low, turns.high) == (0.0, 3000.0)
    assert length_ranges(None) == ((0.0, math.inf), (0.0, math.inf))
    assert length_ranges(3000) == ((0.0, 3000.0), (0.0, 9_000_000.0))
