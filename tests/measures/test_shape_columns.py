"""The designer metrics as columns (issue 35 §3): of ``compare`` (paired B - A), of
``balance`` (the self-play games), and from the rows of a ``--games-out`` file (``spitemalice
metrics FILE``), each checked where its value is known by construction, and each equal to
``simulate --metrics`` over the same games."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.errors import DataError
from spitemalice.measures.interval import Interval
from spitemalice.measures.rates import independent_shares, wilson
from spitemalice.measures.shape import (
    game_shape,
    row_choice,
    row_lead_for_good,
    row_metrics,
    shape_metrics,
    third_sizes,
)
from spitemalice.runs.game_shape import PROBE_GAMES
from spitemalice.runs.games_in import read_games
from spitemalice.runs.games_out import SHAPE_FIELDS
from spitemalice.runs.loop import BotGame
from spitemalice.runs.runner import GameRow, configuration, play_games
from spitemalice.study.balance import balance
from spitemalice.study.compare import compare
from spitemalice.study.statistic import statistics

ONE_CARD = sm.load("blackwood-frey", payoff_size=1)
"""By construction: the first pay-off card cleared wins, so nobody leads before the last
move, the lead never changes, nobody led at the half of a game of two moves or more (so it is a
comeback by the definition: the winner did not lead there; a game won by its first move is
not) and the winner took the lead at the last move."""


def _row(moves: int, **fields: object) -> GameRow:
    base: dict[str, object] = dict(
        game=0, seed=0, bots=("greedy", "greedy"), first_seat=0, outcome="win", winner=0,
        scores=(5, 0), moves=moves, turns=moves, completed_piles=0, recycles=0,
        payoff_left=(0, 1), legal_total=0, decided_at=0, lead_changes=0, comeback=False,
        lead_taken=0, legal_early=0, legal_middle=0, legal_late=0, probed=0, mattered=0)
    base.update(fields)
    return GameRow(**base)  # type: ignore[arg-type]


def test_the_rows_give_the_metrics_the_replayed_shapes_give() -> None:
    # Same games, two paths: the runner's rows (no replay) and game_shape of each game.
    rules = sm.load("blackwood-frey", payoff_size=8)
    config = configuration(rules, ["greedy"])
    rows = play_games([config], 5, range(14), probe=PROBE_GAMES).rows[0]
    games = BotGame(rules, config.bots, 5)
    shapes = [game_shape(rules, games(g), probe=g < PROBE_GAMES) for g in range(14)]
    assert row_metrics(rows) == shape_metrics(shapes)
    assert sum(row.probed or 0 for row in rows) == sum(len(s.mattered) for s in shapes) > 0


def test_row_choice_splits_the_decisions_in_thirds_as_game_shape_does() -> None:
    # Nine decisions of 3, 3, 3, 2, 2, 2, 1, 1, 1 legal moves: choice narrows 3 -> 2 -> 1.
    row = _row(9, legal_early=9, legal_middle=6, legal_late=3)
    assert [row_choice(row, third) for third in range(3)] == [3.0, 2.0, 1.0]
    assert third_sizes(10) == (3, 3, 4) and third_sizes(2) == (0, 1, 1)
    assert row_choice(_row(2, legal_early=0), 0) is None  # a third without decisions
    assert row_lead_for_good(_row(10, lead_taken=4)) == 0.4
    assert row_lead_for_good(_row(10, winner=None, lead_taken=None)) is None


def test_compare_columns_on_a_one_card_pay_off_pile() -> None:
    result = compare(*[configuration(ONE_CARD, ["greedy"], side) for side in "AB"],
                     games=12, seed=1, coverage=False)
    line = {line.statistic.name: line for line in result.lines}
    rows = result.rows[0]
    assert line["lead_changes"].a.estimate == 0.0 and not line["lead_changes"].differs
    comebacks = sum(r.moves > 1 for r in rows) / len(rows)
    assert line["comeback"].a.estimate == comebacks == line["comeback"].b.estimate
    assert line["lead_for_good"].a.estimate == pytest.approx(
        sum((r.moves - 1) / r.moves for r in rows) / len(rows))
    # A and B play the same games: every paired difference is 0, none flagged, and the
    # means of ratios keep a width (try-out s7b F1's class).
    for stat in ("lead_for_good", "choice_early", "choice_middle", "choice_late"):
        diff = line[stat].difference
        assert diff.estimate == 0.0 and diff.low < 0.0 < diff.high, stat
    assert line["mattered"].a.n == sum(r.probed or 0 for r in rows)


def test_comeback_is_paired_over_the_seeds_both_won() -> None:
    statistic = next(s for s in statistics(2) if s.name == "comeback")
    a = [_row(10, comeback=True), _row(10, comeback=False), _row(10, winner=None,
                                                                comeback=None)]
    b = [_row(10, comeback=False), _row(10, winner=None, comeback=None),
         _row(10, comeback=True)]
    kept_a, kept_b = statistic.paired(a, b)
    assert len(kept_a) == len(kept_b) == 1  # only the first seed was won under both
    assert statistic.difference(a, b).n == 1
    assert statistic.interval(a) == wilson(1, 2)


def test_mattered_differs_as_two_independent_shares() -> None:
    # Newcombe's method 10: the square-and-add of each side's Wilson distances.
    a, b = wilson(0, 10), wilson(10, 10)
    diff = independent_shares(a, b)
    assert diff.estimate == 1.0 and diff.high == 1.0
    assert diff.low == pytest.approx(1.0 - ((1.0 - b.low) ** 2 + a.high ** 2) ** 0.5)
    with pytest.raises(TypeError, match="an Interval"):
        independent_shares(a, 0.5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"within 0\.\.1"):
        independent_shares(a, Interval(3.0, 2.0, 4.0, 5))


def test_balance_reports_the_self_play_games_metrics() -> None:
    report = balance(ONE_CARD, "one card", ["random", "greedy"], games=20, deals=2, seed=0,
                     coverage=0)
    assert set(report.shape) == {"lead_changes", "comeback", "lead_for_good", "choice_early",
                                 "choice_middle", "choice_late", "mattered"}
    rows = play_games([configuration(ONE_CARD, ["greedy"])], 0, range(20)).rows[0]
    comebacks = sum(r.moves > 1 for r in rows) / len(rows)  # the same self-play games
    assert report.shape["lead_changes"].estimate == 0.0
    assert report.shape["comeback"].estimate == comebacks < 1.0
    assert report.as_dict()["designer_metrics"]["comeback"]["estimate"] == comebacks


def _out(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("name", ["games.csv", "games.jsonl"])
def test_metrics_from_a_games_file_are_simulate_metrics(
        name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / name
    simulated = json.loads(_out(capsys, "simulate", "blackwood-frey", "--set", "payoff_size=8",
                                "--games", "14", "--metrics", "--games-out", str(out),
                                "--json", "--quiet"))
    read = json.loads(_out(capsys, "metrics", str(out), "--json"))
    assert read["format"] == 2 and read["missing"] == []
    (only,) = read["configurations"].values()
    assert only["designer_metrics"] == simulated["designer_metrics"]
    assert only["metrics"] == simulated["metrics"]
    assert read["command"].startswith("spitemalice simulate blackwood-frey")


def test_a_compare_file_gives_each_configuration(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cmp.csv"
    compared = json.loads(_out(capsys, "compare", "blackwood-frey", "blackwood-frey",
                               "--b-house-rule", "mandatory-aces", "--set", "payoff_size=8",
                               "--a-set", "payoff_size=8", "--games", "12",
                               "--no-coverage", "--games-out", str(out), "--json",
                               "--quiet"))
    games = read_games(out)
    assert set(games.groups) == {"A", "B"} and games.format == 2
    for side in "AB":
        shape = row_metrics(games.groups[side])
        stats = compared["statistics"]
        assert shape["lead_changes"].as_dict() == stats["lead_changes"][side.lower()]
    text = _out(capsys, "metrics", str(out))
    assert "configuration A:" in text and "configuration B:" in text


def test_a_format_1_file_gives_what_it_can_and_names_what_it_lacks(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    new, old = tmp_path / "new.csv", tmp_path / "old.csv"
    _out(capsys, "simulate", "blackwood-frey", "--set", "payoff_size=8", "--games", "6",
         "--games-out", str(new), "--quiet")
    with new.open(newline="") as source:
        rows = list(csv.DictReader(source))
    columns = [c for c in rows[0] if c not in SHAPE_FIELDS]
    with old.open("w", newline="") as target:
        writer = csv.DictWriter(target, columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    games = read_games(old)
    assert games.format == 1 and games.missing == SHAPE_FIELDS
    assert all(row.lead_changes is None for row in games.groups[""])
    assert row_metrics(games.groups[""]) == {}  # nothing guessed from part of the games
    text = _out(capsys, "metrics", str(old))
    assert "branching_factor" in text and "designer metrics (" not in text
    assert "not in this file: lead_changes, comeback, lead_for_good" in text


@pytest.mark.parametrize(("content", "said"), [
    ("game,seed\n1,2\n", "line 2: no first_seat column"),
    ("", "holds no game rows"),
    ('{"game": "x"}\n', "line 1: no seed column"),
    ("[1, 2]\n", "a game row is a JSON object"),
])
def test_a_file_that_is_no_games_file_is_refused_naming_where(
        tmp_path: Path, content: str, said: str) -> None:
    path = tmp_path / ("games.jsonl" if content.startswith(("{", "[")) else "games.csv")
    path.write_text(content, encoding="utf-8")
    with pytest.raises(DataError, match=said):
        read_games(path)


def test_a_wrong_value_is_refused_naming_its_line_and_column(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]
                                                             ) -> None:
    good = tmp_path / "good.csv"
    _out(capsys, "simulate", "blackwood-frey", "--set", "payoff_size=8", "--games", "3",
         "--games-out", str(good), "--quiet")
    lines = good.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    for column, value, said in (("moves", "-3", "moves: a whole number of 0 or more"),
                                ("comeback", "maybe", "comeback: 1 or 0"),
                                ("outcome", "won", "outcome: one of")):
        cells = lines[2].split(",")
        cells[header.index(column)] = value
        bad = tmp_path / f"bad-{column}.csv"
        bad.write_text("\n".join([lines[0], lines[1], ",".join(cells)]) + "\n",
                       encoding="utf-8")
        with pytest.raises(DataError, match=f"line 3, {said}"):
            read_games(bad)
    assert main(["metrics", str(tmp_path / "missing.csv")]) == 2
    assert "cannot read" in capsys.readouterr().err
