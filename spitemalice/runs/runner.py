"""One game of a configuration as a row of plain data (the unit every study is built on).

A :class:`Configuration` is a rule book and the bot kind of each seat.  :func:`play_one` plays
game ``g`` of it from the seed ``derive_seed(run_seed, "game", g)`` and the players from
``derive_seed(game_seed, "seat", seat)``, exactly as ``spitemalice simulate`` does, so game ``g``
is the same deal under every configuration of a paired comparison and under every backend.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs

from spitemalice.bots.players import Player, check_player, make_player
from spitemalice.engine.apply import apply_move
from spitemalice.engine.coverage import Tally
from spitemalice.engine.deal import deal
from spitemalice.engine.legal import legal_moves
from spitemalice.engine.shuffle import derive_seed
from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_list, check_seed, int_field, seed_field
from spitemalice.limits import MAX_GAMES
from spitemalice.model import GameResult, GameState
from spitemalice.moves import Discard, Move, Pass, Play, Zone
from spitemalice.rules.book import RuleBook, book_field, check_book, require_turn_based
from spitemalice.rules.policies import TeamRule
from spitemalice.runs.commit import commit_games
from spitemalice.runs.game_shape import GameShape, LeadTracker, game_shape, winning_side
from spitemalice.runs.loop import covered_game, play_game
from spitemalice.runs.parallel import run_games


@attrs.frozen
class Configuration:
    """What a study plays: a rule book and one bot kind per seat.

    Attributes:
        rules: the resolved rules.
        bots: one bot kind per seat (names of :data:`spitemalice.bots.players.PLAYERS`).
        label: how reports name this configuration (``"A"``, ``"B"``, a rule-set name).
    """

    rules: RuleBook = attrs.field(eq=False, validator=book_field())
    bots: tuple[str, ...]
    label: str = ""


def configuration(rules: RuleBook, bots: Sequence[str], label: str = "") -> Configuration:
    """A :class:`Configuration`; ``bots`` is one kind for every seat or one kind per seat.

    Raises:
        SpiteMaliceError: a bot list that does not fit the seats, or an unknown bot kind.
    """
    check_book(rules, "configuration")
    require_turn_based(rules, "the turn-based runner (compare, ladder, balance, tournament)")
    check_list(bots, "configuration", "bots, a list of bot names,",
               '["greedy"]')
    kinds = tuple(bots)
    if len(kinds) == 1:
        kinds = kinds * rules.players
    if len(kinds) != rules.players:
        raise SpiteMaliceError(f"give one bot for all seats or one per seat ({rules.players}), "
                               f"not {len(kinds)}")
    for kind in set(kinds):
        check_player(kind, rules)  # refuses an unknown kind, or rules it cannot play, now
    return Configuration(rules, kinds, label or rules.name)


@attrs.frozen
class GameRow:
    """One finished game as plain data (what ``--games-out`` writes, one row per game).

    Attributes:
        game: the game's number in the run (from 0).
        seed: the game's own seed (derived from the run seed and ``game``).
        bots: the bot kind of each seat.
        first_seat: the seat that moved first.
        outcome: ``"win"``, ``"drawn"``, ``"blocked"`` or ``"turn-limit"``.
        winner: the winning seat, or ``None``.
        scores: points per seat.
        moves, turns: moves made and turns ended.
        completed_piles: build piles completed (reached the build ceiling).
        recycles: shuffles after the deal (completed cards shuffled into a draw pile).
        payoff_left: pay-off cards left per seat at the end.
        legal_total: legal moves summed over every decision (for the branching factor).
        decided_at: for a won game, the number of moves made before the winner had cleared
            more pay-off cards than any other seat ever would (Ludii's decisiveness point);
            ``None`` when no seat won.
        lead_changes: times the leader changed (the side that has cleared the most pay-off
            cards; :mod:`spitemalice.measures.shape`).
        comeback: for a won game, whether its winner did not lead at the half-way move;
            ``None`` when no seat won.
        lead_taken: for a won game, the moves made before the winner took the lead for good;
            ``None`` when no seat won.
        legal_early, legal_middle, legal_late: legal moves summed over the decisions of the
            first, middle and last third of the game
            (:func:`~spitemalice.measures.shape.third_sizes`).
        probed, mattered: decisions probed for whether another move changes the winner, and
            how many did (0 and 0 for a game not probed).

    The designer-metric fields (``lead_changes`` on) are ``None`` in a row read from a
    games-out file written before they existed (format 1, docs/formats.md).
    """

    game: int = attrs.field(validator=int_field())
    seed: int = attrs.field(validator=int_field())
    bots: tuple[str, ...]
    first_seat: int = attrs.field(validator=int_field())
    outcome: str
    winner: int | None = attrs.field(validator=int_field())
    scores: tuple[int, ...]
    moves: int = attrs.field(validator=int_field())
    turns: int = attrs.field(validator=int_field())
    completed_piles: int = attrs.field(validator=int_field())
    recycles: int = attrs.field(validator=int_field())
    payoff_left: tuple[int, ...]
    legal_total: int = attrs.field(validator=int_field())
    decided_at: int | None = attrs.field(validator=int_field())
    lead_changes: int | None = attrs.field(default=None, validator=int_field())
    comeback: bool | None = None
    lead_taken: int | None = attrs.field(default=None, validator=int_field())
    legal_early: int | None = attrs.field(default=None, validator=int_field())
    legal_middle: int | None = attrs.field(default=None, validator=int_field())
    legal_late: int | None = attrs.field(default=None, validator=int_field())
    probed: int | None = attrs.field(default=None, validator=int_field())
    mattered: int | None = attrs.field(default=None, validator=int_field())

    def as_dict(self) -> dict[str, object]:
        """The row as JSON-ready data (tuples become lists)."""
        return attrs.asdict(self)


class _Counting:
    """Wraps a player and notes how many legal moves each of its decisions had."""

    def __init__(self, player: Player, tally: list[int]) -> None:
        self.player, self.tally = player, tally

    def choose(self, rules: RuleBook, state: GameState, moves: Sequence[Move]) -> Move:
        self.tally.append(len(moves))
        return self.player.choose(rules, state, moves)


def game_seed(run_seed: int, game: int) -> int:
    """The seed of game ``game`` of a run seeded ``run_seed`` (as ``simulate`` derives it).

    Raises:
        SpiteMaliceError: ``run_seed`` not 0 to :data:`~spitemalice.limits.MAX_SEED`, or
            ``game`` not 0 to :data:`~spitemalice.limits.MAX_GAMES`.
    """
    check_int(game, "game", 0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES")
    return derive_seed(run_seed, "game", game)


def play_one(config: Configuration, run_seed: int, game: int) -> GameRow:
    """Play game ``game`` of ``config`` in a run seeded ``run_seed``; a pure function of its
    arguments (equal arguments give equal rows, in any process).

    Raises:
        SpiteMaliceError: ``run_seed`` not 0 to :data:`~spitemalice.limits.MAX_SEED`, or
            ``game`` not 0 to :data:`~spitemalice.limits.MAX_GAMES`.
    """
    run_seed = check_seed(run_seed, "run_seed")  # in parameter order: the first wrong is named
    check_int(game, "game", 0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES")
    return _played(config, run_seed, game)[0]


def _played(config: Configuration, run_seed: int, game: int, coverage: bool = False,
            probe: bool = False) -> tuple[GameRow, tuple[Move, ...], Tally | None]:
    """:func:`play_one`, with the moves made and, under ``coverage``, the game's rule
    coverage (:class:`~spitemalice.engine.coverage.Tally`); ``probe`` probes the game's
    decisions for the designer metric ``mattered``
    (:func:`~spitemalice.measures.shape.game_shape`); the arguments checked."""
    seed = game_seed(run_seed, game)
    tally: list[int] = []
    players = [_Counting(make_player(kind, derive_seed(seed, "seat", seat)), tally)
               for seat, kind in enumerate(config.bots)]
    start_shuffles: list[int] = []
    lead = LeadTracker(config.rules)

    def first_state(state: GameState, move: Move) -> None:
        if not start_shuffles:
            start_shuffles.append(state.shuffles)
        lead.move(state, move)

    def play(on_move: Callable[[GameState, Move], None]) -> GameResult:
        def both(state: GameState, move: Move) -> None:
            first_state(state, move)
            on_move(state, move)
        return play_game(config.rules, players, seed, on_move=both)

    covered: Tally | None = None
    if coverage:
        result, covered = covered_game(config.rules, play)
    else:
        result = play_game(config.rules, players, seed, on_move=first_state)
    shape = GameShape(len(result.moves), tuple(lead.leaders),
                      winning_side(config.rules, result), tuple(tally), (),
                      game_shape(config.rules, result, probe=True).mattered if probe else ())
    row = row_of(config, game, result, sum(tally), start_shuffles[0] if start_shuffles else 0,
                 shape)
    return row, result.moves, covered


def row_of(config: Configuration, game: int, result: GameResult,
           legal_total: int | None = None, dealt_shuffles: int | None = None,
           shape: GameShape | None = None) -> GameRow:
    """The :class:`GameRow` of a finished game of ``config``.

    ``legal_total`` (legal moves summed over the decisions) and ``dealt_shuffles`` (shuffles
    the deal made) are found by replaying the game when not given; so is ``shape`` (its lead
    history and choices, :func:`~spitemalice.measures.shape.game_shape`, unprobed: the row's
    ``probed`` and ``mattered`` are then 0).

    Raises:
        SpiteMaliceError: ``legal_total`` or ``dealt_shuffles`` not ``None`` or a whole
            number from 0 to :data:`~spitemalice.limits.MAX_INT`.
        TypeError: ``shape`` neither ``None`` nor a
            :class:`~spitemalice.measures.shape.GameShape`.
    """
    for name, count in (("legal_total", legal_total), ("dealt_shuffles", dealt_shuffles)):
        if count is not None:
            check_int(count, f"row_of's {name}", 0)
    if shape is not None and not isinstance(shape, GameShape):
        raise TypeError(f"row_of takes shape, a GameShape (what game_shape returns) or None, "
                        f"not {type(shape).__name__}")
    if shape is None:
        shape = game_shape(config.rules, result)
    if legal_total is None and len(shape.legal) == len(result.moves):
        legal_total = sum(shape.legal)  # the replay game_shape made counted them
    if dealt_shuffles is None and legal_total is not None:
        dealt_shuffles = deal(config.rules, result.seed).shuffles
    if legal_total is None or dealt_shuffles is None:
        legal_total, dealt_shuffles = _replay_counts(config.rules, result)
    final = result.final
    outcome = final.outcome
    assert outcome is not None
    plays = sum(isinstance(move, Play) for move in result.moves)
    on_builds = sum(final.build_tops)  # plays onto the open piles, recycled cards included
    payoff_left = tuple(seat.payoff_count for seat in final.seats)
    return GameRow(
        game, result.seed, config.bots, result.first_seat, outcome.kind, outcome.winner,
        outcome.scores, len(result.moves), result.turns,
        (plays - on_builds) // config.rules.ceiling.ceiling,
        max(0, final.shuffles - dealt_shuffles), payoff_left, legal_total,
        _decided_at(result, payoff_left, config.rules.teams),
        shape.lead_changes, shape.comeback, shape.lead_taken, *shape.legal_sums(),
        len(shape.mattered), sum(shape.mattered),
    )


def _replay_counts(rules: RuleBook, result: GameResult) -> tuple[int, int]:
    """(legal moves summed over every decision, shuffles made by the deal) of ``result``."""
    state = deal(rules, result.seed)
    dealt = state.shuffles
    total = 0
    for move in result.moves:
        total += len(legal_moves(rules, state))
        state = apply_move(rules, state, move)
    return total, dealt


def _decided_at(result: GameResult, payoff_left: tuple[int, ...],
                teams: TeamRule) -> int | None:
    """Moves made before the winning side's cleared pay-off cards first exceeded the most any
    other side cleared in the whole game (Ludii's DecisivenessMoves, with cleared pay-off
    cards as the state evaluation; pay-off piles only shrink, so a loser's best is its last).
    A side is a team (partners' pay-off piles added up, clause PT-4: the team wins), or a seat
    when there are no teams."""
    outcome = result.final.outcome
    if outcome is None or outcome.winner is None:
        return None
    winners = teams.team_of(outcome.winner)
    # Every side starts with the same pay-off cards, so comparing cards left is comparing
    # cards cleared; the threshold is the fewest cards any losing side had left.
    left_of = [sum(payoff_left[seat] for seat in team) for team in teams.teams]
    best_loser_left = min(left for side, left in enumerate(left_of) if side != winners)
    movers = _movers(result)
    cleared = [index for index, move in enumerate(result.moves)
               if isinstance(move, Play) and move.zone is Zone.PAYOFF
               and (movers[index] if move.owner is None else move.owner)
               in teams.teams[winners]]
    left = left_of[winners] + len(cleared)
    for index in cleared:
        if left < best_loser_left:
            return index
        left -= 1
    return len(result.moves)


def _movers(result: GameResult) -> list[int]:
    """The seat that made each move (only a discard or a pass ends a turn)."""
    seats, seat, movers = len(result.final.seats), result.first_seat, []
    for move in result.moves:
        movers.append(seat)
        if isinstance(move, Discard | Pass):
            seat = (seat + 1) % seats
    return movers


@attrs.frozen
class Run:
    """Rows of a run: ``rows[c][i]`` is game ``first + i`` of configuration ``c``.

    Attributes:
        rows: one list of rows per configuration, all of the same length.
        interrupted: ``True`` when Ctrl-C stopped the run early (the rows are the games
            finished under every configuration).
        coverage: with ``coverage=True``, each configuration's rule coverage over the run
            (:class:`~spitemalice.engine.coverage.Tally`); else empty.
        identical: games in which every configuration made the very same moves.

    Raises:
        SpiteMaliceError: ``identical`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    rows: tuple[list[GameRow], ...]
    interrupted: bool = False
    coverage: tuple[Tally, ...] = ()
    identical: int = attrs.field(default=0, validator=int_field(0))


@attrs.frozen
class Paired:
    """Game ``g`` of every configuration: the rows, each configuration's rule coverage (empty
    unless recorded) and whether all of them made the same moves."""

    rows: tuple[GameRow, ...]
    coverage: tuple[Tally, ...]
    same: bool


@attrs.frozen
class PairedGame:
    """Game ``first + g`` of every configuration, as a pure function of ``g`` (what
    :func:`spitemalice.runs.parallel.run_games` hands to a worker); ``coverage`` records
    each configuration's rule coverage too; the games numbered below ``probe`` (of the run,
    not of this batch) are probed for the designer metric ``mattered``
    (:data:`~spitemalice.runs.game_shape.PROBE_GAMES` in ``compare`` and ``balance``).

    Raises:
        SpiteMaliceError: ``run_seed`` not 0 to :data:`~spitemalice.limits.MAX_SEED`, or
            ``first`` not 0 to :data:`~spitemalice.limits.MAX_GAMES`.
    """

    configs: tuple[Configuration, ...]
    run_seed: int = attrs.field(validator=seed_field())
    first: int = attrs.field(default=0, validator=int_field(
        0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES"))
    coverage: bool = False
    probe: int = attrs.field(default=0, validator=int_field(
        0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES"))

    def __call__(self, game: int) -> Paired:
        played = [_played(config, self.run_seed, self.first + game, self.coverage,
                          self.first + game < self.probe)
                  for config in self.configs]
        moves = [made for _, made, _ in played]
        return Paired(tuple(row for row, _, _ in played),
                      tuple(tally for _, _, tally in played if tally is not None),
                      all(made == moves[0] for made in moves))


def play_games(configs: Sequence[Configuration], run_seed: int, games: range,
               on_game: Callable[[tuple[GameRow, ...]], None] | None = None,
               jobs: int | None = 1, client: Any = None, coverage: bool = False,
               probe: int = 0) -> Run:
    """Play game ``g`` of every configuration for each ``g`` in ``games`` (a step-1 range;
    paired: the same deal seed under each configuration), calling ``on_game`` with each
    game's rows in game order.  ``jobs`` and ``client`` choose where games are played
    (:func:`spitemalice.runs.parallel.run_games`); the rows never depend on them.
    ``coverage`` also records each configuration's rule coverage (several times slower).
    The games numbered below ``probe`` are probed for the designer metric ``mattered``
    (each probe two greedy playouts; their rows' ``probed`` and ``mattered``).

    Ctrl-C (``KeyboardInterrupt``; SIGTERM on the command line) stops the run cleanly: the
    result holds the games committed under every configuration (a game counts once
    ``on_game`` returned for it; a stop during ``on_game`` waits for it) and says it was
    interrupted.  An exception from ``on_game`` ends the run and goes on to the caller.
    """
    check_list(configs, "play_games", "configs, a list of configurations,",
               '[configuration(rules, ["greedy"])]')
    rows: tuple[list[GameRow], ...] = tuple([] for _ in configs)
    tallies = tuple(Tally() for _ in configs) if coverage else ()
    identical = [0]
    play = PairedGame(tuple(configs), run_seed, games.start, coverage, probe)

    def commit(game: int, done: Paired) -> None:
        if on_game is not None:
            on_game(done.rows)  # the game's outputs first: then it counts
        for column, row in zip(rows, done.rows, strict=True):
            column.append(row)
        for tally, counted in zip(tallies, done.coverage, strict=True):
            tally.add(counted)
        identical[0] += done.same

    finished = commit_games(run_games(play, len(games), jobs, client), commit)
    return Run(rows, finished.interrupted, tallies, identical[0])
