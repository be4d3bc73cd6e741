"""Speed of the PettingZoo environment with random masked actions (a benchmark, not a test).

    python bench/env_bench.py [--ruleset blackwood-frey] [--players 2] [--steps 50000]
                              [--seed 1] [--profile]

Plays whole games through the AEC loop a learner uses (``agent_iter``, ``last``, a random
action among those the mask allows, ``step``) and prints env steps per CPU second
(``time.process_time``), with the engine alone (legal moves and apply, same random play) for
comparison.  ``--all`` measures every installed rule set.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import spitemalice as sm
from spitemalice import env as sm_env

sys.path.insert(0, str(Path(__file__).parent))
from loops import random_env_steps, random_games


def env_steps(name: str, players: int | None, steps: int, seed: int) -> tuple[int, float]:
    """Steps made and CPU seconds for at least ``steps`` random masked env steps."""
    return random_env_steps(sm_env.make(name, players=players), seed, steps=steps)


def engine_moves(name: str, players: int | None, moves: int, seed: int) -> tuple[int, float]:
    """The same random play on the engine alone, for comparison."""
    rules = sm.load(name, players=players) if players else sm.load(name)
    return random_games(rules, seed, moves=moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ruleset", default="blackwood-frey")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--steps", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--all", action="store_true", help="every installed rule set")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the run")
    args = parser.parse_args()
    names = [i.name for i in sm.installed() if i.kind == "ruleset"] if args.all \
        else [args.ruleset]
    if args.profile:
        import cProfile
        import pstats
        cProfile.runctx("env_steps(names[0], args.players, args.steps, args.seed)",
                        globals(), locals(), "/tmp/env_bench.prof")
        pstats.Stats("/tmp/env_bench.prof").sort_stats("cumulative").print_stats(25)
        return
    print(f"{'rule set':<16} {'env steps/s':>12} {'engine moves/s':>15} {'env/engine':>10}")
    for name in names:
        made, seconds = env_steps(name, args.players, args.steps, args.seed)
        moves, engine_seconds = engine_moves(name, args.players, args.steps, args.seed)
        env_rate, engine_rate = made / seconds, moves / engine_seconds
        print(f"{name:<16} {env_rate:>12,.0f} {engine_rate:>15,.0f} "
              f"{env_rate / engine_rate:>10.2f}")


if __name__ == "__main__":
    main()
