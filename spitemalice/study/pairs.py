"""Two bots on duplicate deals with the sides swapped: the unit of ``ladder`` and ``balance``.

A *side* is a seat, or a team under a partnership rule (both partners played by one bot).  On
every deal two games are played: the bots alternate around the table (bot A on sides 0, 2,
..., bot B on sides 1, 3, ...), then the other way round.  So each bot holds every side once
per deal, and both meet the same cards: the luck of the deal cancels (duplicate play, as in
duplicate bridge) and so does any advantage of a side.  With an odd number of sides one bot
holds one side more in each game, the other in the other game.

:class:`PairTally` keeps the results of one pair: wins of each, games without a winner, and a
per-deal value for the sequential test (``ladder --until-decided``).
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from spitemalice.guards import int_field
from spitemalice.measures.interval import Interval
from spitemalice.measures.means import mean_interval
from spitemalice.measures.rates import wilson
from spitemalice.measures.sequential import SprtResult, agreeing, sprt
from spitemalice.rules.book import RuleBook
from spitemalice.runs.runner import Configuration, GameRow, configuration
from spitemalice.study.ratings import Table
from spitemalice.study.tournament import PRIOR_DEALS as TOURNAMENT_PRIOR_DEALS
from spitemalice.study.tournament import tournament_sides

PATTERNS = 2
"""Games per deal for one pair: the bots alternate around the table, then swap."""

NULL_VARIANCE = 0.125
"""The prior of the sequential test's variance of a deal's value: its variance when the
deal's two games both have a winner, each a fair coin toss (values -1/2, 0, +1/2 with chances
1/4, 1/2, 1/4), worth :data:`PRIOR_DEALS` deals.  Without it a few deals of equal value
(each bot winning one game, or one bot both) have no variance and decide at once."""

PRIOR_DEALS = TOURNAMENT_PRIOR_DEALS
"""The weight of :data:`NULL_VARIANCE`, in deals: a pair one bot sweeps is decided after 7
deals (14 games), one whose deals all split evenly is "same" after 33.  The tournament's win
rate pools the same weight (:data:`spitemalice.study.tournament.PRIOR_DEALS`)."""


def pair_configs(rules: RuleBook, a: str, b: str) -> tuple[Configuration, Configuration]:
    """The two configurations of the pair ``a``, ``b`` on ``rules``: ``a`` on the even sides
    first, then on the odd ones (each bot plays every seat of the sides it holds).

    Raises:
        SpiteMaliceError: an unknown bot, or teams that cannot seat two bots fairly (as
            :func:`spitemalice.study.tournament.tournament_sides`).
    """
    sides = tournament_sides(rules)
    configs = []
    for flip in range(PATTERNS):
        bots = [""] * rules.players
        for index, side in enumerate(sides):
            for seat in side:
                bots[seat] = a if (index + flip) % 2 == 0 else b
        configs.append(configuration(rules, bots, f"{a}/{b}#{flip}"))
    return configs[0], configs[1]


def table_of(rules: RuleBook, row: GameRow) -> Table:
    """A finished game as rating evidence: each side's bot and the side that won."""
    sides = tournament_sides(rules)
    winner = None
    if row.winner is not None:
        winner = next(i for i, side in enumerate(sides) if row.winner in side)
    return Table(tuple(row.bots[side[0]] for side in sides), winner, row.game)


@attrs.define
class PairTally:
    """The results of bot ``a`` against bot ``b`` so far.

    Attributes:
        wins_a, wins_b: games each bot's side won.
        no_winner: games without a winner (drawn, blocked, turn limit).
        values: per deal, ``(wins_a - wins_b) / (2 * games of the deal)``: the share of the
            deal's games ``a`` won above one half when every game has a winner.
        evidence: the values of the deals where some game had a winner: what the sequential
            test weighs (a deal whose games all ended without a winner says nothing of which
            bot is stronger).

    Raises:
        SpiteMaliceError: ``wins_a``, ``wins_b`` or ``no_winner`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    a: str
    b: str
    wins_a: int = attrs.field(default=0, validator=int_field(0))
    wins_b: int = attrs.field(default=0, validator=int_field(0))
    no_winner: int = attrs.field(default=0, validator=int_field(0))
    values: list[float] = attrs.field(factory=list)
    evidence: list[float] = attrs.field(factory=list)

    def add_deal(self, tables: Sequence[Table]) -> None:
        """Count one deal's games (its :data:`PATTERNS` tables)."""
        wins = {self.a: 0, self.b: 0}
        for table in tables:
            if table.winner is None:
                self.no_winner += 1
            else:
                wins[table.sides[table.winner]] += 1
        self.wins_a += wins[self.a]
        self.wins_b += wins[self.b]
        self.values.append((wins[self.a] - wins[self.b]) / (2 * len(tables)))
        if wins[self.a] + wins[self.b]:
            self.evidence.append(self.values[-1])

    @property
    def games(self) -> int:
        return self.wins_a + self.wins_b + self.no_winner

    @property
    def rate(self) -> Interval:
        """``a``'s share of the games with a winner, with its Wilson 95% interval (fair: 0.5,
        since both bots hold the same sides over a deal)."""
        return wilson(self.wins_a, self.wins_a + self.wins_b)

    @property
    def gain(self) -> Interval:
        """The mean per-deal value (``a``'s wins above half of a deal's games) with its
        Student's t 95% interval, within -0.5..0.5 (a deal's value ranges so far): what the skill
        gradient compares.

        A few deals of equal value show no spread, so the variance pools :data:`PRIOR_DEALS`
        deals of the variance a deal's value has when every game with a winner is a fair coin
        toss: :data:`NULL_VARIANCE` times the share of games with a winner (Laplace's
        estimate, ``(won + 1) / (games + 2)``, so that it is never 0: a deal's game adds
        ``1/16`` of variance when it has a winner, nothing when it has none).

        With no game won (every deal's games drawn, blocked or at the turn limit) nothing is
        known of which bot gains: not measured (``n`` 0, the whole range), never a gain of 0
        the skill gradient would read as one."""
        decided = self.wins_a + self.wins_b
        if not decided:
            return mean_interval([], within=(-0.5, 0.5))
        return mean_interval(self.values, within=(-0.5, 0.5),
                             prior_variance=NULL_VARIANCE * (decided + 1) / (self.games + 2),
                             prior_weight=PRIOR_DEALS)

    def test(self, margin: float) -> SprtResult:
        """Wald's test (:func:`spitemalice.measures.sequential.sprt`) of whether ``a`` wins at least
        ``margin`` more (or less) than half of the games, on the per-deal values of the deals
        with a winner (:attr:`evidence`), the variance pooled with :data:`NULL_VARIANCE`; never
        a decision :attr:`rate`, the interval printed beside it, contradicts
        (:func:`~spitemalice.measures.sequential.agreeing`)."""
        result = sprt(self.evidence, margin, prior_variance=NULL_VARIANCE,
                      prior_weight=PRIOR_DEALS)
        return agreeing(result, self.rate, 0.5, margin)

    def as_dict(self) -> dict[str, object]:
        return {"a": self.a, "b": self.b, "games": self.games, "wins_a": self.wins_a,
                "wins_b": self.wins_b, "no_winner": self.no_winner,
                "rate_a": self.rate.as_dict(), "gain": self.gain.as_dict()}
