"""Ratings of bots from games: a Bradley-Terry model fitted to who won, with 95% intervals.

**How a game becomes evidence.**  A game is a *table*: its sides (the seats, or the teams
under a partnership rule, :attr:`spitemalice.rules.policies.TeamRule.teams`), each played by
one bot, and the side that won.  The model is Luce's choice axiom, the first choice of the
Plackett-Luce model: every bot ``b`` has a strength ``gamma_b > 0``, and the side that wins is
chosen among the sides at the table with probability proportional to the strength of its bot,

    P(side s wins) = gamma_bot(s) / sum over the table's sides t of gamma_bot(t).

With two sides this is the Bradley-Terry model (Bradley and Terry, Biometrika 39, 1952).  With
more, a four-seat game of bots A, B, A, B won by seat 2 is one observation "A chosen among
{A, B, A, B}": it says A beat B, weighted by how many seats each held; it says nothing about
the order of the losers.  A game without a winner (drawn, blocked, turn limit) carries no
evidence about strength; it is counted and reported, not rated.

**Fit.**  The maximum-likelihood strengths are found by Hunter's minorization-maximization
iteration (Hunter, "MM algorithms for generalized Bradley-Terry models", Annals of Statistics
32(1), 2004, section 5 for the Luce and Plackett-Luce case).  A bot that never won (or never
lost) has no finite maximum, so a prior of one virtual game between every two bots that met
(at any table, with a winner or not), won half by each, is added (as Coulom's BayesElo adds
virtual draws): it pulls no rating visibly once a few dozen real games are in.  Ratings are
on the Elo scale, ``400 * log10(gamma_b / gamma_anchor)``, with the anchor bot (``random``)
at 0: 200 points more means winning a two-side game about 76% of the time.

**Intervals.**  A percentile bootstrap over deals (Efron and Tibshirani, *An Introduction to
the Bootstrap*, 1993, chapter 13): the deals are resampled with replacement, every game of a
resampled deal coming with it (the games of one deal share its cards, so they are resampled
together), and the model refitted; the 2.5% and 97.5% points of each bot's rating over
:data:`BOOTSTRAP` refits are its interval.  The bootstrap is seeded: equal games give equal
intervals.  A resample holds only outcomes that happened, so when few games all went one way
(4 of 4 won) every refit is the same and the percentiles have almost no width: the
interval says "measured exactly" of what rests on 4 games.  So each end is the farther of
the bootstrap's and the Wald interval's, ``rating -+ 1.96`` standard errors from the
curvature of the log-likelihood at the fit (its observed information, the prior's virtual
games included, the anchor held at 0).  With many games of both outcomes the two agree (both
are asymptotically normal); with few, or against a bot that never wins (``random``, the
default anchor), the Wald interval's width is the honest one: two bots, 4 games all won by
one, give it +382 (-126..+889) where the bootstrap alone said +382 (+382..+382).  A bot the
games do not tie to the anchor keeps the bootstrap's interval.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

import attrs

from spitemalice.guards import check_int, check_list, check_real, check_seed, int_field
from spitemalice.limits import MAX_BOOTSTRAP
from spitemalice.measures.interval import Z95, Interval
from spitemalice.rules.ruleset import side_field

BOOTSTRAP = 400
"""Bootstrap refits behind each interval."""

PRIOR = 1.0
"""Virtual games, won half by each, between every two bots that met (at any table)."""

_TOLERANCE = 1e-9

_Key = tuple[tuple[str, ...], int]
"""A table and its winning side: what the fit counts."""
_MOST_STEPS = 10_000


@attrs.frozen
class Table:
    """One game as rating evidence: the bot of each side, and the winning side.

    Attributes:
        sides: the bot of each side (a seat, or a team), in side order.
        winner: the index in ``sides`` of the side that won, or ``None`` (no evidence).
        deal: the deal the game was played on (games of one deal are resampled together).

    Raises:
        SpiteMaliceError: ``winner`` a whole number outside 0 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS` less one, or ``deal`` one outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    sides: tuple[str, ...]
    winner: int | None = attrs.field(validator=side_field())
    deal: int = attrs.field(validator=int_field(0))


@attrs.frozen
class Rating:
    """One bot's rating.

    Attributes:
        bot: the bot's name.
        rating: Elo-scale rating (the anchor bot 0) with its 95% interval (the module
            docstring; ``n``: the games with a winner the bot played in).
        games: games the bot played, with a winner or not.
        wins: games its side won.

    Raises:
        SpiteMaliceError: ``games`` or ``wins`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    bot: str
    rating: Interval
    games: int = attrs.field(validator=int_field(0))
    wins: int = attrs.field(validator=int_field(0))

    def as_dict(self) -> dict[str, object]:
        return {"bot": self.bot, "rating": self.rating.as_dict(1), "games": self.games,
                "wins": self.wins}


