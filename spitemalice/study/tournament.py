"""A ladder tournament: each bot against the one before it (``spitemalice tournament``).

For each pair (previous, next) of the bot list, every deal is played once per seat the newer
bot can take, the older bot in every other seat (duplicate play: both bots get the same
cards, so the luck of the deal cancels).  The newer bot's win rate carries a 95% interval
(:func:`challenger_rate`: the games of one deal share their cards, so it counts deals as well
as games); a rate whose interval lies above 50% (for two seats; ``1/seats`` in general) shows
the newer bot is stronger.

With teams (``rules.teams``, say the partnerships house rule) a bot plays a whole team: both
partners are the same bot, every deal is played once per team the newer bot can take, and a
game counts as the newer bot's win when the winning seat is in its team (PT-4 names the
partner whose pay-off pile emptied last; the team wins either way).  The fair share is then
``1/teams``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import pairwise
from typing import Any, overload

import attrs

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import (
    check_games,
    check_list,
    check_real,
    check_seed,
    int_field,
    real_field,
)
from spitemalice.measures.interval import SHARE, Interval
from spitemalice.measures.means import mean_interval
from spitemalice.measures.rates import wilson
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.policies import teams_text
from spitemalice.runs.runner import GameRow, configuration, play_games
from spitemalice.wording import shown

PRIOR_DEALS = 4
"""The weight, in deals, of the prior variance a win rate's interval over deals pools
(:func:`challenger_rate`; the ladder's pairs pool the same, ``pairs.PRIOR_DEALS``)."""


@attrs.frozen
class Pairing:
    """The newer bot ``challenger`` against ``incumbent``.

    Attributes:
        games: games played (deals times seats; deals times teams with teams).
        deals: deals played (fewer than asked in a pairing a stop cut short).
        wins, losses, draws: the challenger's results (a win: a seat of the challenger's
            team won; a loss: a seat of another team won; without teams each seat is a team).
        rate: the challenger's win rate with its interval (:func:`challenger_rate`).
        fair: the win rate of equal bots (``1 / seats``; ``1 / teams`` with teams).

    Raises:
        SpiteMaliceError: a count a whole number outside 0 to :data:`~spitemalice.limits.MAX_INT`,
            or ``fair`` a number outside 0 to 1.
    """

    challenger: str
    incumbent: str
    games: int = attrs.field(validator=int_field(0))
    wins: int = attrs.field(validator=int_field(0))
    losses: int = attrs.field(validator=int_field(0))
    draws: int = attrs.field(validator=int_field(0))
    rate: Interval
    fair: float = attrs.field(validator=real_field(0.0, 1.0))
    deals: int = attrs.field(default=0, validator=int_field(0))

    @property
    def stronger(self) -> bool:
        """``True`` when the whole interval lies above the fair share."""
        return self.rate.low > self.fair

    def as_dict(self) -> dict[str, object]:
        return {"challenger": self.challenger, "incumbent": self.incumbent,
                "games": self.games, "wins": self.wins, "losses": self.losses,
                "draws": self.draws, "win_rate": self.rate.as_dict(), "fair": self.fair,
                "stronger": self.stronger, "deals": self.deals}


@attrs.frozen
class Tournament(Sequence[Pairing]):
    """A tournament's pairings, in the order of the bot list (a sequence of
    :class:`Pairing`).

    Attributes:
        pairings: each pairing played, with at least one deal.
        deals: the deals asked for per pairing.
        interrupted: a stop (Ctrl-C, SIGTERM) cut the tournament short: the last pairing
            played fewer deals (its ``deals``), and the pairings after it none.

    Raises:
        SpiteMaliceError: ``deals`` a whole number outside 0 to :data:`~spitemalice.limits.MAX_INT`.
    """

    pairings: tuple[Pairing, ...]
    deals: int = attrs.field(validator=int_field(0))
    interrupted: bool = False

    @overload
    def __getitem__(self, index: int) -> Pairing: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Pairing]: ...

    def __getitem__(self, index: int | slice) -> Pairing | Sequence[Pairing]:
        return self.pairings[index]

    def __len__(self) -> int:
        return len(self.pairings)


