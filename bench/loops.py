"""The random play the bench scripts time, written once for all of them: whole games of
uniformly random legal moves on the engine, and on the PettingZoo AEC environment, until a
number of moves and a CPU time (``time.process_time``) have both passed.

The engine's games go through the library's own game loop
(:func:`spitemalice.runs.loop.play_game`: ``deal``, then ``legal_moves``, the seat's choice,
``apply_move`` until the game ends), so a figure measures the loop every run of games uses.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import spitemalice as sm
from spitemalice.bots.players import RandomPlayer
from spitemalice.runs.loop import play_game

sys.path.insert(0, str(Path(__file__).parent))  # bounds.py beside this file
from bounds import MOVES_PER_GAME, over_cap


def random_games(rules: sm.RuleBook, seed: int, moves: int = 0,
                 seconds: float = 0.0) -> tuple[int, float]:
    """Moves made and CPU seconds spent playing whole games dealt from ``seed``, ``seed + 1``,
    ... until at least ``moves`` moves and ``seconds`` CPU seconds: every seat draws its
    move uniformly from one ``random.Random(seed)`` (one :class:`RandomPlayer` in every seat,
    the draws of ``legal[rng.randrange(len(legal))]``)."""
    players = [RandomPlayer(seed)] * rules.players
    made = game = 0
    start = time.process_time()
    while made < moves or time.process_time() - start < seconds:
        made += len(play_game(rules, players, seed + game).moves)
        game += 1
    return made, time.process_time() - start


def random_env_steps(env: Any, seed: int, steps: int = 0,
                     seconds: float = 0.0) -> tuple[int, float]:
    """Steps made and CPU seconds spent playing whole games of the AEC environment ``env``
    (reset with ``seed``, ``seed + 1``, ...) the way a learner does (``agent_iter``,
    ``last``, an action drawn uniformly among those the mask allows with one
    ``random.Random(seed)``, ``step``) until at least ``steps`` steps and ``seconds`` CPU
    seconds.  An agent that is done steps ``None`` and is not counted.  A game that passes
    ``bounds.MOVES_PER_GAME`` steps stops the loop (``SystemExit``)."""
    rng = random.Random(seed)
    made = game = 0
    start = time.process_time()
    while made < steps or time.process_time() - start < seconds:
        env.reset(seed=seed + game)
        game += 1
        taken = 0
        for _ in env.agent_iter(max_iter=MOVES_PER_GAME + 1):  # a bound: bench/bounds.py
            taken += 1
            over_cap(taken, "random_env_steps")
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
            made += 1
    return made, time.process_time() - start
