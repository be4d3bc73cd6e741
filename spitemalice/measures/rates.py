"""Intervals of rates: a rate carries a Wilson score interval with continuity correction, the
difference of two rates measured on the same games Tango's paired score interval.  Neither
rests on a normal interval of 0/1 values, whose width is zero when they all agree.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Callable, Sequence

from spitemalice.guards import check_list
from spitemalice.measures.checks import check_count, check_lengths, check_whole, check_z
from spitemalice.measures.interval import Z95, Interval
from spitemalice.wording import given_text, shown


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
        TypeError, ValueError: ``z`` no positive finite number
            (:func:`~spitemalice.measures.checks.check_z`).
        ValueError: ``successes`` outside 0..``n``.
    """
    successes = check_whole(successes, "successes", "wilson")
    n = check_count(n, "wilson", "n, the number of trials,")
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


def paired_shares(a: Sequence[float], b: Sequence[float], z: float = Z95) -> Interval:
    """The share of ones in ``b`` minus that in ``a``, for outcomes of 0 or 1 paired by index
    (``a[i]`` and ``b[i]`` from the same seed), with the interval of
    :func:`share_difference`.

    Raises:
        TypeError, ValueError: ``z`` no positive finite number
            (:func:`~spitemalice.measures.checks.check_z`).
        TypeError: ``a`` or ``b`` is not a list, naming the function and what a right value
            looks like.
        ValueError: ``a`` and ``b`` of different lengths, or a value other than 0 or 1.
    """
    check_list(a, "paired_shares", "a, a list of 0s and 1s,", "[1, 0, 1]")
    check_list(b, "paired_shares", "b, a list of 0s and 1s,", "[1, 0, 1]")
    check_lengths(a, b, "paired_shares")
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
        TypeError, ValueError: ``z`` no positive finite number
            (:func:`~spitemalice.measures.checks.check_z`).
        ValueError: a count below 0, or ``both + only_a + only_b`` above ``n``.
    """
    both, only_a, only_b, n = (check_whole(value, name, "share_difference") for value, name in
                               ((both, "both"), (only_a, "only_a"), (only_b, "only_b"),
                                (n, "n")))
    z = check_z(z, "share_difference")
    n = check_count(n, "share_difference", "n, the number of trials,")
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


def independent_shares(a: Interval, b: Interval) -> Interval:
    """``b - a`` of two shares measured on independent trials, from their Wilson intervals
    (:func:`wilson`), by Newcombe's square-and-add (hybrid score) method: ``d = b - a``, low
    ``d - sqrt((b - b.low)**2 + (a.high - a)**2)``, high ``d + sqrt((b.high - b)**2 + (a -
    a.low)**2)`` (Newcombe, "Interval estimation for the difference between independent
    proportions", Statistics in Medicine 17, 1998, method 10).  For shares of trials that are
    not paired one by one: ``compare``'s ``mattered``, whose probed decisions lie at
    different moves under A and B.  ``n`` is the smaller of the two.

    Raises:
        TypeError: ``a`` or ``b`` is not an :class:`~spitemalice.measures.interval.Interval`.
        ValueError: an interval outside 0..1 (no share's).
    """
    for name, given in (("a", a), ("b", b)):
        if not isinstance(given, Interval):
            raise TypeError(f"independent_shares takes {name}, an Interval (what wilson "
                            f"returns), not {type(given).__name__}")
        if not 0 <= given.low <= given.high <= 1:
            raise ValueError(f"independent_shares takes shares' intervals within 0..1, not "
                             f"{name} = {given.low:g}..{given.high:g}")
    d = b.estimate - a.estimate
    low = d - math.hypot(b.estimate - b.low, a.high - a.estimate)
    high = d + math.hypot(b.high - b.estimate, a.estimate - a.low)
    return Interval(d, max(-1.0, low), min(1.0, high), min(a.n, b.n))
