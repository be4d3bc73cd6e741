"""The bench scripts' shared loops (``bench/loops.py``) play what their figures claim: the
engine's random games, played through the library's game loop, are the games of the loop the
peer benchmark times (``legal[rng.randrange(len(legal))]`` with one generator), and both
loops play whole games until their budget of moves (steps) and CPU seconds is spent."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import spitemalice as sm
from spitemalice import env as sm_env

_SPEC = importlib.util.spec_from_file_location(
    "bench_loops", Path(__file__).parents[2] / "bench" / "loops.py")
assert _SPEC is not None and _SPEC.loader is not None
loops = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(loops)  # a script's module, loaded without putting bench/ on sys.path
random_env_steps, random_games = loops.random_env_steps, loops.random_games


def _peer_loop(rules: sm.RuleBook, seed: int, moves: int) -> int:
    """Moves made by the loop ``peer_bench.py`` times, whole games until ``moves``."""
    rng, made, game = random.Random(seed), 0, 0
    while made < moves:
        state = sm.deal(rules, seed + game)
        game += 1
        while state.outcome is None:
            legal = sm.legal_moves(rules, state)
            state = sm.apply_move(rules, state, legal[rng.randrange(len(legal))])
            made += 1
    return made


def test_random_games_are_the_peer_loops_games() -> None:
    rules = sm.load("misery", payoff_size=5)
    # a different draw anywhere in several whole games would change the count of moves
    assert random_games(rules, 4, moves=600)[0] == _peer_loop(rules, 4, 600) > 600


def test_a_cpu_budget_alone_plays_whole_games_until_it_is_spent() -> None:
    made, seconds = random_games(sm.load("misery", payoff_size=5), 1, seconds=0.05)
    assert made > 0 and seconds >= 0.05


def test_the_environment_loop_steps_whole_games_until_its_budget() -> None:
    made, _ = random_env_steps(sm_env.make("misery", payoff_size=5), 2, steps=30)
    assert made >= 30
    _, seconds = random_env_steps(sm_env.make("misery", payoff_size=5), 2, seconds=0.05)
    assert seconds >= 0.05


class _NeverEnds:
    """An AEC environment whose one agent is never done: a seat waiting for a game that
    never ends (issue 39: a bench loop hung for 12 minutes)."""

    def __init__(self) -> None:
        self.steps = 0

    def reset(self, seed: int | None = None) -> None:
        self.steps = 0

    def agent_iter(self, max_iter: int = 2**63):  # type: ignore[no-untyped-def]
        for _ in range(max_iter):
            yield "seat_0"

    def last(self):  # type: ignore[no-untyped-def]
        import numpy as np

        return {"action_mask": np.ones(2, np.int8)}, 0.0, False, False, {}

    def step(self, action: int) -> None:
        self.steps += 1


def test_a_game_that_never_ends_stops_the_env_loop(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import sys

    import pytest

    monkeypatch.setattr(loops, "MOVES_PER_GAME", 50)  # the cap, as bench/bounds.py sets it
    monkeypatch.setattr(sys.modules["bounds"], "MOVES_PER_GAME", 50)
    env = _NeverEnds()
    with pytest.raises(SystemExit, match="passed the cap of moves, MOVES_PER_GAME = 50"):
        random_env_steps(env, 1, steps=1)
    assert env.steps == 50  # it stopped at the cap, not later
