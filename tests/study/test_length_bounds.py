"""The intervals of a game's length stay within what a game can last: a game ends after
``turn_limit`` turns and a turn after ``turn_limit`` moves, so a mean's interval past them
claims games no rule lets be played (a fresh user: ``simulate blackwood-frey --set
build_ceiling=2``, a configuration load now refuses for its dead cards, printed a turns
interval whose upper end was past the turn limit)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.measures.interval import Interval
from spitemalice.measures.metrics import duration, quality
from spitemalice.runs.arrival import ReactionTimes, play_arrival, random_bot
from spitemalice.runs.runner import configuration, play_games
from spitemalice.study.arrival_counts import ArrivalCounts
from spitemalice.study.balance import balance, quantile, verdicts
from spitemalice.study.compare import compare, compare_until_decided
from spitemalice.study.simulate import Summary, length_ranges, simulate
from spitemalice.study.statistic import statistic_named
from spitemalice.study.tune_targets import Plan, measure
from spitemalice.validation.judge import judge
from spitemalice.validation.report import GameStats


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


# -- every other interval or quantile of a game's length (moves, turns, rounds) ------------
# The members found by grepping spitemalice/study, spitemalice/cli and spitemalice/measures
# for mean_interval, interval_of_mean, paired_difference, quantile and duration: compare's
# moves and turns (A, B and B - A), simulate --metrics' duration_moves and duration_turns,
# balance's turn quantiles, tune's median turns, Spit's moves and rounds per game,
# validate's duration_moves (the configuration's, and the base rule set's under the base's own
# turn limit), and `metrics FILE`'s durations (the turn limit the games file's sidecar says).
# Under turn_limit=10 blackwood-frey's greedy games all reach the limit, so every interval a
# count's least width or a quantile's unknown end widens runs past 10 turns (100 moves) unless
# it is kept within what a game can last.

LIMIT = 10
BOUNDED = sm.load("blackwood-frey", turn_limit=LIMIT)


def _within(interval: Interval, high: float, low: float = 0.0) -> bool:
    return low <= interval.low <= interval.estimate <= interval.high <= high


def test_compare_keeps_each_sides_lengths_and_their_difference_within_the_limits() -> None:
    longer = sm.load("blackwood-frey", turn_limit=2 * LIMIT)
    a, b = configuration(BOUNDED, ["greedy"]), configuration(longer, ["greedy"])
    found = compare(a, b, 3, seed=1, coverage=False)
    lines = {line.statistic.name: line for line in found.lines}
    assert lines["turns"].a.estimate == LIMIT and lines["turns"].b.estimate == 2 * LIMIT
    assert _within(lines["turns"].a, LIMIT) and lines["turns"].a.high == LIMIT
    assert _within(lines["turns"].b, 2 * LIMIT) and lines["turns"].b.high == 2 * LIMIT
    assert _within(lines["moves"].a, LIMIT ** 2) and _within(lines["moves"].b, (2 * LIMIT) ** 2)
    assert found.as_dict()["statistics"]["turns"]["a"]["high"] == LIMIT
    # one game shows no spread: each interval is the whole range its quantity can take, and
    # B - A's is -10..+20 (B's 0..20 less A's 0..10), not -inf..inf
    one = {line.statistic.name: line for line in compare(a, b, 1, seed=1, coverage=False).lines}
    assert (one["turns"].a.low, one["turns"].a.high) == (0, LIMIT)
    assert (one["turns"].difference.low, one["turns"].difference.high) == (-LIMIT, 2 * LIMIT)
    assert (one["moves"].difference.low, one["moves"].difference.high) == (-100, 400)
    # a count with no known bound keeps 0..inf, and its difference any value
    assert one["recycles"].a.high == math.inf and one["recycles"].difference.low == -math.inf
    assert statistic_named("recycles", 2).under(LIMIT).within == (0.0, math.inf)
    assert statistic_named("turns", 2).under(None).within == (0.0, math.inf)


def test_compare_until_decided_tests_the_difference_it_prints() -> None:
    a, b = configuration(BOUNDED, ["greedy"]), configuration(BOUNDED, ["greedy"])
    found = compare_until_decided(a, b, "turns", 5.0, seed=1, batch=2, max_games=2,
                                  coverage=False)
    turns = next(line for line in found.lines if line.statistic.name == "turns")
    assert _within(turns.difference, LIMIT, -LIMIT) and _within(turns.a, LIMIT)
    assert found.sprt is not None and found.sprt.n == 2


def test_the_metrics_durations_stay_within_the_limit() -> None:
    rows = play_games([configuration(BOUNDED, ["greedy"])], 1, range(3)).rows[0]
    assert all(row.turns == LIMIT for row in rows)
    found = quality(rows, 2, LIMIT)
    assert found.duration_turns.high == LIMIT and _within(found.duration_turns, LIMIT)
    assert _within(found.duration_moves, LIMIT ** 2)
    assert quality(rows, 2).duration_turns.high > LIMIT  # no limit known: any count
    assert duration([5.0, 5.0], (0.0, 5.0)).high == 5.0


def test_simulate_metrics_prints_durations_within_the_limit(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "blackwood-frey", "--set", f"turn_limit={LIMIT}", "--games", "3",
                 "--seed", "1", "--metrics", "--json"]) == 0
    metrics = json.loads(capsys.readouterr().out)["metrics"]
    assert metrics["duration_turns"]["estimate"] == LIMIT
    assert metrics["duration_turns"]["high"] == LIMIT
    assert metrics["duration_moves"]["high"] <= LIMIT ** 2


def test_a_quantile_whose_end_the_sample_cannot_give_ends_at_the_limit() -> None:
    assert quantile([LIMIT], 0.5, within=(0.0, LIMIT)) == Interval(LIMIT, 0.0, LIMIT, 1)
    assert quantile([], 0.5, within=(0.0, LIMIT)) == Interval(0.0, 0.0, LIMIT, 0)
    assert quantile([LIMIT], 0.5).high == math.inf  # a count's range: no end known
    with pytest.raises(ValueError, match=r"within 0\.\.10 \(within\), not 11"):
        quantile([11], 0.5, within=(0.0, LIMIT))


def test_balance_reports_turn_quantiles_within_the_limit() -> None:
    report = balance(BOUNDED, "bf", ("random", "greedy"), games=3, deals=1, seed=1, coverage=0)
    assert report.turns.high == LIMIT
    assert all(_within(q.value, LIMIT) for q in report.quantiles)
    assert report.quantiles[-1].value.high == LIMIT  # the 95% quantile of 3 games: unknown end
    assert "median game 10 turns (0..10)" in verdicts(report) or \
        "median game 10 turns (10..10)" in verdicts(report)


def test_tune_measures_the_median_game_within_the_limit() -> None:
    plan = Plan("greedy", "greedy", "random", frozenset({"turns"}))
    measured = measure(BOUNDED, plan, range(3), seed=1)
    turns = measured.metrics["turns"]
    assert turns.estimate == LIMIT and turns.high == LIMIT


def test_spit_keeps_moves_and_rounds_per_game_within_its_move_limit() -> None:
    counts = ArrivalCounts(2, move_limit=LIMIT)
    rules = sm.load("spit", turn_limit=LIMIT)
    bots = [random_bot, random_bot]
    for seed in range(3):
        counts.add(play_arrival(rules, bots, seed, ReactionTimes()))
    assert counts.moves == [LIMIT] * 3  # every game stops at the limit
    found = counts.intervals()
    assert found["mean_moves"].high == LIMIT and _within(found["mean_rounds"], LIMIT)
    assert ArrivalCounts(2).intervals()["mean_moves"].high == math.inf


def test_validate_judges_the_length_within_the_limit() -> None:
    # 39 games stopped at 100 moves (10 turns of at most 10 moves) and one of 60: the mean's
    # t interval, 99 -+ 2, ran to 101 moves
    stats = GameStats(40, 99.0, 0.0, 0.5, (0.3, 0.7), greedy_games=40,
                      greedy_lengths=(100,) * 39 + (60,))
    base = GameStats(40, 50.0, 0.0, 0.5, (0.3, 0.7), greedy_games=40,
                     greedy_lengths=(50,) * 40)
    checks, _ = judge(BOUNDED, stats, base, {}, [], {}, "the base")
    evidence = next(c.figure for c in checks if c.name == "duration_moves")
    assert evidence.startswith("mean 99 moves (97..100) over 40 greedy games"), evidence


def test_validate_keeps_the_base_games_length_within_the_base_turn_limit() -> None:
    # The base rule set's greedy games under turn_limit=10 (at most 100 moves): 38 of 100
    # moves and 2 of none; the mean's t interval, 95 -+ 7, ran to 102 moves, and the ratio's
    # low end (here's low over the base's high) fell with it
    base = GameStats(40, 95.0, 0.0, 0.5, (0.3, 0.7), greedy_games=40,
                     greedy_lengths=(100,) * 38 + (0,) * 2)
    stats = GameStats(40, 950.0, 0.0, 0.5, (0.3, 0.7), greedy_games=40,
                      greedy_lengths=(950,) * 40)
    rules = sm.load("blackwood-frey")
    _, findings = judge(rules, stats, base, {}, [], {}, "the base", base_turn_limit=LIMIT)
    longer = next(f for f in findings if f.name == "duration_moves")
    assert "games last 10.0 (9.5..10.8) times as long" in longer.message, longer.message
    _, unknown = judge(rules, stats, base, {}, [], {}, "the base")  # no limit known: any count
    assert "(9.3..10.8)" in next(f for f in unknown if f.name == "duration_moves").message


def test_metrics_of_a_games_file_keeps_the_lengths_within_its_turn_limits(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The sidecar says what turn limit the games were played under (one, or one per
    # configuration): `metrics FILE` printed duration_turns 10.0 (8.8..11.2) under 10
    games = tmp_path / "g.csv"
    assert main(["simulate", "blackwood-frey", "--set", f"turn_limit={LIMIT}", "--games", "3",
                 "--seed", "1", "--jobs", "1", "--games-out", str(games)]) == 0
    capsys.readouterr()
    assert main(["metrics", str(games), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["configurations"][""]["metrics"]
    assert found["duration_turns"]["estimate"] == LIMIT
    assert found["duration_turns"]["high"] == LIMIT
    assert _within(Interval(found["duration_moves"]["estimate"], found["duration_moves"]["low"],
                            found["duration_moves"]["high"], 3), LIMIT ** 2)
    assert main(["metrics", str(games)]) == 0
    assert "duration_turns    10.0 (8.8..10.0)" in capsys.readouterr().out
    pair = tmp_path / "pair.jsonl"
    assert main(["compare", "blackwood-frey", "blackwood-frey", "--a-set",
                 f"turn_limit={LIMIT}", "--b-set", f"turn_limit={2 * LIMIT}", "--games", "3",
                 "--seed", "1", "--jobs", "1", "--games-out", str(pair)]) == 0
    capsys.readouterr()
    assert main(["metrics", str(pair), "--json"]) == 0
    sides = json.loads(capsys.readouterr().out)["configurations"]
    assert sides["A"]["metrics"]["duration_turns"]["high"] == LIMIT
    assert sides["B"]["metrics"]["duration_turns"]["high"] == 2 * LIMIT
    # a sidecar of before says no limit: any count; a wrong one is refused by name
    sidecar = tmp_path / "g.csv.config.json"
    data = json.loads(sidecar.read_text(encoding="utf-8"))
    sidecar.write_text(json.dumps({k: v for k, v in data.items() if k != "turn_limit"}),
                       encoding="utf-8")
    assert main(["metrics", str(games), "--json"]) == 0
    found = json.loads(capsys.readouterr().out)["configurations"][""]["metrics"]
    assert found["duration_turns"]["high"] > LIMIT
    sidecar.write_text(json.dumps({**data, "turn_limit": "ten"}), encoding="utf-8")
    assert main(["metrics", str(games)]) == 2
    assert ('its turn_limit is a whole number from 0 to 10**80 - 1, not "ten"'
            in capsys.readouterr().err)
