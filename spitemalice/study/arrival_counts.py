"""What ``simulate`` reports of games whose seats move at once (Spit), counted a game at a
time: the run keeps numbers, never its games, so 100,000 games cost what 100 do.

Every rate has its 95% Wilson interval and every mean its Student's t interval, as the
turn-based summary's (:func:`~spitemalice.study.simulate.simulate`).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from spitemalice.guards import check_int
from spitemalice.measures.interval import COUNT, Interval, length_ranges
from spitemalice.measures.means import mean_interval
from spitemalice.measures.rates import wilson
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.runs.arrival import ArrivalGame
from spitemalice.study.simulate import percentile

OUTCOMES = ("win", "drawn", "turn-limit")
"""The outcome kinds a game under an arrival policy ends with."""


class ArrivalCounts:
    """The counts of :func:`~spitemalice.runs.arrival.play_arrival`'s games, added with
    :meth:`add`; :meth:`as_dict` gives the summary.

    Args:
        players: the seat count (``wins_per_seat`` has one entry each).
        move_limit: the moves after which a game ends (the rule set's ``turn_limit``:
            Spit's counts moves), which bounds the intervals of the moves and rounds per
            game (a round ends at a move); ``None``: not known, any count.

    Raises:
        SpiteMaliceError: ``players`` is not a whole number from 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`, or ``move_limit`` neither ``None``
            nor a whole number from 0 to :data:`~spitemalice.limits.MAX_INT`.
    """

    def __init__(self, players: int, move_limit: int | None = None) -> None:
        self.players = check_int(players, "players", 1, MAX_SEATS,
                                 constant="spitemalice.rules.ruleset.MAX_SEATS")
        self.lengths = length_ranges(move_limit)[0]  # 0..move_limit
        self.kinds: Counter[str] = Counter()
        self.wins: Counter[int] = Counter()
        self.moves: list[int] = []
        self.rounds: list[int] = []
        self.stale: list[int] = []

    @property
    def games(self) -> int:
        """The games added."""
        return len(self.moves)

    def add(self, game: ArrivalGame) -> None:
        """Count one finished game."""
        self.kinds[game.outcome.kind] += 1
        if game.outcome.winner is not None:
            self.wins[game.outcome.winner] += 1
        self.moves.append(len(game.log))
        self.rounds.append(getattr(game.final, "round", 0))
        self.stale.append(game.stale)

    def intervals(self) -> dict[str, Any]:
        """Each rate's and mean's 95% interval: ``outcomes`` by kind, ``wins_per_seat`` a
        list, ``mean_moves``, ``mean_rounds`` (counts: ``unit=1``; each within 0 to the
        move limit), ``stale_per_game`` (a count: ``unit=1``, 0 or more)."""
        n = self.games
        return {
            "outcomes": {kind: wilson(self.kinds.get(kind, 0), n) for kind in OUTCOMES},
            "wins_per_seat": [wilson(self.wins.get(seat, 0), n)
                              for seat in range(self.players)],
            "mean_moves": _mean(self.moves, self.lengths),
            "mean_rounds": _mean(self.rounds, self.lengths),
            "stale_per_game": _mean(self.stale, COUNT),
        }

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON data: counts, means, the 95th percentile of moves, and
        ``intervals`` (each ``{"estimate", "low", "high", "n"}``)."""
        n, ci = self.games, self.intervals()
        return {
            "games": n,
            "outcomes": {kind: self.kinds.get(kind, 0) for kind in OUTCOMES},
            "wins_per_seat": [self.wins.get(seat, 0) for seat in range(self.players)],
            "win_share_intervals": [[round(i.low, 4), round(i.high, 4)] if n else None
                                    for i in ci["wins_per_seat"]],
            "mean_moves": ci["mean_moves"].estimate,
            "p95_moves": percentile(self.moves, 0.95) if n else 0.0,
            "mean_rounds": ci["mean_rounds"].estimate,
            "stale_per_game": ci["stale_per_game"].estimate,
            "intervals": {
                "outcomes": {kind: i.as_dict() for kind, i in ci["outcomes"].items()},
                "wins_per_seat": [i.as_dict() for i in ci["wins_per_seat"]],
                **{name: ci[name].as_dict()
                   for name in ("mean_moves", "mean_rounds", "stale_per_game")},
            },
        }


def _mean(values: list[int], within: tuple[float, float]) -> Interval:
    """The mean of per-game counts with its interval, kept ``within`` the range they take."""
    return mean_interval([float(v) for v in values], within=within, unit=1.0)
