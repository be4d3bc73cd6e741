"""A balance report for one configuration (``spitemalice balance``): is it fair, does skill
matter.

Two sets of games, both on seeds derived from the run seed, so equal arguments give an equal
report under any backend:

* **Self-play** of one bot (the strongest tier by default) in every seat: each turn
  position's share of the games with a winner (the side that moves first, the next, ...; a
  side is a seat, or a team under a partnership rule), games without a winner by how they
  ended, and the distribution of game length in turns.  Turn positions, not seat numbers,
  because a seeded cut picks the first seat (as :mod:`spitemalice.measures.metrics` compares
  them).
* **The skill matrix**: every two bot tiers on duplicate deals with the sides swapped
  (:mod:`spitemalice.study.pairs`); each cell is the stronger tier's share of the games with a
  winner, with its Wilson 95% interval (fair: 50%).  This is the Tabletop Games framework's
  skill-depth view (Goodman et al., "Design and Implementation of TAG", 2020) on Spite and
  Malice's bots.

The **skill gradient** is how much more the stronger of the two top tiers wins here than under
the *base* configuration (the rule set without its house rules; for a bare rule set,
blackwood-frey at the same seats): the difference of the mean per-deal values (the stronger
tier's wins above half of a deal's games), with a 95% interval that treats the two
configurations as independent samples (a house rule that changes the deck deals other cards
from the same seed, so the deals are not paired).  Positive: skill matters more here.

**Rule coverage** (:mod:`spitemalice.study.balance_coverage`): which clauses of the rule sheet
the first self-play games exercised (:data:`COVERAGE_GAMES` by default); a clause none of them
exercised is one the report says nothing about.

The :func:`~spitemalice.study.balance_verdicts.verdicts` put the figures into sentences, each
with its evidence.
"""

from __future__ import annotations

import math
import numbers
from collections import Counter
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

import attrs

from spitemalice.engine.coverage import Tally
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_jobs, check_list, check_seed, int_field, real_field
from spitemalice.limits import MAX_GAMES
from spitemalice.measures.checks import check_within, check_z
from spitemalice.measures.interval import (
    COUNT,
    SHARE_CHANGE,
    Z95,
    Interval,
    bounded,
    length_ranges,
)
from spitemalice.measures.means import mean_interval
from spitemalice.measures.rates import wilson
from spitemalice.measures.shape import row_metrics, skill_over_chance
from spitemalice.model import OUTCOME_KINDS
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.ruleset import seats_field
from spitemalice.runs.game_shape import PROBE_GAMES
from spitemalice.runs.runner import Configuration, GameRow, Run, configuration, play_games
from spitemalice.study.balance_coverage import BalanceCoverage, measured
from spitemalice.study.balance_verdicts import verdicts
from spitemalice.study.pairs import PairTally, pair_configs, table_of
from spitemalice.study.tournament import tournament_sides
from spitemalice.wording import given_text, shown

TIERS = ("random", "greedy", "heuristic")
"""The default bot tiers, weakest first: cheap enough for thousands of games."""

COVERAGE_GAMES = 500
"""Self-play games whose rule coverage is counted by default (the first ones): a clause none of
them exercised comes up in fewer than 3 in 500 games (the rule of three, 95%), too rarely to
move the report's figures, and counting more costs CPU time for little (docs/studying.md)."""

QUANTILES = (0.05, 0.25, 0.5, 0.75, 0.95)
"""The game-length quantiles reported."""


@attrs.frozen
class Quantile:
    """A quantile of game length with a distribution-free 95% interval (order statistics:
    the ranks a binomial count of values below the quantile reaches, Conover,
    *Practical Nonparametric Statistics*, section 3.2).

    Raises:
        SpiteMaliceError: ``share`` a number outside 0 to 1.
    """

    share: float = attrs.field(validator=real_field(0.0, 1.0))
    value: Interval


