"""Ratings (spitemalice.study.ratings): the Bradley-Terry / Luce fit, the anchor, the prior and
the intervals (bootstrap and Wald)."""

from __future__ import annotations

import math
import random

import pytest

from spitemalice.study.ratings import PRIOR, Table, elo, expected_share, ratings, strengths


def test_two_bots_fit_the_closed_form_with_the_prior() -> None:
    # Two bots only: the maximum-likelihood odds are wins over losses, each with the prior's
    # half virtual win added (Bradley-Terry with one pair has this closed form).
    tables = [Table(("a", "b"), 0, d) for d in range(30)] + \
             [Table(("b", "a"), 0, d) for d in range(10)] + [Table(("a", "b"), None, 99)]
    gamma = strengths(tables, ["a", "b"])
    assert gamma["a"] / gamma["b"] == pytest.approx((30 + PRIOR / 2) / (10 + PRIOR / 2))
    rated = elo(gamma, "b")
    assert rated["b"] == 0
    assert expected_share(rated["a"], rated["b"]) == pytest.approx(30.5 / 41)


def test_a_bot_that_never_wins_stays_finite() -> None:
    tables = [Table(("a", "b"), 0, d) for d in range(50)]
    gamma = strengths(tables, ["a", "b"])
    assert math.isfinite(gamma["a"] / gamma["b"]) and gamma["a"] / gamma["b"] == \
        pytest.approx(50.5 / 0.5)


def test_a_multi_seat_table_is_luce_evidence() -> None:
    # One table shape, A A B B: P(A's side wins) = 2 gA / (2 gA + 2 gB) = gA / (gA + gB), so
    # the fit gives the odds of the counts (prior included) as for two sides.
    tables = [Table(("a", "a", "b", "b"), w, d)
              for d, w in enumerate([0] * 20 + [1] * 20 + [2] * 10 + [3] * 10)]
    gamma = strengths(tables, ["a", "b"])
    assert gamma["a"] / gamma["b"] == pytest.approx((40 + 0.5) / (20 + 0.5))
    # One A among three B: P(A wins) = gA / (gA + 3 gB): A winning a quarter is equality.
    even = [Table(("a", "b", "b", "b"), 0 if d % 4 == 0 else 1 + d % 3, d) for d in range(400)]
    gamma = strengths(even, ["a", "b"])
    assert gamma["a"] / gamma["b"] == pytest.approx(1.0, rel=0.02)


def test_known_strengths_are_recovered_within_the_intervals() -> None:
    truth = {"random": 0.0, "greedy": 250.0, "heuristic": 300.0, "mcts": 380.0}
    bots = list(truth)
    rng = random.Random(3)
    tables = []
    for deal in range(300):
        for i, a in enumerate(bots):
            for b in bots[i + 1:]:
                for sides in ((a, b), (b, a)):
                    p = expected_share(truth[sides[0]], truth[sides[1]])
                    tables.append(Table(sides, 0 if rng.random() < p else 1, deal))
    rated = ratings(tables, bots, "random", seed=1, bootstrap=200)
    assert [r.bot for r in rated] == ["mcts", "heuristic", "greedy", "random"]
    for r in rated[:-1]:
        # Within twice the interval's half-width (a 95% interval misses one time in 20; four
        # of them together would miss too often for a test).
        half = (r.rating.high - r.rating.low) / 2
        assert 10 < half < 60 and abs(r.rating.estimate - truth[r.bot]) < 2 * half, r
        assert r.rating.low <= r.rating.estimate <= r.rating.high
        assert r.games == 300 * 2 * 3
    anchor = next(r for r in rated if r.bot == "random")
    assert anchor.rating.estimate == anchor.rating.low == anchor.rating.high == 0
    # The bootstrap is seeded: the same games give the same intervals.
    assert ratings(tables, bots, "random", seed=1, bootstrap=200) == rated


def test_games_without_a_winner_are_counted_not_rated() -> None:
    tables = [Table(("a", "b"), 0, 0), Table(("b", "a"), None, 0)]
    rated = {r.bot: r for r in ratings(tables, ["a", "b"], "b", bootstrap=10)}
    assert rated["a"].games == 2 and rated["a"].wins == 1 and rated["a"].rating.n == 1


def test_bad_anchor_or_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="anchor"):
        ratings([Table(("a", "b"), 0, 0)], ["a", "b"], "c")
    with pytest.raises(ValueError, match="not among"):
        strengths([Table(("a", "z"), 0, 0)], ["a", "b"])


# ---- intervals that keep a width when a few games all went one way ----

