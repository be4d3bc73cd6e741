"""A round robin of bots with ratings and intervals (``spitemalice ladder``).

Every two bots of the list meet on the same deals, each deal played twice with the sides
swapped (:mod:`spitemalice.study.pairs`); game ``g`` of every pair is dealt from the same seed,
so the whole round robin is played on duplicate deals.  The games are rated by a
Bradley-Terry model (Luce's choice model with more than two sides; how a multi-seat game
becomes evidence is in :mod:`spitemalice.study.ratings`), with the anchor bot at 0 and
95% intervals (the bootstrap's, each end widened to the Wald interval's where that is
farther: :mod:`spitemalice.study.ratings`).

**Stopping when the order is decided.**  With a margin the deals are played in batches, and
each pair carries Wald's sequential probability ratio test on its per-deal results (as
``compare --until-decided`` does): it decides whether one bot wins at least ``margin`` more
than half of the games between them ("differs") or less ("same").  A decided pair plays no
more; the run stops when every two bots next to each other in the current rating order are
decided (their order is known, or they are as strong as each other within the margin), or
when the deal limit is reached.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, pairwise
from typing import Any

import attrs

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import (
    check_games,
    check_jobs,
    check_list,
    check_real,
    check_seed,
    int_field,
    real_field,
)
from spitemalice.measures.interval import Interval
from spitemalice.measures.sequential import SprtResult
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.ruleset import seats_field
from spitemalice.runs.runner import GameRow, Run, play_games
from spitemalice.study.pairs import PairTally, pair_configs, table_of
from spitemalice.study.ratings import Rating, Table, ratings
from spitemalice.wording import count_of, shown

THIN = 20
"""A bot whose games had a winner fewer times than this is rated on too little: the ladder says
so (:func:`thin_evidence`)."""


@attrs.frozen
class Pair:
    """One pair's results and, with a margin, its test's state."""

    tally: PairTally
    test: SprtResult | None

    def as_dict(self) -> dict[str, object]:
        data = self.tally.as_dict()
        if self.test is not None:
            data["decision"] = self.test.decision
        return data


@attrs.frozen
class Ladder:
    """A finished round robin.

    Attributes:
        ruleset, players: what was played.
        anchor: the bot rated 0.
        ratings: best first.
        pairs: every two bots, in the order of the bot list.
        deals: the most deals any pair played.
        margin: the sequential test's margin, or ``None`` for a fixed number of deals.
        decided: with a margin, whether every two neighbours in the order were decided.
        interrupted: Ctrl-C stopped the run.

    Raises:
        SpiteMaliceError: ``players`` a whole number outside 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`, ``deals`` one outside 0 to
            :data:`~spitemalice.limits.MAX_INT`, or ``margin`` a number past
            :data:`~spitemalice.limits.MAX_REAL` in size.
    """

    ruleset: str
    players: int = attrs.field(validator=seats_field())
    anchor: str
    ratings: tuple[Rating, ...]
    pairs: tuple[Pair, ...]
    deals: int = attrs.field(validator=int_field(0))
    margin: float | None = attrs.field(validator=real_field())
    decided: bool
    interrupted: bool = False

    def as_dict(self) -> dict[str, object]:
        return {"ruleset": self.ruleset, "players": self.players, "anchor": self.anchor,
                "deals": self.deals, "margin": self.margin, "decided": self.decided,
                "interrupted": self.interrupted,
                "ratings": [r.as_dict() for r in self.ratings],
                "pairs": [p.as_dict() for p in self.pairs], "notes": thin_evidence(self)}


def ladder(rules: RuleBook, bots: Sequence[str], deals: int, seed: int,
           margin: float | None = None, batch: int = 50, anchor: str | None = None,
           on_game: Callable[[tuple[GameRow, ...]], None] | None = None,
           jobs: int | None = 1, client: Any = None) -> Ladder:
    """Play the round robin of ``bots`` on ``rules`` and rate them.

    Args:
        deals: deals per pair (with ``margin``: at most), 1 to
            :data:`~spitemalice.limits.MAX_GAMES`.
        seed: the run seed (0 to :data:`~spitemalice.limits.MAX_SEED`); game ``g`` of every
            pair is dealt from the same seed.
        margin: stop early once the order is decided (module docstring), testing whether a
            bot wins ``margin`` (a share, 0.05 for 55%) more than half of its games.
        batch: deals per batch with a margin, 1 to :data:`~spitemalice.limits.MAX_GAMES`.
        anchor: the bot rated 0 (default ``random`` when listed, else the first bot).
        on_game: called with each deal's rows (two per pair still playing).
        jobs: worker processes (:func:`spitemalice.runs.parallel.run_games`).
        client: a Dask client to play on instead; the result never depends on either.

    Raises:
        ValueError: fewer than two bots, a bot named twice, or a margin not in (0, 0.5)
            (a :class:`SpiteMaliceError` naming the bound).
        SpiteMaliceError: an unknown bot, teams that cannot seat two bots fairly, or a
            ``deals``, ``seed``, ``batch`` or ``jobs`` out of range (naming the bound).
    """
    check_book(rules, "ladder")
    check_list(bots, "ladder", "bots, a list of bot names,",
               '["greedy", "random"]')
    deals, seed = check_games(deals, "deals"), check_seed(seed)
    batch, jobs = check_games(batch, "batch"), check_jobs(jobs)
    _check_bots_and_margin(bots, margin)
    anchor = anchor or ("random" if "random" in bots else bots[0])
    tallies = {pair: PairTally(*pair) for pair in combinations(bots, 2)}
    configs = {pair: pair_configs(rules, *pair) for pair in tallies}
    tables: list[Table] = []
    played = 0
    interrupted = False
    while played < deals and not interrupted:
        active = [pair for pair in tallies
                  if margin is None or tallies[pair].test(margin).decision == "undecided"]
        if margin is not None and _decided(tallies, _order(tables, bots, anchor), margin):
            break
        stop = deals if margin is None else min(deals, played + batch)
        run = play_games([c for pair in active for c in configs[pair]], seed,
                         range(played, stop), on_game, jobs, client)
        _add_run(rules, run, active, tallies, tables)
        played = stop if not run.interrupted else played + len(run.rows[0])
        interrupted = run.interrupted
    rated = ratings(tables, bots, anchor, seed)
    order = [r.bot for r in rated]
    return Ladder(rules.name, rules.players, anchor, tuple(rated),
                  tuple(Pair(t, t.test(margin) if margin is not None else None)
                        for t in tallies.values()),
                  played, margin,
                  margin is not None and _decided(tallies, order, margin), interrupted)


def _check_bots_and_margin(bots: Sequence[str], margin: float | None) -> None:
    """Refuse fewer than two bots, a bot named twice, or a margin not in (0, 0.5)."""
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise ValueError(f"a ladder needs two or more different bots, not {list(bots)}")
    if margin is not None and not 0 < check_real(margin, "the margin", 0.0, 0.5,
                                                 what="a share") < 0.5:
        raise SpiteMaliceError(f"the margin is a share between 0 and 0.5, not "
                               f"{shown(margin)}")


def _add_run(rules: RuleBook, run: Run, active: list[tuple[str, str]],
             tallies: dict[tuple[str, str], PairTally], tables: list[Table]) -> None:
    """Count the games of ``run`` (two configurations per pair of ``active``, in order, each
    deal played once either way round) in the pairs' ``tallies`` and in ``tables``."""
    for index, pair in enumerate(active):
        first, second = run.rows[2 * index], run.rows[2 * index + 1]
        for one, two in zip(first, second, strict=True):
            deal = [table_of(rules, one), table_of(rules, two)]
            tallies[pair].add_deal(deal)
            tables.extend(deal)

def _order(tables: Sequence[Table], bots: Sequence[str], anchor: str) -> list[str]:
    """The bots by their point ratings, best first (no bootstrap: only the order counts)."""
    if not tables:
        return list(bots)
    return [r.bot for r in ratings(tables, bots, anchor, bootstrap=0)]


def _decided(tallies: dict[tuple[str, str], PairTally], order: Sequence[str],
             margin: float) -> bool:
    """Whether the test of every two bots next to each other in ``order`` has decided."""
    for upper, lower in pairwise(order):
        tally = tallies.get((upper, lower)) or tallies[(lower, upper)]
        if tally.test(margin).decision == "undecided":
            return False
    return True


def thin_evidence(result: Ladder) -> list[str]:
    """What the ratings cannot say: one line per bot rated on fewer than :data:`THIN` games
    with a winner (games without a winner are no evidence, :mod:`spitemalice.study.ratings`),
    and, when that bot is the anchor, that every rating is measured from a bot the games
    hardly placed."""
    notes = []
    for r in result.ratings:
        decided = r.rating.n
        if decided >= THIN or not r.games:
            continue
        line = (f"{r.bot}: {decided} of its {count_of(r.games, 'game')} had a winner; its rating "
                "rests on "
                f"{'nothing but the prior' if not decided else 'almost nothing'}")
        if r.bot == result.anchor and not r.wins:
            line += ("; it is the anchor, so every rating here is measured from a bot the "
                     "games did not place: rerun with --anchor naming a bot that wins games")
        elif r.bot == result.anchor:  # it wins: what it lacks is games, not a better anchor
            line += "; it is the anchor, so every rating here rests on its few games: play " \
                    "more --games"
        notes.append(line)
    return notes


def format_ladder(result: Ladder) -> str:
    """The ladder as an aligned table (rating, interval, games, wins) and the pairs.  Bots
    whose ratings print alike share a rank (1, 1, 3: try-out s7b F9, a four-way tie was
    printed as an order)."""
    lines = [("rank", "bot", "rating (95% interval)", "games", "won")]
    rank, previous = 0, ""
    for position, r in enumerate(result.ratings, 1):
        rating = f"{r.rating.estimate:+.0f}"
        if rating != previous:
            rank, previous = position, rating
        lines.append((str(rank), r.bot, f"{rating} ({r.rating.low:+.0f}..{r.rating.high:+.0f})",
                      str(r.games), str(r.wins)))
    place = {r.bot: index for index, r in enumerate(result.ratings)}
    pairs = [("pair (higher rated first)", "games", "won", "lost", "no winner",
              "share of won games (95%)", *(("decision",) if result.margin else ()))]
    for pair in result.pairs:
        t = pair.tally
        first, second, won, lost, rate = t.a, t.b, t.wins_a, t.wins_b, t.rate
        if place[t.b] < place[t.a]:
            first, second, won, lost = t.b, t.a, t.wins_b, t.wins_a
            rate = Interval(1 - rate.estimate, 1 - rate.high, 1 - rate.low, rate.n)
        pairs.append((f"{first} v {second}", str(t.games), str(won), str(lost),
                      str(t.no_winner), f"{rate.estimate:.1%} ({rate.low:.1%}..{rate.high:.1%})"
                      if rate.n else "- (no won games)",
                      *((pair.test.decision,) if pair.test is not None else ())))
    notes = "".join(f"\nnote: {line}" for line in thin_evidence(result))
    return _aligned(lines) + "\n\n" + _aligned(pairs) + ("\n" + notes if notes else "")


def _aligned(lines: Sequence[Sequence[str]]) -> str:
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True))
                     .rstrip() for line in lines)
