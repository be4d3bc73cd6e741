"""Dynamic checks: seeded games with several kinds of players, every invariant after every
move, and the smallest failing game found by hypothesis when something breaks."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

import attrs

from spitemalice.engine import PASS, apply_move, deal, legal_moves
from spitemalice.invariants import check_state, check_transition
from spitemalice.model import GameState
from spitemalice.moves import Move
from spitemalice.parallel import run_games
from spitemalice.players import make_player
from spitemalice.rulebook import RuleBook
from spitemalice.simulate import derive_seed

from .report import Check, GameStats, wilson_interval

LINEUPS: tuple[str, ...] = ("random", "greedy", "mixed")
ENOUGH_TO_JUDGE = 100  # clean games needed before "no game was won" counts as a failure


@attrs.define
class Failure:
    """The first problem met in a game: which game, the moves up to it, and what broke."""

    seed: int
    moves: list[Move]
    problem: str


def stuck(rules: RuleBook, state: GameState, moves: Sequence[Move]) -> str | None:
    """A seat is stuck when, at the start of its turn, it must pass although it holds a card
    the rules let it discard: some rule has taken every move away (design notes §6)."""
    if state.outcome is not None or state.turn_moves or tuple(moves) != (PASS,):
        return None
    hand = state.seats[state.seat].hand
    if any(card.rank not in rules.discard.forbidden for card in hand):
        return f"seat {state.seat} is left with no legal move but a pass, holding {len(hand)} cards"
    return None


def step_problem(rules: RuleBook, state: GameState, move: Move) -> tuple[GameState, str | None]:
    """Apply ``move``; return the new state and the first problem it shows, if any.  Any
    exception (a plugin's bug) becomes a problem to report, never a crash of the validator."""
    try:
        after = apply_move(rules, state, move)
        problems = check_transition(rules, state, move, after)
        if problems:
            return after, problems[0]
        if after.outcome is None:
            return after, stuck(rules, after, legal_moves(rules, after))
    except Exception as error:
        return state, f"{type(error).__name__} after {move}: {error}"
    return after, None


def play_checked(
    rules: RuleBook, seed: int, lineup: str
) -> tuple[GameState, int, int, Failure | None]:
    """One seeded game with ``lineup`` players (``"random"``, ``"greedy"`` or ``"mixed"``),
    every invariant checked after every move: the final state, the seat that moved first,
    the number of moves and the first failure (``None`` for a clean game)."""
    kinds = _kinds(lineup, rules.players)
    players = [make_player(kind, derive_seed(seed, "seat", i)) for i, kind in enumerate(kinds)]
    state = deal(rules, seed)
    first = state.seat
    problems = check_state(rules, state)
    if problems:
        return state, first, 0, Failure(seed, [], problems[0])
    moves: list[Move] = []
    while state.outcome is None:
        try:
            move = players[state.seat].choose(rules, state, legal_moves(rules, state))
        except Exception as error:  # a plugin's bug in legal_moves: report it
            return state, first, len(moves), Failure(
                seed, moves, f"{type(error).__name__} while listing the legal moves: {error}")
        moves.append(move)
        state, problem = step_problem(rules, state, move)
        if problem:
            return state, first, len(moves), Failure(seed, moves, problem)
    return state, first, len(moves), None


def _kinds(lineup: str, seats: int) -> list[str]:
    if lineup == "mixed":
        return ["greedy" if seat % 2 == 0 else "random" for seat in range(seats)]
    return [lineup] * seats


@attrs.frozen
class CheckedGame:
    """Game ``g`` of a validation run as a pure function of ``g`` (see
    :mod:`spitemalice.parallel`): dealt from ``derive_seed(seed, "validate", g)``, played by
    the line-up ``LINEUPS[g % 3]``, every invariant checked after every move; returns what
    :func:`play_checked` returns."""

    rules: RuleBook = attrs.field(eq=False)
    seed: int

    def __call__(self, game: int) -> tuple[GameState, int, int, Failure | None]:
        game_seed = derive_seed(self.seed, "validate", game)
        return play_checked(self.rules, game_seed, LINEUPS[game % len(LINEUPS)])


def dynamic_checks(
    rules: RuleBook, games: int, seed: int, jobs: int | None = 1, client: Any = None
) -> tuple[list[Check], GameStats, Failure | None]:
    """Play ``games`` games split over the player line-ups; return the checks, the statistics
    and the first failure (``None`` when every game was clean).  ``jobs`` and ``client`` say
    where the games are played (:func:`spitemalice.parallel.run_games`); the result does not
    depend on them."""
    kinds: Counter[str] = Counter()
    lengths, first_wins, wins = [], 0, 0
    failure: Failure | None = None
    failed_games = 0
    played = run_games(CheckedGame(rules, seed), games, jobs, client)
    for final, first, length, problem in played:
        if problem is not None:
            failed_games += 1
            failure = failure or problem
            continue
        assert final.outcome is not None
        kinds[final.outcome.kind] += 1
        lengths.append(length)
        if final.outcome.winner is not None:
            wins += 1
            first_wins += final.outcome.winner == first
    clean = games - failed_games
    checks = [
        Check("invariants after every move", failure is None,
              f"{clean}/{games} games clean", failure.problem if failure else ""),
        Check("every game ends with an outcome", clean > 0 and sum(kinds.values()) == clean,
              (", ".join(f"{n} {kind}" for kind, n in sorted(kinds.items())) or "none")
              + f" of {clean} clean games"),
        # With few games a rarely won rule set (starturn) may show no win by chance.
        Check("some game is won", wins > 0 or clean < ENOUGH_TO_JUDGE,
              f"{wins} of {clean} games won",
              "" if wins or clean < ENOUGH_TO_JUDGE
              else "no game was won: can these rules be won at all?"),
    ]
    stats = GameStats(
        clean, sum(lengths) / len(lengths) if lengths else 0.0,
        (clean - wins) / clean if clean else 0.0,
        first_wins / wins if wins else 0.0, wilson_interval(first_wins, wins),
    )
    return checks, stats, failure


def first_problem(
    rules: RuleBook, seed: int, picks: Sequence[int]
) -> tuple[list[Move], str] | None:
    """Play ``legal_moves[pick % n]`` for each pick from the deal of ``seed``; the moves up to
    the first problem and the problem, or ``None``."""
    state = deal(rules, seed)
    moves: list[Move] = []
    for pick in picks:
        if state.outcome is not None:
            return None
        try:
            options = legal_moves(rules, state)
        except Exception as error:
            return moves, f"{type(error).__name__} while listing the legal moves: {error}"
        move = options[pick % len(options)]
        moves.append(move)
        state, problem = step_problem(rules, state, move)
        if problem:
            return moves, problem
    return None


def picks_of(rules: RuleBook, seed: int, moves: Sequence[Move]) -> list[int]:
    """The index of each move among the legal moves of its position (moves must be legal)."""
    state, picks = deal(rules, seed), []
    for move in moves:
        try:
            options = legal_moves(rules, state)
        except Exception:  # the failure may be this very crash
            break
        if move not in options:
            break
        picks.append(options.index(move))
        try:
            state = apply_move(rules, state, move)
        except Exception:  # the failing move itself may crash a faulty plugin
            break
    return picks


def shrink(rules: RuleBook, failure: Failure, budget: int = 150) -> Failure:
    """A smaller game that fails the same way, or ``failure`` itself.

    The game is a list of picks (indices into each position's legal moves) from the same deal.
    Two passes within ``budget`` replays: a delta-debugging pass that drops runs of picks,
    then one that lowers each pick to 0 (the first listed move); then hypothesis searches the
    same deal for a shorter failing pick list and shrinks what it finds.
    """
    best = picks_of(rules, failure.seed, failure.moves)
    runs = {"left": budget}

    def still_fails(candidate: list[int]) -> bool:
        if runs["left"] <= 0:
            return False
        runs["left"] -= 1
        return first_problem(rules, failure.seed, candidate) is not None

    best = _drop_runs(best, still_fails)
    best = [0 if pick and still_fails([*best[:i], 0, *best[i + 1 :]]) else pick
            for i, pick in enumerate(best)]
    best = _hypothesis_shorter(rules, failure.seed, best) or best
    found = first_problem(rules, failure.seed, best)
    if found is None or len(found[0]) > len(failure.moves):
        return failure
    return Failure(failure.seed, found[0], found[1])


def _drop_runs(picks: list[int], still_fails: Callable[[list[int]], bool]) -> list[int]:
    size = max(len(picks) // 2, 1)
    while size >= 1:
        i = 0
        while i < len(picks):
            candidate = picks[:i] + picks[i + size :]
            if candidate and still_fails(candidate):
                picks = candidate
            else:
                i += size
        size //= 2
    return picks


def _hypothesis_shorter(rules: RuleBook, seed: int, picks: list[int]) -> list[int] | None:
    """A failing pick list no longer than ``picks`` found and shrunk by hypothesis, or
    ``None`` (also when hypothesis, a test dependency, is not installed: the other shrinking
    passes still run)."""
    try:
        from hypothesis import HealthCheck, find, settings
        from hypothesis import strategies as st
        from hypothesis.errors import NoSuchExample
    except ImportError:
        return None

    strategy = st.lists(st.integers(min_value=0, max_value=8), max_size=len(picks))
    try:
        return find(strategy, lambda p: first_problem(rules, seed, p) is not None,
                    settings=settings(max_examples=40, database=None, deadline=None,
                                      derandomize=True,
                                      suppress_health_check=list(HealthCheck)))
    except NoSuchExample:
        return None
