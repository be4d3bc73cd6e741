"""Judging a rule set's play from its simulated games: the warnings of ``spitemalice
validate``.

Every threshold is a constant here and is documented in ``docs/variants.md`` ("What validate
judges").  The judgement rests on the games in which every seat was a greedy player: random
players end most games of any rule set without a winner, so their games say little about the
rules.  Finding names follow the game-quality metrics' words: drawn rate (completion rate),
balance, duration, decisiveness, unusual combination.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from spitemalice.rulebook import RuleBook
from spitemalice.stats import wilson

from .report import Check, Finding, GameStats, Level, skip

DRAWN_LIMIT = 0.5
"""Warn when the 95% Wilson interval of the share of greedy games without a winner lies wholly
above this: most games of the rule set end as a drawn hand or blocked."""

BALANCE_BAND = 0.15
"""Warn when a turn position's share of the greedy games' wins has a 95% interval wholly
outside fair (one over the seats) plus or minus this."""

LENGTH_RATIO = 2.0
"""Warn when greedy games last on average more than this many times as long as the base rule
set's."""

ENOUGH_GAMES = 20
"""Fewer greedy games than this (or won games, for balance) make a judgement a ``skip``."""

Justified = Mapping[str, str]
"""A plugin's ``VALIDATE_EXPECTS``: finding name -> the clause of its sheet that explains why
the finding is expected (it is then reported as info)."""


def judge(book: RuleBook, stats: GameStats, base: GameStats | None,
          changed: Mapping[str, Any], usual: Sequence[Mapping[str, Any]],
          justified: Justified) -> tuple[list[Check], list[Finding]]:
    """Checks that record which judgements ran, and the findings.

    Args:
        book: the configuration judged.
        stats: its games.
        base: the base rule set's greedy games (``None`` when the configuration is the base).
        changed: parameters whose value differs from the base rule set's, with their values.
        usual: the parameters of every built-in configuration (rule set, rule set + one house
            rule).
        justified: findings the rule sheet expects (see :data:`Justified`).
    """
    checks: list[Check] = []
    findings: list[Finding] = []
    look_at = tuple(changed)
    for judged in (_drawn(stats, look_at), _decisive(stats, look_at),
                   _balance(stats), _duration(stats, base, look_at)):
        check, finding = judged
        if finding is not None:
            finding = _justify(book, finding, justified)
            findings.append(finding)
            check = attrs.evolve(check, warned=finding.level == "warning")
        checks.append(check)
    findings += unusual(changed, book.parameters(), usual)
    return checks, findings


def _justify(book: RuleBook, finding: Finding, justified: Justified) -> Finding:
    clause_id = justified.get(finding.name)
    if finding.level != "warning" or clause_id is None:
        return finding
    try:
        book.clause(clause_id)
    except KeyError:
        return finding
    return Finding("info", finding.name, f"{finding.message} (expected: clause {clause_id})",
                   finding.evidence, finding.parameters, finding.rate)


def _drawn(stats: GameStats, look_at: tuple[str, ...]) -> tuple[Check, Finding | None]:
    name = "drawn rate"
    n = stats.greedy_games
    if n < ENOUGH_GAMES:
        return skip(name, f"{n} games by greedy seats, {ENOUGH_GAMES} needed"), None
    drawn = n - stats.greedy_outcomes.get("win", 0)
    rate = wilson(drawn, n)
    evidence = f"{drawn} of {n} greedy games without a winner, {_rate(rate)}"
    check = Check(name, True, evidence)
    if rate.low <= DRAWN_LIMIT:
        return check, None
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(stats.greedy_outcomes.items())
                      if kind != "win")
    return check, Finding(
        "warning", name, f"the drawn rate is {rate.estimate:.1%}, above the "
        f"{DRAWN_LIMIT:.0%} threshold ({kinds})", evidence, look_at, rate)


def _decisive(stats: GameStats, look_at: tuple[str, ...]) -> tuple[Check, Finding | None]:
    name = "decisiveness"
    if stats.games < ENOUGH_GAMES * 5:
        return skip(name, f"{stats.games} clean games, {ENOUGH_GAMES * 5} needed to say no "
                          "seat ever wins"), None
    wins = stats.outcomes.get("win", 0)
    evidence = f"{wins} of {stats.games} games won, {_rate(wilson(wins, stats.games))}"
    if wins:
        return Check(name, True, evidence), None
    return Check(name, True, evidence), Finding(
        "warning", name, "no seat ever wins: can these rules be won at all?", evidence,
        look_at, wilson(wins, stats.games))


