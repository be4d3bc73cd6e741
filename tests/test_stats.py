"""Interval estimates (spitemalice.study.stats)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from spitemalice.study.stats import mean_interval, wilson


def test_wilson_matches_the_textbook_value() -> None:
    # 8 successes in 10: Wilson 95% interval 0.490..0.943 (Newcombe 1998, table I style check)
    interval = wilson(8, 10)
    assert interval.estimate == pytest.approx(0.8)
    assert interval.low == pytest.approx(0.4902, abs=1e-4)
    assert interval.high == pytest.approx(0.9433, abs=1e-4)


def test_wilson_is_sound_at_the_edges() -> None:
    assert wilson(0, 20).low == 0.0 and wilson(0, 20).high > 0.1
    assert wilson(20, 20).high == 1.0 and wilson(20, 20).low < 0.9
    assert (wilson(0, 0).low, wilson(0, 0).high) == (0.0, 1.0)


@given(st.integers(1, 5000).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_contains_its_estimate_and_stays_in_range(pair: tuple[int, int]) -> None:
    interval = wilson(*pair)
    assert 0.0 <= interval.low <= interval.estimate <= interval.high <= 1.0


def test_wilson_refuses_impossible_counts() -> None:
    with pytest.raises(ValueError, match=r"0\.\.3"):
        wilson(4, 3)


def test_mean_interval_shrinks_with_more_values() -> None:
    few, many = mean_interval([1.0, 3.0] * 5), mean_interval([1.0, 3.0] * 500)
    assert few.estimate == many.estimate == 2.0
    assert many.high - many.low < few.high - few.low
    # standard error of 1000 values with sample sd ~1.0005: 1.96 * 1.0005 / sqrt(1000)
    assert many.high - 2.0 == pytest.approx(1.959964 * math.sqrt(1000 / 999) / math.sqrt(1000))
    assert not many.excludes(2.0) and many.excludes(2.5)


def test_paired_difference_is_the_mean_of_differences() -> None:
    from spitemalice.study.stats import paired_difference

    interval = paired_difference([10, 12, 14, 16], [11, 14, 15, 19])
    assert interval.estimate == pytest.approx(1.75)
    assert interval.low < 1.75 < interval.high
    with pytest.raises(ValueError, match="equal lengths"):
        paired_difference([1], [1, 2])


def test_sprt_decides_a_clear_difference_and_a_clear_sameness() -> None:
    import random

    from spitemalice.study.stats import sprt

    rng = random.Random(1)
    shifted = [rng.gauss(5.0, 10.0) for _ in range(400)]
    assert sprt(shifted, margin=5.0).decision == "differs"
    negative = [-d for d in shifted]
    assert sprt(negative, margin=5.0).decision == "differs"
    same = [rng.gauss(0.0, 10.0) for _ in range(400)]
    assert sprt(same, margin=5.0).decision == "same"
    assert sprt(same[:3], margin=5.0).decision == "undecided"


def test_sprt_with_a_prior_variance_needs_more_than_a_few_equal_differences() -> None:
    from spitemalice.study.stats import sprt

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
    from spitemalice.study.stats import sprt

    with pytest.raises(ValueError, match="margin"):
        sprt([1.0, 2.0], 0)
    with pytest.raises(ValueError, match="alpha"):
        sprt([1.0, 2.0], 1, alpha=0.7)
