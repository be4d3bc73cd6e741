"""Interval estimates for the figures that simulate, compare, validate and studies report.

One module so every command states its uncertainty the same way: a rate carries a Wilson score
interval, a mean a normal-approximation interval (Student's t needs scipy; at the game counts
these commands use, 30 and more, the two differ by under 2%).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

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


def wilson(successes: int, n: int, z: float = Z95) -> Interval:
    """The Wilson score interval for a rate of ``successes`` out of ``n`` trials.

    It stays inside 0..1 and is sound at rates of 0 and 1, where the plain normal interval
    collapses (Wilson, 1927).  ``n == 0`` gives the whole range 0..1.

    Raises:
        ValueError: ``successes`` outside 0..``n``.
    """
    if not 0 <= successes <= n:
        raise ValueError(f"successes must lie in 0..{n}, not {successes}")
    if n == 0:
        return Interval(0.0, 0.0, 1.0, 0)
    rate = successes / n
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n))
    # At rates 0 and 1 an end is exactly 0 or 1; say so rather than trust rounding.
    low = 0.0 if successes == 0 else min(rate, centre - half)
    high = 1.0 if successes == n else max(rate, centre + half)
    return Interval(rate, low, high, n)


def mean_interval(values: Sequence[float], z: float = Z95) -> Interval:
    """The mean of ``values`` with a normal-approximation interval (``z`` standard errors).

    One value, or none, gives an interval of zero width around the mean (0.0 for none).
    """
    n = len(values)
    if n == 0:
        return Interval(0.0, 0.0, 0.0, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return Interval(mean, mean, mean, 1)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(variance / n)
    return Interval(mean, mean - half, mean + half, n)
