"""Interval estimates (spitemalice.measures: interval, rates, means, sequential)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spitemalice.measures.means import mean_interval
from spitemalice.measures.rates import wilson


@pytest.mark.parametrize("successes, n, low, high", [
    (81, 263, 0.2535, 0.3682), (15, 148, 0.0598, 0.1644), (0, 20, 0.0, 0.2005),
    (1, 29, 0.0018, 0.1963)])
def test_wilson_matches_newcombes_table(successes: int, n: int, low: float,
                                        high: float) -> None:
    """The continuity-corrected score interval's values in Newcombe, "Two-sided confidence
    intervals for the single proportion", Statistics in Medicine 17 (1998), Table I,
    method 4."""
    interval = wilson(successes, n)
    assert interval.estimate == pytest.approx(successes / n)
    assert interval.low == pytest.approx(low, abs=1e-4)
    assert interval.high == pytest.approx(high, abs=1e-4)


def test_a_few_agreeing_trials_are_no_evidence_an_exact_test_would_refuse() -> None:
    """Try-out s7 M3: Wilson's interval without the correction put 4 of 4 at 51.0..100.0,
    excluding 50%, where the exact two-sided binomial test's p is 0.125.  For every n up to
    60 and every count, an interval that excludes 50% now has an exact p of at most 5%."""
    from math import comb

    def exact_p(k: int, n: int) -> float:  # two-sided, doubling the smaller tail
        tail = sum(comb(n, i) for i in range(min(k, n - k) + 1)) / 2 ** n
        return min(1.0, 2 * tail)

    assert not wilson(4, 4).excludes(0.5) and wilson(4, 4).low == pytest.approx(0.3958, 1e-3)
    for n in range(1, 61):
        for k in range(n + 1):
            if wilson(k, n).excludes(0.5):
                assert exact_p(k, n) <= 0.05, (k, n)


def test_wilson_is_sound_at_the_edges() -> None:
    assert wilson(0, 20).low == 0.0 and wilson(0, 20).high > 0.1
    assert wilson(20, 20).high == 1.0 and wilson(20, 20).low < 0.9
    assert (wilson(0, 0).low, wilson(0, 0).high) == (0.0, 1.0)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_its_estimate_and_stays_in_range(pair: tuple[int, int]) -> None:
    interval = wilson(*pair)
    assert 0.0 <= interval.low <= interval.estimate <= interval.high <= 1.0


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match=r"^wilson takes successes from 0 to n = 3, not 4$"):
        wilson(4, 3)


def test_mean_interval_shrinks_with_more_values() -> None:
    few, many = mean_interval([1.0, 3.0] * 5), mean_interval([1.0, 3.0] * 500)
    assert few.estimate == many.estimate == 2.0
    assert many.high - many.low < few.high - few.low
    # standard error of 1000 values with sample sd ~1.0005, times Student's t at 999 degrees
    # of freedom (1.962341, from a table: a little above the normal 1.959964)
    assert many.high - 2.0 == pytest.approx(1.962341 * math.sqrt(1000 / 999) / math.sqrt(1000),
                                            rel=1e-5)
    assert not many.excludes(2.0) and many.excludes(2.5)


def test_paired_difference_is_the_mean_of_differences() -> None:
    from spitemalice.measures.means import paired_difference

    interval = paired_difference([10, 12, 14, 16], [11, 14, 15, 19])
    assert interval.estimate == pytest.approx(1.75)
    assert interval.low < 1.75 < interval.high
    with pytest.raises(ValueError, match="equal lengths"):
        paired_difference([1], [1, 2])


def test_sprt_decides_a_clear_difference_and_a_clear_sameness() -> None:
    import random

    from spitemalice.measures.sequential import sprt

    rng = random.Random(1)
    shifted = [rng.gauss(5.0, 10.0) for _ in range(400)]
    assert sprt(shifted, margin=5.0).decision == "differs"
    negative = [-d for d in shifted]
    assert sprt(negative, margin=5.0).decision == "differs"
    same = [rng.gauss(0.0, 10.0) for _ in range(400)]
    assert sprt(same, margin=5.0).decision == "same"
    assert sprt(same[:3], margin=5.0).decision == "undecided"


def test_sprt_with_a_prior_variance_needs_more_than_a_few_equal_differences() -> None:
    from spitemalice.measures.sequential import sprt

    # Identical differences have no variance: without a prior they decide at once.
    assert sprt([0.0] * 4, margin=0.05).decision == "same"
    prior = {"prior_variance": 0.125, "prior_weight": 4}
    assert sprt([0.0] * 4, margin=0.05, **prior).decision == "undecided"
    assert sprt([0.0] * 40, margin=0.05, **prior).decision == "same"
    assert sprt([0.5] * 4, margin=0.05, **prior).decision == "undecided"
    assert sprt([0.5] * 7, margin=0.05, **prior).decision == "differs"
    with pytest.raises(ValueError, match="prior"):
        sprt([0.0, 1.0], 0.05, prior_variance=-1.0, prior_weight=4)


def test_sprt_refuses_bad_parameters() -> None:
    from spitemalice.measures.sequential import sprt

    with pytest.raises(ValueError, match="margin"):
        sprt([1.0, 2.0], 0)
    with pytest.raises(ValueError, match="alpha"):
        sprt([1.0, 2.0], 1, alpha=0.7)


# A normal interval of a bounded quantity is cut at its range: with few games it ran past
# it (a count's mean below 0, a difference of shares past 100 points).  Each member below.

def test_mean_intervals_are_kept_within_their_range() -> None:
    from spitemalice.measures.interval import COUNT, SHARE_CHANGE
    from spitemalice.measures.means import interval_of_mean, paired_difference

    skewed = [0.0, 0.0, 0.0, 3.0]  # mean 0.75, standard error 0.75: the plain interval < 0
    assert mean_interval(skewed).low < 0
    counted = mean_interval(skewed, within=COUNT)
    assert counted.low == 0.0 and counted.estimate == 0.75
    assert counted.high == mean_interval(skewed).high  # the open side is left as it was
    assert interval_of_mean(0.75, 1.5, 4, within=COUNT).low == 0.0
    a, b = [1.0, 0.0, 1.0, 1.0, 0.0, 1.0], [0.0, 1.0, 0.0, 0.0, 1.0, 0.0]
    swung = paired_difference(a, b, within=SHARE_CHANGE)
    assert paired_difference(a, b).low < -1
    assert swung.low == -1.0 and swung.high < 1.0


def _tiny(rules_name: str = "blackwood-frey") -> tuple[object, object]:
    import spitemalice as sm
    from spitemalice.study import configuration

    a = configuration(sm.load(rules_name, [], {"payoff_size": 5}), ["random"], "A")
    b = configuration(sm.load(rules_name, ["mandatory-aces"], {"payoff_size": 5}),
                      ["greedy"], "B")
    return a, b


def test_every_interval_compare_prints_lies_in_its_statistics_range() -> None:
    from spitemalice.study import compare

    a, b = _tiny()
    result = compare(a, b, games=4, seed=3, coverage=False)  # type: ignore[arg-type]
    cut = 0
    for line in result.lines:
        low, high = (0.0, 1.0) if line.statistic.rate else (0.0, math.inf)
        for side in (line.a, line.b):
            assert low <= side.low <= side.estimate <= side.high <= high, line
        change = (-1.0, 1.0) if line.statistic.rate else (-math.inf, math.inf)
        assert change[0] <= line.difference.low <= line.difference.high <= change[1], line
        cut += line.difference.low == -1.0 or line.difference.high == 1.0 or \
            (not line.statistic.rate and 0.0 in (line.a.low, line.b.low))
    assert cut  # four games: some interval did reach its range's end


def test_simulate_quality_and_balance_intervals_lie_in_their_range() -> None:
    import spitemalice as sm
    from spitemalice.measures.interval import Interval
    from spitemalice.measures.metrics import duration, quality
    from spitemalice.study.balance import difference
    from spitemalice.study.pairs import PairTally
    from spitemalice.study.simulate import simulate

    rules = sm.load("blackwood-frey", [], {"payoff_size": 5})
    summary = simulate(rules, ["random", "greedy"], 3, seed=4)
    for key in ("mean_moves", "mean_turns"):
        assert summary.intervals()[key].low >= 0, key
    assert duration([1.0, 1.0, 1.0, 40.0]).low >= 0
    rows = _rows(rules)
    measured = quality(rows, 2)
    assert 0 <= measured.decisiveness.low <= measured.decisiveness.high <= 1
    tally = PairTally("greedy", "random")
    tally.values += [0.5, 0.5, 0.5, -0.5]
    assert tally.gain.low >= -0.5 and tally.gain.high <= 0.5
    wide = Interval(0.45, 0.0, 0.5, 3)
    assert difference(wide, Interval(-0.45, -0.5, 0.0, 3)).high == 1.0


def _rows(rules: object) -> list[object]:
    from spitemalice.study import configuration, play_one

    config = configuration(rules, ["random", "greedy"])  # type: ignore[arg-type]
    return [play_one(config, 5, game) for game in range(4)]


def test_a_range_that_is_no_pair_of_numbers_or_upside_down_is_refused() -> None:
    from spitemalice.measures.means import interval_of_mean

    with pytest.raises(TypeError, match=r"mean_interval takes within, a list of two numbers"):
        mean_interval([1.0, 2.0], within=(0.0, "1"))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"interval_of_mean takes within"):
        interval_of_mean(1.0, 0.5, 4, within=(0.0,))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"low at most high, not \[1.0, 0.0\]"):
        mean_interval([1.0, 2.0], within=(1.0, 0.0))


def test_values_outside_the_range_given_or_a_nan_range_are_refused() -> None:
    """Try-out s6 P3: values whose mean lies outside ``within`` gave an interval with its
    ends crossed (low 4.52, high 1.0); a NaN end was taken."""
    from spitemalice.measures.interval import bounded
    from spitemalice.measures.means import paired_difference

    with pytest.raises(ValueError, match=r"mean_interval takes values of a quantity within "
                                         r"\(0, 1\), the range given; their mean 5.5 is not"):
        mean_interval([5.0, 6.0], within=(0.0, 1.0))
    with pytest.raises(ValueError, match=r"paired_difference takes values .* mean -5 is not"):
        paired_difference([5.0, 6.0, 7.0], [1.0, 1.0, 1.0], within=(-1.0, 1.0))
    with pytest.raises(ValueError, match=r"bounded takes values"):
        bounded(2.0, 0.1, 3, within=(0.0, 1.0))
    with pytest.raises(ValueError, match=r"within as two numbers, not \[0.0, nan\]"):
        mean_interval([1.0, 2.0], within=(0.0, math.nan))