def strengths(tables: Iterable[Table], bots: Sequence[str]) -> dict[str, float]:
    """The maximum-likelihood strengths ``gamma`` of ``bots`` (with the prior; see the module
    docstring), scaled so that they multiply to 1.

    Raises:
        ValueError: a table names a bot not in ``bots``.
    """
    check_list(tables, "strengths", "tables, a list of result tables,",
               "[Table(...), ...] (from the games' rows)")
    check_list(bots, "strengths", "bots, a list of bot names,",
               '["greedy", "random"]')
    counts = Counter((t.sides, t.winner) for t in tables if t.winner is not None)
    return _fit(counts, bots, _met(tables))


def _met(tables: Iterable[Table]) -> frozenset[tuple[str, ...]]:
    """The bots of every table, with a winner or not: whom the prior's virtual games join."""
    return frozenset(tuple(sorted(set(t.sides))) for t in tables)


_Shape = tuple[list[tuple[int, int]], float]
"""A distinct table: (bot index, sides it held) for each bot there, and its games' weight."""


def _fit(counts: Mapping[_Key, int], bots: Sequence[str], met: frozenset[tuple[str, ...]],
         start: Mapping[str, float] | None = None) -> dict[str, float]:
    size = len(bots)
    wins, shapes = _shapes(counts, bots, met)
    gamma = [start[bot] for bot in bots] if start else [1.0] * size
    for _ in range(_MOST_STEPS):
        denominators = [0.0] * size
        for held, weight in shapes:
            total = sum(gamma[i] * n for i, n in held)
            for i, n in held:
                denominators[i] += weight * n / total
        new = [wins[i] / denominators[i] if denominators[i] else gamma[i] for i in range(size)]
        scale = math.exp(-sum(math.log(g) for g in new) / size) if all(new) else 1.0
        new = [g * scale for g in new]
        change = max(abs(math.log(n / g)) for n, g in zip(new, gamma, strict=True))
        gamma = new
        if change < _TOLERANCE:
            break
    return dict(zip(bots, gamma, strict=True))


def _shapes(counts: Mapping[_Key, int], bots: Sequence[str],
            met: frozenset[tuple[str, ...]]) -> tuple[list[float], list[_Shape]]:
    """Each bot's wins and the distinct tables, the prior's virtual games (one between every
    two bots of a table in ``met``) included."""
    index = {bot: i for i, bot in enumerate(bots)}
    wins = [0.0] * len(bots)
    # Each distinct table: how many games, and how many sides each bot held there.
    tables: Counter[tuple[str, ...]] = Counter()
    pairs: set[tuple[int, int]] = set()
    for present in met:  # every table's bots: the counted ones are among them
        unknown = set(present) - index.keys()
        if unknown:
            raise ValueError(f"a table names bots {sorted(unknown)} not among {list(bots)}")
        ranks = sorted(index[bot] for bot in present)
        pairs.update((a, b) for a in ranks for b in ranks if a < b)
    for (sides, winner), count in counts.items():
        wins[index[sides[winner]]] += count
        tables[sides] += count
    shapes: list[tuple[list[tuple[int, int]], float]] = [
        ([(index[bot], held) for bot, held in Counter(sides).items()], count)
              for sides, count in tables.items()]
    for a, b in sorted(pairs):  # the prior: virtual games, won half by each
        wins[a] += PRIOR / 2
        wins[b] += PRIOR / 2
        shapes.append(([(a, 1), (b, 1)], PRIOR))
    return wins, shapes


def _standard_errors(counts: Mapping[_Key, int], bots: Sequence[str],
                     met: frozenset[tuple[str, ...]], gamma: Mapping[str, float],
                     anchor: str) -> dict[str, float]:
    """Each bot's standard error on the Elo scale, from the curvature of the log-likelihood
    (the prior's virtual games included) at the fit ``gamma``, the anchor held at 0: the
    inverse of the observed information.  A game at a table where bot ``i`` holds share
    ``p_i = n_i gamma_i / sum_j n_j gamma_j`` adds ``diag(p) - p p^T`` to the information
    in log-strengths, whoever won.  Infinite when the games do not tie a bot to the anchor."""
    _, shapes = _shapes(counts, bots, met)
    size = len(bots)
    strength = [gamma[bot] for bot in bots]
    information = [[0.0] * size for _ in range(size)]
    for held, weight in shapes:
        total = sum(strength[i] * n for i, n in held)
        share = {i: strength[i] * n / total for i, n in held}
        for i, p in share.items():
            information[i][i] += weight * p
            for j, q in share.items():
                information[i][j] -= weight * p * q
    rest = [i for i, bot in enumerate(bots) if bot != anchor]
    inverse = _inverse([[information[i][j] for j in rest] for i in rest])
    scale = 400 / math.log(10)  # log-strength to Elo points
    errors = {anchor: 0.0}
    for k, i in enumerate(rest):
        errors[bots[i]] = math.inf if inverse is None else scale * math.sqrt(
            max(inverse[k][k], 0.0))
    return errors


