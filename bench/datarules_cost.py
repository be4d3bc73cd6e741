"""CPU cost of a house rule written as data against the same rule as a Python plugin.

    python bench/datarules_cost.py            # 30 seeded games per rule, random players

For each pair of tests/rules/test_datarules_identical.py (the data file and its Python form,
which play identical games): the CPU time of whole games under each form, and the CPU time
of one call of the rule's move filter (``spitemalice_filter_moves``) on every position of
those games, given the moves the base rules allow.  Time is CPU time (one run, no repeat).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "rules"))

from test_datarules_identical import PAIRS, _books  # type: ignore[import-not-found]

import spitemalice as sm
from spitemalice.bots.players import RandomPlayer
from spitemalice.runs.loop import play_game

GAMES = 30


def _games(rules: sm.RuleBook) -> tuple[float, int, list[sm.GameState]]:
    states: list[sm.GameState] = []
    start = time.process_time()
    moves = 0
    for seed in range(GAMES):
        result = play_game(rules, [RandomPlayer(seed), RandomPlayer(seed + 1)], seed,
                           on_move=lambda state, move: states.append(state))
        moves += len(result.moves)
    return time.process_time() - start, moves, states


def _filter_cost(rules: sm.RuleBook, asked: list[tuple[sm.GameState, tuple[sm.Move, ...]]]
                 ) -> float:
    hooks = [h for h in rules.filter_moves_hooks]
    start = time.process_time()
    for state, moves in asked:
        for hook in hooks:
            hook(rules.ruleset, state, moves)
    return (time.process_time() - start) / len(asked) * 1e6


def main() -> None:
    print(f"{'rule':<22}{'games data':>12}{'games python':>14}{'moves':>8}"
          f"{'filter data':>13}{'filter python':>15}")
    for name in sorted(PAIRS):
        data, python = _books(name, 2)
        base = sm.load(PAIRS[name][0])
        data_cpu, moves, states = _games(data)
        python_cpu, _, _ = _games(python)
        asked = [(s, sm.legal_moves(base, s)) for s in states if not s.is_over]
        asked = [(s, m) for s, m in asked if m != (sm.Pass(),)]
        if data.filter_moves_hooks:
            cost = f"{_filter_cost(data, asked):>10.1f} us{_filter_cost(python, asked):>12.1f} us"
        else:
            cost = f"{'(a value, no filter)':>28}"
        print(f"{name:<22}{data_cpu:>10.2f} s{python_cpu:>12.2f} s{moves:>8}{cost}")


if __name__ == "__main__":
    main()
