"""Wald's sequential probability ratio test on paired differences (:func:`sprt`), and the rule
that keeps its decision from contradicting the interval printed beside it (:func:`agreeing`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import attrs

from spitemalice.guards import check_list, check_real, int_field, real_field
from spitemalice.measures.checks import check_number, check_prior, check_values
from spitemalice.measures.interval import Interval
from spitemalice.wording import given_text, shown


@attrs.frozen
class SprtResult:
    """The state of a sequential probability ratio test.

    Attributes:
        decision: ``"differs"`` (the difference is at least the margin), ``"same"`` (it is
            smaller than the margin) or ``"undecided"`` (play more games).
        llr: the log-likelihood ratio of the likelier side (``differs`` over ``same``).
        lower, upper: the bounds at which ``same`` and ``differs`` are accepted.
        n: the paired games it rests on.

    Raises:
        SpiteMaliceError: ``llr``, ``lower`` or ``upper`` a whole number past
            :data:`~spitemalice.limits.MAX_REAL` in size (or a finite float past it; ``llr``
            is infinite when every difference is equal), or ``n`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    decision: str
    llr: float = attrs.field(validator=real_field())
    lower: float = attrs.field(validator=real_field())
    upper: float = attrs.field(validator=real_field())
    n: int = attrs.field(validator=int_field(0))


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
            :class:`~spitemalice.measures.interval.Interval`; ValueError: ``margin`` not a
            positive finite number.
        SpiteMaliceError: ``centre`` or ``margin`` no number of at most
            :data:`~spitemalice.limits.MAX_REAL` in size.
    """
    if not isinstance(result, SprtResult):
        raise TypeError(f"agreeing takes result, an SprtResult (sprt's), not "
                        f"{given_text(result)}")
    if not isinstance(interval, Interval):
        raise TypeError(f"agreeing takes interval, an Interval, not {given_text(interval)}")
    if not (math.isfinite(check_number(margin, "agreeing", "margin", "a positive number"))
            and margin > 0):
        raise ValueError(f"agreeing takes margin, a positive finite number, not {shown(margin)}")
    centre = check_real(centre, "agreeing's centre")
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
            :func:`~spitemalice.measures.means.mean_interval`; ``least_variance`` no finite
            number of 0 or more.
        ValueError: ``margin`` not positive, ``alpha``/``beta`` outside (0, 0.5), or a
            negative ``prior_variance``, ``prior_weight`` or ``least_variance``.
        TypeError: ``differences`` is not a list (a str, ``None`` or a number, say),
            naming the function and what a right value looks like.
    """
    prior_variance, prior_weight = _check_sprt(differences, margin, alpha, beta,
                                               prior_variance, prior_weight, least_variance)
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


def _check_sprt(differences: Sequence[float], margin: float, alpha: float, beta: float,
                prior_variance: float, prior_weight: int,
                least_variance: float) -> tuple[float, int]:
    """:func:`sprt`'s arguments checked as its docstring says; the prior as numbers."""
    check_list(differences, "sprt", "differences, a list of numbers,",
               '[1.0, -0.5]')
    check_values(differences, "sprt", "differences")
    prior = check_prior(prior_variance, prior_weight, "sprt")
    least = check_number(least_variance, "sprt", "least_variance", "a number of 0 or more")
    if not (least >= 0 and math.isfinite(least)):
        raise ValueError(f"sprt takes least_variance, a finite number of 0 or more, not "
                         f"{shown(least_variance)}")
    step = check_number(margin, "sprt", "margin", "a positive number")
    if not math.isfinite(step) or margin <= 0:
        raise ValueError(f"sprt takes margin, a positive finite number, not {shown(margin)}")
    for name, value in (("alpha", alpha), ("beta", beta)):
        check_number(value, "sprt", name, "a number between 0 and 0.5")
    if not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise ValueError(f"sprt: alpha and beta lie strictly between 0 and 0.5, not {alpha}, "
                         f"{beta}")
    return prior
