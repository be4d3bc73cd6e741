"""What ``spitemalice tune`` searches and aims at: the parameters it varies (:class:`Param`),
the targets it judges a candidate by (:class:`Target`) and how one candidate's games are
measured against them (:func:`measure`).

The metrics, each with the interval :mod:`spitemalice.measures` gives it:

* ``completion``: the share of self-play games won (not drawn, blocked or stopped by the turn
  limit), Wilson 95% interval (:func:`~spitemalice.measures.rates.wilson`);
* ``first-seat``: the first seat's (first team's) share of the self-play games with a winner,
  Wilson; the value ``fair`` stands for the fair share, one over the number of sides;
* ``turns``: the median self-play game length in turns, with its distribution-free interval
  (:func:`~spitemalice.study.balance.quantile`), within 0 to the candidate's turn limit;
* ``skill``: the strong bot's share of the games with a winner against the weak bot on
  duplicate deals with the sides swapped (:mod:`~spitemalice.study.pairs`), Wilson.

A target is ``METRIC=VALUE±TOL`` (or ``+-TOL``: within that much; the tolerance above 0, since
an interval never lies within a single value), ``METRIC>=VALUE`` or ``METRIC<=VALUE``; rates
are written as shares (``0.95``) or percentages (``95%``), turns as at most
:data:`MOST_DIGITS` digits before the point (as a ``--param`` range's ends).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import attrs

from spitemalice.engine.coverage import Tally
from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.guards import check_jobs, check_real, check_seed, int_field, real_field
from spitemalice.measures.interval import Interval, length_ranges
from spitemalice.measures.rates import wilson
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.ruleset import (
    FIELD_NAMES,
    IDENTITY_FIELDS,
    Ruleset,
    closest,
    convert_param,
)
from spitemalice.runs.runner import GameRow, configuration, play_games
from spitemalice.study.balance import _positions, quantile
from spitemalice.study.pairs import PairTally, pair_configs, table_of
from spitemalice.study.tournament import tournament_sides
from spitemalice.wording import shown

METRICS = ("completion", "first-seat", "turns", "skill")
"""The metrics a target may name."""

RATES = frozenset({"completion", "first-seat", "skill"})
"""The metrics that are shares of games (0..1)."""

MOST_DIGITS = 6
"""Digits a target's value or tolerance may have before its decimal point: a game lasts far
fewer turns, and a value of hundreds of digits would be taken as ``inf``."""

SCALE = {"completion": 0.05, "first-seat": 0.05, "skill": 0.05, "turns": 0.1}
"""How far outside a target counts as one unit of miss when the target gives no tolerance:
five points of a share; a tenth of the target for turns."""


@attrs.frozen
class Param:
    """A parameter the search varies: whole numbers ``low..high``, or one of ``choices``
    (values as ``--set`` takes them); or one that follows another, ``high`` less the value
    of parameter ``minus`` (a fixed total: ``draw_pack=52-jokers``).

    Raises:
        SpiteMaliceError: ``low`` or ``high`` a whole number past
            :data:`~spitemalice.limits.MAX_INT` in size.
    """

    name: str
    low: int = attrs.field(default=0, validator=int_field())
    high: int = attrs.field(default=0, validator=int_field())
    choices: tuple[str, ...] = ()
    minus: str = ""

    def highest(self) -> int | None:
        """The largest whole number it takes (a range's high end, the largest whole-number
        choice), or ``None`` for a parameter that follows another or has no whole choice."""
        if self.minus:
            return None
        if not self.choices:
            return self.high
        whole = [int(choice) for choice in self.choices if choice.isdigit()]
        return max(whole) if whole else None

    def text(self) -> str:
        """As ``--param`` gives it."""
        if self.minus:
            return f"{self.name}={self.high}-{self.minus}"
        return (f"{self.name}={'|'.join(self.choices)}" if self.choices
                else f"{self.name}={self.low}..{self.high}")


def parse_param(text: str) -> Param:
    """``NAME=LOW..HIGH`` (whole numbers), ``NAME=A|B|...`` (values as ``--set`` takes), or
    ``NAME=TOTAL-OTHER`` (``TOTAL`` less the value of the varied parameter ``OTHER``).

    Raises:
        SpiteMaliceError: another form, an unknown or identity parameter (with the closest name),
            a range whose low end is above its high end, or a value ``--set`` would refuse.
    """
    name, sep, value = (part.strip() for part in text.partition("="))
    valid = [n for n in FIELD_NAMES if n not in IDENTITY_FIELDS]
    if not sep or not name or not value:
        raise SpiteMaliceError(f"--param is NAME=LOW..HIGH or NAME=A|B, not {shown(text)}")
    if name not in valid:
        raise SpiteMaliceError(f"--param: unknown parameter {shown(name)}"
                               f"{closest(name, valid)}; `spitemalice rules NAME` lists them")
    span = re.fullmatch(r"(-?\d{1,6})\.\.(-?\d{1,6})", value)
    if span:
        low, high = int(span[1]), int(span[2])
        if low > high:
            raise SpiteMaliceError(f"--param {name}: the low end {low} is above the high end "
                                   f"{high}; write {name}={high}..{low}")
        _check_range(name, low, high)
        return Param(name, low, high)
    follows = re.fullmatch(r"(\d{1,6})-([a-z_]+)", value)
    if follows:
        return Param(name, high=int(follows[1]), minus=follows[2])
    if re.fullmatch(r"-?\d+\.\.-?\d+", value):
        raise SpiteMaliceError(f"--param {name}: a range's ends are whole numbers of at most 6 "
                               f"digits, not {shown(value)}")
    choices = tuple(c.strip() for c in value.split("|"))
    if len(choices) < 2 or not all(choices):
        raise SpiteMaliceError(f"--param {name}: give a range LOW..HIGH of whole numbers or "
                               f"two or more values A|B, not {shown(value)}")
    values = []
    for choice in choices:  # each value as --set reads it, before any game (try-out s41)
        try:
            values.append(convert_param(name, choice))
            refusal = _refusal(name, values[-1])
        except RulesetError as error:
            refusal = str(error)
        if refusal:
            raise SpiteMaliceError(f"--param {name}: {shown(choice)} is no value of {name}: "
                                   f"{refusal}")
    for taken in values:  # K|13 is one value twice: a choice of one
        same = [c for c, v in zip(choices, values, strict=True) if v == taken]
        if len(same) > 1:
            raise SpiteMaliceError(f"--param {name}: {' and '.join(map(shown, same))} are the "
                                   f"same value of {name}: give each value once")
    return Param(name, choices=choices)


def _refusal(name: str, value: Any) -> str:
    """Why the rule set refuses ``value`` for parameter ``name`` on its own (its field's
    range, before the checks between parameters), else ``""``."""
    field = attrs.fields_dict(Ruleset)[name]
    try:
        if field.validator is not None:
            field.validator(None, field, value)
    except RulesetError as error:
        return str(error)
    return ""


def _check_range(name: str, low: int, high: int) -> None:
    """Refuse a range ``low..high`` with a value the rule set refuses for ``name`` on its
    own: every trial there would be refused, and no game played (try-out).  A field's range
    is one span, so the ends tell; the refused part is then found value by value."""
    try:
        convert_param(name, str(low))
    except RulesetError as error:  # not a whole-number parameter
        raise SpiteMaliceError(f"--param {name}: {name} takes no range of whole numbers "
                               f"({error}); give values A|B") from None
    refusal = _refusal(name, convert_param(name, str(low))) or _refusal(
        name, convert_param(name, str(high)))
    if not refusal:
        return
    allowed = [v for v in range(low, high + 1)
               if not _refusal(name, convert_param(name, str(v)))]
    if not allowed:
        raise SpiteMaliceError(f"--param {name}={low}..{high}: no value in it is allowed "
                               f"({refusal}): give a range of allowed values")
    raise SpiteMaliceError(f"--param {name}={low}..{high}: only {allowed[0]}..{allowed[-1]} "
                           f"of it is allowed ({refusal}): give a range within "
                           f"{allowed[0]}..{allowed[-1]}")


@attrs.frozen
class Target:
    """A stated aim: ``metric`` ``op`` ``value`` (``op`` is ``=`` with ``tol``, ``>=`` or
    ``<=``); ``value`` ``None`` for ``first-seat=fair``.

    Raises:
        SpiteMaliceError: ``value`` or ``tol`` a number past :data:`~spitemalice.limits.MAX_REAL` in
            size.
    """

    metric: str
    op: str
    value: float | None = attrs.field(validator=real_field())
    tol: float = attrs.field(default=0.0, validator=real_field())

    def text(self) -> str:
        """As ``--target`` gives it (``turns=75+-15``)."""
        value = "fair" if self.value is None else f"{self.value:g}"
        return f"{self.metric}{self.op}{value}" + (f"+-{self.tol:g}" if self.op == "=" else "")

    def band(self, fair: float) -> tuple[float, float]:
        """The values that meet the target (``fair``: the fair share of ``first-seat``).

        Raises:
            SpiteMaliceError: ``fair`` no number from 0 to 1.
        """
        fair = _fair(fair, "Target.band")
        value = fair if self.value is None else self.value
        if self.op == ">=":
            return value, math.inf
        if self.op == "<=":
            return -math.inf, value
        return value - self.tol, value + self.tol

    def verdict(self, interval: Interval, fair: float) -> str:
        """``pass`` when the interval lies wholly in the band, ``fail`` when wholly outside,
        else ``undecided`` (design notes §10: verdicts have three values).

        Raises:
            SpiteMaliceError: ``fair`` no number from 0 to 1.
        """
        low, high = self.band(_fair(fair, "Target.verdict"))
        if not interval.n:
            return "undecided"
        if low <= interval.low and interval.high <= high:
            return "pass"
        if interval.high < low or interval.low > high:
            return "fail"
        return "undecided"

    def miss(self, estimate: float, fair: float) -> float:
        """How far ``estimate`` lies outside the band, in units of the tolerance (or of
        :data:`SCALE` when the target gives none).

        Raises:
            SpiteMaliceError: ``fair`` no number from 0 to 1, or ``estimate`` a whole
                number past :data:`~spitemalice.limits.MAX_REAL` in size (a float is taken
                as it is).
        """
        if type(estimate) is not float:
            estimate = check_real(estimate, "Target.miss's estimate")
        low, high = self.band(_fair(fair, "Target.miss"))
        gap = max(0.0, low - estimate, estimate - high)
        unit = self.tol or SCALE[self.metric] * (1 if self.metric in RATES
                                                 else abs(self.value or 1))
        return gap / unit


_TARGET = re.compile(r"([a-z-]+)\s*(>=|<=|=)\s*([0-9.]+%?|fair)\s*(?:(?:±|\+-)\s*([0-9.]+%?))?")
_NUMBER = re.compile(rf"(\d{{1,{MOST_DIGITS}}}(\.\d*)?|\.\d+)%?")


def _fair(fair: float, function: str) -> float:
    """``fair`` when it is a share 0 to 1 (a float quickly: the search's own)."""
    if type(fair) is float and 0 <= fair <= 1:
        return fair
    return check_real(fair, f"{function}'s fair", 0.0, 1.0, what="a share")


def parse_target(text: str) -> Target:
    """``METRIC=VALUE[±TOL]``, ``METRIC>=VALUE`` or ``METRIC<=VALUE``.

    Raises:
        SpiteMaliceError: another form, an unknown metric (with the closest), a rate outside 0..1,
            ``fair`` for another metric than ``first-seat``, a tolerance with ``>=``/``<=``,
            ``=`` without a tolerance or with a tolerance of 0 (it could never pass), or a
            number of more than :data:`MOST_DIGITS` digits before its point.
    """
    found = _TARGET.fullmatch(text.strip())
    if not found:
        raise SpiteMaliceError(f"--target is METRIC=VALUE[+-TOL], METRIC>=VALUE or "
                               f"METRIC<=VALUE (metrics: {', '.join(METRICS)}), not "
                               f"{shown(text)}")
    metric, op, value, tol = found.groups()
    if metric not in METRICS:
        raise SpiteMaliceError(f"--target: unknown metric {shown(metric)}"
                               f"{closest(metric, list(METRICS))}; choose from "
                               f"{', '.join(METRICS)}")
    if value == "fair" and metric != "first-seat":
        raise SpiteMaliceError(f"--target {metric}: 'fair' is a value of first-seat only")
    if tol is not None and op != "=":
        raise SpiteMaliceError(f"--target {metric}: a tolerance goes with =, not {op}")
    number = None if value == "fair" else _amount(metric, value)
    within = 0.0 if tol is None else _amount(metric, tol)
    if op == "=" and not within > 0:
        example = "0.05" if metric in RATES else f"{max(1.0, (number or 0) * 0.1):g}"
        raise SpiteMaliceError(
            f"--target {shown(text.strip())}: = needs a tolerance above 0, "
            f"{metric}={value}+-{example} say, or a bound ({metric}>={value}): a measured "
            "interval has a width, so it never lies within a single value and the target "
            "could never pass")
    return Target(metric, op, number, within)


def _amount(metric: str, text: str) -> float:
    if not _NUMBER.fullmatch(text):
        raise SpiteMaliceError(f"--target {metric}: {shown(text)} is no number of at most "
                               f"{MOST_DIGITS} digits before its point (a game lasts fewer "
                               "turns)")
    try:
        amount = float(text.rstrip("%")) / (100 if text.endswith("%") else 1)
    except ValueError:
        raise SpiteMaliceError(f"--target {metric}: {shown(text)} is no number") from None
    if metric in RATES and not 0 <= amount <= 1:
        raise SpiteMaliceError(f"--target {metric}: a share is 0..1 (or 0%..100%), not "
                               f"{shown(text)}")
    return amount


@attrs.frozen
class Measured:
    """One candidate's games measured: each metric's interval, the fair share, the games
    played (self-play and skill) and the rule coverage of the self-play games (when
    recorded).

    Raises:
        SpiteMaliceError: ``fair`` a number outside 0 to 1, or ``games`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    metrics: dict[str, Interval]
    fair: float = attrs.field(validator=real_field(0.0, 1.0))
    games: int = attrs.field(validator=int_field(0))
    coverage: Tally | None = None
    interrupted: bool = False
    # What a later batch adds to (measure(..., earlier=)): the self-play rows and the skill
    # deals' tables; not kept in the journal, which keeps the figures.
    rows: tuple[GameRow, ...] = attrs.field(default=(), eq=False, repr=False)
    deals: tuple[Any, ...] = attrs.field(default=(), eq=False, repr=False)

    def verdicts(self, targets: Sequence[Target]) -> list[str]:
        """Each target's verdict."""
        return [t.verdict(self.metrics[t.metric], self.fair) for t in targets]

    def loss(self, targets: Sequence[Target]) -> float:
        """The sum of the squared misses of the estimates: 0 when every estimate meets its
        target; what the search minimises."""
        return sum(t.miss(self.metrics[t.metric].estimate, self.fair) ** 2 for t in targets)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: each metric as ``{"estimate", "low", "high", "n"}``."""
        return {"metrics": {k: v.as_dict() for k, v in self.metrics.items()},
                "fair": self.fair, "games": self.games}


@attrs.frozen
class Plan:
    """How a candidate is played: the self-play bot, the skill pair, the metrics needed."""

    bot: str
    strong: str
    weak: str
    metrics: frozenset[str]


def measure(rules: RuleBook, plan: Plan, games: range, seed: int, jobs: int | None = 1,
            client: Any = None, coverage: bool = False,
            earlier: Measured | None = None) -> Measured:
    """Play games ``games`` of ``plan.bot`` in every seat of ``rules`` (and, when ``skill`` is
    measured, the same deals twice with ``plan.strong`` against ``plan.weak``, sides swapped)
    from run seed ``seed``, and measure every metric of :data:`METRICS`; with ``earlier``
    (this candidate's games before ``games``, measured the same way), over both, so that a
    second batch plays only its own games.

    Raises:
        TypeError: ``rules`` is no rule book.
        SpiteMaliceError: an unknown bot, or teams that cannot seat two bots fairly; ``seed``
            not a whole number from 0 to :data:`~spitemalice.limits.MAX_SEED`, or ``jobs``
            not ``None`` or one from 1 to :data:`~spitemalice.limits.MAX_JOBS`.
    """
    check_book(rules, "measure")
    check_seed(seed)
    check_jobs(jobs)
    own = configuration(rules, [plan.bot])
    run = play_games([own], seed, games, None, jobs, client, coverage)
    rows = (*(earlier.rows if earlier else ()), *run.rows[0])
    deals = list(earlier.deals if earlier else ())
    sides = tournament_sides(rules)
    played = len(run.rows[0]) + (earlier.games if earlier else 0)
    interrupted = run.interrupted
    if "skill" in plan.metrics and not interrupted:
        pair = play_games(list(pair_configs(rules, plan.strong, plan.weak)), seed, games,
                          None, jobs, client)
        deals += [(table_of(rules, one), table_of(rules, two))
                  for one, two in zip(*pair.rows, strict=True)]
        played += 2 * len(pair.rows[0])
        interrupted = pair.interrupted
    tally = PairTally(plan.strong, plan.weak)
    for deal in deals:
        tally.add_deal(list(deal))
    metrics = _metrics(rows, sides, tally, length_ranges(rules.ruleset.turn_limit)[0])
    return Measured(metrics, 1 / len(sides), played, run.coverage[0] if coverage else None,
                    interrupted, rows, tuple(deals))


def _metrics(rows: Sequence[GameRow], sides: tuple[tuple[int, ...], ...],
             tally: PairTally, turns: tuple[float, float]) -> dict[str, Interval]:
    """Each metric of :data:`METRICS`; the median game's interval within ``turns``, the range
    a game's turns can take (0 to the turn limit)."""
    won = sum(row.outcome == "win" for row in rows)
    return {"completion": wilson(won, len(rows)),
            "first-seat": _positions(rows, sides)[0],
            "turns": quantile(sorted(row.turns for row in rows), 0.5, within=turns),
            "skill": tally.rate}
