"""Speed of random and greedy playouts (a benchmark, not a test).

    python bench/bench.py [--ruleset blackwood-frey] [--games 300] [--seed 1] [--noop-plugins 5]

Prints moves/s and games/s for each bot on one core.  With ``--noop-plugins N`` it also
measures the same playouts with N extra plugins registered: N that answer only build-time
hooks (their cost should vanish, since hooks are resolved once) and N no-op move filters
(a per-move hook, the worst case for plugin overhead).
"""

from __future__ import annotations

import argparse
import time

import spitemalice as sm
from spitemalice.hookspecs import hookimpl
from spitemalice.players import make_player
from spitemalice.registry import load_plugin
from spitemalice.rulebook import RuleBook


class BuildTimeNoop:
    """Answers a build-time hook with nothing."""

    KIND = "house-rule"

    def __init__(self, number: int) -> None:
        self.NAME = f"noop-{number}"

    @hookimpl
    def spitemalice_rule_sheet(self, ruleset: sm.Ruleset) -> list[sm.Clause]:
        return []


class FilterNoop(BuildTimeNoop):
    """A per-move filter that has no opinion."""

    @hookimpl
    def spitemalice_filter_moves(self, ruleset, state, moves):  # type: ignore[no-untyped-def]
        return None


def playouts(rules: RuleBook, bot: str, games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` games with ``bot`` in every seat; return (moves, seconds)."""
    moves = 0
    start = time.perf_counter()
    for game in range(games):
        players = [make_player(bot, seed + game * 10 + i) for i in range(rules.players)]
        state = sm.deal(rules, seed + game)
        while state.outcome is None:
            options = sm.legal_moves(rules, state)
            state = sm.apply_move(rules, state, players[state.seat].choose(rules, state, options))
            moves += 1
    return moves, time.perf_counter() - start


def report(label: str, rules: RuleBook, games: int, seed: int) -> None:
    for bot in ("random", "greedy"):
        moves, seconds = playouts(rules, bot, games, seed)
        print(f"{label:<28} {bot:<7} {moves / seconds:>10,.0f} moves/s {games / seconds:>8.1f} "
              f"games/s  ({moves / games:.0f} moves/game)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", default="blackwood-frey")
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--noop-plugins", type=int, default=0)
    args = parser.parse_args()
    variant = load_plugin(args.ruleset, "ruleset")
    report(args.ruleset, RuleBook(variant), args.games, args.seed)
    if args.noop_plugins:
        n = args.noop_plugins
        report(f"+{n} build-time no-ops", RuleBook(variant, [BuildTimeNoop(i) for i in range(n)]),
               args.games, args.seed)
        report(f"+{n} no-op move filters", RuleBook(variant, [FilterNoop(i) for i in range(n)]),
               args.games, args.seed)


if __name__ == "__main__":
    main()
