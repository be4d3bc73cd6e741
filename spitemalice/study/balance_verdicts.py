"""A balance report's verdicts (:class:`~spitemalice.study.balance.Balance`): the figures put
into short sentences, each with its evidence and interval, as ``spitemalice balance`` prints
them.  A verdict whose interval holds its threshold says so (not measurably above or below),
and one re-checked on fresh seeds says whether the fresh seeds agree
(:func:`~spitemalice.study.fresh.reason`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from spitemalice.measures.interval import percent_text
from spitemalice.study.balance_coverage import verdict_lines
from spitemalice.study.fresh import first_position, reason, skill_change

if TYPE_CHECKING:
    from spitemalice.measures.interval import Interval
    from spitemalice.study.balance import Balance


def verdicts(report: Balance) -> list[str]:
    """Short sentences, each with its evidence: a house rule whose clauses the self-play games
    never exercised (first: then the report measured nothing about it), the first position
    against fair, skill against the base, games without a winner, game length, and the other
    clauses the self-play games never exercised
    (:func:`~spitemalice.study.balance_coverage.verdict_lines`)."""
    first, last = verdict_lines(report.coverage) if report.coverage else ([], [])
    lines = [*first, _fairness(report)]
    top = report.top
    share = top.rate
    line = (f"{top.a} beats {top.b} in {percent_text(share)} of won games" if share.n else
            f"no game of {top.a} against {top.b} had a winner")
    if report.base is not None and report.gradient:
        line += f"; {_skill(report)}"
    lines.append(line)
    won = report.outcomes["win"]
    # With its interval even at 0%: "every game has a winner" from one game claimed too much.
    lines.append(f"{(1 - won.estimate) * 100:.1f}% of games end without a winner "
                 f"({(1 - won.high) * 100:.1f}..{(1 - won.low) * 100:.1f})")
    median = next(q.value for q in report.quantiles if q.share == 0.5)
    lines.append(f"median game {median.estimate:.0f} turns ({median.low:.0f}..{median.high:.0f})")
    return lines + last


def _skill(report: Balance) -> str:
    """How much skill matters against the base, re-checked on the fresh seed set."""
    index = report.matrix.index(report.top)
    change = report.gradient[index]
    fresh = report.fresh
    again = (fresh.gradient[fresh.matrix.index(fresh.top)]
             if fresh is not None and fresh.gradient else None)
    if not change.n:  # no game won here or in the base: no change to judge, never 0
        seen = f"; fresh seeds {_points(again)}" if again else ""
        return f"skill's change from {report.base} not measured ({_points(change)}{seen})"
    words = {outcome: f"skill matters {word} than in {report.base}" for outcome, word in
             (("pass", "more"), ("fail", "less"), ("undecided", "not measurably more or less"))}
    if fresh is None:  # one seed set: the words of old, each with its interval
        return f"{words[skill_change(change).outcome]} ({_points(change)})"
    word = reason(skill_change(change), skill_change(again) if again else None, words)
    seen = f"; fresh seeds {_points(again)}" if again else ""
    return f"{word} ({_points(change)}{seen})"


def _fairness(report: Balance) -> str:
    first = report.positions[0]
    who = "first seat" if report.fair == 1 / report.players else "first team"
    if not first.n:  # 0 of 0: no share to judge
        return f"no self-play game had a winner: nothing is known of the {who}'s share"
    # An interval holding fair shows no bias; it is no evidence of fairness when wide.
    words = {"pass": "above fair", "fail": "below fair",
             "undecided": "not measurably above or below fair"}
    verdict = first_position(first, report.fair)
    if report.fresh is None:
        return f"{who} wins {percent_text(first)} of won games: {words[verdict.outcome]} " \
               f"({report.fair:.1%})"
    again = report.fresh.positions[0]
    word = reason(verdict, first_position(again, report.fair) if again.n else None, words)
    return (f"{who} wins {percent_text(first)} of won games, {percent_text(again)} on fresh "
            f"seeds: {word} ({report.fair:.1%})")


def _points(change: Interval) -> str:
    if not change.n:  # no game behind it: not measured, never 0
        return "- (no games)"
    return (f"{change.estimate * 100:+.1f} points, {change.low * 100:+.1f}.."
            f"{change.high * 100:+.1f}")
