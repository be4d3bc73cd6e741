"""Verdicts re-checked on a fresh seed set: what ``balance`` and the atlas say of a
configuration holds only when a second, independent sample of its games says the same.

A headline from one sample shrinks when it is measured again (a search over noisy scores
picks the lucky ones: automated game design saw a 0.918 fall to 0.73-0.82 at fresh seeds), so
each verdict of :func:`spitemalice.study.balance.verdicts` and of the atlas page is decided on
the report's games and on a second report of the same configuration played from
:func:`fresh_seed`, and published only when both agree
(:func:`spitemalice.measures.verdicts.replicated`); otherwise it reads *undecided*.
"""

from __future__ import annotations

from spitemalice.guards import check_seed
from spitemalice.limits import MAX_SEED
from spitemalice.measures.interval import Interval
from spitemalice.measures.verdicts import Verdict, decide, replicated


def fresh_seed(seed: int) -> int:
    """The run seed of the fresh sample of a study run at ``seed``: ``seed + 1`` (``seed - 1``
    at :data:`~spitemalice.limits.MAX_SEED`).  A run seed seeds every game of the run, so
    two run seeds give independent games.

    Raises:
        SpiteMaliceError: ``seed`` out of range (:func:`~spitemalice.guards.check_seed`).
    """
    seed = check_seed(seed)
    return seed + 1 if seed < MAX_SEED else seed - 1


def first_position(first: Interval, fair: float) -> Verdict:
    """``pass`` (above fair), ``fail`` (below fair) or ``undecided``: the first position's
    share of won games against the fair share.

    Raises:
        SpiteMaliceError: ``fair`` not finite or past :data:`~spitemalice.limits.MAX_REAL` in
            size (:func:`~spitemalice.measures.verdicts.decide` checks it).
    """
    return decide(first, fair)


def skill_change(change: Interval) -> Verdict:
    """``pass`` (skill matters more than in the base), ``fail`` (less) or ``undecided``: the
    change of the stronger tier's per-deal gain from the base's."""
    return decide(change, 0.0)


def both(first: Verdict, fresh: Verdict | None) -> Verdict:
    """``first`` when ``fresh`` (the same judgement on the fresh sample) agrees; else
    undecided.  Without a fresh sample a verdict is not re-checked, so undecided too."""
    if fresh is None:
        return Verdict("undecided", first.interval, first.threshold, first.more)
    return replicated(first, fresh)


def reason(first: Verdict, fresh: Verdict | None, words: dict[str, str]) -> str:
    """The word for ``both(first, fresh)``: ``words[outcome]`` when decided on both samples;
    for an undecided one, why (``"undecided: above fair on one seed set only"``)."""
    outcome = both(first, fresh).outcome
    if outcome != "undecided":
        return words[outcome]
    if fresh is None:
        return f"undecided: {words[first.outcome]} on one seed set, not re-checked"
    decided = [v for v in (first, fresh) if v.decided]
    if not decided:
        return f"undecided: {words['undecided']}"
    if len(decided) == 2:  # the two samples decided opposite ways
        return "undecided: the two seed sets disagree"
    return f"undecided: {words[decided[0].outcome]} on one seed set only"
