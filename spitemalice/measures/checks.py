"""The checks of the arguments the interval functions take (:mod:`~spitemalice.measures.interval`,
:mod:`~spitemalice.measures.rates`, :mod:`~spitemalice.measures.means`,
:mod:`~spitemalice.measures.sequential`): the level ``z``, the range ``within``, the values and
counts, the prior; each message names the function that was called.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Sequence
from typing import cast

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_list, check_real
from spitemalice.limits import MAX_GAMES, MAX_INT
from spitemalice.wording import given_text, shown


def check_count(value: object, function: str, name: str) -> int:
    """``value`` when it is a whole number from 0 to :data:`~spitemalice.limits.MAX_GAMES`."""
    number = check_whole(value, name.rstrip(","), function)
    if not 0 <= number <= MAX_GAMES:
        raise SpiteMaliceError(f"{function} takes {name} a whole number from 0 to {MAX_GAMES:,} "
                         f"(spitemalice.limits.MAX_GAMES), not {shown(number)}")
    return number


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
    number = check_number(z, function, "z", "a number of standard errors such as 1.96")
    if not (math.isfinite(number) and 0 < number <= MAX_Z):
        raise ValueError(f"{function} takes z, a positive finite number of standard errors "
                         f"such as 1.96, at most {MAX_Z:g}, not {shown(z)}")
    return number


def check_number(value: object, function: str, name: str, what: str) -> float:
    """``value`` as a float when it is a real number (numpy's too; a bool is refused), else
    a TypeError: ``{function} takes {name}, {what}, not ...``; a number past
    :data:`~spitemalice.limits.MAX_REAL` (an integer too large for a float among them) is a
    :class:`SpiteMaliceError` naming the bound (NaN and infinities pass, for the callers'
    own messages)."""
    if not isinstance(value, numbers.Real) or isinstance(value, bool):
        raise TypeError(f"{function} takes {name}, {what}, not {given_text(value)}")
    if isinstance(value, numbers.Integral) or math.isfinite(float(value)):
        return check_real(value, f"{function} takes {name}", what=f"{what},",
                          error=_takes)
    return float(value)


def _takes(message: str) -> SpiteMaliceError:
    """``check_real``'s message in the measures' words: ``f takes x, what, from ...``."""
    return SpiteMaliceError(message.replace(" is ", ", ", 1))


def check_whole(value: object, name: str, function: str) -> int:
    """``value`` as an int when it is a whole number (numpy's too; a bool is refused) of at
    most :data:`~spitemalice.limits.MAX_INT` in size (:class:`SpiteMaliceError` past it)."""
    if not isinstance(value, numbers.Integral) or isinstance(value, bool):
        raise TypeError(f"{function} takes {name}, a whole number, not {_given(value)}")
    return check_int(value, f"{function} takes {name}", -MAX_INT, MAX_INT,
                     error=_takes)


def _given(value: object) -> str:
    """A number as its value (``1.5``, ``nan``), anything else as :func:`given_text` says it."""
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return shown(value)
    return str(value) if isinstance(value, bool) else given_text(value)


MAX_VALUE = 1e100
"""The largest size of a value the interval functions take: the squares of larger ones
(1e308, say) overflow a float (try-out s7b F6), and no count or share of a game comes near."""


def check_values(values: Sequence[object], function: str, parameter: str) -> None:
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
                             f"{MAX_VALUE:g} (spitemalice.measures.checks.MAX_VALUE), not "
                             f"{shown(value)}")


def check_lengths(a: Sequence[object], b: Sequence[object], function: str) -> None:
    """Refuse (ValueError) two sequences of values paired one to one whose lengths differ."""
    if len(a) != len(b):
        raise ValueError(f"{function} pairs a[i] with b[i]: a and b need equal lengths, not "
                         f"{len(a)} and {len(b)}")


def check_prior(variance: object, weight: object, function: str) -> tuple[float, int]:
    """``prior_variance`` and ``prior_weight`` when they are a finite number of 0 or more and
    a whole number from 0 to :data:`~spitemalice.limits.MAX_GAMES` (pseudo-observations)."""
    number = check_number(variance, function, "prior_variance", "a number of 0 or more")
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
