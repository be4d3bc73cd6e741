"""Game-quality metrics as the general-game-playing literature defines them.

The names and definitions follow Ludii's evaluation metrics (Browne; Stephenson et al., the
``metrics`` package of the Ludii evaluation module), with cleared pay-off cards as the state
evaluation where Ludii asks an AI for one.  ``simulate --metrics``, ``compare`` and
``validate``'s warnings all speak this one vocabulary: :data:`METRICS` names each metric and
says what it measures; one function per metric computes it from counts (:func:`completion`,
:func:`drawishness`, :func:`timeouts`, :func:`first_seat_wins`, :func:`balance`,
:func:`duration`), each with a 95% interval; :func:`quality` applies them to the per-game rows
of :mod:`spitemalice.runs.runner`, and :mod:`spitemalice.validation.judge` to the games
``validate`` plays.

Ludii's players are turn positions (its player 1 always moves first); here a seeded cut picks
the first seat, so the metrics that compare players (balance, first-seat wins) compare turn
positions: the seat that moved first, the next, and so on.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import attrs

from spitemalice.guards import check_int, check_list, int_field
from spitemalice.measures.checks import check_z
from spitemalice.measures.interval import COUNT, SHARE, Z95, Interval, length_ranges
from spitemalice.measures.means import mean_interval
from spitemalice.measures.rates import share_difference, wilson
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.runs.runner import GameRow

METRICS: dict[str, str] = {
    "balance": "1 minus the largest gap between the win rates of two turn positions (the "
               "seat moving first, the next, ...) (Ludii Balance); 1 = every position wins "
               "equally often",
    "first_seat_wins": "share of games won by the seat that moved first (Ludii AdvantageP1)",
    "completion": "share of games that end with a winner (Ludii Completion)",
    "drawishness": "share of games that end without a winner, timeouts excluded: the draw "
                   "pile ran out or every seat was blocked (Ludii Drawishness)",
    "timeouts": "share of games stopped by the turn limit (Ludii Timeouts)",
    "duration_moves": "moves per game (Ludii DurationMoves)",
    "duration_turns": "turns per game (Ludii DurationTurns)",
    "decisiveness": "share of a won game's moves made before the winner had cleared more "
                    "pay-off cards than any other seat ever would; lower = decided earlier "
                    "(Ludii DecisivenessMoves)",
    "branching_factor": "legal moves per decision, averaged per game (Ludii BranchingFactor)",
}
"""Metric name -> what it measures.  Rates lie in 0..1; durations are in moves or turns."""


@attrs.frozen
class Quality:
    """Every metric of :data:`METRICS` for one set of games, each with its 95% interval.

    Raises:
        SpiteMaliceError: ``games`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    games: int = attrs.field(validator=int_field(0))
    balance: Interval
    first_seat_wins: Interval
    completion: Interval
    drawishness: Interval
    timeouts: Interval
    duration_moves: Interval
    duration_turns: Interval
    decisiveness: Interval
    branching_factor: Interval

    def items(self) -> list[tuple[str, Interval]]:
        """(name, interval) for every metric, in the order of :data:`METRICS`."""
        return [(name, getattr(self, name)) for name in METRICS]

    def as_dict(self) -> dict[str, object]:
        """``{"games": n, name: {"estimate", "low", "high", "n"}, ...}``."""
        return {"games": self.games, **{name: i.as_dict() for name, i in self.items()}}


def quality(rows: Sequence[GameRow], seats: int, turn_limit: int | None = None) -> Quality:
    """The metrics of :data:`METRICS` over ``rows`` (games of one configuration of ``seats``).

    Rates carry Wilson intervals (:mod:`spitemalice.measures.rates`), means Student's t
    intervals (:mod:`spitemalice.measures.means`);
    balance carries Tango's paired score interval for the largest gap between two seats' win
    shares.  The durations' intervals stay within what a game under ``turn_limit`` can last
    (:func:`~spitemalice.measures.interval.length_ranges`; ``None``: not known, any count of
    0 or more).

    Raises:
        SpiteMaliceError: ``seats`` not a whole number from 2 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS` (metrics compare seats), or
            ``turn_limit`` neither ``None`` nor a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    check_list(rows, "quality", "rows, a list of game rows,",
               'run.rows[0]')
    check_int(seats, "quality compares seats: its seats", 2, MAX_SEATS,
              constant="spitemalice.rules.ruleset.MAX_SEATS")
    turns, moves = length_ranges(turn_limit)
    n = len(rows)
    kinds = [row.outcome for row in rows]
    won = [row for row in rows if row.winner is not None]
    positions = [0] * seats
    for row in won:
        positions[(row.winner - row.first_seat) % seats] += 1  # type: ignore[operator]
    return Quality(
        games=n,
        balance=balance(positions, n),
        first_seat_wins=first_seat_wins(positions[0], n),
        completion=completion(len(won), n),
        drawishness=drawishness(sum(k in ("drawn", "blocked") for k in kinds), n),
        timeouts=timeouts(kinds.count("turn-limit"), n),
        duration_moves=duration([r.moves for r in rows], moves),
        duration_turns=duration([r.turns for r in rows], turns),
        decisiveness=mean_interval([r.decided_at / r.moves for r in won
                                    if r.decided_at is not None and r.moves], within=SHARE),
        branching_factor=mean_interval([r.legal_total / r.moves for r in rows if r.moves],
                                       within=COUNT, unit=0.0),  # a ratio: no whole steps
    )


