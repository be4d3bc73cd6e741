"""Judging a rule set's play from its simulated games: the warnings of ``spitemalice
validate``.

The judgements are game-quality metrics of :mod:`spitemalice.measures.metrics` (the names,
definitions and functions ``simulate --metrics`` prints), each compared with a threshold:
``completion``, ``balance`` and ``duration_moves``.  A finding and its check carry the metric's
name.  Every threshold is a constant here and is documented in ``docs/variants.md`` ("What
validate judges").  The judgement rests on the games in which every seat was a greedy player:
random players end most games of any rule set without a winner, so their games say little
about the rules; only "no game won at all" looks at every game.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from spitemalice.measures.interval import COUNT, Interval, length_ranges
from spitemalice.measures.metrics import balance, completion, duration
from spitemalice.measures.verdicts import Verdict, decide, undecided_text
from spitemalice.rules.book import RuleBook
from spitemalice.rules.findings import cite, how_to_declare
from spitemalice.rules.sheet import format_value
from spitemalice.wording import count_of

from .report import Check, Finding, GameStats, skip

COMPLETION_LIMIT = 0.5
"""Warn when the 95% Wilson interval of ``completion`` (the share of greedy games won) lies
wholly below this: most games of the rule set end drawn or blocked."""

BALANCE_LIMIT = 0.7
"""Warn when the 95% interval of ``balance`` over the greedy games (1 minus the largest gap
between two turn positions' win rates) lies wholly below this: one position wins at least 30
points more often than another."""

LENGTH_RATIO = 2.0
"""Warn when the greedy games' ``duration_moves`` is more than this many times the base rule
set's."""

SHORTEST_MOVES = 12.0
"""Warn when the 95% interval of the greedy games' moves per seat (``duration_moves`` over the
seats) lies wholly below this: a game that ends after a handful of moves per seat is over
before its rules come into play (a one-card pay-off pile: the first seat to play one card
wins, after about 6 moves).  A tenth of blackwood-frey's greedy games (about 120 moves per
seat); a pay-off pile of three cards makes about 19."""

ENOUGH_GAMES = 20
"""Fewer greedy games than this (or won games, for balance) make a judgement a ``skip``;
"no game won at all" needs five times as many games of every line-up."""

JUDGED: tuple[str, ...] = ("completion", "balance", "duration_moves")
"""The metrics of :data:`spitemalice.measures.metrics.METRICS` that validate judges."""

Justified = Mapping[str, tuple[str, ...]]
"""Findings the rule sheet intends: finding name -> the clauses that declare it (a clause's
``expects``, a plugin's ``VALIDATE_EXPECTS``; see :mod:`spitemalice.validation.intent`).  An
intended finding is reported as info citing them."""


def judge(book: RuleBook, stats: GameStats, base: GameStats | None,
          changed: Mapping[str, Any], usual: Sequence[Mapping[str, Any]],
          justified: Justified, base_name: str = "the base rule set",
          no_base: str = "", base_turn_limit: int | None = None
          ) -> tuple[list[Check], list[Finding]]:
    """Checks that record which judgements ran, and the findings.

    Args:
        book: the configuration judged.
        stats: its games.
        base: the base rule set's greedy games (``None`` when no base is known or the
            configuration is its own base; ``no_base`` then says which).
        base_name: how the evidence names the base (``"blackwood-frey"``).
        no_base: why there is no base, shown as the duration judgement's skip.
        base_turn_limit: the base rule set's turn limit, which keeps the interval of its
            games' length within what they can last (``None``: not known, any count).
        changed: parameters whose value differs from the base rule set's, with their values.
        usual: the parameters of every built-in configuration (rule set, rule set + one house
            rule).
        justified: findings the rule sheet intends (see :data:`Justified`); the others end
            with how to declare them.
    """
    checks: list[Check] = []
    findings: list[Finding] = []
    look_at = tuple(changed)
    for judged in (_completion(stats, look_at), _balance(stats),
                   _duration(stats, base, look_at, base_name, no_base, book.players,
                             length_ranges(book.ruleset.turn_limit)[1],
                             length_ranges(base_turn_limit)[1])):
        check, finding = judged
        if finding is not None:
            finding = _justify(finding, justified)
            findings.append(finding)
            check = attrs.evolve(check, warned=finding.level == "warning")
        checks.append(check)
    findings += [_justify(f, justified) for f in unusual(changed, book.parameters(), usual)]
    return checks, findings


def _justify(finding: Finding, justified: Justified) -> Finding:
    """An intended warning as info citing its clauses; any other warning says how to declare
    it (the rules may mean it).  An info finding a clause declares cites it too."""
    clauses = justified.get(finding.name)
    if finding.level == "info":
        return (attrs.evolve(finding, message=f"{finding.message} {cite(clauses)}")
                if clauses else finding)
    if finding.level != "warning":
        return finding
    if not clauses:
        return attrs.evolve(finding, message=f"{finding.message}; "
                                             f"{how_to_declare(finding.name)}")
    return attrs.evolve(finding, level="info", message=f"{finding.message} {cite(clauses)}")


def _completion(stats: GameStats, look_at: tuple[str, ...]) -> tuple[Check, Finding | None]:
    """``completion`` of every game (none won at all: can the rules be won?), else of the
    greedy games against :data:`COMPLETION_LIMIT`."""
    name = "completion"
    wins = stats.outcomes.get("win", 0)
    if stats.games >= ENOUGH_GAMES * 5 and not wins:
        rate = completion(wins, stats.games)
        evidence = f"{wins} of {count_of(stats.games, 'game')} won, {_rate(rate)}"
        return Check(name, True, evidence), Finding(
            "warning", name, "no seat ever wins: can these rules be won at all?", evidence,
            look_at, rate)
    n = stats.greedy_games
    if n < ENOUGH_GAMES:
        return skip(name, f"{count_of(n, 'game')} by greedy seats, {ENOUGH_GAMES} needed"), None
    won = stats.greedy_outcomes.get("win", 0)
    rate = completion(won, n)
    evidence = f"{won} of {count_of(n, 'greedy game')} won, {_rate(rate)}"
    check = Check(name, True, evidence)
    verdict = decide(rate, COMPLETION_LIMIT)
    if verdict.outcome == "pass":
        return check, None
    if verdict.outcome == "undecided":
        return _undecided(check, verdict, stats), None
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(stats.greedy_outcomes.items())
                      if kind != "win")
    return check, Finding(
        "warning", name, f"completion is {rate.estimate:.1%}, below the "
        f"{COMPLETION_LIMIT:.0%} threshold: most games end without a winner ({kinds})",
        evidence, look_at, rate)