def _sweep(games: int) -> list[Table]:
    """``games`` games of a against b on ``games // 2`` deals, a winning every one."""
    return [Table(sides, sides.index("a"), game // 2)
            for game, sides in enumerate([("a", "b"), ("b", "a")] * (games // 2))]


def test_the_wald_half_width_of_two_bots_is_the_closed_form() -> None:
    """Two bots: the information of the log-odds is (games + PRIOR) * p * (1 - p), p the
    fitted share, so the standard error is its inverse root (in Elo points)."""
    tables = [Table(("a", "b"), 0, d) for d in range(30)] + \
             [Table(("b", "a"), 0, d) for d in range(10)]
    rated = {r.bot: r.rating for r in ratings(tables, ["a", "b"], "b", bootstrap=0)}
    p = (30 + PRIOR / 2) / (40 + PRIOR)
    half = 1.959963984540054 * 400 / math.log(10) / math.sqrt((40 + PRIOR) * p * (1 - p))
    assert rated["a"].high - rated["a"].estimate == pytest.approx(half)
    assert rated["a"].estimate - rated["a"].low == pytest.approx(half)


def test_four_games_won_by_one_bot_are_no_exact_measure() -> None:
    """Every bootstrap resample of a sweep is the same sweep: the percentile interval alone
    had no width (+382 (+382..+382)); the Wald end is the farther one."""
    swept = {r.bot: r.rating for r in ratings(_sweep(4), ["a", "b"], "b")}["a"]
    assert swept.estimate == pytest.approx(400 * math.log10(4.5 / 0.5))
    assert swept.low < 0 < swept.estimate < swept.high - 400  # 4 games: not even the sign


def test_with_many_games_the_wald_end_adds_little_to_the_bootstrap() -> None:
    rng = random.Random(5)
    tables = [Table(sides, sides.index("a") if rng.random() < 0.6 else sides.index("b"), g // 2)
              for g, sides in enumerate([("a", "b"), ("b", "a")] * 300)]
    both = {r.bot: r.rating for r in ratings(tables, ["a", "b"], "b", seed=1)}["a"]
    wald = {r.bot: r.rating for r in ratings(tables, ["a", "b"], "b", bootstrap=0)}["a"]
    width, wald_width = both.high - both.low, wald.high - wald.low
    assert wald_width <= width < 1.2 * wald_width


def test_bots_the_games_do_not_tie_to_the_anchor_keep_the_bootstrap_interval() -> None:
    """b and c met only each other: no curvature ties them to the anchor a, whose games are
    none; their intervals stay finite (the bootstrap's), not infinite."""
    tables = [Table(("b", "c"), 0, d) for d in range(6)] + [Table(("c", "b"), 1, 9)]
    for rating in ratings(tables, ["a", "b", "c"], "a"):
        assert math.isfinite(rating.rating.low) and math.isfinite(rating.rating.high)


def test_bots_that_met_only_in_games_without_a_winner_are_tied_by_the_prior() -> None:
    """Four-seat Skip-Bo with random: every game of random's pairs may end without a winner
    (try-out s7 H3: greedy and heuristic printed +0 (+0..+0) from such games).  They met, so
    the prior's virtual game joins them: the interval is wide, not a point."""
    tables = [Table(("random", "greedy", "random", "greedy"), None, d) for d in range(4)] + \
             [Table(("greedy", "heuristic", "greedy", "heuristic"), 0, 5)] + \
             [Table(("heuristic", "greedy", "heuristic", "greedy"), 0, 6)]
    rated = {r.bot: r.rating for r in ratings(tables, ["random", "greedy", "heuristic"],
                                              "random")}
    for bot in ("greedy", "heuristic"):
        assert rated[bot].high - rated[bot].low > 500, rated[bot]


def test_each_bootstrap_end_is_its_percentile_where_it_decides(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Where no Wald interval widens them (b and c met only each other, none of their games
    ties them to the anchor a) each end is the bootstrap's own: the 2.5% and the 97.5% points
    of the refits' ratings, nearest rank (Efron and Tibshirani, chapter 13), each checked
    against that definition with the point estimate strictly inside (issue 38, the suite's
    blind spots: a bootstrap at the 25th percentile went unnoticed)."""
    from spitemalice.study import ratings as module

    rng = random.Random(3)
    tables = [Table(sides, sides.index("b") if rng.random() < 0.6 else sides.index("c"), g // 2)
              for g, sides in enumerate([("b", "c"), ("c", "b")] * 40)]
    seen: list[dict[str, float]] = []
    real = module.elo

    def recording(gamma: dict[str, float], anchor: str) -> dict[str, float]:
        found = real(gamma, anchor)
        seen.append(found)
        return found

    monkeypatch.setattr(module, "elo", recording)
    refits = 400
    rated = {r.bot: r.rating for r in module.ratings(tables, ["a", "b", "c"], "a", seed=2,
                                                     bootstrap=refits)}
    point, draws = seen[0], seen[1:]
    assert len(draws) == refits
    for bot in ("b", "c"):
        values = sorted(draw[bot] for draw in draws)
        low, high = values[10 - 1], values[390 - 1]  # ranks ceil(0.025 n) and ceil(0.975 n)
        assert low < point[bot] < high  # neither end is the widening to hold the estimate
        assert (rated[bot].low, rated[bot].high) == (low, high)
