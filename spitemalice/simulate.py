"""Playing whole games and matches with bots, and summarising many games."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

import attrs

from spitemalice.engine import apply_move, deal, legal_moves
from spitemalice.engine.shuffle import rng_for
from spitemalice.errors import SpiteMaliceError
from spitemalice.model import OUTCOME_KINDS, GameState
from spitemalice.moves import Move
from spitemalice.players import Player, make_player
from spitemalice.rulebook import RuleBook


@attrs.frozen
class GameResult:
    """One finished game: its seed, the seat that moved first, the final state and the moves
    made in order."""

    seed: int
    first_seat: int
    final: GameState
    moves: tuple[Move, ...]

    @property
    def turns(self) -> int:
        return self.final.turn


def derive_seed(seed: int, *parts: object) -> int:
    """A seed for a sub-stream (a game of a match, a player of a game), stable across runs."""
    return rng_for(seed, 0, ":".join(map(str, parts))).getrandbits(48)


def play_game(
    rules: RuleBook,
    players: Sequence[Player],
    seed: int,
    dealer: int | None = None,
    on_move: Callable[[GameState, Move], None] | None = None,
) -> GameResult:
    """Deal with ``seed`` and let ``players[seat]`` move for each seat until the game ends.

    Args:
        players: one player per seat.
        on_move: called with the state before each move and the move (for invariant checks).

    Raises:
        SpiteMaliceError: the number of players differs from the rule set's seats.
    """
    if len(players) != rules.players:
        raise SpiteMaliceError(f"{rules.players} seats need {rules.players} players, "
                               f"not {len(players)}")
    state = deal(rules, seed, dealer)
    first_seat = state.seat
    moves: list[Move] = []
    while state.outcome is None:
        options = legal_moves(rules, state)
        move = players[state.seat].choose(rules, state, options)
        if on_move is not None:
            on_move(state, move)
        state = apply_move(rules, state, move)
        moves.append(move)
    return GameResult(seed, first_seat, state, tuple(moves))


@attrs.frozen
class Summary:
    """Statistics over many games (what ``spitemalice simulate`` prints)."""

    ruleset: str
    players: int
    bots: tuple[str, ...]
    games: int
    outcomes: dict[str, int]
    wins_per_seat: tuple[int, ...]
    first_seat_wins: int
    mean_moves: float
    p95_moves: float
    mean_turns: float
    p95_turns: float
    seconds: float
    total_moves: int

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else math.inf

    @property
    def moves_per_second(self) -> float:
        return self.total_moves / self.seconds if self.seconds else math.inf

    def as_dict(self) -> dict[str, object]:
        data = attrs.asdict(self)
        data["games_per_second"] = round(self.games_per_second, 2)
        data["moves_per_second"] = round(self.moves_per_second, 1)
        return data


def percentile(values: Sequence[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of non-empty ``values``."""
    ordered = sorted(values)
    return float(ordered[max(0, math.ceil(share * len(ordered)) - 1)])


def simulate(
    rules: RuleBook,
    bots: Sequence[str],
    games: int,
    seed: int,
    on_game: Callable[[int, GameResult, tuple[str, ...]], None] | None = None,
) -> Summary:
    """Play ``games`` games; game ``g`` is dealt from a seed derived from ``seed`` and ``g``.

    Args:
        bots: player kinds per seat (``"random"``, ``"greedy"``); one kind is used for all.
        on_game: called after each game with its number (from 0), its result and the player
            kind of each seat (``spitemalice simulate --record`` writes game records).

    Raises:
        SpiteMaliceError: an unknown bot or a bot list that does not fit the seats.
    """
    kinds = _bots_for(bots, rules.players)
    results = []
    start = time.perf_counter()
    for game in range(games):
        game_seed = derive_seed(seed, "game", game)
        players = [make_player(kind, derive_seed(game_seed, "seat", seat))
                   for seat, kind in enumerate(kinds)]
        results.append(play_game(rules, players, game_seed))
        if on_game is not None:
            on_game(game, results[-1], kinds)
    return _summarise(rules, kinds, results, time.perf_counter() - start)


def _bots_for(bots: Sequence[str], seats: int) -> tuple[str, ...]:
    if len(bots) == 1:
        return tuple(bots) * seats
    if len(bots) != seats:
        raise SpiteMaliceError(f"give one bot for all seats or one per seat ({seats}), "
                               f"not {len(bots)}")
    return tuple(bots)


def _summarise(rules: RuleBook, kinds: tuple[str, ...], results: list[GameResult],
               seconds: float) -> Summary:
    outcomes: dict[str, int] = dict.fromkeys(OUTCOME_KINDS, 0)
    wins = [0] * rules.players
    first_wins = 0
    for result in results:
        outcome = result.final.outcome
        assert outcome is not None
        outcomes[outcome.kind] += 1
        if outcome.winner is not None:
            wins[outcome.winner] += 1
            first_wins += outcome.winner == result.first_seat
    moves = [len(r.moves) for r in results] or [0]
    turns = [r.turns for r in results] or [0]
    return Summary(
        rules.name, rules.players, kinds, len(results), outcomes, tuple(wins), first_wins,
        sum(moves) / len(moves), percentile(moves, 0.95), sum(turns) / len(turns),
        percentile(turns, 0.95), seconds, sum(moves),
    )