def _balance(stats: GameStats) -> tuple[Check, Finding | None]:
    name = "balance"
    won = sum(stats.wins_by_position)
    if won < ENOUGH_GAMES:
        return skip(name, f"{won} greedy games won, {ENOUGH_GAMES} needed"), None
    seats = len(stats.wins_by_position)
    fair = 1 / seats
    rates = [wilson(w, won) for w in stats.wins_by_position]
    figure = ", ".join(f"position {p + 1} {r.estimate:.0%}" for p, r in enumerate(rates))
    check = Check(name, True, f"wins by turn position in {won} greedy games: {figure}")
    for position, rate in enumerate(rates):
        if rate.high < fair - BALANCE_BAND or rate.low > fair + BALANCE_BAND:
            word = "first" if position == 0 else f"number {position + 1}"
            return check, Finding(
                "warning", name, f"the seat moving {word} wins {rate.estimate:.1%} of games, "
                f"fair is {fair:.0%} (band +-{BALANCE_BAND:.0%})",
                f"{stats.wins_by_position[position]} of {won} wins, {_rate(rate)}",
                ("first_seat",), rate)
    return check, None


def _duration(stats: GameStats, base: GameStats | None,
              look_at: tuple[str, ...]) -> tuple[Check, Finding | None]:
    name = "duration"
    if base is None:
        return skip(name, "this is the base rule set: nothing to compare with"), None
    if stats.greedy_games < ENOUGH_GAMES or base.greedy_games < ENOUGH_GAMES:
        return skip(name, f"{stats.greedy_games} greedy games here and {base.greedy_games} of "
                          f"the base rule set, {ENOUGH_GAMES} needed"), None
    ratio = stats.greedy_mean_moves / max(base.greedy_mean_moves, 1e-9)
    evidence = (f"mean {stats.greedy_mean_moves:.0f} moves over {stats.greedy_games} greedy "
                f"games, base {base.greedy_mean_moves:.0f} over {base.greedy_games}")
    check = Check(name, True, evidence)
    if ratio <= LENGTH_RATIO:
        return check, None
    return check, Finding("warning", name, f"games last {ratio:.1f} times as long as the base "
                          f"rule set's (threshold {LENGTH_RATIO:g})", evidence, look_at)


PLAY_SHAPING = ("build_ceiling", "wild_ranks", "wild_excluded", "max_build_piles",
                "completed_piles", "hand_size", "discard_piles", "discard_forbidden",
                "max_discard_cards", "mandatory_ranks", "packs", "jokers")
"""Parameters whose values act on each other in play: a changed one is judged together with
each of the others."""


def unusual(changed: Mapping[str, Any], current: Mapping[str, Any],
            usual: Sequence[Mapping[str, Any]]) -> list[Finding]:
    """Changed parameters that no built-in configuration uses so.

    A changed play-shaping parameter (:data:`PLAY_SHAPING`) whose value no built-in uses, or
    uses only with other values of the play-shaping parameters than ``current`` has, is a
    ``warning`` ("unusual combination"); any other changed value no built-in uses is ``info``.
    """
    findings = []
    for key, value in changed.items():
        users = [config for config in usual if config.get(key) == value]
        if not users:
            seen = ", ".join(sorted({_show(config.get(key)) for config in usual}))
            level: Level = "warning" if key in PLAY_SHAPING else "info"
            name = "unusual combination" if key in PLAY_SHAPING else "unusual value"
            findings.append(Finding(level, name, f"{key} = {_show(value)} is used by no "
                                    f"built-in rule set (they use {seen})", parameters=(key,)))
            continue
        if key not in PLAY_SHAPING:
            continue
        for other in PLAY_SHAPING:
            if other != key and not any(c.get(other) == current.get(other) for c in users):
                findings.append(Finding(
                    "warning", "unusual combination",
                    f"no built-in rule set has {key} = {_show(value)} together with "
                    f"{other} = {_show(current.get(other))}", parameters=(key, other)))
    return findings


def _show(value: Any) -> str:
    if isinstance(value, frozenset):
        return "{" + ", ".join(map(str, sorted(value))) + "}"
    return str(value)


def _rate(rate: Any) -> str:
    return f"{rate.estimate:.1%}, 95% CI {rate.low:.1%}-{rate.high:.1%}"
