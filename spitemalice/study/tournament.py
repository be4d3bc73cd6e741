"""A ladder tournament: each bot against the one before it (``spitemalice tournament``).

For each pair (previous, next) of the bot list, every deal is played once per seat the newer
bot can take, the older bot in every other seat (duplicate play: both bots get the same
cards, so the luck of the deal cancels).  The newer bot's win rate carries a Wilson 95%
interval; a rate whose interval lies above 50% (for two seats; ``1/seats`` in general) shows
the newer bot is stronger.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any

import attrs

from spitemalice.rulebook import RuleBook
from spitemalice.stats import Interval, wilson
from spitemalice.study.runner import GameRow, configuration, play_games


@attrs.frozen
class Pairing:
    """The newer bot ``challenger`` against ``incumbent``.

    Attributes:
        games: games played (deals times seats).
        wins, losses, draws: the challenger's results (a loss: another seat won).
        rate: the challenger's win rate with its Wilson interval.
        fair: the win rate of equal bots (``1 / seats``).
    """

    challenger: str
    incumbent: str
    games: int
    wins: int
    losses: int
    draws: int
    rate: Interval
    fair: float

    @property
    def stronger(self) -> bool:
        """``True`` when the whole interval lies above the fair share."""
        return self.rate.low > self.fair

    def as_dict(self) -> dict[str, object]:
        return {"challenger": self.challenger, "incumbent": self.incumbent,
                "games": self.games, "wins": self.wins, "losses": self.losses,
                "draws": self.draws, "win_rate": self.rate.as_dict(), "fair": self.fair,
                "stronger": self.stronger}


def tournament(rules: RuleBook, bots: Sequence[str], deals: int, seed: int,
               on_game: Callable[[tuple[GameRow, ...]], None] | None = None,
               jobs: int | None = 1, client: Any = None) -> list[Pairing]:
    """Play each bot of ``bots`` against the one before it on ``deals`` deals, the challenger
    once in each seat of every deal.  ``jobs`` and ``client`` choose where the games are
    played (:func:`spitemalice.parallel.run_games`); the table never depends on them.

    Raises:
        SpiteMaliceError: an unknown bot.
        ValueError: fewer than two bots.
    """
    if len(bots) < 2:
        raise ValueError(f"a tournament needs two or more bots, not {len(bots)}")
    seats = rules.players
    pairings = []
    for incumbent, challenger in pairwise(bots):
        configs = [configuration(rules, [challenger if s == seat else incumbent
                                         for s in range(seats)], f"{challenger}@{seat}")
                   for seat in range(seats)]
        run = play_games(configs, seed, range(deals), on_game, jobs, client)
        results = [(row.winner, seat) for seat, column in enumerate(run.rows)
                   for row in column]
        wins = sum(winner == seat for winner, seat in results)
        draws = sum(winner is None for winner, _ in results)
        pairings.append(Pairing(challenger, incumbent, len(results), wins,
                                len(results) - wins - draws, draws,
                                wilson(wins, len(results)), 1 / seats))
        if run.interrupted:
            break
    return pairings


def format_table(pairings: Sequence[Pairing]) -> str:
    """The tournament as an aligned table, one line per pairing."""
    header = ("challenger", "vs", "games", "won", "lost", "drawn", "win rate (95% interval)")
    lines = [header]
    for p in pairings:
        mark = "  stronger" if p.stronger else ""
        lines.append((p.challenger, p.incumbent, str(p.games), str(p.wins), str(p.losses),
                      str(p.draws),
                      f"{p.rate.estimate:.1%} ({p.rate.low:.1%}..{p.rate.high:.1%}){mark}"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True))
                     .rstrip() for line in lines)
