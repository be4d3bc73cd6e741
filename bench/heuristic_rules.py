"""The heuristic bot's rules, measured: the bot against itself with one rule in its former form.

    python bench/heuristic_rules.py [--deals N] [--seed N]

Each row plays the ``heuristic`` bot (``spitemalice.bots.heuristic`` as it is) against a
*rival* on ``--deals`` duplicate deals: every deal is played twice, the two bots' seats
swapped (at four seats the bot holds seats 0 and 2, then 1 and 3; at three seats seats 0 and
2, then seat 1).  The rivals are the bot with one of the module's switches flipped back to
its former rule (a private copy of the module, so the two never share a switch), both
switches at once, and the ``greedy`` bot.  It prints the share of won games the bot won,
with its 95% Wilson interval, and the games without a winner; docs/performance.md ("The
heuristic bot's rules, measured") shows a run.  About 10 to 30 ms of CPU a game.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Callable
from types import ModuleType

from reference import reference_seconds

import spitemalice as sm
from spitemalice.bots.heuristic import HeuristicPlayer
from spitemalice.bots.players import GreedyPlayer, Player
from spitemalice.engine.shuffle import derive_seed
from spitemalice.measures.rates import wilson
from spitemalice.runs.loop import play_game
from spitemalice.wording import count_of

MakePlayer = Callable[[int], Player]


def former(**switches: bool) -> MakePlayer:
    """A maker of heuristic players from a private copy of the module with ``switches`` set
    (``HAND_FIRST=False``, ``GUARD_ALL=True``)."""
    spec = importlib.util.find_spec("spitemalice.bots.heuristic")
    assert spec is not None and spec.loader is not None
    copy: ModuleType = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(copy)
    for name, value in switches.items():
        assert hasattr(copy, name), name
        setattr(copy, name, value)
    return copy.HeuristicPlayer  # type: ignore[no-any-return]


RIVALS: dict[str, MakePlayer] = {  # short names: the table must fit a page's width
    "tops first": former(HAND_FIRST=False),  # rule 5: discard-pile tops before the hand
    "all guarded": former(GUARD_ALL=True),  # rule 3: every opponent's pay-off card guarded
    "both former": former(HAND_FIRST=False, GUARD_ALL=True),
    "greedy": GreedyPlayer,
}

ROWS = [  # (rule set, seats, rival): GUARD_ALL changes nothing at two seats
    *((name, 2, "tops first")
      for name in ("blackwood-frey", "uspcc", "g4a", "misery", "skip-bo", "starturn")),
    *((name, seats, rival) for name, seats in (("blackwood-frey", 4), ("skip-bo", 4),
                                                ("misery", 3))
      for rival in RIVALS if rival != "greedy"),
    ("blackwood-frey", 2, "greedy"),
    ("skip-bo", 4, "greedy"),
]


def duel(rules: sm.RuleBook, rival: MakePlayer, deals: int, seed: int) -> tuple[int, int, int]:
    """(games the heuristic bot won, games the rival won, games without a winner)."""
    won = lost = drawn = 0
    seats = rules.players
    for deal in range(deals):
        game_seed = derive_seed(seed, "heuristic-rules", deal)
        for side in (0, 1):  # the heuristic bot in the seats of this parity
            players = [HeuristicPlayer(derive_seed(game_seed, "a", s)) if s % 2 == side
                       else rival(derive_seed(game_seed, "b", s)) for s in range(seats)]
            outcome = play_game(rules, players, game_seed).final.outcome
            if outcome is None or outcome.winner is None:
                drawn += 1
            elif outcome.winner % 2 == side:
                won += 1
            else:
                lost += 1
    return won, lost, drawn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000, help="deals per row (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    args = parser.parse_args()
    print(f"reference workload nqueens(8): {reference_seconds() * 1000:.0f} ms CPU", flush=True)
    print(f"{count_of(args.deals, 'deal')} a row; rivals: tops first = HAND_FIRST off, all "
          "guarded = GUARD_ALL on, both former = both", flush=True)
    print("| rule set | seats | rival | won | lost | no winner | heuristic's share | CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    for name, seats, rival in ROWS:
        rules = sm.load(name, params={"players": seats})
        start = time.process_time()
        won, lost, drawn = duel(rules, RIVALS[rival], args.deals, args.seed)
        share = wilson(won, won + lost)
        print(f"| {name} | {seats} | {rival} | {won} | {lost} | {drawn} | "
              f"{share.estimate:.1%} ({share.low:.1%}..{share.high:.1%}) | "
              f"{time.process_time() - start:.0f} |", flush=True)
    print(f"reference workload nqueens(8) again: {reference_seconds() * 1000:.0f} ms CPU")


if __name__ == "__main__":
    sys.exit(main())
