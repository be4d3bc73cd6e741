"""Paired comparison of two configurations: ``spitemalice compare A B``.

Both configurations play game ``g`` from the same seed, so each statistic is compared game by
game: the report gives each statistic for A and for B with its 95% interval and the paired
difference B - A with its interval, flagged when the interval excludes 0.  With a margin, the
games are played in batches until a sequential probability ratio test decides whether B
differs from A by at least the margin (:func:`spitemalice.measures.sequential.sprt`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from spitemalice.engine.coverage import Tally
from spitemalice.guards import check_games, check_seed, int_field, real_field
from spitemalice.measures.coverage import (
    ClauseCoverage,
    CoverageNote,
    clause_coverage,
    coverage_as_dict,
    coverage_notes,
)
from spitemalice.measures.interval import Interval
from spitemalice.measures.sequential import SprtResult, sprt
from spitemalice.runs.game_shape import PROBE_GAMES
from spitemalice.runs.runner import Configuration, GameRow, play_games
from spitemalice.study.statistic import (
    PRIOR_GAMES,
    Statistic,
    check_margin,
    shape_statistics,
    statistic_named,
    statistics,
)

__all__ = ["PRIOR_GAMES", "Comparison", "Covered", "Line", "Statistic", "check_margin",
           "compare", "compare_until_decided", "shape_statistics", "statistic_named",
           "statistics"]
from spitemalice.wording import clipped, count_of, for_terminal


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
    named = statistic_named(statistic, a.rules.players)
    stat, stat_b = named.under(a.rules.ruleset.turn_limit), named.under(b.rules.ruleset.turn_limit)
    sprt([0.0, 1.0], margin)  # refuses a bad margin before any game
    check_margin(named, margin)
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
        result = stat.test(rows_a, rows_b, margin, stat_b)
    return attrs.evolve(_comparison(a, b, rows_a, rows_b, result, statistic, margin,
                                    interrupted),
                        coverage=_covered((a, b), tallies), identical=identical)


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
    limits = a.rules.ruleset.turn_limit, b.rules.ruleset.turn_limit
    lines = tuple(
        Line(stat, under_a.interval(rows_a), under_b.interval(rows_b),
             under_a.difference(rows_a, rows_b, under_b))
        for stat in statistics(a.rules.players)
        for under_a, under_b in [(stat.under(limits[0]), stat.under(limits[1]))])
    return Comparison(a, b, len(rows_a), lines, (tuple(rows_a), tuple(rows_b)), result,
                      statistic, margin, interrupted)
