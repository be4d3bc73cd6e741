"""The statistics ``compare`` reports (:class:`Statistic`): per-game figures of two
configurations played on the same seeds, each with its interval for A, for B and for the
paired difference B - A, and the sequential test ``--until-decided`` runs on one of them.

Besides the outcome and length of a game, the designer metrics of
:mod:`spitemalice.measures.shape` are statistics here (:func:`shape_statistics`): each is
computed from the game rows (:class:`~spitemalice.runs.runner.GameRow`) with no replay.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import attrs

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_real, real_field
from spitemalice.measures.interval import COUNT, SHARE, Interval, difference_range, length_ranges
from spitemalice.measures.means import least_variance, mean_interval, paired_difference
from spitemalice.measures.rates import independent_shares, paired_shares, wilson
from spitemalice.measures.sequential import SprtResult, agreeing, sprt
from spitemalice.measures.shape import row_choice, row_lead_for_good
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.runs.runner import GameRow

RATIO_STEP = 0.01
"""The step given the means of ratios (``lead_for_good``, the ``choice_*``): the last digit
the table prints.  Games that all agree to within it show no difference the table could
print, so a difference of them keeps that much width (as a count's keeps one: try-out s7b
F1) rather than printing ``+0.01 (+0.01..+0.01) *``."""

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
        unit: the step of a mean's values (1 for counts; see
            :func:`~spitemalice.measures.means.mean_interval`): the least variance it gives
            keeps a width when the games all agree.  For a mean of ratios (``lead_for_good``,
            the ``choice_*``), :data:`RATIO_STEP`.
        trials: for a share of trials pooled over games (``value(row)`` successes of
            ``trials(row)``; ``mattered``), else ``None``; its difference treats A's and
            B's trials as independent (Newcombe's method).
        length: ``"turns"`` or ``"moves"`` for a game's length, whose range a turn limit
            bounds (:meth:`under`), else ``None``.
    """

    name: str
    label: str
    rate: bool
    value: Callable[[GameRow], float]
    applies: Callable[[GameRow], bool] | None = None
    within: tuple[float, float] = COUNT
    unit: float = attrs.field(default=1.0, validator=real_field(0.0))
    trials: Callable[[GameRow], int] | None = None
    length: str | None = None

    def under(self, turn_limit: int | None) -> Statistic:
        """This statistic for games under ``turn_limit``: a game's length kept within what
        such a game can last (:func:`~spitemalice.measures.interval.length_ranges`: turns
        within 0..turn_limit, moves within 0..turn_limit squared); any other unchanged.

        Raises:
            SpiteMaliceError: ``turn_limit`` neither ``None`` nor a whole number from 0 to
                :data:`~spitemalice.limits.MAX_INT`.
        """
        turns, moves = length_ranges(turn_limit)
        if self.length is None:
            return self
        return attrs.evolve(self, within=turns if self.length == "turns" else moves)

    def margin_words(self, margin: float) -> tuple[str, str, str]:
        """How ``--until-decided``'s ``margin`` reads for this statistic: the amount (points
        for a rate: 0.05 is ``5 points``), what it is measured in (`` in moves per game``)
        and the band it names (``-15..+15``, ``-5%..+5%``).

        Raises:
            SpiteMaliceError: ``margin`` no number from 0 to
                :data:`~spitemalice.limits.MAX_REAL`.
        """
        margin = check_real(margin, "Statistic.margin_words' margin", 0.0)
        if self.rate:
            points = f"{margin * 100:g}"
            return f"{points} points", f" in {self.label}", f"-{points}%..+{points}%"
        text = f"{margin:g}" if float(f"{margin:g}") == margin else repr(margin)
        return text, f" in {self.label}", f"-{text}..+{text}"

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
             margin: float, under_b: Statistic | None = None) -> SprtResult:
        """Wald's test of whether B differs from A by ``margin`` on the paired differences,
        the variance pooled with :data:`PRIOR_GAMES` games of :meth:`unpaired_variance`, and
        for a rate at least ``margin * (1 - margin)``, the least a difference of 0/1
        outcomes of that size has: a few games that all agree (every one won under A and
        under B, or played identically) show no spread and would otherwise decide at once
        (try-out s7 H1).  ``under_b`` is this statistic under B's turn limit, as
        :meth:`difference` takes it.

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
        return agreeing(result, self.difference(rows_a, rows_b, under_b), 0.0, margin)

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
        if self.unit < 1:  # a ratio: one value a step away, not a Poisson count
            return max(spread, least_variance(self.unit, n))
        return max(spread, (total + 1) / (n + 1))

    def difference(self, rows_a: Sequence[GameRow], rows_b: Sequence[GameRow],
                   under_b: Statistic | None = None) -> Interval:
        """B minus A over games paired by seed (those it applies to under both): Tango's
        paired score interval for a rate (it keeps a width when every pair agrees), else
        Student's t interval of the differences, whose variance is at least a count's least
        (:func:`~spitemalice.measures.means.least_variance`: games that all differ by the same
        count keep a width, try-out s7b F1), kept within the range the difference can take
        (B's range less A's: ``under_b`` is this statistic under B's turn limit, ``None``
        this one); for pooled trials Newcombe's interval of two independent shares
        (:func:`~spitemalice.measures.rates.independent_shares`)."""
        other = self if under_b is None else under_b
        if self.trials is not None:
            return independent_shares(self.interval(rows_a), other.interval(rows_b))
        rows_a, rows_b = self.paired(rows_a, rows_b)
        a = [self.value(row) for row in rows_a]
        values_b = [self.value(row) for row in rows_b]
        if self.rate:
            return paired_shares(a, values_b)
        return paired_difference(a, values_b, unit=self.unit,
                                 within=difference_range(self.within, other.within))


def statistics(seats: int) -> list[Statistic]:
    """The statistics a comparison reports for games of ``seats`` seats.

    Raises:
        SpiteMaliceError: ``seats`` not a whole number from 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`.
    """
    check_int(seats, "statistics' seats", 1, MAX_SEATS,
              constant="spitemalice.rules.ruleset.MAX_SEATS")
    stats = [
        Statistic("moves", "moves per game", False, lambda r: r.moves, length="moves"),
        Statistic("turns", "turns per game", False, lambda r: r.turns, length="turns"),
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
                  False, lambda r: row_lead_for_good(r) or 0.0, won, SHARE, RATIO_STEP),
    ]
    for third, (name, part) in enumerate((("choice_early", "first"),
                                          ("choice_middle", "middle"),
                                          ("choice_late", "last"))):
        stats.append(Statistic(name, f"legal moves per decision, {part} third", False,
                               _choice(third), _has_choice(third), COUNT, RATIO_STEP))
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


def check_margin(stat: Statistic, margin: float) -> None:
    """Refuse a margin ``--until-decided`` could never reach on ``stat``: a statistic of
    pooled trials (no per-game difference), or a margin as wide as the range its values
    take (a rate's, or a mean of shares', 0..1), where a difference of ``margin`` is
    impossible and the test would decide "same" at once.

    Raises:
        SpiteMaliceError: such a statistic or margin (or one no number of at most
            :data:`~spitemalice.limits.MAX_REAL` in size); the message says what would do.
    """
    margin = check_real(margin, "check_margin's margin")
    if stat.trials is not None:
        raise SpiteMaliceError(f"--statistic {stat.name} pools its trials over games, so it "
                               "has no per-game difference to test; choose another")
    span = 1.0 if stat.rate else stat.within[1] - stat.within[0]
    if not margin < span:
        example = "0.05 for 5 points" if stat.rate else "0.05"
        raise SpiteMaliceError(f"--until-decided {margin:g} on {stat.name}: its values lie "
                               f"within 0..{span:g}, so B and A never differ by {margin:g}; "
                               f"give a margin above 0 and below {span:g} ({example})")
