"""An estimate with its confidence interval, and the ranges its ends are kept within.

An interval's ends never leave the range the quantity can take (a count's mean is never below
0, a share stays within 0..1): :func:`bounded` cuts them there.
"""

from __future__ import annotations

import math

import attrs

from spitemalice.guards import check_int, check_real, int_field, real_field
from spitemalice.limits import MAX_DIGITS
from spitemalice.measures.checks import check_count, check_number, check_within
from spitemalice.wording import shown

Z95 = 1.959963984540054  # the two-sided 95% normal quantile


@attrs.frozen
class Interval:
    """An estimate with a confidence interval.

    Attributes:
        estimate: the point estimate (a rate in 0..1, or a mean in the values' unit).
        low, high: the interval's ends, ``low <= estimate <= high``.
        n: how many observations it rests on; with none (``n == 0``) the estimate
            measures nothing: printed as not measured, and ``null`` in :meth:`as_dict`.

    Raises:
        SpiteMaliceError: an end or the estimate a whole number past
            :data:`~spitemalice.limits.MAX_REAL` in size (or a finite float past it), or ``n``
            a whole number outside 0 to :data:`~spitemalice.limits.MAX_INT`.
    """

    estimate: float = attrs.field(validator=real_field())
    low: float = attrs.field(validator=real_field())
    high: float = attrs.field(validator=real_field())
    n: int = attrs.field(validator=int_field(0))

    def excludes(self, value: float) -> bool:
        """True when ``value`` lies outside the interval.

        Raises:
            SpiteMaliceError: ``value`` no number, or one past
                :data:`~spitemalice.limits.MAX_REAL` in size (an infinity is outside every
                finite interval).
        """
        if type(value) is not float:
            value = check_real(value, "the value given to Interval.excludes")
        return value < self.low or value > self.high

    def as_dict(self, digits: int = 4) -> dict[str, float | int | None]:
        """The interval as JSON data, its numbers rounded to ``digits`` decimals; the
        estimate of no observation (``n == 0``) is ``null``, never a figure of 0 (try-out).

        Raises:
            SpiteMaliceError: ``digits`` not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_DIGITS`.
        """
        check_int(digits, "Interval.as_dict's digits", 0, MAX_DIGITS,
                  constant="spitemalice.limits.MAX_DIGITS")
        estimate = round(self.estimate, digits) if self.n else None
        return {"estimate": estimate, "low": round(self.low, digits),
                "high": round(self.high, digits), "n": self.n}


UNBOUNDED = (-math.inf, math.inf)
"""The range of a quantity that can take any value (the default of ``within``)."""


COUNT = (0.0, math.inf)
"""The range of a mean count (moves, turns, piles per game)."""


SHARE = (0.0, 1.0)
"""The range of a share (a rate, a fraction of a game's moves)."""


SHARE_CHANGE = (-1.0, 1.0)
"""The range of the difference of two shares."""


def length_ranges(turn_limit: int | None) -> tuple[tuple[float, float], tuple[float, float]]:
    """The ranges a game's turns and moves can take under ``turn_limit`` (``None``: unknown,
    any count): a game ends after ``turn_limit`` turns and a turn after ``turn_limit`` moves
    (:mod:`spitemalice.engine.apply`), so a mean's interval past them would claim games no
    rule lets be played.

    Raises:
        SpiteMaliceError: ``turn_limit`` is not ``None`` or a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    if turn_limit is None:
        return COUNT, COUNT
    limit = float(check_int(turn_limit, "length_ranges' turn_limit"))
    return (0.0, limit), (0.0, limit * limit)


def difference_range(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    """The range ``b - a`` can take when ``a`` lies within ``a``'s range and ``b`` within
    ``b``'s: from ``b``'s low end less ``a``'s high end to ``b``'s high end less ``a``'s low
    end (two shares' -1..1; two games' turns under turn limits 100 and 120, -100..+120)."""
    return b[0] - a[1], b[1] - a[0]


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
    value = check_number(estimate, "bounded", "estimate", "a number")
    width = check_number(half, "bounded", "half", "a half-width of 0 or more")
    if not width >= 0:  # NaN too
        raise ValueError(f"bounded takes half, a half-width of 0 or more (inf for the whole "
                         f"range), not {shown(half)}")
    return _bounded(value, width, check_count(n, "bounded", "n, the number of values,"),
                    check_within(within, "bounded"), "bounded")


def _bounded(estimate: float, half: float, n: int, within: tuple[float, float],
             function: str) -> Interval:
    """:func:`bounded` for arguments the caller has checked (a number, a half-width of 0 or
    more, a count, a range low to high); ``function`` is the public function named when
    ``estimate`` lies outside ``within``.

    Raises:
        ValueError: ``estimate`` outside ``within`` (values of another quantity).
    """
    low, high = within
    if not low <= estimate <= high:  # values of another quantity: cut, the ends would cross
        raise ValueError(f"{function} takes values of a quantity within ({low:g}, {high:g}), "
                         f"the range given; their mean {estimate:g} is not")
    return Interval(estimate, max(estimate - half, low), min(estimate + half, high), n)


NOT_MEASURED = "- (no games)"
"""How a statistic with no games behind it (``n == 0``) is printed: not measured, never a
figure of 0 (``0.0% (0.0..100.0)`` would claim a measurement)."""


def percent_text(interval: Interval) -> str:
    """A share as a percentage with its interval's ends in points: ``12.5% (10.1..15.2)``;
    :data:`NOT_MEASURED` with no games behind it."""
    if not interval.n:
        return NOT_MEASURED
    return f"{interval.estimate:.1%} ({interval.low * 100:.1f}..{interval.high * 100:.1f})"


def rate_text(interval: Interval) -> str:
    """A share as a percentage with its interval's ends as percentages too:
    ``12.5% (10.1%..15.2%)``; :data:`NOT_MEASURED` with no games behind it."""
    if not interval.n:
        return NOT_MEASURED
    return f"{interval.estimate:.1%} ({interval.low:.1%}..{interval.high:.1%})"


def mean_text(interval: Interval, digits: int = 1, infinite: str = "inf") -> str:
    """An estimate and its interval's ends with ``digits`` decimals: ``40.2 (38.0..42.5)``,
    an infinite high end written ``infinite``; :data:`NOT_MEASURED` with no games behind it.

    Raises:
        SpiteMaliceError: ``digits`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_DIGITS`.
    """
    check_int(digits, "mean_text's digits", 0, MAX_DIGITS,
              constant="spitemalice.limits.MAX_DIGITS")
    if not interval.n:
        return NOT_MEASURED
    high = infinite if interval.high == math.inf else f"{interval.high:.{digits}f}"
    return f"{interval.estimate:.{digits}f} ({interval.low:.{digits}f}..{high})"
