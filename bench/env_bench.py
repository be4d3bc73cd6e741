"""Speed of the PettingZoo environment with random masked actions (a benchmark, not a test).

    python bench/env_bench.py [--ruleset blackwood-frey] [--players 2] [--steps 50000]
                              [--seed 1] [--catalogue slot|card] [--mapping] [--profile]

Plays whole games through the AEC loop a learner uses (``agent_iter``, ``last``, a random
action among those the mask allows, ``step``) and prints env steps per CPU second
(``time.process_time``), with the engine alone (legal moves and apply, same random play) for
comparison.  ``--all`` measures every installed rule set.  ``--catalogue`` picks the action
space (``slot``, by hand slot, the default; ``card``, by card).  ``--mapping`` measures the
move-to-action mapping alone (``action_list`` over the positions of random games, both
catalogues, per CPU second), the part of a step the action space decides.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import spitemalice as sm
from spitemalice import env as sm_env
from spitemalice.env.spaces import make_catalogue
from spitemalice.wording import count_of

sys.path.insert(0, str(Path(__file__).parent))
from loops import random_env_steps, random_games


def env_steps(name: str, players: int | None, steps: int, seed: int,
              catalogue: str = "slot") -> tuple[int, float]:
    """Steps made and CPU seconds for at least ``steps`` random masked env steps."""
    return random_env_steps(sm_env.make(name, players=players, catalogue=catalogue), seed,
                            steps=steps)


def mapping_cost(name: str, players: int | None, positions: int, seed: int) -> None:
    """Print the CPU microseconds of one ``action_list`` (the legal moves to their actions)
    per position, for each catalogue, over the positions of random games; the legal moves
    are listed before the clock starts, and the first pass (learning each move) is left out.
    """
    rules = sm.load(name, players=players) if players else sm.load(name)
    rng = random.Random(seed)
    listed: list[tuple[sm.GameState, tuple[sm.Move, ...]]] = []
    game = seed
    while len(listed) < positions:
        state = sm.deal(rules, game)
        game += 1
        while state.outcome is None and len(listed) < positions:
            moves = sm.legal_moves(rules, state)
            listed.append((state, moves))
            state = sm.apply_move(rules, state, moves[rng.randrange(len(moves))])
    for catalogue in ("slot", "card"):
        made = make_catalogue(rules, catalogue)
        for state, moves in listed:  # learn every move once
            made.action_list(state, moves)
        start = time.process_time()
        for state, moves in listed:
            made.action_list(state, moves)
        seconds = time.process_time() - start
        print(f"{name:<16} {catalogue:<5} action_list {seconds / len(listed) * 1e6:6.2f} us "
              f"per position ({count_of(len(listed), 'position')}, "
              f"{sum(len(m) for _, m in listed) / len(listed):.1f} legal moves each)")


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
    parser.add_argument("--catalogue", default="slot", choices=("slot", "card"))
    parser.add_argument("--mapping", action="store_true",
                        help="the move-to-action mapping alone, both catalogues")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of the run")
    args = parser.parse_args()
    names = [i.name for i in sm.installed() if i.kind == "ruleset"] if args.all \
        else [args.ruleset]
    if args.profile:
        import cProfile
        import pstats
        cProfile.runctx("env_steps(names[0], args.players, args.steps, args.seed, "
                        "args.catalogue)",
                        globals(), locals(), "/tmp/env_bench.prof")
        pstats.Stats("/tmp/env_bench.prof").sort_stats("cumulative").print_stats(25)
        return
    if args.mapping:
        for name in names:
            mapping_cost(name, args.players, args.steps // 5, args.seed)
        return
    print(f"catalogue {args.catalogue}")
    print(f"{'rule set':<16} {'env steps/s':>12} {'engine moves/s':>15} {'env/engine':>10}")
    for name in names:
        made, seconds = env_steps(name, args.players, args.steps, args.seed, args.catalogue)
        moves, engine_seconds = engine_moves(name, args.players, args.steps, args.seed)
        env_rate, engine_rate = made / seconds, moves / engine_seconds
        print(f"{name:<16} {env_rate:>12,.0f} {engine_rate:>15,.0f} "
              f"{env_rate / engine_rate:>10.2f}")


if __name__ == "__main__":
    main()