@attrs.frozen
class Baseline:
    """What the skill gradient needs of the base configuration: its label, tiers and the
    per-deal gain of each pair (:attr:`spitemalice.study.pairs.PairTally.gain`)."""

    label: str
    tiers: tuple[str, ...]
    gains: tuple[Interval, ...]

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Baseline:
        """The baseline of a report's :meth:`Balance.as_dict`."""
        return cls(data["label"], tuple(data["tiers"]),
                   tuple(Interval(**{**pair["gain"], "estimate": pair["gain"]["estimate"] or 0.0})
                         for pair in data["matrix"]))  # no game: a null estimate


@attrs.frozen
class Balance:
    """The report.

    Attributes:
        label: the configuration (``blackwood-frey + mandatory-aces``).
        players: seats.
        tiers: the bots, weakest first.
        reference: the self-play bot.
        games: self-play games played.
        deals: deals per pair of the skill matrix.
        positions: each turn position's share of the games with a winner (the side that
            moved first first), Wilson.
        fair: every position's share in a fair game (``1 / sides``).
        outcomes: each outcome kind's share of the self-play games, Wilson.
        turns: mean turns per game, Student's t interval.
        quantiles: game-length quantiles in turns.
        lengths: turns per game -> games (the distribution).
        matrix: every pair of tiers as (stronger, weaker): ``a`` is the stronger tier.
        base: the base configuration's label, or ``None`` when this is the base.
        gradient: per pair of :attr:`matrix`, the change of the stronger tier's per-deal
            gain from the base; empty without a base.
        interrupted: Ctrl-C stopped the games.
        coverage: the rule coverage of the first self-play games, or ``None`` when it was
            not recorded.
        fresh: the same study on a fresh seed set (:mod:`spitemalice.study.fresh`), whose
            verdicts must agree for :func:`verdicts` to state one; ``None`` when not played.
        shape: the designer metrics of the self-play games
            (:func:`~spitemalice.measures.shape.row_metrics`; ``mattered`` probes the first
            :data:`~spitemalice.runs.game_shape.PROBE_GAMES`).

    Raises:
        SpiteMaliceError: ``players`` a whole number outside 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`, ``games`` or ``deals`` one outside 0 to
            :data:`~spitemalice.limits.MAX_INT`, or ``fair`` a number outside 0 to 1.
    """

    label: str
    players: int = attrs.field(validator=seats_field())
    tiers: tuple[str, ...]
    reference: str
    games: int = attrs.field(validator=int_field(0))
    deals: int = attrs.field(validator=int_field(0))
    positions: tuple[Interval, ...]
    fair: float = attrs.field(validator=real_field(0.0, 1.0))
    outcomes: dict[str, Interval]
    turns: Interval
    quantiles: tuple[Quantile, ...]
    lengths: dict[int, int]
    matrix: tuple[PairTally, ...]
    base: str | None = None
    gradient: tuple[Interval, ...] = ()
    interrupted: bool = False
    coverage: BalanceCoverage | None = None
    fresh: Balance | None = None
    shape: dict[str, Interval] = attrs.field(factory=dict)

    def baseline(self) -> Baseline:
        """This report as the base of another's skill gradient."""
        return Baseline(self.label, self.tiers, tuple(pair.gain for pair in self.matrix))

    @property
    def top(self) -> PairTally:
        """The pair of the two strongest tiers."""
        return next(t for t in self.matrix if (t.b, t.a) == self.tiers[-2:])

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data (every interval as ``{"estimate", "low", "high", "n"}``); a
        ``coverage`` key (:meth:`BalanceCoverage.as_dict`) when coverage was recorded."""
        top = self.matrix.index(self.top)
        covered = {} if self.coverage is None else {"coverage": self.coverage.as_dict()}
        return {
            "label": self.label, "players": self.players, "tiers": list(self.tiers),
            "reference": self.reference, "games": self.games, "deals": self.deals,
            "fair": self.fair, "positions": [p.as_dict() for p in self.positions],
            "outcomes": {kind: i.as_dict() for kind, i in self.outcomes.items()},
            "turns": self.turns.as_dict(2),
            "quantiles": [{"share": q.share, **q.value.as_dict(1)} for q in self.quantiles],
            "lengths": {str(k): v for k, v in sorted(self.lengths.items())},
            "matrix": [t.as_dict() for t in self.matrix],
            "base": self.base,
            "gradient": [g.as_dict() for g in self.gradient],
            "top_pair": top, "verdicts": verdicts(self), "interrupted": self.interrupted,
            "skill_over_chance": skill_over_chance(self.top.rate).as_dict(),
            "designer_metrics": {name: i.as_dict() for name, i in self.shape.items()},
            **covered, **({"fresh": self.fresh.as_dict()} if self.fresh is not None else {}),
        }


def balance(rules: RuleBook, label: str, tiers: Sequence[str] = TIERS, games: int = 1000,
            deals: int = 500, seed: int = 0, reference: str | None = None,
            base: Baseline | None = None, on_game: Callable[[int], None] | None = None,
            jobs: int | None = 1, client: Any = None,
            coverage: int = COVERAGE_GAMES) -> Balance:
    """The balance report of ``rules``.

    Args:
        label: how the report names the configuration.
        tiers: the bots of the skill matrix, weakest first (two or more).
        games: self-play games of ``reference``, 0 to :data:`~spitemalice.limits.MAX_GAMES`
            (0 with ``deals`` 0: the empty report of a run stopped before this configuration).
        deals: deals per pair of tiers (each played twice, the sides swapped), 0 to
            :data:`~spitemalice.limits.MAX_GAMES`.
        seed: the run seed, 0 to :data:`~spitemalice.limits.MAX_SEED`.
        reference: the self-play bot (default: the last tier).
        base: the base configuration's :class:`Baseline` (same tiers), for the gradient;
            ``None`` when this is the base.
        on_game: called with the number of games each finished deal or game counted.
        jobs: worker processes (:func:`spitemalice.runs.parallel.run_games`).
        client: a Dask client to play on instead; the report never depends on either.
        coverage: record which clauses the first ``coverage`` self-play games exercised
            (:attr:`Balance.coverage`; why those: :mod:`~spitemalice.study.balance_coverage`),
            0 to :data:`~spitemalice.limits.MAX_GAMES`, 0 for none; it costs CPU time
            (measured in ``docs/studying.md``).

    Raises:
        ValueError: fewer than two tiers, a tier named twice, or a base of other tiers.
        SpiteMaliceError: an unknown bot, teams that cannot seat two bots fairly, or a
            ``games``, ``deals``, ``coverage``, ``seed`` or ``jobs`` out of range (naming
            the bound).
    """
    check_book(rules, "balance")
    games, deals, coverage, seed, jobs = _checked(tiers, games, deals, coverage, seed, jobs)
    reference = reference or tiers[-1]
    progress = on_game or (lambda count: None)
    own = configuration(rules, [reference], label)
    run, tally = _self_play(own, seed, games, min(games, coverage), progress, jobs, client)
    rows = run.rows[0]
    if base is not None and base.tiers != tuple(tiers):
        raise ValueError(f"the base was measured with tiers {list(base.tiers)}, not "
                         f"{list(tiers)}")
    # A stop during the self-play games ends the report there: the matrix plays nothing.
    matrix, interrupted = _matrix(rules, tiers, 0 if run.interrupted else deals, seed,
                                  progress, jobs, client)
    gradient = () if base is None else tuple(
        difference(pair.gain, before) for pair, before in zip(matrix, base.gains, strict=True))
    sides = tournament_sides(rules)
    lengths = Counter(row.turns for row in rows)
    covered = measured(rules, tally, len(rows)) if tally.games else None
    turns = length_ranges(rules.ruleset.turn_limit)[0]
    return Balance(
        label, rules.players, tuple(tiers), reference, len(rows), len(matrix[0].values),
        _positions(rows, sides), 1 / len(sides),
        {kind: wilson(sum(r.outcome == kind for r in rows), len(rows)) for kind in OUTCOME_KINDS},
        mean_interval([row.turns for row in rows], within=turns, unit=1.0),
        tuple(Quantile(q, quantile(sorted(row.turns for row in rows), q, within=turns))
              for q in QUANTILES),
        dict(sorted(lengths.items())), matrix, None if base is None else base.label,
        gradient, run.interrupted or interrupted, covered, shape=row_metrics(rows))


def _checked(tiers: Sequence[str], games: int, deals: int, coverage: int, seed: int,
             jobs: int | None) -> tuple[int, int, int, int, int | None]:
    """:func:`balance`'s ``tiers`` checked and its numbers as checked: ``games``, ``deals``,
    ``coverage``, ``seed``, ``jobs``."""
    check_list(tiers, "balance", "tiers, a list of bot names,",
               '["random", "greedy"]')
    games, deals, coverage = (
        check_int(number, name, 0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES")
        for number, name in ((games, "games"), (deals, "deals"), (coverage, "coverage")))
    seed, jobs = check_seed(seed), check_jobs(jobs)
    if len(tiers) < 2 or len(set(tiers)) != len(tiers):
        raise ValueError(f"a skill matrix needs two or more different bots, not {list(tiers)}")
    return games, deals, coverage, seed, jobs

def _self_play(own: Configuration, seed: int, games: int, covered: int,
               progress: Callable[[int], None], jobs: int | None,
               client: Any) -> tuple[Run, Tally]:
    """The self-play games, the rule coverage of the first ``covered`` counted: two runs of
    the same game seeds, so the rows are those of one run."""
    run = play_games([own], seed, range(covered), lambda rows: progress(1), jobs, client, True,
                     PROBE_GAMES)
    tally = run.coverage[0]
    if not run.interrupted and covered < games:
        rest = play_games([own], seed, range(covered, games), lambda rows: progress(1), jobs,
                          client, probe=PROBE_GAMES)
        run = Run((run.rows[0] + rest.rows[0],), rest.interrupted)
    return run, tally


def difference(after: Interval, before: Interval, z: float = Z95) -> Interval:
    """``after - before`` of two independent intervals of per-deal gains (their
    half-widths add in quadrature), kept within -1..1, the range such a change can take;
    not measured (``n`` 0, the whole range) when either is (no game won on that side).
    Each half-width is taken from the interval's wider side, in case one end was cut at its
    range.  ``z`` changes nothing (each interval's width holds its own); it is checked as
    every ``z`` is.

    Raises:
        TypeError, ValueError: ``z`` no positive finite number.
    """
    check_z(z, "difference")
    if not (after.n and before.n):  # either side not measured: nor is the change
        return Interval(0.0, SHARE_CHANGE[0], SHARE_CHANGE[1], 0)
    half = math.hypot(_half(after), _half(before))
    return bounded(after.estimate - before.estimate, half, min(after.n, before.n),
                   SHARE_CHANGE)


def _half(interval: Interval) -> float:
    return max(interval.high - interval.estimate, interval.estimate - interval.low)


def _matrix(rules: RuleBook, tiers: Sequence[str], deals: int, seed: int,
            progress: Callable[[int], None], jobs: int | None,
            client: Any) -> tuple[tuple[PairTally, ...], bool]:
    pairs = [(stronger, weaker) for weaker, stronger in combinations(tiers, 2)]
    configs = [c for pair in pairs for c in pair_configs(rules, *pair)]
    tallies = [PairTally(*pair) for pair in pairs]
    run = play_games(configs, seed, range(deals), lambda rows: progress(len(rows)), jobs,
                     client)
    for index, tally in enumerate(tallies):
        for one, two in zip(run.rows[2 * index], run.rows[2 * index + 1], strict=True):
            tally.add_deal([table_of(rules, one), table_of(rules, two)])
    return tuple(tallies), run.interrupted


def _positions(rows: Sequence[GameRow], sides: tuple[tuple[int, ...], ...]) -> tuple[
        Interval, ...]:
    """Each turn position's share of the games with a winner (a game nobody won says nothing
    about positions): the side of the first seat is position 0, then the side of each next
    seat in turn order that was not yet counted."""
    wins = [0] * len(sides)
    side_of = {seat: index for index, side in enumerate(sides) for seat in side}
    players = sum(len(side) for side in sides)
    for row in rows:
        if row.winner is None:
            continue
        order: list[int] = []
        for step in range(players):
            side = side_of[(row.first_seat + step) % players]
            if side not in order:
                order.append(side)
        wins[order.index(side_of[row.winner])] += 1
    return tuple(wilson(w, sum(wins)) for w in wins)


def quantile(ordered: Sequence[int], share: float, z: float = Z95,
             within: tuple[float, float] = COUNT) -> Interval:
    """The ``share`` quantile of the game lengths ``ordered`` (nearest rank; sorted here, in
    case they are not) with a distribution-free 95% interval: the order statistics at ranks
    ``n*share -+ z*sqrt(n*share*(1-share))`` (normal approximation to the binomial count of
    values below the quantile).  An empty list gives the low end of ``within``, the range a
    length can take (a count's ``0..inf``; under a turn limit
    :func:`~spitemalice.measures.interval.length_ranges`), with the whole range.

    Where such a rank falls outside the sample, the end is the smallest (largest) value only
    if the quantile lies below it with a chance of at most the interval's tail (binomial:
    ``(1 - share)**n``, ``share**n``); else it is that end of ``within``, 0 or ``inf`` for
    a count, the turn limit for turns under one (try-out s7b F2: the median of one game,
    ``21 (21..21)``, is now ``21 (0..inf)``; no pair of order statistics of 5 games or fewer
    holds the median with 95%).

    Raises:
        TypeError, ValueError: ``z`` no positive finite number; ValueError: ``share`` not
            above 0 and at most 1.
        TypeError: ``ordered`` is not a list (a str, ``None`` or a number, say), or holds
            something other than a whole number, naming the function and what a right value
            looks like; ValueError: a length outside ``within`` (a negative one, say), or
            ``within`` not a range of numbers from 0 up.
    """
    check_list(ordered, "quantile", "ordered, a list of whole numbers,",
               '[1, 2, 3]')
    z = check_z(z, "quantile")
    floor, ceiling = check_within(within, "quantile")
    if floor < 0:
        raise ValueError(f"quantile takes within, a range of game lengths from 0 up, not "
                         f"{shown(within)}")
    if not (isinstance(share, int | float) and 0 < share <= 1):
        raise SpiteMaliceError(f"quantile takes share, a number above 0 and at most 1 (0.5 for the "
                         f"median), not {shown(share)}")
    for value in ordered:
        if not isinstance(value, numbers.Integral) or isinstance(value, bool):
            raise TypeError(f"quantile takes ordered, a list of whole numbers (game lengths), "
                            f"not {given_text(value)} among them")
        if value < 0:  # a length below the range's end 0 would lie outside its own interval
            raise ValueError(f"quantile takes game lengths of 0 or more, not {shown(value)}")
        if not floor <= value <= ceiling:  # so would one outside within
            raise ValueError(f"quantile takes game lengths within {floor:g}..{ceiling:g} "
                             f"(within), not {shown(value)}")
    ordered = sorted(ordered)
    n = len(ordered)
    if not n:
        return Interval(floor, floor, ceiling, 0)
    spread = z * math.sqrt(n * share * (1 - share))
    at = max(0, math.ceil(share * n) - 1)
    low = math.floor(share * n - spread) - 1
    high = math.ceil(share * n + spread)
    tail = 0.5 * math.erfc(z / math.sqrt(2))  # each side's chance of missing: 2.5% at 1.96
    below = float(ordered[max(0, low)]) if low >= 0 or (1 - share) ** n <= tail else floor
    above = float(ordered[min(n - 1, high)]) if high < n or share ** n <= tail else ceiling
    return Interval(float(ordered[at]), below, above, n)
