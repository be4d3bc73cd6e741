"""A skill gradient with no game won behind it is not measured: under ``turn_limit=10``
no game of blackwood-frey's heuristic against greedy has a winner, and balance printed a change
of -25.0 points from the base (its JSON a ``gradient`` of -0.25 over 4 deals) beside a
``rate_a`` of no games.  The stronger tier's per-deal gain counted those deals as gains of 0,
so the gradient compared the base's gain with nothing.  Every place the gain feeds says
not measured (``- (no games)``, a null estimate) instead."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from spitemalice.cli import main
from spitemalice.measures.interval import Interval
from spitemalice.study.atlas_page import _gradient
from spitemalice.study.balance import difference
from spitemalice.study.pairs import PairTally
from spitemalice.study.plot import interval_bars

NONE_WON = ["balance", "blackwood-frey", "--set", "turn_limit=10", "--games", "10", "--deals",
            "4", "--bots", "greedy,heuristic", "--quiet", "--jobs", "1"]


def test_a_pair_with_no_game_won_has_no_gain() -> None:
    tally = PairTally("heuristic", "greedy", no_winner=8, values=[0.0] * 4)
    assert tally.gain.n == 0
    assert tally.as_dict()["gain"]["estimate"] is None  # was 0.0 over n = 4
    assert PairTally("a", "b", wins_a=1, no_winner=1, values=[0.25]).gain.n == 1


def test_a_change_from_an_unmeasured_side_is_not_measured_and_decides_nothing() -> None:
    measured = Interval(0.25, 0.1, 0.4, 40)
    for after, before in ((Interval(0.0, -0.5, 0.5, 0), measured),
                          (measured, Interval(0.0, -0.5, 0.5, 0))):
        change = difference(after, before)
        assert (change.n, change.low, change.high) == (0, -1.0, 1.0)
        assert change.as_dict()["estimate"] is None


def test_balance_prints_the_gradient_of_no_game_won_as_not_measured(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*NONE_WON, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matrix"][0]["rate_a"]["n"] == 0
    assert data["matrix"][0]["gain"]["estimate"] is None
    assert [g["estimate"] for g in data["gradient"]] == [None]  # was -0.25 (n = 4)
    assert [g["n"] for g in data["gradient"]] == [0]
    assert main(NONE_WON) == 0
    out = capsys.readouterr().out
    assert ("no game of heuristic against greedy had a winner; skill's change from "
            "blackwood-frey not measured (- (no games); fresh seeds - (no games))") in out
    assert "heuristic v greedy: no game won, 8 of 8 without a winner; - (no games)\n" in out
    assert "points" not in out


def test_the_atlas_names_an_unmeasured_gradient_without_a_verdict() -> None:
    report: dict[str, Any] = {
        "base": "blackwood-frey", "label": "blackwood-frey + x", "players": 2, "top_pair": 0,
        "gradient": [{"estimate": None, "low": -1.0, "high": 1.0, "n": 0}]}
    assert _gradient(report) == "not measured: - (no games) vs blackwood-frey"


def test_a_forest_leaves_the_row_of_no_games_empty() -> None:
    class Axes:
        def errorbar(self, x: list[float], y: list[int], xerr: list[list[float]],
                     **_: Any) -> None:
            self.x, self.xerr = x, xerr

        def __getattr__(self, name: str) -> Any:
            return lambda *args, **kwargs: None

    axes = Axes()
    interval_bars(axes, ["measured", "none"],
                  [Interval(0.1, 0.0, 0.2, 9), Interval(0.0, -1.0, 1.0, 0)], 0.0)
    assert axes.x[0] == pytest.approx(10.0)
    assert math.isnan(axes.x[1])  # was a mark at 0 spanning -100..+100
    assert all(math.isnan(side[1]) for side in axes.xerr)


def test_the_share_heat_map_leaves_a_pair_with_no_game_won_empty() -> None:
    from spitemalice.study.plot_ratings import _shares

    class Axes:
        def imshow(self, grid: list[list[float]], **_: Any) -> None:
            self.grid = grid

        def __getattr__(self, name: str) -> Any:
            return lambda *args, **kwargs: None

    axes = Axes()
    _shares(axes, ["greedy", "heuristic", "random"],
            [PairTally("heuristic", "greedy", no_winner=8, values=[0.0] * 4),
             PairTally("heuristic", "random", wins_a=3, wins_b=1, values=[0.25, 0.25])])
    assert math.isnan(axes.grid[1][0]) and math.isnan(axes.grid[0][1])  # were 0 and 100
    assert axes.grid[1][2] == pytest.approx(75.0)