def _undecided(check: Check, verdict: Verdict, stats: GameStats) -> Check:
    """``check`` marked undecided: its interval holds the threshold.  The games more are
    counted as ``--games`` counts them (every line-up), from the greedy games' count."""
    more = verdict.more
    if more is not None and stats.greedy_games:
        more = math.ceil(more * max(stats.games, 1) / stats.greedy_games)
    return attrs.evolve(check, undecided=undecided_text(attrs.evolve(verdict, more=more)))


def _balance(stats: GameStats) -> tuple[Check, Finding | None]:
    """``balance`` of the greedy games over turn positions against :data:`BALANCE_LIMIT`."""
    name = "balance"
    won = sum(stats.wins_by_position)
    if won < ENOUGH_GAMES:
        return skip(name, f"{count_of(won, 'greedy game')} won, {ENOUGH_GAMES} needed"), None
    n = stats.greedy_games
    rate = balance(stats.wins_by_position, n)
    figure = ", ".join(f"position {p + 1} {w / n:.0%}"
                       for p, w in enumerate(stats.wins_by_position))
    check = Check(name, True, f"{rate.estimate:.3f} ({rate.low:.3f}..{rate.high:.3f}); "
                              f"wins by turn position in {count_of(n, 'greedy game')}: {figure}")
    verdict = decide(rate, BALANCE_LIMIT)
    if verdict.outcome == "pass":
        return check, None
    if verdict.outcome == "undecided":
        return _undecided(check, verdict, stats), None
    best = max(range(len(stats.wins_by_position)), key=stats.wins_by_position.__getitem__)
    word = "first" if best == 0 else f"number {best + 1}"
    return check, Finding(
        "warning", name, f"balance is {rate.estimate:.2f}, below {BALANCE_LIMIT:g}: the seat "
        f"moving {word} wins {stats.wins_by_position[best] / n:.1%} of games",
        f"wins by turn position in {count_of(n, 'greedy game')}: "
        + ", ".join(f"position {p + 1} {w}" for p, w in enumerate(stats.wins_by_position))
        + f"; {_rate(rate)}", ("first_seat",), rate)


