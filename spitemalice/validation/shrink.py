"""Shrinking a failing game: the smallest game found that fails the same way, replayed as a
list of picks (indices into each position's legal moves) from the same deal; hypothesis
searches for a shorter one when it is installed."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from spitemalice.engine.apply import apply_move
from spitemalice.engine.deal import deal
from spitemalice.engine.invariants.violation import Violation
from spitemalice.engine.legal import legal_moves
from spitemalice.moves import Move
from spitemalice.rules.book import RuleBook

from .dynamic import step_violation, unintended
from .failure import Failure


def first_problem(
    rules: RuleBook, seed: int, picks: Sequence[int]
) -> tuple[list[Move], str] | None:
    """Play ``legal_moves[pick % n]`` for each pick from the deal of ``seed``; the moves up to
    the first problem and the problem, or ``None``.
    """
    found = first_violation(rules, seed, picks)
    return None if found is None else (found[0], found[1].message)


def first_violation(
    rules: RuleBook, seed: int, picks: Sequence[int]
) -> tuple[list[Move], Violation] | None:
    """:func:`first_problem` with the problem named.

    The problem is a :class:`~spitemalice.engine.invariants.violation.Violation`.
    """
    state = deal(rules, seed)
    moves: list[Move] = []
    for pick in picks:
        if state.outcome is not None:
            return None
        try:
            options = legal_moves(rules, state)
        except Exception as error:
            return moves, Violation(
                "crash", f"{type(error).__name__} while listing the legal moves: {error}")
        move = options[pick % len(options)]
        moves.append(move)
        state, problem = step_violation(rules, state, move)
        problem = unintended(rules, problem)
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
    found = first_violation(rules, failure.seed, best)
    if found is None or len(found[0]) > len(failure.moves):
        return failure
    return Failure(failure.seed, found[0], found[1].message, found[1].invariant)


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
