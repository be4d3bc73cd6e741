"""What the checked games of a validation showed, folded in as each is committed
(:func:`spitemalice.validation.dynamic.dynamic_checks`)."""

from __future__ import annotations

from collections import Counter

import attrs

from spitemalice.engine.coverage import Tally as CoverageTally
from spitemalice.measures.rates import wilson
from spitemalice.model import GameState

from .failure import Failure
from .report import GameStats


@attrs.define
class Tally:
    """Running totals of the checked games: the clean games' statistics, the first failure,
    the games that failed, the positions audited and the rule coverage of every game."""

    seats: int
    kinds: Counter[str] = attrs.Factory(Counter)
    greedy_kinds: Counter[str] = attrs.Factory(Counter)
    lengths: list[int] = attrs.Factory(list)
    greedy_lengths: list[int] = attrs.Factory(list)
    wins: int = 0
    first_wins: int = 0
    positions: list[int] = attrs.Factory(list)
    stuck_seats: int = 0
    stuck_games: int = 0
    failure: Failure | None = None
    failed_games: int = 0
    audited: int = 0
    coverage: CoverageTally = attrs.Factory(CoverageTally)

    def add_game(self, lineup: str, final: GameState, first: int, length: int,
                 problem: Failure | None, audited: int, stuck_seats: int,
                 covered: CoverageTally) -> bool:
        """Fold in one checked game (what :class:`~spitemalice.validation.dynamic.CheckedGame`
        returns); ``False`` when no further game should be played (this one did not end,
        and every further game would hang the same way)."""
        self.audited += audited
        self.coverage.add(covered)
        self.stuck_seats += stuck_seats
        self.stuck_games += stuck_seats > 0
        if problem is not None:
            self.failed_games += 1
            self.failure = self.failure or problem
            return problem.invariant != "non-termination"
        self._add_clean(final, first, length, lineup)
        return True

    def _add_clean(self, final: GameState, first: int, length: int, lineup: str) -> None:
        assert final.outcome is not None
        winner = final.outcome.winner
        self.kinds[final.outcome.kind] += 1
        self.lengths.append(length)
        if winner is not None:
            self.wins += 1
            self.first_wins += winner == first
        if lineup == "greedy":
            self.greedy_kinds[final.outcome.kind] += 1
            self.greedy_lengths.append(length)
            if winner is not None:
                if not self.positions:
                    self.positions = [0] * self.seats
                self.positions[(winner - first) % self.seats] += 1

    def stats(self) -> GameStats:
        """The clean games' statistics (``played`` counts the failed games too)."""
        clean = sum(self.kinds.values())
        interval = wilson(self.first_wins, self.wins)
        greedy = len(self.greedy_lengths)
        return GameStats(
            clean, sum(self.lengths) / clean if clean else 0.0,
            (clean - self.wins) / clean if clean else 0.0,
            self.first_wins / self.wins if self.wins else 0.0, (interval.low, interval.high),
            dict(self.kinds), greedy, dict(self.greedy_kinds),
            sum(self.greedy_lengths) / greedy if greedy else 0.0,
            tuple(self.positions or [0] * self.seats), tuple(self.greedy_lengths),
            self.stuck_seats, self.stuck_games, clean + self.failed_games,
            coverage_tally=self.coverage,
        )