def tournament(rules: RuleBook, bots: Sequence[str], deals: int, seed: int,
               on_game: Callable[[tuple[GameRow, ...]], None] | None = None,
               jobs: int | None = 1, client: Any = None) -> Tournament:
    """Play each bot of ``bots`` against the one before it on ``deals`` deals, the challenger
    once in each seat of every deal (with teams: once on each team, both partners the same
    bot).  ``on_game`` gets each deal's rows, one per seat (per team) the challenger took, in
    the order of ``rules.teams.teams``.  ``jobs`` and ``client`` choose where the games are
    played (:func:`spitemalice.runs.parallel.run_games`); the table never depends on them.
    A stop (Ctrl-C, SIGTERM) ends the tournament with the deals whose rows ``on_game`` took
    (:mod:`spitemalice.runs.commit`); the result says it was interrupted.

    Returns:
        the pairings played, as a :class:`Tournament` (a sequence of :class:`Pairing`).

    Raises:
        SpiteMaliceError: an unknown bot, teams that cannot seat two bots fairly (fewer
            than two teams, or teams of different sizes), ``deals`` not 1 to
            :data:`~spitemalice.limits.MAX_GAMES` or a seed not 0 to
            :data:`~spitemalice.limits.MAX_SEED`.
        ValueError: fewer than two bots; SpiteMaliceError (a ``ValueError``): a bot right
            after itself.
    """
    check_book(rules, "tournament")
    check_list(bots, "tournament", "bots, a list of bot names,",
               '["greedy", "random"]')
    deals, seed = check_games(deals, "deals"), check_seed(seed)
    if len(bots) < 2:
        raise ValueError(f"a tournament needs two or more bots, not {len(bots)}")
    for incumbent, challenger in pairwise(bots):
        if incumbent == challenger:  # a bot against itself measures nothing (try-out s8b)
            raise SpiteMaliceError(f"a tournament plays each bot against the one before it: "
                                   f"{challenger} follows itself in {list(bots)}")
    sides = tournament_sides(rules)
    pairings = []
    for incumbent, challenger in pairwise(bots):
        configs = [configuration(rules, [challenger if s in side else incumbent
                                         for s in range(rules.players)],
                                 f"{challenger}@{rules.teams.label(index)}")
                   for index, side in enumerate(sides)]
        run = play_games(configs, seed, range(deals), on_game, jobs, client)
        # Per deal, whether the challenger won each of its games (one per side it took).
        won = [[row.winner is not None and row.winner in side
                for side, row in zip(sides, rows, strict=True)]
               for rows in zip(*run.rows, strict=True)]
        games = sum(len(deal) for deal in won)
        wins = sum(sum(deal) for deal in won)
        draws = sum(row.winner is None for column in run.rows for row in column)
        if games:
            pairings.append(Pairing(challenger, incumbent, games, wins, games - wins - draws,
                                    draws, challenger_rate(won, 1 / len(sides)),
                                    1 / len(sides), len(won)))
        if run.interrupted:
            return Tournament(tuple(pairings), deals, interrupted=True)
    return Tournament(tuple(pairings), deals)


def challenger_rate(won: Sequence[Sequence[bool]], fair: float) -> Interval:
    """The challenger's win rate over the games of ``won`` (per deal, whether it won each
    game it played), with the wider ends of two 95% intervals: Wilson's over the games, and
    Student's t over the deals' shares of games won.  The games of one deal share their
    cards, so they are not independent: against random, the two games of a deal both go to
    the other bot or both end drawn, and Wilson's interval over games alone made 6 of 6 over
    3 deals "stronger" (try-out s8).  The deals' variance pools
    :data:`PRIOR_DEALS` deals of ``fair * (1 - fair)``, a deal's variance when its games all
    go the same way, so a few deals that agree keep a width.

    Raises:
        TypeError: ``won`` is not a list (of lists of bools, one per deal).
        ValueError: no game in ``won``.
        SpiteMaliceError: ``fair`` no number above 0 and below 1.
    """
    check_list(won, "challenger_rate", "won, a list of deals (each a list of bools),",
               "[[True, False], [True, True]]")
    if not 0 < check_real(fair, "challenger_rate's fair (the win rate of equal bots)", 0.0,
                          1.0, what="a share") < 1:
        raise SpiteMaliceError(f"challenger_rate takes fair, the win rate of equal bots, above 0 "
                         f"and below 1 (0.5 for two sides), not {shown(fair)}")
    shares = [sum(deal) / len(deal) for deal in won if deal]
    games = sum(len(deal) for deal in won)
    if not games:
        raise ValueError("challenger_rate needs one game or more")
    over_games = wilson(sum(sum(deal) for deal in won), games)
    over_deals = mean_interval(shares, within=SHARE, prior_variance=fair * (1 - fair),
                               prior_weight=PRIOR_DEALS)
    return Interval(over_games.estimate, min(over_games.low, over_deals.low),
                    max(over_games.high, over_deals.high), games)


def tournament_sides(rules: RuleBook) -> tuple[tuple[int, ...], ...]:
    """The seats one bot takes in turn: each team of ``rules.teams`` (each seat alone without
    teams), as tuples of seats.

    Raises:
        SpiteMaliceError: fewer than two teams, or teams of different sizes (one bot would hold more
            seats than the other, so the fair share is not ``1/teams``).
    """
    sides = rules.teams.teams
    if len(sides) < 2:
        raise SpiteMaliceError(f"{rules.name}: a tournament seats two bots on different "
                               f"teams, and {teams_text(sides)} is a single team; play with "
                               f"more seats or without teams")
    if len({len(side) for side in sides}) > 1:
        raise SpiteMaliceError(f"{rules.name}: a tournament seats each bot on whole teams of "
                               f"equal size, and {teams_text(sides)} differ in size")
    return sides


def format_table(pairings: Sequence[Pairing]) -> str:
    """The tournament as an aligned table, one line per pairing."""
    check_list(pairings, "format_table", "pairings, a list of pairings,",
               'tournament(...).pairings')
    header = ("challenger", "vs", "games", "won", "lost", "drawn", "win rate (95% interval)")
    lines = [header]
    for p in pairings:
        mark = "  stronger" if p.stronger else ""
        lines.append((p.challenger, p.incumbent, str(p.games), str(p.wins), str(p.losses),
                      str(p.draws),
                      (f"{p.rate.estimate:.1%} ({p.rate.low:.1%}..{p.rate.high:.1%})" if p.rate.n
                       else "- (no won games)") + mark))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(w) for cell, w in zip(line, widths, strict=True))
                     .rstrip() for line in lines)
