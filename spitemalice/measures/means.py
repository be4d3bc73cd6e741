"""Intervals of means: a mean carries a Student's t interval (:func:`student_t`: at 30 games
and more it is within 2% of the normal one, at 2 games six times as wide), a mean of one value
the whole range its quantity can take, since one value shows no spread; the mean of paired
differences the same (:func:`paired_difference`).  Where a few equal values would show no
spread (the per-deal gains of a pair of bots), the variance pools a prior, as the sequential
test does; a count's variance is at least what one more game a count away would show
(:func:`least_variance`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from spitemalice.guards import check_list
from spitemalice.measures.checks import (
    MAX_VALUE,
    check_count,
    check_lengths,
    check_number,
    check_prior,
    check_values,
    check_whole,
    check_within,
    check_z,
)
from spitemalice.measures.interval import UNBOUNDED, Z95, Interval, _bounded
from spitemalice.wording import shown


def mean_interval(values: Sequence[float], z: float = Z95,
                  within: tuple[float, float] = UNBOUNDED, prior_variance: float = 0.0,
                  prior_weight: int = 0, unit: float = 0.0) -> Interval:
    """The mean of ``values`` with Student's t interval (``student_t(z, n - 1)`` standard
    errors: ``z`` names the level, 1.96 for 95%), its ends kept ``within`` the range the mean
    can take (a count's mean is never below 0, a rate's within 0..1): with few values the
    interval runs past it.

    ``prior_weight`` pseudo-values of variance ``prior_variance`` are pooled into the
    variance estimate (as :func:`~spitemalice.measures.sequential.sprt` pools them): for a
    bounded quantity whose few values
    may all be equal, so that they show no spread the quantity has (the degrees of freedom
    grow by ``prior_weight``).  Without a prior, one value or none gives the whole of
    ``within`` (nothing is known of the spread; an end without a bound is infinite, which
    the JSON writers write as null); the mean of none is 0.0.

    ``unit`` is the step of values that come in whole steps (1 for counts: moves, turns,
    piles per game): the variance is then at least ``unit**2 / (n + 1)``, the spread one
    more value one step away from ``n`` equal ones would show, so that counts that all agree
    keep a width (:func:`least_variance`).  Values that differ at all show more spread than
    that, so it changes nothing else.

    Raises:
        TypeError, ValueError: a value no finite number; ``prior_variance`` no finite
            number of 0 or more, ``prior_weight`` no whole number from 0 to
            :data:`~spitemalice.limits.MAX_GAMES`; ``unit`` no finite number of 0 or more.
        TypeError, ValueError: ``z`` no positive finite number
            (:func:`~spitemalice.measures.checks.check_z`).
        TypeError: ``values`` is not a list (a str, ``None`` or a number, say), or ``within``
            not a pair of numbers, naming the function and what a right value looks like.
        ValueError: ``within``'s low end above its high end (or not a number), or the
            values' mean outside it.
    """
    check_list(values, "mean_interval", "values, a list of numbers,",
               '[1.0, 2.5]')
    check_values(values, "mean_interval", "values")
    prior_variance, prior_weight = check_prior(prior_variance, prior_weight, "mean_interval")
    least = least_variance(unit, len(values), "mean_interval")
    return _mean(values, check_z(z, "mean_interval"), check_within(within, "mean_interval"),
                 "mean_interval", prior_variance, prior_weight, least)


def least_variance(unit: float, n: int, function: str = "least_variance") -> float:
    """The least variance ``n`` values that come in whole steps of ``unit`` are given:
    ``unit**2 / (n + 1)``, the unbiased variance of ``n`` equal values and one more a step
    away (one pseudo-value, as Laplace's rule adds one pseudo-trial to a share); 0 for a
    ``unit`` of 0 (values that need not come in steps).

    Raises:
        TypeError: ``unit`` is not a number, or ``n`` not a whole number; ValueError:
            ``unit`` negative, not finite or above
            :data:`~spitemalice.measures.checks.MAX_VALUE`, ``n`` below 0 or above
            :data:`~spitemalice.limits.MAX_GAMES`.  The message names ``function``.
    """
    step = check_number(unit, function, "unit", "the step of the values (1 for counts, 0 for none)")
    if not (math.isfinite(step) and 0 <= step <= MAX_VALUE):
        raise ValueError(f"{function} takes unit, a finite number from 0 to {MAX_VALUE:g} (1 "
                         f"for counts), not {shown(unit)}")
    return step ** 2 / (check_count(n, function, "n, the number of values,") + 1)


def _mean(values: Sequence[float], z: float, within: tuple[float, float], function: str,
          prior_variance: float = 0.0, prior_weight: int = 0,
          least: float = 0.0) -> Interval:
    n = len(values)
    low, high = within
    mean = math.fsum(values) / n if n else min(max(0.0, low), high)
    dof = n - 1 + prior_weight
    if dof <= 0:  # one value or none and no prior: nothing shows a spread
        return _bounded(mean, math.inf, n, within, function)  # the whole range
    squares = math.fsum((v - mean) ** 2 for v in values)
    variance = max((squares + prior_weight * prior_variance) / dof, least)
    return _bounded(mean, student_t(z, dof) * math.sqrt(variance / max(n, 1)), n, within,
                    function)


def student_t(z: float, dof: int) -> float:
    """The quantile of Student's t with ``dof`` degrees of freedom at the level of the normal
    quantile ``z`` (1.96 gives t's two-sided 95% point: 12.71 for 1, 2.23 for 10, 2.04 for
    30): the half-width, in standard errors, of a mean's interval whose spread is estimated
    from the values.  Exact for 1 and 2 degrees of freedom; from 3 on Hill's expansion in
    powers of ``1 / dof`` (G. W. Hill, "Algorithm 396: Student's t-quantiles",
    Communications of the ACM 13(10), 1970), within 0.2% at 95% and 1% at 99%.

    Raises:
        TypeError, ValueError: ``z`` as :func:`~spitemalice.measures.checks.check_z` refuses
            it; ``dof`` not a whole number of 1 or more.
    """
    z = check_z(z, "student_t")
    dof = check_whole(dof, "dof", "student_t")
    if dof < 1:
        raise ValueError(f"student_t takes dof, the degrees of freedom, 1 or more, not {dof}")
    tail = 0.5 * math.erfc(z / math.sqrt(2))  # above z: 0.025 for 1.96, exact far out too
    if dof == 1:
        return 1 / math.tan(math.pi * tail)
    if dof == 2:
        return (1 - 2 * tail) / math.sqrt(2 * tail * (1 - tail))
    terms = ((z ** 3 + z) / 4,
             (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96,
             (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384,
             (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160)
    return z + sum(term / dof ** power for power, term in enumerate(terms, 1))


def interval_of_mean(mean: float, sd: float, n: int, z: float = Z95,
                     within: tuple[float, float] = UNBOUNDED, unit: float = 0.0) -> Interval:
    """Student's t interval of a mean known by its summary: ``mean``, sample standard deviation
    ``sd`` and count ``n`` (as :func:`mean_interval` gives for the values themselves), its
    ends kept ``within`` the range the mean can take; ``n`` of 1 or less gives the whole range.
    ``unit`` as :func:`mean_interval` takes it (1 for counts: the variance is at least
    ``1 / (n + 1)``).

    Raises:
        TypeError, ValueError: ``z`` no positive finite number
            (:func:`~spitemalice.measures.checks.check_z`); ``unit`` as
            :func:`least_variance` refuses it; ``mean`` no finite number, ``sd`` no finite
            number of 0 or more (NaN is taken where ``n`` is 1 or less: one value has no
            standard deviation), ``n`` no whole number from 0 to
            :data:`~spitemalice.limits.MAX_GAMES`.
        TypeError: ``within`` is not a pair of numbers.
        ValueError: ``within``'s low end above its high end (or not a number), or ``mean``
            outside it.
    """
    z = check_z(z, "interval_of_mean")
    n = check_count(n, "interval_of_mean", "n, the number of values,")
    if not math.isfinite(check_number(mean, "interval_of_mean", "mean", "a finite number")):
        raise ValueError(f"interval_of_mean takes mean, a finite number, not {shown(mean)}")
    spread = check_number(sd, "interval_of_mean", "sd", "a standard deviation of 0 or more")
    if not (math.isfinite(spread) and spread >= 0) and not (math.isnan(spread) and n <= 1):
        raise ValueError(f"interval_of_mean takes sd, a finite number of 0 or more (NaN only "
                         f"for 1 value or none), not {shown(sd)}")
    least = least_variance(unit, n, "interval_of_mean")
    half = student_t(z, n - 1) * math.sqrt(max(spread * spread, least) / n) if n > 1 \
        else math.inf
    return _bounded(mean, half, n, check_within(within, "interval_of_mean"),
                    "interval_of_mean")


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = Z95,
                      within: tuple[float, float] = UNBOUNDED, unit: float = 0.0) -> Interval:
    """The mean of ``b[i] - a[i]`` with Student's t interval: the difference between two
    configurations played on the same seeds (pairing removes the luck of the deal shared by
    both, so the interval is narrower than comparing two independent means).  Its ends are
    kept ``within`` the range the difference can take, as :func:`mean_interval` keeps them
    (for two rates of 0/1 outcomes :func:`~spitemalice.measures.rates.paired_shares` is the
    sounder interval).  For
    counts give ``unit`` 1 (:func:`mean_interval`): differences that all agree keep a width.

    Raises:
        TypeError, ValueError: a value no finite number; ``unit`` as
            :func:`least_variance` refuses it.
        TypeError, ValueError: ``z`` no positive finite number
            (:func:`~spitemalice.measures.checks.check_z`).
        ValueError: ``a`` and ``b`` of different lengths, or ``within``'s low end above its
            high end (or not a number), or the differences' mean outside it.
        TypeError: ``a`` or ``b`` is not a list (a str, ``None`` or a number, say), or
            ``within`` not a pair of numbers, naming the function and what a right value
            looks like.
    """
    check_list(a, "paired_difference", "a, a list of numbers,",
               '[1.0, 2.5]')
    check_list(b, "paired_difference", "b, a list of numbers,",
               '[1.0, 2.5]')
    limits = check_within(within, "paired_difference")
    z = check_z(z, "paired_difference")
    check_lengths(a, b, "paired_difference")
    check_values(a, "paired_difference", "a")
    check_values(b, "paired_difference", "b")
    least = least_variance(unit, len(a), "paired_difference")
    return _mean([y - x for x, y in zip(a, b, strict=True)], z, limits, "paired_difference",
                 least=least)