def _duration(stats: GameStats, base: GameStats | None, look_at: tuple[str, ...],
              base_name: str, no_base: str, seats: int,
              moves: tuple[float, float] = COUNT,
              base_moves: tuple[float, float] = COUNT) -> tuple[Check, Finding | None]:
    """``duration_moves`` of the greedy games: per seat against :data:`SHORTEST_MOVES`, and
    against the base rule set's (:data:`LENGTH_RATIO`); ``moves`` and ``base_moves`` are the
    ranges a game's moves take under the configuration's and the base's turn limits."""
    name = "duration_moves"
    short = _too_short(stats, look_at, seats, moves)
    if short is not None and short[1] is not None:
        return short
    if base is None:
        return (short[0] if short else skip(
            name, no_base or "no base rule set is known: nothing to compare with")), None
    if stats.greedy_games < ENOUGH_GAMES or base.greedy_games < ENOUGH_GAMES:
        return skip(name, f"{count_of(stats.greedy_games, 'greedy game')} here and "
                          f"{base.greedy_games} of "
                          f"{base_name}, {ENOUGH_GAMES} needed"), None
    here, there = _moves(stats, moves), _moves(base, base_moves)
    ratio = _ratio(here, there)
    evidence = (f"mean {here.estimate:.0f} moves ({here.low:.0f}..{here.high:.0f}) over "
                f"{count_of(stats.greedy_games, 'greedy game')}, base {base_name} "
                f"{there.estimate:.0f} "
                f"over {base.greedy_games}")
    check = Check(name, True, evidence)
    verdict = decide(ratio, LENGTH_RATIO, good="below")
    if verdict.outcome == "pass":  # long enough; an undecided floor keeps it undecided
        return (short[0] if short else check), None
    if verdict.outcome == "undecided":
        return _undecided(check, verdict, stats), None
    return check, Finding("warning", name, f"games last {ratio.estimate:.1f} "
                          f"({ratio.low:.1f}..{ratio.high:.1f}) times as long as "
                          f"{base_name}'s (threshold {LENGTH_RATIO:g})", evidence, look_at)


def _per_seat(stats: GameStats, seats: int, within: tuple[float, float]) -> Interval:
    moves = _moves(stats, within)
    return Interval(moves.estimate / seats, moves.low / seats, moves.high / seats, moves.n)


def _too_short(stats: GameStats, look_at: tuple[str, ...], seats: int,
               moves: tuple[float, float]) -> tuple[Check, Finding | None] | None:
    """The greedy games' moves per seat against :data:`SHORTEST_MOVES`: a warning when wholly
    below, an undecided check when the interval holds it, ``None`` when wholly above (or too
    few games to say)."""
    if stats.greedy_games < ENOUGH_GAMES:
        return None
    per_seat = _per_seat(stats, seats, moves)
    verdict = decide(per_seat, SHORTEST_MOVES)
    if verdict.outcome == "pass":
        return None
    evidence = (f"{per_seat.estimate:.1f} moves per seat ({per_seat.low:.1f}.."
                f"{per_seat.high:.1f}) over {count_of(stats.greedy_games, 'greedy game')}")
    check = Check("duration_moves", True, evidence)
    if verdict.outcome == "undecided":
        return _undecided(check, verdict, stats), None
    return check, Finding(
        "warning", "duration_moves", f"games end after {per_seat.estimate:.1f} moves per seat, "
        f"below the floor of {SHORTEST_MOVES:g}: over before the rules come into play",
        evidence, look_at)


