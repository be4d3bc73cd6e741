"""Verdicts re-checked on a fresh seed set (issue 35 §1): balance and the atlas state a
verdict only when the report's games and a second, independent sample agree; one that flips
is undecided."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.limits import MAX_SEED
from spitemalice.measures.interval import Interval
from spitemalice.study.atlas import entries
from spitemalice.study.atlas_page import render
from spitemalice.study.balance import Balance, balance, verdicts
from spitemalice.study.fresh import fresh_seed

ROOT = Path(__file__).parents[2]
ABOVE = Interval(0.60, 0.55, 0.65, 400)  # the first seat's share, wholly above fair
HOLDS = Interval(0.52, 0.47, 0.57, 400)  # holds fair


@pytest.fixture(scope="module")
def report() -> Balance:
    return balance(sm.load("blackwood-frey", payoff_size=6), "short", ["random", "greedy"],
                   12, 4, 0)


def _first(report: Balance, first: Interval) -> Balance:
    return attrs.evolve(report, positions=(first, *report.positions[1:]))


def test_the_fresh_seed_is_another_run_seed() -> None:
    assert fresh_seed(0) == 1 and fresh_seed(41) == 42
    assert fresh_seed(MAX_SEED) == MAX_SEED - 1


def test_a_verdict_both_seed_sets_hold_is_stated(report: Balance) -> None:
    held = _first(report, ABOVE)
    line = verdicts(attrs.evolve(held, fresh=_first(report, ABOVE)))[0]
    assert line.endswith("on fresh seeds: above fair (50.0%)"), line


def test_a_verdict_that_flips_on_fresh_seeds_is_undecided(report: Balance) -> None:
    flipped = attrs.evolve(_first(report, ABOVE), fresh=_first(report, HOLDS))
    line = verdicts(flipped)[0]
    assert "undecided: above fair on one seed set only" in line, line
    assert "above fair (50.0%)" not in line.replace("undecided: above fair on one", "")
    opposite = attrs.evolve(_first(report, ABOVE),
                            fresh=_first(report, Interval(0.40, 0.35, 0.45, 400)))
    assert "undecided: the two seed sets disagree" in verdicts(opposite)[0]


def test_the_atlas_page_prints_a_flipping_verdict_undecided() -> None:
    data = json.loads((ROOT / "docs" / "atlas" / "atlas.json").read_text(encoding="utf-8"))
    key = "blackwood-frey/3"  # three seats: the first seat's share is not measurably off 1/3
    report = data["reports"][key]
    favoured = {**report["positions"][0], "estimate": 0.40, "low": 0.38, "high": 0.42}
    data["reports"][key] = {**report, "positions": [favoured, *report["positions"][1:]]}
    planned = [e.key for e in entries()]

    def cell(fresh_first: dict[str, float] | None) -> str:
        fresh = ({} if fresh_first is None else
                 {key: {**report, "positions": [fresh_first, *report["positions"][1:]]}})
        page = render({**data, "fresh": fresh}, planned)
        row = next(line for line in page.splitlines() if line.startswith("| blackwood-frey | 3"))
        return row.split("|")[4].strip()

    assert cell(favoured) == "favoured"
    assert cell({**favoured, "estimate": 0.34, "low": 0.32, "high": 0.36}) == "undecided"
    assert cell(None) == "undecided"  # not re-checked: no verdict


def test_the_balance_command_plays_the_fresh_seed_set(
        capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["balance", "blackwood-frey", "--set", "payoff_size=6", "--bots",
                   "random,greedy", "--games", "10", "--deals", "3", "--no-base", "--quiet",
                   "--json"])
    data = json.loads(capsys.readouterr().out)
    assert status == 0
    assert data["fresh"]["games"] == 10
    assert "on fresh seeds" in data["verdicts"][0] or "nothing is known" in data["verdicts"][0]