def completion(won: int, games: int) -> Interval:
    """Ludii's Completion: the share of ``games`` that ended with a winner (``won`` of them),
    with its Wilson interval."""
    return wilson(won, games)


def drawishness(drawn: int, games: int) -> Interval:
    """Ludii's Drawishness: the share of ``games`` that ended without a winner before any
    turn limit (``drawn``: drawn and blocked games), with its Wilson interval."""
    return wilson(drawn, games)


def timeouts(stopped: int, games: int) -> Interval:
    """Ludii's Timeouts: the share of ``games`` the turn limit stopped, with its Wilson
    interval."""
    return wilson(stopped, games)


def first_seat_wins(wins: int, games: int) -> Interval:
    """Ludii's AdvantageP1: the share of ``games`` won by the seat that moved first (``wins``
    of them), with its Wilson interval."""
    return wilson(wins, games)


def duration(lengths: Sequence[float], within: tuple[float, float] = COUNT) -> Interval:
    """Ludii's DurationMoves or DurationTurns: the mean of ``lengths`` (moves or turns per
    game), with its Student's t interval kept ``within`` the range a game's length can take
    (a count's 0..inf; under a turn limit, :func:`~spitemalice.measures.interval.length_ranges`).

    Raises:
        TypeError, ValueError: as :func:`~spitemalice.measures.means.mean_interval` refuses
            ``lengths`` and ``within`` (lengths whose mean lies outside ``within``, say).
    """
    check_list(lengths, "duration", "lengths, a list of numbers,",
               '[40.0, 52.0]')
    return mean_interval(lengths, within=within, unit=1.0)


def balance(wins: Sequence[int], games: int, z: float = Z95) -> Interval:
    """Ludii's Balance, ``1 - max |rate_a - rate_b|`` over pairs of turn positions (``wins``
    per position, the seat moving first first; rate = wins over all ``games``), with the
    interval of the gap of the pair that decides it: two shares of one multinomial, so
    Tango's paired score interval (:func:`spitemalice.measures.rates.share_difference`),
    which keeps a width when few games all went one way (3 of 3 to the first seat: 0.000
    (0.000..1.000), 3-0 being no evidence, where a normal interval says 0.000
    (0.000..0.000)).

    Raises:
        TypeError, ValueError: ``z`` no positive finite number.
        ValueError: fewer than two seats, or more wins than games.
        SpiteMaliceError: ``games`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    check_int(games, "balance's games", 0)
    check_list(wins, "balance", "wins, a list of whole numbers,",
               '[3, 5]')
    if len(wins) < 2 or sum(wins) > games or min(wins) < 0:
        raise ValueError(f"balance needs wins for 2 or more seats summing to at most {games}, "
                         f"not {list(wins)}")
    z = check_z(z, "balance")
    if games == 0:
        return Interval(1.0, 0.0, 1.0, 0)
    a, b = max(combinations(wins, 2), key=lambda pair: abs(pair[0] - pair[1]))
    # Two categories of one multinomial: paired shares that are never both won.
    gap = share_difference(0, min(a, b), max(a, b), games, z)
    nearest = max(gap.low, 0.0)  # the gap's size: 0 when its interval reaches 0
    return Interval(1.0 - gap.estimate, 1.0 - gap.high, 1.0 - nearest, games)
