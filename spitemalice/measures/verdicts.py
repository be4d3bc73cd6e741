"""Three-valued verdicts: a judgement against a threshold is ``pass`` or ``fail`` only when
its interval lies wholly on one side of the threshold, else ``undecided``, with a rough count
of the games more that would likely decide it.

Every command that prints a verdict (``validate``'s judgements of completion, balance and
game length; ``balance``'s sentences; ``compare``'s differences; the atlas; a ladder's
stopping) decides it here, so that none says more than its interval holds.  A verdict
published from one seed set is re-checked on a fresh one (:func:`replicated`): one that does
not hold on both is ``undecided``.
"""

from __future__ import annotations

import math
from typing import Literal

import attrs

from spitemalice.guards import check_real, int_field, real_field
from spitemalice.limits import MAX_GAMES
from spitemalice.measures.interval import Interval
from spitemalice.wording import given_text, shown

Outcome = Literal["pass", "fail", "undecided"]
"""What a verdict says: the interval lies wholly on the good side of the threshold
(``pass``), wholly on the bad side (``fail``), or holds it (``undecided``)."""

Good = Literal["above", "below"]
"""Which side of the threshold passes: ``"above"`` (at least the threshold: completion) or
``"below"`` (at most: a game-length ratio)."""


@attrs.frozen
class Verdict:
    """A judgement of an interval against a threshold.

    Attributes:
        outcome: ``"pass"``, ``"fail"`` or ``"undecided"`` (:data:`Outcome`).
        interval: the interval judged.
        threshold: the value it was judged against, in the interval's unit.
        more: for an undecided verdict, about how many more observations (in the unit of
            ``interval.n``: games) would likely decide it, from :func:`more_needed`; ``None``
            when decided, or when the estimate sits on the threshold (no number of games
            would be likely to decide it).

    Raises:
        SpiteMaliceError: ``threshold`` a whole number past
            :data:`~spitemalice.limits.MAX_REAL` in size (or a finite float past it), or
            ``more`` a whole number outside 0 to :data:`~spitemalice.limits.MAX_GAMES`.
    """

    outcome: Outcome
    interval: Interval
    threshold: float = attrs.field(validator=real_field())
    more: int | None = attrs.field(default=None, validator=int_field(
        0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES"))

    @property
    def decided(self) -> bool:
        return self.outcome != "undecided"


def decide(interval: Interval, threshold: float, good: Good = "above") -> Verdict:
    """``pass`` when ``interval`` lies wholly on the ``good`` side of ``threshold`` (its end
    may touch it), ``fail`` when wholly on the other side, else ``undecided`` with
    :func:`more_needed`.

    Raises:
        TypeError: ``interval`` not an :class:`~spitemalice.measures.interval.Interval` or
            ``threshold`` not a number.
        ValueError: ``good`` neither ``"above"`` nor ``"below"``.
        SpiteMaliceError: ``threshold`` not finite, or past
            :data:`~spitemalice.limits.MAX_REAL` in size.
    """
    if not isinstance(interval, Interval):
        raise TypeError(f"decide takes interval, an Interval, not {given_text(interval)}")
    if isinstance(threshold, bool) or not isinstance(threshold, int | float):
        raise TypeError(f"decide takes threshold, a number, not {given_text(threshold)}")
    threshold = check_real(threshold, "decide's threshold")
    if good not in ("above", "below"):
        raise ValueError(f"decide takes good, 'above' or 'below', not {shown(good)}")
    low, high = ((interval.low, interval.high) if good == "above"
                 else (-interval.high, -interval.low))
    line = threshold if good == "above" else -threshold
    if low >= line:
        return Verdict("pass", interval, threshold)
    if high < line:
        return Verdict("fail", interval, threshold)
    return Verdict("undecided", interval, threshold, more_needed(interval, threshold))


def more_needed(interval: Interval, threshold: float) -> int | None:
    """About how many observations more than ``interval.n`` would shrink the interval, kept
    around the same estimate, until it no longer holds ``threshold``.

    An interval's half-width falls as one over the square root of the observations, so
    ``n * (half / gap) ** 2`` observations bring the half-width down to the gap between the
    estimate and the threshold; the count returned is that less ``n``, at least 1.  It is
    a rough guide (the estimate moves as games are added), not a promise.  ``None`` when the
    estimate equals the threshold or no observation was made, or when the count would be
    more than :data:`~spitemalice.limits.MAX_GAMES` (more games than one run plays: the
    estimate sits on the threshold for every purpose).

    Raises:
        SpiteMaliceError: ``threshold`` no finite number of at most
            :data:`~spitemalice.limits.MAX_REAL` in size.
    """
    gap = abs(interval.estimate - check_real(threshold, "more_needed's threshold"))
    half = (interval.high - interval.low) / 2
    if gap == 0 or interval.n == 0 or not math.isfinite(half):
        return None
    ratio = half / gap
    needed = interval.n * ratio ** 2 if ratio < MAX_GAMES else math.inf
    if not needed - interval.n <= MAX_GAMES:
        return None
    return max(1, math.ceil(needed) - interval.n)


def replicated(first: Verdict, second: Verdict) -> Verdict:
    """The verdict of ``first`` when ``second`` (the same judgement on a fresh, independent
    seed set) reaches the same outcome; else ``undecided``, keeping ``first``'s interval and
    the larger of the two counts of games more.

    A headline from one sample shrinks when re-evaluated on another (the winner's curse of
    any search over noisy scores); a verdict must survive a second, independent sample."""
    if first.outcome == second.outcome:
        return first
    more = max((v.more or 0) for v in (first, second)) or None
    return Verdict("undecided", first.interval, first.threshold, more)


def undecided_text(verdict: Verdict, unit: str = "games") -> str:
    """``"holds the threshold; about 40 more games would likely decide it"`` for an
    undecided verdict (``"... no number of games is likely to"`` when ``more`` is
    ``None``)."""
    if verdict.more is None:
        return f"the interval holds the threshold; its estimate sits on it, so more {unit} " \
               "may not decide it"
    return f"the interval holds the threshold; about {verdict.more:,} more {unit} would " \
           "likely decide it"