def _ratio(here: Interval, there: Interval) -> Interval:
    """``here / there`` of two independent mean lengths, its ends from the ends of each
    (conservative: the ratio's interval is at least as wide as the two together justify)."""
    def over(top: float, bottom: float) -> float:
        return top / max(bottom, 1e-9)
    return Interval(over(here.estimate, there.estimate), over(here.low, there.high),
                    over(here.high, there.low), here.n)


def _moves(stats: GameStats, within: tuple[float, float] = COUNT) -> Interval:
    """The greedy games' ``duration_moves``, kept ``within`` the range a game's moves take;
    from their mean alone when the lengths are not kept (a point interval)."""
    if stats.greedy_lengths:
        return duration(stats.greedy_lengths, within)
    mean = stats.greedy_mean_moves
    return Interval(mean, mean, mean, stats.greedy_games)


PLAY_SHAPING = ("build_ceiling", "wild_ranks", "wild_excluded", "max_build_piles",
                "completed_piles", "hand_size", "discard_piles", "discard_forbidden",
                "max_discard_cards", "mandatory_ranks", "packs", "jokers")
"""Parameters whose values act on each other in play: a changed one is judged together with
each of the others."""


def unusual(changed: Mapping[str, Any], current: Mapping[str, Any],
            usual: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """Changed parameters that no built-in configuration uses so, each an ``info`` finding:
    where to look, not a fault (a new idea is unusual by definition).

    A changed value no built-in uses is an "unusual value", or for a play-shaping parameter
    (:data:`PLAY_SHAPING`) an "unusual combination"; a play-shaping value that built-ins use
    only with other values of the other play-shaping parameters than ``current`` has is an
    "unusual combination" too.  What the games give as evidence against a configuration is
    judged by :func:`judge` (completion, balance, game length) and by the checked games (a
    stuck seat), each of which names the changed parameters to look at.
    """
    findings = []
    for key, value in changed.items():
        users = [config for config in usual if config.get(key) == value]
        if not users:
            seen = "; ".join(_show(v) for v in sorted({config.get(key) for config in usual},
                                                      key=_in_order))
            name = "unusual combination" if key in PLAY_SHAPING else "unusual value"
            findings.append(Finding("info", name, f"{key} = {_show(value)} is used by no "
                                    f"built-in rule set (they use {seen})", parameters=(key,)))
            continue
        if key not in PLAY_SHAPING:
            continue
        for other in PLAY_SHAPING:
            if other != key and not any(c.get(other) == current.get(other) for c in users):
                findings.append(Finding(
                    "info", "unusual combination",
                    f"no built-in rule set has {key} = {_show(value)} together with "
                    f"{other} = {_show(current.get(other))}", parameters=(key, other)))
    return findings


def _show(value: Any) -> str:
    """A parameter's value as the field is written (``--set``, the report's changed
    parameters): a rank set as its sorted numbers (``0,13``; ``none``), ``unlimited``,
    ``true``/``false``."""
    return format_value(value)


def _in_order(value: Any) -> tuple[int, Any]:
    """A sort key for the values of one parameter: numbers by size, rank sets by their
    sorted ranks, text alphabetically, ``None`` (``unlimited``) last."""
    if value is None:
        return (2, 0)
    if isinstance(value, frozenset):
        return (0, tuple(sorted(value)))
    return (1, str(value)) if isinstance(value, str) else (0, (value,))


def _rate(rate: Any) -> str:
    if not rate.n:  # no game behind it: not 0%
        return "not measured (no games)"
    return f"{rate.estimate:.1%}, 95% CI {rate.low:.1%}-{rate.high:.1%}"