def _inverse(matrix: list[list[float]]) -> list[list[float]] | None:
    """The inverse of a small symmetric matrix by Gauss-Jordan elimination with partial
    pivoting, or ``None`` when it is singular."""
    size = len(matrix)
    rows = [row[:] + [float(i == j) for j in range(size)] for i, row in enumerate(matrix)]
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        if abs(rows[pivot][column]) < 1e-12:
            return None
        rows[column], rows[pivot] = rows[pivot], rows[column]
        lead = rows[column][column]
        rows[column] = [value / lead for value in rows[column]]
        for r in range(size):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return [row[size:] for row in rows]


def elo(gamma: Mapping[str, float], anchor: str) -> dict[str, float]:
    """Strengths on the Elo scale, ``anchor`` at 0."""
    base = gamma[anchor]
    return {bot: 400 * math.log10(value / base) for bot, value in gamma.items()}


def ratings(tables: Sequence[Table], bots: Sequence[str], anchor: str,
            seed: int = 0, bootstrap: int = BOOTSTRAP) -> list[Rating]:
    """Each bot's Elo-scale rating with its 95% interval (the wider, at each end, of the
    bootstrap's and the Wald interval's: the module docstring), best first.

    Args:
        tables: the games, each a :class:`Table`.
        bots: the bots to rate (every bot a table names).
        anchor: the bot rated 0.
        seed: seeds the bootstrap's resampling of deals, 0 to
            :data:`~spitemalice.limits.MAX_SEED`.
        bootstrap: refits behind the intervals (0: the Wald interval alone), at most
            :data:`~spitemalice.limits.MAX_BOOTSTRAP`.

    Raises:
        ValueError: ``anchor`` not among ``bots``, or a table names an unknown bot.
        SpiteMaliceError: (a ``ValueError``) ``seed`` or ``bootstrap`` out of range.
    """
    check_list(tables, "ratings", "tables, a list of result tables,",
               "[Table(...), ...] (from the games' rows)")
    check_list(bots, "ratings", "bots, a list of bot names,",
               '["greedy", "random"]')
    seed = check_seed(seed)
    bootstrap = check_int(bootstrap, "bootstrap (refits)", 0, MAX_BOOTSTRAP,
                          constant="spitemalice.limits.MAX_BOOTSTRAP")
    if anchor not in bots:
        raise ValueError(f"the anchor {anchor!r} is not among the bots {list(bots)}")
    decided = [t for t in tables if t.winner is not None]
    fitted = strengths(tables, bots)
    met = _met(tables)
    point = elo(fitted, anchor)
    by_deal: dict[int, Counter[_Key]] = {}
    for table in decided:
        assert table.winner is not None
        by_deal.setdefault(table.deal, Counter())[(table.sides, table.winner)] += 1
    deals = list(by_deal.values())
    rng = random.Random(seed)
    draws: dict[str, list[float]] = {bot: [] for bot in bots}
    for _ in range(bootstrap if deals else 0):
        counts: Counter[_Key] = Counter()
        for _ in deals:
            counts.update(deals[rng.randrange(len(deals))])
        for bot, value in elo(_fit(counts, bots, met, fitted), anchor).items():
            draws[bot].append(value)
    played = Counter(bot for t in tables for bot in set(t.sides))
    decided_games = Counter(bot for t in decided for bot in set(t.sides))
    won = Counter(t.sides[t.winner] for t in decided if t.winner is not None)
    errors = _standard_errors(sum(by_deal.values(), Counter()), bots, met, fitted, anchor)
    result = []
    for bot in bots:
        low, high = _percentiles(draws[bot], point[bot])
        if math.isfinite(errors[bot]):  # each end the farther of the two intervals
            low = min(low, point[bot] - Z95 * errors[bot])
            high = max(high, point[bot] + Z95 * errors[bot])
        result.append(Rating(bot, Interval(point[bot], low, high, decided_games[bot]),
                             played[bot], won[bot]))
    return sorted(result, key=lambda r: -r.rating.estimate)


def _percentiles(values: list[float], point: float) -> tuple[float, float]:
    """The 2.5% and 97.5% points of ``values`` (nearest rank), widened to hold ``point``."""
    if not values:
        return point, point
    ordered = sorted(values)
    low = ordered[max(0, math.ceil(0.025 * len(ordered)) - 1)]
    high = ordered[min(len(ordered) - 1, math.ceil(0.975 * len(ordered)) - 1)]
    return min(low, point), max(high, point)


def expected_share(rating_a: float, rating_b: float) -> float:
    """The share of two-side games a bot rated ``rating_a`` wins against one rated
    ``rating_b`` (the model's prediction).

    Raises:
        SpiteMaliceError: a rating that is no finite number of at most
            :data:`~spitemalice.limits.MAX_REAL` in size.
    """
    rating_a = check_real(rating_a, "rating_a", what="an Elo rating")
    rating_b = check_real(rating_b, "rating_b", what="an Elo rating")
    if abs(rating_b - rating_a) > 400 * 300:  # 10**300 and more: the share is 0 or 1
        return 0.0 if rating_b > rating_a else 1.0
    return 1 / (1 + 10 ** ((rating_b - rating_a) / 400))
