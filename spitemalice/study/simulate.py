"""Many games played by bots, summarised: outcomes, wins per seat and team, game length,
speed (``spitemalice simulate``)."""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import attrs

from spitemalice.bots.players import check_player
from spitemalice.engine.coverage import Tally
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import (
    check_games,
    check_list,
    check_real,
    check_seed,
    int_field,
    real_field,
)
from spitemalice.measures.coverage import (
    ClauseCoverage,
    CoverageNote,
    clause_coverage,
    coverage_as_dict,
    coverage_notes,
)
from spitemalice.measures.interval import length_ranges
from spitemalice.measures.means import interval_of_mean
from spitemalice.measures.rates import wilson
from spitemalice.model import OUTCOME_KINDS, GameResult
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.runs.commit import commit_games
from spitemalice.runs.loop import BotGame, CoveredGame
from spitemalice.runs.parallel import run_games


@attrs.frozen
class Summary:
    """Statistics over many games (what ``spitemalice simulate`` prints).

    With teams, ``teams`` labels each team by its seats (``"0+2"``) and ``wins_per_team``
    counts the games each team won; without teams both are empty.

    Raises:
        SpiteMaliceError: a count a whole number past :data:`~spitemalice.limits.MAX_INT` in size,
            or a mean, quantile, spread or time a number past :data:`~spitemalice.limits.MAX_REAL`
            in size.
    """

    ruleset: str
    players: int = attrs.field(validator=int_field())
    bots: tuple[str, ...]
    games: int = attrs.field(validator=int_field())
    outcomes: dict[str, int]
    wins_per_seat: tuple[int, ...]
    first_seat_wins: int = attrs.field(validator=int_field())
    mean_moves: float = attrs.field(validator=real_field())
    p95_moves: float = attrs.field(validator=real_field())
    mean_turns: float = attrs.field(validator=real_field())
    p95_turns: float = attrs.field(validator=real_field())
    seconds: float = attrs.field(validator=real_field())
    total_moves: int = attrs.field(validator=int_field())
    teams: tuple[str, ...] = ()
    wins_per_team: tuple[int, ...] = ()
    sd_moves: float = attrs.field(default=0.0, validator=real_field())
    sd_turns: float = attrs.field(default=0.0, validator=real_field())
    interrupted: bool = False
    coverage: tuple[ClauseCoverage, ...] = ()
    coverage_notes: tuple[CoverageNote, ...] = ()
    turn_limit: int | None = attrs.field(default=None, validator=int_field())

    def intervals(self) -> dict[str, Any]:
        """95% intervals: Wilson for every rate (shares of all games), Student's t for the means.

        Keys: ``won``, ``drawn``, ``other`` (blocked or turn limit), ``first_seat_wins``,
        ``wins_per_seat`` (a list, one per seat), ``wins_per_team`` (a list, one per team; empty
        without teams), ``mean_moves``, ``mean_turns`` (each kept within what a game can
        last: :func:`length_ranges` of ``turn_limit``).
        """
        o, n = self.outcomes, self.games
        turns, moves = length_ranges(self.turn_limit)
        return {
            "won": wilson(o["win"], n), "drawn": wilson(o["drawn"], n),
            "other": wilson(o["blocked"] + o["turn-limit"], n),
            "first_seat_wins": wilson(self.first_seat_wins, n),
            "wins_per_seat": [wilson(w, n) for w in self.wins_per_seat],
            "wins_per_team": [wilson(w, n) for w in self.wins_per_team],
            "mean_moves": interval_of_mean(self.mean_moves, self.sd_moves, n, within=moves,
                                           unit=1.0),
            "mean_turns": interval_of_mean(self.mean_turns, self.sd_turns, n, within=turns,
                                           unit=1.0),
        }

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else math.inf

    @property
    def moves_per_second(self) -> float:
        return self.total_moves / self.seconds if self.seconds else math.inf

    def as_dict(self, timing: bool = True) -> dict[str, object]:
        """The summary as JSON-ready data.  ``timing=False`` leaves out ``seconds``,
        ``games_per_second`` and ``moves_per_second``: what remains is a pure function of the
        configuration, bots, games and seed (``simulate --json`` prints that, so two runs,
        with any ``--jobs``, compare byte for byte)."""
        data = attrs.asdict(self, filter=lambda field, _: not field.name.startswith(
            ("coverage", "turn_limit")))  # the limit bounds the intervals printed below
        if self.coverage:
            data["coverage"] = {**coverage_as_dict(self.coverage, self.games),
                                "notes": [attrs.asdict(note) for note in self.coverage_notes]}
        data["intervals"] = {
            key: [i.as_dict() for i in value] if isinstance(value, list) else value.as_dict()
            for key, value in self.intervals().items()}
        if not timing:
            del data["seconds"]
            return data
        data["games_per_second"] = round(self.games_per_second, 2)
        data["moves_per_second"] = round(self.moves_per_second, 1)
        return data


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of non-empty ``values``."""
    check_list(values, "percentile", "values, a list of numbers,",
               '[1.0, 2.5]')
    share = check_real(share, "percentile's share", 0, 1, what="a share")
    ordered = sorted(values)
    return float(ordered[max(0, math.ceil(share * len(ordered)) - 1)])


def simulate(
    rules: RuleBook,
    bots: Sequence[str],
    games: int,
    seed: int,
    on_game: Callable[[int, GameResult, tuple[str, ...]], None] | None = None,
    jobs: int | None = 1,
    client: Any = None,
    coverage: bool = False,
) -> Summary:
    """Play ``games`` games; game ``g`` is dealt from a seed derived from ``seed`` and ``g``.

    The summary depends only on the arguments, never on ``jobs`` or ``client``: games are
    folded into it in game order as they finish, so memory does not grow with ``games``.
    Ctrl-C (or SIGTERM on the command line) stops the run and returns the summary of the games
    committed (``interrupted``): a game counts once ``on_game`` returned for it, and a stop
    that arrives during ``on_game`` waits for it (:mod:`spitemalice.runs.commit`).

    Args:
        bots: player kinds per seat (``"random"``, ``"greedy"``); one kind is used for all.
        on_game: called after each game, in game order, with its number (from 0), its result
            and the player kind of each seat (``spitemalice simulate --record`` writes game
            records); an exception from it ends the run and goes on to the caller.
        jobs: worker processes (``None``: every core); see
            :func:`spitemalice.runs.parallel.run_games`.
        client: a ``distributed.Client`` to play the games on a Dask cluster instead.
        coverage: also record which clauses of the rule sheet the games exercised
            (:mod:`spitemalice.measures.coverage`): the summary's ``coverage`` and
            ``coverage_notes``.  It makes the run several times slower (the cost is measured
            in ``bench/bench.py``), so it is off unless asked for.

    Raises:
        SpiteMaliceError: an unknown bot, a bot list that does not fit the seats, ``games`` not 1 to
            :data:`~spitemalice.limits.MAX_GAMES`, a seed not 0 to
            :data:`~spitemalice.limits.MAX_SEED`, or a bad ``jobs``.
    """
    check_book(rules, "simulate")
    check_list(bots, "simulate", "bots, a list of bot names,",
               '["greedy"]')
    games, seed = check_games(games), check_seed(seed)
    kinds = _bots_for(bots, rules)
    tally = _Tally(rules.players)
    covering = Tally() if coverage else None
    start = time.perf_counter()

    def commit(game: int, played: tuple[GameResult, Tally | None]) -> None:
        result, counted = played
        if on_game is not None:
            on_game(game, result, kinds)  # the game's outputs first: then it counts
        tally.add(result)
        if covering is not None and counted is not None:
            covering.add(counted)

    finished = commit_games(_games(rules, kinds, seed, games, jobs, client, coverage), commit)
    summary = tally.summary(rules, kinds, time.perf_counter() - start)
    if covering is not None:
        summary = _with_coverage(rules, summary, covering)
    return attrs.evolve(summary, interrupted=True) if finished.interrupted else summary


def _games(rules: RuleBook, kinds: tuple[str, ...], seed: int, games: int, jobs: int | None,
           client: Any, coverage: bool) -> Iterator[tuple[GameResult, Tally | None]]:
    """The run's games in order, each with its coverage tally (``None`` without coverage)."""
    if coverage:
        yield from run_games(CoveredGame(rules, kinds, seed), games, jobs, client)
    else:
        results = run_games(BotGame(rules, kinds, seed), games, jobs, client)
        try:
            for result in results:
                yield result, None
        finally:  # a run cut short ends its worker processes now (see commit_games)
            close = getattr(results, "close", None)
            if close is not None:
                close()


