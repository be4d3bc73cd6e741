"""Paired comparison of two configurations: ``spitemalice compare A B``.

Both configurations play game ``g`` from the same seed, so each statistic is compared game by
game: the report gives each statistic for A and for B with its 95% interval and the paired
difference B - A with its interval, flagged when the interval excludes 0.  With a margin, the
games are played in batches until a sequential probability ratio test decides whether B
differs from A by at least the margin (:func:`spitemalice.measures.sequential.sprt`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from spitemalice.engine.coverage import Tally
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_games, check_int, check_seed, int_field, real_field
from spitemalice.measures.coverage import (
    ClauseCoverage,
    CoverageNote,
    clause_coverage,
    coverage_as_dict,
    coverage_notes,
)
from spitemalice.measures.interval import COUNT, SHARE, Interval
from spitemalice.measures.means import mean_interval, paired_difference
from spitemalice.measures.rates import independent_shares, paired_shares, wilson
from spitemalice.measures.sequential import SprtResult, agreeing, sprt
from spitemalice.measures.shape import row_choice, row_lead_for_good
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.runs.game_shape import PROBE_GAMES
from spitemalice.runs.runner import Configuration, GameRow, play_games
from spitemalice.wording import clipped, count_of, for_terminal

PRIOR_GAMES = 4
"""The weight, in games, of the unpaired variance the sequential test of ``compare
--until-decided`` pools with the paired differences (as ``ladder`` pools its deals' prior)."""


@attrs.frozen
class Statistic:
    """A per-game statistic: ``value(row)`` is a number (0 or 1 for a rate).

    Attributes:
        name: its key (``--statistic``, JSON).
        label: how tables name it.
        rate: ``True`` for a share of games (Wilson interval), ``False`` for a mean.
        applies: which games it is measured on (``None``: every game); paired figures
            take the games it applies to under A and under B (the designer metrics of won
            games take the seeds both won).
        within: the range a mean can take (a count's 0..inf, a share's 0..1).
        unit: the step of a mean's values (1 for counts, 0 for none; see
            :func:`~spitemalice.measures.means.mean_interval`).
        trials: for a share of trials pooled over games (``value(row)`` successes of
            ``trials(row)``; ``mattered``), else ``None``; its difference treats A's and
            B's trials as independent (Newcombe's method).
    """

    name: str
    label: str
    rate: bool
    value: Callable[[GameRow], float]
    applies: Callable[[GameRow], bool] | None = None
    within: tuple[float, float] = COUNT
    unit: float = 1.0
    trials: Callable[[GameRow], int] | None = None

    def kept(self, rows: Sequence[GameRow]) -> list[GameRow]:
        """The rows it applies to."""
        return [row for row in rows if self.applies is None or self.applies(row)]

    def paired(self, rows_a: Sequence[GameRow], rows_b: Sequence[GameRow]
               ) -> tuple[list[GameRow], list[GameRow]]:
        """The pairs of rows it applies to under both A and B."""
        kept = [(a, b) for a, b in zip(rows_a, rows_b, strict=True)
                if self.applies is None or (self.applies(a) and self.applies(b))]
        return [a for a, _ in kept], [b for _, b in kept]

    def interval(self, rows: Sequence[GameRow]) -> Interval:
        kept = self.kept(rows)
        values = [self.value(row) for row in kept]
        if self.trials is not None:
            return wilson(int(sum(values)), sum(self.trials(row) for row in kept))
        if self.rate:
            return wilson(int(sum(values)), len(values))
        return mean_interval(values, within=self.within, unit=self.unit)

    def test(self, rows_a: Sequence[GameRow], rows_b: Sequence[GameRow],
             margin: float) -> SprtResult:
        """Wald's test of whether B differs from A by ``margin`` on the paired differences,
        the variance pooled with :data:`PRIOR_GAMES` games of :meth:`unpaired_variance`, and
        for a rate at least ``margin * (1 - margin)``, the least a difference of 0/1
        outcomes of that size has: a few games that all agree (every one won under A and
        under B, or played identically) show no spread and would otherwise decide at once
        (try-out s7 H1).

        Raises:
            ValueError: a statistic of pooled trials (``mattered``), which has no paired
                differences to test.
        """
        if self.trials is not None:
            raise ValueError(f"{self.name} pools trials over games, so it has no per-game "
                             "difference to test; choose a per-game statistic")
        rows_a, rows_b = self.paired(rows_a, rows_b)
        a = [self.value(row) for row in rows_a]
        b = [self.value(row) for row in rows_b]
        result = sprt([y - x for x, y in zip(a, b, strict=True)], margin,
                      prior_variance=self.unpaired_variance(a) + self.unpaired_variance(b),
                      prior_weight=PRIOR_GAMES,
                      least_variance=margin * (1 - margin) if self.rate and margin < 1 else 0.0)
        # Never a decision the difference's printed interval contradicts (try-out s8).
        return agreeing(result, self.difference(rows_a, rows_b), 0.0, margin)

    def unpaired_variance(self, values: Sequence[float]) -> float:
        """The variance one side's ``values`` add to a difference the pairing took nothing
        out of: a rate's ``p (1 - p)`` at Laplace's estimate ``p = (wins + 1) / (games +
        2)``; a count's sample variance, but at least its mean with one pseudo-event added,
        ``(sum + 1) / (games + 1)`` (a Poisson count's variance), so that neither is 0 before
        anything varied; a mean of values that do not come in steps (``unit`` 0), its sample
        variance."""
        n = len(values)
        total = math.fsum(values)
        if self.rate:
            share = (total + 1) / (n + 2)
            return share * (1 - share)
        mean = total / n if n else 0.0
        spread = math.fsum((v - mean) ** 2 for v in values) / (n - 1) if n > 1 else 0.0
        return max(spread, (total + 1) / (n + 1)) if self.unit else spread

    def difference(self, rows_a: Sequence[GameRow], rows_b: Sequence[GameRow]) -> Interval:
        """B minus A over games paired by seed (those it applies to under both): Tango's
        paired score interval for a rate (it keeps a width when every pair agrees), else
        Student's t interval of the differences, whose variance is at least a count's least
        (:func:`~spitemalice.measures.means.least_variance`: games that all differ by the same
        count keep a width, try-out s7b F1); for pooled trials Newcombe's interval of two
        independent shares (:func:`~spitemalice.measures.rates.independent_shares`)."""
        if self.trials is not None:
            return independent_shares(self.interval(rows_a), self.interval(rows_b))
        rows_a, rows_b = self.paired(rows_a, rows_b)
        a = [self.value(row) for row in rows_a]
        b = [self.value(row) for row in rows_b]
        if self.rate:
            return paired_shares(a, b)
        return paired_difference(a, b, unit=self.unit)


def statistics(seats: int) -> list[Statistic]:
    """The statistics a comparison reports for games of ``seats`` seats.

    Raises:
        SpiteMaliceError: ``seats`` not a whole number from 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`.
    """
    check_int(seats, "statistics' seats", 1, MAX_SEATS,
              constant="spitemalice.rules.ruleset.MAX_SEATS")
    stats = [
        Statistic("moves", "moves per game", False, lambda r: r.moves),
        Statistic("turns", "turns per game", False, lambda r: r.turns),
        Statistic("first_seat_wins", "won by the seat that moved first", True,
                  lambda r: float(r.winner is not None and r.winner == r.first_seat)),
        Statistic("won", "games won", True, lambda r: float(r.winner is not None)),
        Statistic("completed_piles", "completed build piles per game", False,
                  lambda r: r.completed_piles),
        Statistic("recycles", "recycles per game", False, lambda r: r.recycles),
    ]
    stats += [Statistic(f"seat_{s}_wins", f"won by seat {s}", True, _won_by(s))
              for s in range(seats)]
    return stats + shape_statistics()


def shape_statistics() -> list[Statistic]:
    """The designer metrics (:mod:`spitemalice.measures.shape`) as statistics of game rows:
    ``comeback`` and ``lead_for_good`` over won games, each ``choice_*`` over games with a
    decision in that third, ``mattered`` pooled over the probed decisions."""
    won = _has_winner
    stats = [
        Statistic("lead_changes", "lead changes per game", False,
                  lambda r: float(r.lead_changes or 0), _has_shape),
        Statistic("comeback", "won from behind at the half (won games)", True,
                  lambda r: float(bool(r.comeback)), won),
        Statistic("lead_for_good", "share of moves before the lead for good (won games)",
                  False, lambda r: row_lead_for_good(r) or 0.0, won, SHARE, 0.0),
    ]
    for third, (name, part) in enumerate((("choice_early", "first"),
                                          ("choice_middle", "middle"),
                                          ("choice_late", "last"))):
        stats.append(Statistic(name, f"legal moves per decision, {part} third", False,
                               _choice(third), _has_choice(third), COUNT, 0.0))
    stats.append(Statistic("mattered", "probed decisions that mattered", True,
                           lambda r: float(r.mattered or 0), _has_shape, SHARE, 0.0,
                           lambda r: r.probed or 0))
    return stats


def _has_shape(row: GameRow) -> bool:
    return row.lead_changes is not None


def _has_winner(row: GameRow) -> bool:
    return row.winner is not None and row.lead_taken is not None


def _choice(third: int) -> Callable[[GameRow], float]:
    return lambda row: row_choice(row, third) or 0.0


def _has_choice(third: int) -> Callable[[GameRow], bool]:
    return lambda row: row_choice(row, third) is not None


def _won_by(seat: int) -> Callable[[GameRow], float]:
    return lambda row: float(row.winner == seat)


@attrs.frozen
class Line:
    """One statistic compared: A, B and the paired difference B - A."""

    statistic: Statistic
    a: Interval
    b: Interval
    difference: Interval

    @property
    def differs(self) -> bool:
        """``True`` when the difference's interval excludes 0."""
        return self.difference.excludes(0.0)


@attrs.frozen
class Comparison:
    """A finished comparison.

    Attributes:
        a, b: the two configurations.
        games: paired games played.
        lines: one :class:`Line` per statistic.
        sprt: the test's result when a margin was given, else ``None``.
        interrupted: Ctrl-C stopped the run early.
        coverage: how the games of A and of B exercised each clause of their rule sheets
            (:mod:`spitemalice.measures.coverage`), or ``None`` when not recorded.
        identical: paired games in which A and B made the very same moves.

    Raises:
        SpiteMaliceError: ``games`` or ``identical`` a whole number past
            :data:`~spitemalice.limits.MAX_INT` in size, or ``margin`` a number past
            :data:`~spitemalice.limits.MAX_REAL` in size.
    """

    a: Configuration
    b: Configuration
    games: int = attrs.field(validator=int_field())
    lines: tuple[Line, ...]
    rows: tuple[tuple[GameRow, ...], tuple[GameRow, ...]]
    sprt: SprtResult | None = None
    statistic: str | None = None
    margin: float | None = attrs.field(default=None, validator=real_field())
    interrupted: bool = False
    coverage: tuple[Covered, Covered] | None = None
    identical: int = attrs.field(default=0, validator=int_field())

    def warnings(self) -> list[str]:
        """What the comparison cannot vouch for: A and B playing the same moves in every
        game, and each clause of either sheet that no game exercised (``"A: ..."``,
        ``"B: ..."``, ``"A and B: ..."``; a clause declaring it is left out)."""
        said = []
        if self.games and self.identical == self.games:
            every = ("the one paired game" if self.games == 1
                     else f"all {count_of(self.games, 'paired game')}")
            said.append(f"A and B played identical games: the same moves in {every}, so "
                        "these bots do not show "
                        "the difference between them (try other bots, or check that B's rule "
                        "comes into play)")
        labels: dict[str, list[str]] = {}  # a message -> the configurations it is about
        for label, covered in zip("AB", self.coverage or (), strict=False):
            for note in covered.notes:
                if note.level == "warning":
                    labels.setdefault(note.message, []).append(label)
        said += [f"{' and '.join(which)}: {message}" for message, which in labels.items()]
        return said

    def as_dict(self) -> dict[str, object]:
        """JSON-ready data: labels, games, each statistic's A, B, difference and flag, the
        identical games, each configuration's rule coverage and the warnings."""
        data: dict[str, object] = {
            "a": self.a.label, "b": self.b.label, "games": self.games,
            "statistics": {
                line.statistic.name: {"a": line.a.as_dict(), "b": line.b.as_dict(),
                                      "difference": line.difference.as_dict(),
                                      "differs": line.differs}
                for line in self.lines},
            "interrupted": self.interrupted,
            "identical_games": self.identical,
            "warnings": self.warnings(),
        }
        if self.coverage is not None:
            data["coverage"] = {label: {**coverage_as_dict(covered.rows, self.games),
                                        "notes": [attrs.asdict(n) for n in covered.notes]}
                                for label, covered in zip("ab", self.coverage, strict=True)}
        if self.sprt is not None:
            data["until_decided"] = {
                "statistic": self.statistic, "margin": self.margin,
                "decision": self.sprt.decision, "llr": round(self.sprt.llr, 3),
                "bounds": [round(self.sprt.lower, 3), round(self.sprt.upper, 3)],
                "games": self.sprt.n}
        return data


def statistic_named(name: str, seats: int) -> Statistic:
    """The statistic called ``name``.

    Raises:
        ValueError: an unknown name; the message lists the known ones.
        SpiteMaliceError: ``seats`` not a whole number from 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`.
    """
    for stat in statistics(seats):
        if stat.name == name:
            return stat
    known = ", ".join(s.name for s in statistics(seats))
    raise ValueError(f"unknown statistic {name!r}; choose from {known}")


@attrs.frozen
class Covered:
    """One configuration's rule coverage in a comparison: a row per clause and the notes
    about clauses no game exercised."""

    rows: tuple[ClauseCoverage, ...]
    notes: tuple[CoverageNote, ...]


def compare(a: Configuration, b: Configuration, games: int, seed: int,
            on_game: Callable[[tuple[GameRow, ...]], None] | None = None,
            jobs: int | None = 1, client: Any = None, coverage: bool = True) -> Comparison:
    """Play ``games`` paired games of ``a`` and ``b`` (game ``g`` from the same seed under
    both) and compare them.  ``jobs`` and ``client`` choose where the games are played
    (:func:`spitemalice.runs.parallel.run_games`); the comparison never depends on them.
    ``coverage`` records how the games exercised each clause (several times slower; the
    comparison warns about a clause no game exercised).

    Raises:
        TypeError: ``a`` or ``b`` is not a :class:`Configuration` (a rule book, say: the
            message names :func:`~spitemalice.runs.runner.configuration`).
        ValueError: the configurations have different numbers of seats.
        SpiteMaliceError: ``games`` not 1 to :data:`~spitemalice.limits.MAX_GAMES`, or a
            seed not 0 to :data:`~spitemalice.limits.MAX_SEED`.
    """
    games, seed = check_games(games), check_seed(seed)
    _check_seats(a, b, "compare")
    run = play_games((a, b), seed, range(games), on_game, jobs, client, coverage, PROBE_GAMES)
    return attrs.evolve(
        _comparison(a, b, run.rows[0], run.rows[1], interrupted=run.interrupted),
        coverage=_covered((a, b), run.coverage), identical=run.identical)


def _covered(configs: tuple[Configuration, Configuration],
             tallies: Sequence[Tally]) -> tuple[Covered, Covered] | None:
    if not tallies:
        return None
    covered = []
    for config, tally in zip(configs, tallies, strict=True):
        rows = tuple(clause_coverage(config.rules, tally))
        covered.append(Covered(rows, tuple(coverage_notes(config.rules, rows, tally.games))))
    return covered[0], covered[1]


def compare_until_decided(a: Configuration, b: Configuration, statistic: str, margin: float,
                          seed: int, batch: int = 100, max_games: int = 20_000,
                          on_game: Callable[[tuple[GameRow, ...]], None] | None = None,
                          jobs: int | None = 1, client: Any = None,
                          coverage: bool = True) -> Comparison:
    """Play paired games in batches of ``batch`` until
    :func:`~spitemalice.measures.sequential.sprt` on the paired differences of ``statistic``
    decides whether B differs from A by ``margin`` (in the statistic's unit: moves, or a
    share 0..1), or ``max_games`` were played.

    Raises:
        ValueError: different seat counts, an unknown statistic or a margin that is not
            positive.
        SpiteMaliceError: ``batch`` or ``max_games`` not 1 to
            :data:`~spitemalice.limits.MAX_GAMES`, or a seed not 0 to
            :data:`~spitemalice.limits.MAX_SEED`.
    """
    seed = check_seed(seed)
    batch, max_games = check_games(batch, "batch"), check_games(max_games, "max_games")
    _check_seats(a, b, "compare_until_decided")
    stat = statistic_named(statistic, a.rules.players)
    sprt([0.0, 1.0], margin)  # refuses a bad margin before any game
    check_margin(stat, margin)
    rows_a: list[GameRow] = []
    rows_b: list[GameRow] = []
    result = sprt([], margin)
    interrupted = False
    tallies = (Tally(), Tally()) if coverage else ()
    identical = 0
    while result.decision == "undecided" and len(rows_a) < max_games and not interrupted:
        start = len(rows_a)
        run = play_games((a, b), seed, range(start, min(start + batch, max_games)), on_game,
                         jobs, client, coverage, PROBE_GAMES)
        rows_a += run.rows[0]
        rows_b += run.rows[1]
        for tally, counted in zip(tallies, run.coverage, strict=True):
            tally.add(counted)
        identical += run.identical
        interrupted = run.interrupted
        result = stat.test(rows_a, rows_b, margin)
    return attrs.evolve(_comparison(a, b, rows_a, rows_b, result, statistic, margin,
                                    interrupted),
                        coverage=_covered((a, b), tallies), identical=identical)


def check_margin(stat: Statistic, margin: float) -> None:
    """Refuse a margin ``--until-decided`` could never reach on ``stat``: a statistic of
    pooled trials (no per-game difference), or a margin as wide as the range its values
    take (a rate's, or a mean of shares', 0..1), where a difference of ``margin`` is
    impossible and the test would decide "same" at once.

    Raises:
        SpiteMaliceError: such a statistic or margin; the message says what would do.
    """
    if stat.trials is not None:
        raise SpiteMaliceError(f"--statistic {stat.name} pools its trials over games, so it "
                               "has no per-game difference to test; choose another")
    span = 1.0 if stat.rate else stat.within[1] - stat.within[0]
    if not margin < span:
        example = "0.05 for 5 points" if stat.rate else "0.05"
        raise SpiteMaliceError(f"--until-decided {margin:g} on {stat.name}: its values lie "
                               f"within 0..{span:g}, so B and A never differ by {margin:g}; "
                               f"give a margin above 0 and below {span:g} ({example})")


def _check_seats(a: Configuration, b: Configuration, function: str) -> None:
    """Refuse ``a`` or ``b`` not a :class:`Configuration` (a rule book, say), naming
    ``function``; then configurations of different numbers of seats."""
    for side, given in (("a", a), ("b", b)):
        if not isinstance(given, Configuration):
            raise TypeError(f"{function} takes {side}, a Configuration (what "
                            "spitemalice.study.configuration(rules, bots) returns), not "
                            f"{for_terminal(clipped(type(given).__name__, 60))}")
    if a.rules.players != b.rules.players:
        raise ValueError(f"paired games need equal seats: A has {a.rules.players}, "
                         f"B has {b.rules.players}")


def _comparison(a: Configuration, b: Configuration, rows_a: list[GameRow],
                rows_b: list[GameRow], result: SprtResult | None = None,
                statistic: str | None = None, margin: float | None = None,
                interrupted: bool = False) -> Comparison:
    lines = tuple(
        Line(stat, stat.interval(rows_a), stat.interval(rows_b),
             stat.difference(rows_a, rows_b))
        for stat in statistics(a.rules.players))
    return Comparison(a, b, len(rows_a), lines, (tuple(rows_a), tuple(rows_b)), result,
                      statistic, margin, interrupted)
