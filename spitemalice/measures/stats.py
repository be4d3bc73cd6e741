"""Interval estimates for the figures that simulate, compare, validate and studies report.

One module so every command states its uncertainty the same way: a rate carries a Wilson score
interval with continuity correction, the difference of two rates measured on the same games
Tango's paired score interval, a mean a Student's t interval (:func:`student_t`: at 30 games
and more it is within 2% of the normal one, at 2 games six times as wide), and a mean of one
value the whole range its quantity can take, since one value shows no spread. Where a few equal
values would show no spread (the per-deal gains of a pair of bots), the variance pools a prior,
as the sequential test does; a count's variance is at least what one more game a count away
would show (:func:`least_variance`); a rate or a difference of rates never rests on a normal
interval of 0/1 values, whose width is zero when they all agree.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from typing import cast

import attrs

from spitemalice.guards import check_int, check_list
from spitemalice.limits import MAX_GAMES
from spitemalice.wording import given_text, shown

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


@attrs.frozen
class Interval:
    """An estimate with a confidence interval.

    Attributes:
        estimate: the point estimate (a rate in 0..1, or a mean in the values' unit).
        low, high: the interval's ends, ``low <= estimate <= high``.
        n: how many observations it rests on.
    """

    estimate: float
    low: float
    high: float
    n: int

    def excludes(self, value: float) -> bool:
        """True when ``value`` lies outside the interval."""
        return value < self.low or value > self.high

    def as_dict(self, digits: int = 4) -> dict[str, float | int]:
        return {"estimate": round(self.estimate, digits), "low": round(self.low, digits),
                "high": round(self.high, digits), "n": self.n}


UNBOUNDED = (-math.inf, math.inf)
"""The range of a quantity that can take any value (the default of ``within``)."""

COUNT = (0.0, math.inf)
"""The range of a mean count (moves, turns, piles per game)."""

SHARE = (0.0, 1.0)
"""The range of a share (a rate, a fraction of a game's moves)."""

SHARE_CHANGE = (-1.0, 1.0)
"""The range of the difference of two shares."""


def wilson(successes: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval, with continuity correction, for a rate of ``successes`` out
    of ``n`` trials (Newcombe, "Two-sided confidence intervals for the single proportion",
    Statistics in Medicine 17, 1998, method 4; what R's ``prop.test`` gives).

    It stays inside 0..1 and is sound at rates of 0 and 1, where the plain normal interval
    collapses (Wilson, 1927).  The correction keeps a few trials from claiming what an exact
    binomial test would not: 4 of 4 gives 39.6..100.0, which holds 50% (two-sided exact
    p = 0.125), where Wilson's interval without it, 51.0..100.0, did not (try-out s7 M3).
    From 100 trials on it adds less than half a point at each end.  ``n == 0`` gives the
    whole range 0..1.

    Raises:
        TypeError: ``successes`` or ``n`` not a whole number.
        TypeError, ValueError: ``z`` no positive finite number (:func:`check_z`).
        ValueError: ``successes`` outside 0..``n``.
    """
    successes = _whole(successes, "successes", "wilson")
    n = _count(n, "wilson", "n, the number of trials,")
    z = check_z(z, "wilson")
    if not 0 <= successes <= n:
        raise ValueError(f"wilson takes successes from 0 to n = {n}, not {successes}")
    if n == 0:
        return Interval(0.0, 0.0, 1.0, 0)
    rate = successes / n
    z2, centre, scale = z * z, 2 * successes + z * z, 2 * (n + z * z)
    # At rates 0 and 1 an end is exactly 0 or 1; say so rather than trust rounding.
    low, high = 0.0, 1.0
    if successes:
        root = math.sqrt(max(z2 - 2 - 1 / n + 4 * rate * (n * (1 - rate) + 1), 0.0))
        low = min(rate, max(0.0, (centre - 1 - z * root) / scale))
    if successes < n:
        root = math.sqrt(max(z2 + 2 - 1 / n + 4 * rate * (n * (1 - rate) - 1), 0.0))
        high = max(rate, min(1.0, (centre + 1 + z * root) / scale))
    return Interval(rate, low, high, n)


def mean_interval(values: Sequence[float], z: float = Z95,
                  within: tuple[float, float] = UNBOUNDED, prior_variance: float = 0.0,
                  prior_weight: int = 0, unit: float = 0.0) -> Interval:
    """The mean of ``values`` with Student's t interval (``student_t(z, n - 1)`` standard
    errors: ``z`` names the level, 1.96 for 95%), its ends kept ``within`` the range the mean
    can take (a count's mean is never below 0, a rate's within 0..1): with few values the
    interval runs past it.

    ``prior_weight`` pseudo-values of variance ``prior_variance`` are pooled into the
    variance estimate (as :func:`sprt` pools them): for a bounded quantity whose few values
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
        TypeError, ValueError: ``z`` no positive finite number (:func:`check_z`).
        TypeError: ``values`` is not a list (a str, ``None`` or a number, say), or ``within``
            not a pair of numbers, naming the function and what a right value looks like.
        ValueError: ``within``'s low end above its high end (or not a number), or the
            values' mean outside it.
    """
    check_list(values, "mean_interval", "values, a list of numbers,",
               '[1.0, 2.5]')
    _check_values(values, "mean_interval", "values")
    prior_variance, prior_weight = _check_prior(prior_variance, prior_weight, "mean_interval")
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
            ``unit`` negative, not finite or above :data:`MAX_VALUE`, ``n`` below 0 or above
            :data:`~spitemalice.limits.MAX_GAMES`.  The message names ``function``.
    """
    step = _real(unit, function, "unit", "the step of the values (1 for counts, 0 for none)")
    if not (math.isfinite(step) and 0 <= step <= MAX_VALUE):
        raise ValueError(f"{function} takes unit, a finite number from 0 to {MAX_VALUE:g} (1 "
                         f"for counts), not {shown(unit)}")
    return step ** 2 / (_count(n, function, "n, the number of values,") + 1)


def _count(value: object, function: str, name: str) -> int:
    """``value`` when it is a whole number from 0 to :data:`~spitemalice.limits.MAX_GAMES`."""
    number = _whole(value, name.rstrip(","), function)
    if not 0 <= number <= MAX_GAMES:
        raise ValueError(f"{function} takes {name} a whole number from 0 to {MAX_GAMES:,} "
                         f"(spitemalice.limits.MAX_GAMES), not {shown(number)}")
    return number


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
        TypeError, ValueError: ``z`` as :func:`check_z` refuses it; ``dof`` not a whole number
            of 1 or more.
    """
    z = check_z(z, "student_t")
    dof = _whole(dof, "dof", "student_t")
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
        TypeError, ValueError: ``z`` no positive finite number (:func:`check_z`); ``unit`` as
            :func:`least_variance` refuses it; ``mean`` no finite number, ``sd`` no finite
            number of 0 or more (NaN is taken where ``n`` is 1 or less: one value has no
            standard deviation), ``n`` no whole number from 0 to
            :data:`~spitemalice.limits.MAX_GAMES`.
        TypeError: ``within`` is not a pair of numbers.
        ValueError: ``within``'s low end above its high end (or not a number), or ``mean``
            outside it.
    """
    z = check_z(z, "interval_of_mean")
    n = _count(n, "interval_of_mean", "n, the number of values,")
    if not math.isfinite(_real(mean, "interval_of_mean", "mean", "a finite number")):
        raise ValueError(f"interval_of_mean takes mean, a finite number, not {shown(mean)}")
    spread = _real(sd, "interval_of_mean", "sd", "a standard deviation of 0 or more")
    if not (math.isfinite(spread) and spread >= 0) and not (math.isnan(spread) and n <= 1):
        raise ValueError(f"interval_of_mean takes sd, a finite number of 0 or more (NaN only "
                         f"for 1 value or none), not {shown(sd)}")
    least = least_variance(unit, n, "interval_of_mean")
    half = student_t(z, n - 1) * math.sqrt(max(spread * spread, least) / n) if n > 1 \
        else math.inf
    return _bounded(mean, half, n, check_within(within, "interval_of_mean"),
                    "interval_of_mean")


def bounded(estimate: float, half: float, n: int,
            within: tuple[float, float] = UNBOUNDED) -> Interval:
    """``estimate`` plus and minus ``half``, each end kept within ``within`` (low, high): the
    interval of a quantity that cannot leave that range.

    Raises:
        TypeError: ``within`` is not a pair of numbers (a str, say), or ``estimate`` or
            ``half`` no number.
        ValueError: ``within``'s low end above its high end (or not a number), ``estimate``
            outside it, ``half`` negative or NaN (``inf`` is the whole range).
    """
    value = _real(estimate, "bounded", "estimate", "a number")
    width = _real(half, "bounded", "half", "a half-width of 0 or more")
    if not width >= 0:  # NaN too
        raise ValueError(f"bounded takes half, a half-width of 0 or more (inf for the whole "
                         f"range), not {shown(half)}")
    return _bounded(value, width, _count(n, "bounded", "n, the number of values,"),
                    check_within(within, "bounded"), "bounded")


def _bounded(estimate: float, half: float, n: int, within: tuple[float, float],
             function: str) -> Interval:
    low, high = within
    if not low <= estimate <= high:  # values of another quantity: cut, the ends would cross
        raise ValueError(f"{function} takes values of a quantity within ({low:g}, {high:g}), "
                         f"the range given; their mean {estimate:g} is not")
    return Interval(estimate, max(estimate - half, low), min(estimate + half, high), n)


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = Z95,
                      within: tuple[float, float] = UNBOUNDED, unit: float = 0.0) -> Interval:
    """The mean of ``b[i] - a[i]`` with Student's t interval: the difference between two
    configurations played on the same seeds (pairing removes the luck of the deal shared by
    both, so the interval is narrower than comparing two independent means).  Its ends are
    kept ``within`` the range the difference can take, as :func:`mean_interval` keeps them
    (for two rates of 0/1 outcomes :func:`paired_shares` is the sounder interval).  For
    counts give ``unit`` 1 (:func:`mean_interval`): differences that all agree keep a width.

    Raises:
        TypeError, ValueError: a value no finite number; ``unit`` as
            :func:`least_variance` refuses it.
        TypeError, ValueError: ``z`` no positive finite number (:func:`check_z`).
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
    _check_lengths(a, b, "paired_difference")
    _check_values(a, "paired_difference", "a")
    _check_values(b, "paired_difference", "b")
    least = least_variance(unit, len(a), "paired_difference")
    return _mean([y - x for x, y in zip(a, b, strict=True)], z, limits, "paired_difference",
                 least=least)


def paired_shares(a: Sequence[float], b: Sequence[float], z: float = Z95) -> Interval:
    """The share of ones in ``b`` minus that in ``a``, for outcomes of 0 or 1 paired by index
    (``a[i]`` and ``b[i]`` from the same seed), with the interval of
    :func:`share_difference`.

    Raises:
        TypeError, ValueError: ``z`` no positive finite number (:func:`check_z`).
        TypeError: ``a`` or ``b`` is not a list, naming the function and what a right value
            looks like.
        ValueError: ``a`` and ``b`` of different lengths, or a value other than 0 or 1.
    """
    check_list(a, "paired_shares", "a, a list of 0s and 1s,", "[1, 0, 1]")
    check_list(b, "paired_shares", "b, a list of 0s and 1s,", "[1, 0, 1]")
    _check_lengths(a, b, "paired_shares")
    z = check_z(z, "paired_shares")
    for value in (*a, *b):
        if not isinstance(value, numbers.Real):
            raise TypeError(f"paired_shares takes outcomes of 0 or 1, not {given_text(value)}")
        if value not in (0, 1):
            raise ValueError(f"paired_shares takes outcomes of 0 or 1, not {shown(value)}")
    pairs = Counter(zip(a, b, strict=True))
    return share_difference(pairs[1, 1], pairs[1, 0], pairs[0, 1], len(a), z)


def share_difference(both: int, only_a: int, only_b: int, n: int, z: float = Z95) -> Interval:
    """``share_b - share_a`` of two shares measured on the same ``n`` trials, with Tango's
    score interval for paired shares (Tango, "Equivalence test and confidence interval for the
    difference in proportions for the paired-sample design", Statistics in Medicine 17,
    1998; recommended by Fagerland, Lydersen and Laake, Statistics in Medicine 33, 2014).

    ``share_a = (both + only_a) / n`` and ``share_b = (both + only_b) / n``: a trial counts in
    ``both`` when it is a success for A and for B, in ``only_a`` or ``only_b`` when for one of
    them.  Two outcomes of the same game (A and B on one seed), or two categories of one
    multinomial (the wins of two seats: ``both`` is 0) are such shares.  The interval holds
    every difference ``d`` whose score statistic, with the variance of ``only_b - only_a``
    taken at the likeliest cell shares given ``d``, lies within ``z``; the statistic's
    numerator, ``|only_b - only_a - n d|``, is reduced by 1, McNemar's continuity correction
    (Edwards 1948), so that a few trials never claim what an exact McNemar test would not (4
    of 4 trials won by B alone excluded 0 without it, where the exact p is 0.125; try-out s7
    M3's paired form).  It stays within -1..1 and, unlike a normal interval of the per-trial
    differences, keeps a width when every trial agrees (4 games all won under A and under B:
    0.0 (-0.70..+0.70), not 0.0 (0.0..0.0)).

    Raises:
        TypeError: a count not a whole number (a bool neither).
        TypeError, ValueError: ``z`` no positive finite number (:func:`check_z`).
        ValueError: a count below 0, or ``both + only_a + only_b`` above ``n``.
    """
    both, only_a, only_b, n = (_whole(value, name, "share_difference") for value, name in
                               ((both, "both"), (only_a, "only_a"), (only_b, "only_b"),
                                (n, "n")))
    z = check_z(z, "share_difference")
    n = _count(n, "share_difference", "n, the number of trials,")
    if min(both, only_a, only_b) < 0 or both + only_a + only_b > n:
        raise ValueError(f"share_difference takes counts of 0 or more with both + only_a + "
                         f"only_b at most n = {n}, not {both}, {only_a}, {only_b}")
    if n == 0:
        return Interval(0.0, -1.0, 1.0, 0)
    gap = (only_b - only_a) / n

    def beyond(d: float) -> float:
        """How far the score statistic at ``d`` lies beyond ``z`` (positive: outside)."""
        # The likeliest share of "only A" trials when the difference is d (Tango's eq. 4).
        w = (2 * n - only_b + only_a) * d - only_b - only_a
        q = (math.sqrt(max(0.0, w * w + 8 * n * only_a * d * (1 - d))) - w) / (4 * n)
        variance = n * (2 * q + d * (1 - d))
        # McNemar's continuity correction (Edwards 1948): the counts move in whole steps.
        excess = max(abs(only_b - only_a - n * d) - 1, 0.0)
        if variance <= 0:
            return -z if excess == 0 else math.inf
        return excess / math.sqrt(variance) - z

    return Interval(gap, _edge(beyond, gap, -1.0), _edge(beyond, gap, 1.0), n)


def _edge(beyond: Callable[[float], float], inside: float, end: float) -> float:
    """The point between ``inside`` (where ``beyond`` is not positive) and ``end`` where
    ``beyond`` turns positive, by bisection; ``end`` itself when it is inside."""
    if beyond(end) <= 0:
        return end
    for _ in range(60):  # 2**-60 of the range: far below any printed digit
        middle = (inside + end) / 2
        if beyond(middle) <= 0:
            inside = middle
        else:
            end = middle
    return inside


MAX_Z = 30.0
"""The largest ``z``: a two-sided level within 1e-197 of 1, beyond which the tail's
probability underflows."""


def check_z(z: object, function: str) -> float:
    """``z`` as a float when it is a positive finite number of standard errors (1.96 for a
    two-sided 95% interval).

    Raises:
        TypeError: ``z`` is no number (a str, ``None``, a bool); the message names
            ``function``.
        ValueError: ``z`` is 0, negative, infinite or NaN (the interval's ends would cross
            or vanish).
    """
    number = _real(z, function, "z", "a number of standard errors such as 1.96")
    if not (math.isfinite(number) and 0 < number <= MAX_Z):
        raise ValueError(f"{function} takes z, a positive finite number of standard errors "
                         f"such as 1.96, at most {MAX_Z:g}, not {shown(z)}")
    return number


def _real(value: object, function: str, name: str, what: str) -> float:
    """``value`` as a float when it is a real number (numpy's too; a bool is refused), else
    a TypeError: ``{function} takes {name}, {what}, not ...``."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{function} takes {name}, {what}, not {given_text(value)}")
    return float(value)


def _whole(value: object, name: str, function: str) -> int:
    """``value`` as an int when it is a whole number (numpy's too; a bool is refused)."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{function} takes {name}, a whole number, not {_given(value)}")
    return int(value)


def _given(value: object) -> str:
    """A number as its value (``1.5``, ``nan``), anything else as :func:`given_text` says it."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return shown(value)
    return str(value) if isinstance(value, bool) else given_text(value)


MAX_VALUE = 1e100
"""The largest size of a value the interval functions take: the squares of larger ones
(1e308, say) overflow a float (try-out s7b F6), and no count or share of a game comes near."""


def _check_values(values: Sequence[object], function: str, parameter: str) -> None:
    """Refuse a value that is no number (TypeError), not finite or larger than
    :data:`MAX_VALUE` (ValueError): the mean of ``inf`` has no interval, NaN would pass every
    comparison after it, and the squares of 1e308 overflow."""
    for value in values:
        if not isinstance(value, numbers.Real):
            raise TypeError(f"{function} takes {parameter} of numbers, not "
                            f"{given_text(value)}")
        size: float
        if isinstance(value, numbers.Integral):
            size = abs(int(value))  # compared as it is: 400 digits do not fit a float
        else:
            size = abs(float(value))
            if not math.isfinite(size):
                raise ValueError(f"{function} takes {parameter} of finite numbers, not "
                                 f"{shown(value)}")
        if size > MAX_VALUE:
            raise ValueError(f"{function} takes {parameter} of numbers from -{MAX_VALUE:g} to "
                             f"{MAX_VALUE:g} (spitemalice.measures.stats.MAX_VALUE), not "
                             f"{shown(value)}")


def _check_lengths(a: Sequence[object], b: Sequence[object], function: str) -> None:
    if len(a) != len(b):
        raise ValueError(f"{function} pairs a[i] with b[i]: a and b need equal lengths, not "
                         f"{len(a)} and {len(b)}")


def _check_prior(variance: object, weight: object, function: str) -> tuple[float, int]:
    """``prior_variance`` and ``prior_weight`` when they are a finite number of 0 or more and
    a whole number from 0 to :data:`~spitemalice.limits.MAX_GAMES` (pseudo-observations)."""
    number = _real(variance, function, "prior_variance", "a number of 0 or more")
    if not (math.isfinite(number) and number >= 0):
        raise ValueError(f"{function} takes prior_variance, a finite number of 0 or more, "
                         f"not {shown(variance)}")
    if not isinstance(weight, numbers.Integral) or isinstance(weight, bool):
        raise TypeError(f"{function} takes prior_weight, a whole number of pseudo-observations, "
                        f"not {_given(weight)}")
    count = check_int(weight, f"{function}'s prior_weight (pseudo-observations)", 0,
                      MAX_GAMES, constant="spitemalice.limits.MAX_GAMES")
    return number, count


def check_within(within: object, function: str) -> tuple[float, float]:
    """``within`` as (low, high) when it is a pair of numbers, low at most high.

    Raises:
        TypeError: not a pair of numbers; the message names ``function``.
        ValueError: the low end above the high end.
    """
    check_list(within, function, "within, a list of two numbers (low, high),", "(0.0, 1.0)")
    pair = tuple(cast(Iterable[object], within))
    ends = [end for end in pair if isinstance(end, int | float) and not isinstance(end, bool)]
    if len(pair) != 2 or len(ends) != 2:
        raise TypeError(f"{function} takes within, a list of two numbers (low, high), e.g. "
                        f"(0.0, 1.0), not {shown(pair)}")
    low, high = float(ends[0]), float(ends[1])
    if math.isnan(low) or math.isnan(high):
        raise ValueError(f"{function} takes within as two numbers, not {shown(pair)}")
    if low > high:
        raise ValueError(f"{function} takes within as (low, high) with low at most high, "
                         f"not {shown(pair)}")
    return low, high


@attrs.frozen
class SprtResult:
    """The state of a sequential probability ratio test.

    Attributes:
        decision: ``"differs"`` (the difference is at least the margin), ``"same"`` (it is
            smaller than the margin) or ``"undecided"`` (play more games).
        llr: the log-likelihood ratio of the likelier side (``differs`` over ``same``).
        lower, upper: the bounds at which ``same`` and ``differs`` are accepted.
        n: the paired games it rests on.
    """

    decision: str
    llr: float
    lower: float
    upper: float
    n: int


def agreeing(result: SprtResult, interval: Interval, centre: float,
             margin: float) -> SprtResult:
    """``result``, made ``"undecided"`` where its decision would contradict ``interval``, the
    95% interval of the same quantity printed beside it (``centre``: its value when nothing
    differs, 0 for a difference, 0.5 for a share): ``"differs"`` needs the interval to
    exclude ``centre``, ``"same"`` to lie within ``centre -+ margin``.  Wald's test with a
    variance estimated from a few games can decide before the interval does: ``compare
    --until-decided 20 --statistic turns`` said "differs by 20 or more after 2 games" beside
    ``-58.50 (-255.45..+138.45)`` (try-out s8 finding 1); such a run now plays on.

    Raises:
        TypeError: ``result`` is not a :class:`SprtResult` or ``interval`` not an
            :class:`Interval`; ValueError: ``margin`` not a positive finite number.
    """
    if not isinstance(result, SprtResult):
        raise TypeError(f"agreeing takes result, an SprtResult (sprt's), not "
                        f"{given_text(result)}")
    if not isinstance(interval, Interval):
        raise TypeError(f"agreeing takes interval, an Interval, not {given_text(interval)}")
    if not (math.isfinite(_real(margin, "agreeing", "margin", "a positive number"))
            and margin > 0):
        raise ValueError(f"agreeing takes margin, a positive finite number, not {shown(margin)}")
    if result.decision == "differs" and not interval.excludes(centre):
        return attrs.evolve(result, decision="undecided")
    if result.decision == "same" and not (centre - margin <= interval.low
                                          and interval.high <= centre + margin):
        return attrs.evolve(result, decision="undecided")
    return result


def sprt(differences: Sequence[float], margin: float, alpha: float = 0.05,
         beta: float = 0.05, prior_variance: float = 0.0,
         prior_weight: int = 0, least_variance: float = 0.0) -> SprtResult:
    """Wald's sequential probability ratio test on paired differences ``d`` (B minus A).

    H0: the mean difference is 0; H1: its size is ``margin`` (either sign).  Each side is a
    normal-mean SPRT with the variance estimated from the data so far (as chess-engine testing
    frameworks do with their normal approximation); the test accepts H1 ("differs") when
    either sign's log-likelihood ratio reaches ``log((1 - beta) / alpha)`` and H0 ("same")
    when both fall to ``log(beta / (1 - alpha))``.  A zero variance (every difference equal)
    decides at once by comparing the common difference with half the margin, unless a prior
    is given: the variance estimate then pools ``prior_weight`` pseudo-observations of
    variance ``prior_variance`` with the data, so that a few equal differences of a bounded
    quantity (a deal's share of wins) decide nothing on their own, while many outweigh it.
    ``least_variance`` bounds the estimate from below: differences of 0/1 outcomes whose mean
    is ``margin`` have at least ``margin * (1 - margin)`` (some pairs must disagree), so a run
    of agreeing pairs is weighed as what H1 would still allow.

    Raises:
        TypeError, ValueError: a difference no finite number; the prior as for
            :func:`mean_interval`; ``least_variance`` no finite number of 0 or more.
        ValueError: ``margin`` not positive, ``alpha``/``beta`` outside (0, 0.5), or a
            negative ``prior_variance``, ``prior_weight`` or ``least_variance``.
        TypeError: ``differences`` is not a list (a str, ``None`` or a number, say),
            naming the function and what a right value looks like.
    """
    check_list(differences, "sprt", "differences, a list of numbers,",
               '[1.0, -0.5]')
    _check_values(differences, "sprt", "differences")
    prior_variance, prior_weight = _check_prior(prior_variance, prior_weight, "sprt")
    least = _real(least_variance, "sprt", "least_variance", "a number of 0 or more")
    if not (least >= 0 and math.isfinite(least)):
        raise ValueError(f"sprt takes least_variance, a finite number of 0 or more, not "
                         f"{shown(least_variance)}")
    if not math.isfinite(_real(margin, "sprt", "margin", "a positive number")) or margin <= 0:
        raise ValueError(f"sprt takes margin, a positive finite number, not {shown(margin)}")
    for name, value in (("alpha", alpha), ("beta", beta)):
        _real(value, "sprt", name, "a number between 0 and 0.5")
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError(f"sprt: alpha and beta lie strictly between 0 and 0.5, not {alpha}, "
                         f"{beta}")
    lower, upper = math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha)
    n = len(differences)
    if n < 2:
        return SprtResult("undecided", 0.0, lower, upper, n)
    mean = math.fsum(differences) / n
    squares = math.fsum((d - mean) ** 2 for d in differences)
    variance = max((squares + prior_weight * prior_variance) / (n - 1 + prior_weight),
                   least_variance)
    if variance == 0:
        decision = "differs" if abs(mean) >= margin / 2 else "same"
        return SprtResult(decision, math.inf if decision == "differs" else -math.inf,
                          lower, upper, n)
    # LLR of N(+-margin, s2) against N(0, s2) for the sum of n observations.
    total = mean * n
    llrs = [margin / variance * (sign * total - n * margin / 2) for sign in (1, -1)]
    llr = max(llrs)
    if llr >= upper:
        decision = "differs"
    elif all(value <= lower for value in llrs):
        decision = "same"
    else:
        decision = "undecided"
    return SprtResult(decision, llr, lower, upper, n)