def _bots_for(bots: Sequence[str], rules: RuleBook) -> tuple[str, ...]:
    """The bot of each seat: one for all or one per seat, every kind known (an unknown one is
    refused before any game is played, as is one that cannot play ``rules``)."""
    seats = rules.players
    if len(bots) == 1:
        kinds = tuple(bots) * seats
    elif len(bots) != seats:
        raise SpiteMaliceError(f"give one bot for all seats or one per seat ({seats}), "
                               f"not {len(bots)}")
    else:
        kinds = tuple(bots)
    for kind in set(kinds):
        check_player(kind, rules)
    return kinds


def _with_coverage(rules: RuleBook, summary: Summary, covering: Tally) -> Summary:
    """``summary`` with the rule coverage of its games' ``covering`` tally."""
    rows = tuple(clause_coverage(rules, covering))
    return attrs.evolve(summary, coverage=rows, coverage_notes=tuple(
        coverage_notes(rules, rows, covering.games)))


class _Tally:
    """Running totals of finished games: a fixed size whatever the number of games (move and
    turn counts are kept as histograms, enough for exact percentiles)."""

    def __init__(self, seats: int) -> None:
        self.outcomes: dict[str, int] = dict.fromkeys(OUTCOME_KINDS, 0)
        self.wins = [0] * seats
        self.first_wins = 0
        self.moves: Counter[int] = Counter()
        self.turns: Counter[int] = Counter()

    def add(self, result: GameResult) -> None:
        outcome = result.final.outcome
        assert outcome is not None
        self.outcomes[outcome.kind] += 1
        if outcome.winner is not None:
            self.wins[outcome.winner] += 1
            self.first_wins += outcome.winner == result.first_seat
        self.moves[len(result.moves)] += 1
        self.turns[result.turns] += 1

    def summary(self, rules: RuleBook, kinds: tuple[str, ...], seconds: float) -> Summary:
        games = sum(self.moves.values())
        total_moves = sum(n * count for n, count in self.moves.items())
        total_turns = sum(n * count for n, count in self.turns.items())
        labels, team_wins = _team_wins(rules, self.wins)
        return Summary(
            rules.name, rules.players, kinds, games, self.outcomes, tuple(self.wins),
            self.first_wins, total_moves / games if games else 0.0,
            _histogram_percentile(self.moves, 0.95), total_turns / games if games else 0.0,
            _histogram_percentile(self.turns, 0.95), seconds, total_moves, labels, team_wins,
            _histogram_sd(self.moves), _histogram_sd(self.turns),
            turn_limit=rules.ruleset.turn_limit,
        )


def _team_wins(rules: RuleBook, wins: list[int]) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """Team labels (``"0+2"``) and wins per team from wins per seat; both empty without
    teams."""
    teams = rules.teams
    if not teams.any:
        return (), ()
    team_wins = [0] * len(teams.teams)
    for seat, count in enumerate(wins):
        team_wins[teams.team_of(seat)] += count
    return tuple(teams.label(i) for i in range(len(teams.teams))), tuple(team_wins)


def _histogram_sd(counts: Counter[int]) -> float:
    """The sample standard deviation of the values ``counts`` holds: NaN for under two,
    where it is undefined (``--json`` writes it as null; try-out s7 L5: one game said 0.0)."""
    n = sum(counts.values())
    if n < 2:
        return math.nan
    mean = sum(v * c for v, c in counts.items()) / n
    return math.sqrt(sum(c * (v - mean) ** 2 for v, c in counts.items()) / (n - 1))


def _histogram_percentile(counts: Counter[int], share: float) -> float:
    """:func:`percentile` of the values that ``counts`` holds (value -> how many times)."""
    total = sum(counts.values())
    if not total:
        return 0.0
    rank = max(1, math.ceil(share * total))
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= rank:
            return float(value)
    raise AssertionError("unreachable: the ranks add up to the total")
