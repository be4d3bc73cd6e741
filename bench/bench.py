"""The engine's speed in one run (a benchmark, not a test; figures go to docs/performance.md).

    python bench/bench.py [--games 200] [--seed 1] [--validate-games 1000] [--quick]
                          [--peers PEER_PYTHON]

Prints, in CPU seconds of one process (``time.process_time``) so that a loaded machine skews
the figures little:

* moves/s of random and greedy playouts through the library's game loop
  (:func:`spitemalice.runs.loop.play_game`: ``legal_moves``, a seeded choice, ``apply_move``)
  for every built-in rule set at every seat count it allows, and for every house rule on
  blackwood-frey with 2 seats;
* the overhead of 5 no-op plugins implementing every hook, the per-move ones included;
* the cost of rule coverage: ``simulate`` with and without ``coverage=True`` (one core);
* the wall time of ``spitemalice validate blackwood-frey --games 1000`` (all cores), with the
  CPU time its processes used;
* peak memory of this process and how much the tracemalloc peak of ``simulate`` grows from
  200 to 1000 games;
* with ``--peers PEER_PYTHON``, first, the side-by-side section of ``bench/side_by_side.py``:
  engine random decisions/s, environment and vectorised environment steps/s and start-up
  time beside OpenSpiel's and RLCard's engines run by that interpreter;
* with ``--search GAMES``, the CPU per decision of the search bots, with ``--study DEALS``
  a whole ismcts-against-heuristic tournament, with ``--duel SECONDS DEALS`` ismcts
  against mcts at equal CPU per decision, and with ``--pairing POSITIONS`` the spread the
  ismcts root's pairing takes out (``bench/search_cost.py``);
* the CPU time of a fixed pure-Python reference workload (``bench/reference.py``, nqueens(8)),
  measured in the same run, so that figures from another machine or moment can be scaled.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

import spitemalice as sm
from spitemalice.bots.players import make_player
from spitemalice.rules.book import RuleBook
from spitemalice.rules.hookspecs import hookimpl
from spitemalice.rules.registry import load_plugin
from spitemalice.runs.loop import play_game
from spitemalice.study.simulate import simulate
from spitemalice.wording import count_of

sys.path.insert(0, str(Path(__file__).parent))
from reference import reference_seconds
from search_cost import duel, pairing, run_command, search_table, study
from side_by_side import report as side_by_side


class Noop:
    """A house rule implementing every hook with no effect: it answers ``None`` (or nothing)
    everywhere, so the game is unchanged and only the cost of calling it shows."""

    KIND = "house-rule"

    def __init__(self, number: int) -> None:
        self.NAME = f"noop-{number}"

    @hookimpl
    def spitemalice_rule_sheet(self, ruleset):  # type: ignore[no-untyped-def]
        return []

    @hookimpl
    def spitemalice_conflicts(self, ruleset, plugins):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_deck(self, ruleset):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_wild(self, ruleset):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_build_ceiling(self, ruleset):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_build_pile_limit(self, ruleset):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_discard_limits(self, ruleset):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_deal(self, ruleset):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_score(self, ruleset, state, kind, winner):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_filter_moves(self, ruleset, state, moves):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_end_of_game(self, ruleset, state):  # type: ignore[no-untyped-def]
        return None

    @hookimpl
    def spitemalice_completed_pile(self, ruleset, state, pile):  # type: ignore[no-untyped-def]
        return None


def playouts(rules: RuleBook, bot: str, games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` games with ``bot`` in every seat through the library's game loop
    (:func:`~spitemalice.runs.loop.play_game`); return (moves, CPU seconds)."""
    moves = 0
    start = time.process_time()
    for game in range(games):
        players = [make_player(bot, seed + game * 10 + i) for i in range(rules.players)]
        moves += len(play_game(rules, players, seed + game).moves)
    return moves, time.process_time() - start


def rate(rules: RuleBook, bot: str, games: int, seed: int) -> float:
    moves, seconds = playouts(rules, bot, games, seed)
    return moves / seconds


def configurations() -> list[tuple[str, tuple[str, ...], int]]:
    """(rule set, house rules, seats): every built-in rule set at every seat count, then every
    house rule on blackwood-frey with 2 seats."""
    infos = sm.installed()
    configs = []
    for info in infos:
        if info.kind == "ruleset":
            ruleset = sm.load(info.name).ruleset
            configs += [(info.name, (), n)
                        for n in range(ruleset.min_players, ruleset.max_players + 1)]
    rulesets = ["blackwood-frey", *(name for name, _, _ in configs if name != "blackwood-frey")]
    for info in infos:
        if info.kind == "house-rule":
            configs += _first_that_loads(info.name, rulesets)
    return configs


def _first_that_loads(house_rule: str,
                      rulesets: list[str]) -> list[tuple[str, tuple[str, ...], int]]:
    """The house rule on blackwood-frey with the fewest seats it allows, or else on the first
    rule set that takes it (partnerships needs 4 seats, Skip-Bo's house rules Skip-Bo)."""
    for name in dict.fromkeys(rulesets):
        ruleset = sm.load(name).ruleset
        for players in range(ruleset.min_players, ruleset.max_players + 1):
            try:
                sm.load(name, [house_rule], players=players)
            except sm.RulesetError:
                continue
            return [(name, (house_rule,), players)]
    return []


def row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def engine_table(games: int, seed: int) -> None:
    print(row(["configuration", "seats", "random moves/s", "greedy moves/s", "vs bf random"]))
    print(row(["---", "---:", "---:", "---:", "---:"]))
    base = None
    for name, house_rules, players in configurations():
        rules = sm.load(name, house_rules, players=players)
        random_rate = rate(rules, "random", games, seed)
        greedy_rate = rate(rules, "greedy", max(games // 2, 1), seed)
        base = base or random_rate
        label = "+".join([name, *house_rules])
        print(row([label, str(players), f"{random_rate:,.0f}", f"{greedy_rate:,.0f}",
                   f"{random_rate / base - 1:+.0%}"]), flush=True)


def plugin_overhead(games: int, seed: int, rounds: int = 6) -> None:
    plain = sm.load("blackwood-frey")
    noops = RuleBook.from_plugins(load_plugin("blackwood-frey"), [Noop(i) for i in range(5)])
    # Alternate the two, several rounds: the noise of a shared machine is larger than the
    # effect measured.  Reported: each one's best round, and the median of the rounds' own
    # ratios (each round measures both within a second or two, under the same load).
    best = {"plain": 0.0, "noops": 0.0}
    ratios = []
    for _ in range(rounds):
        plain_rate = rate(plain, "random", games, seed)
        noops_rate = rate(noops, "random", games, seed)
        best["plain"] = max(best["plain"], plain_rate)
        best["noops"] = max(best["noops"], noops_rate)
        ratios.append(1 - noops_rate / plain_rate)
    print(f"5 no-op plugins on every hook: {best['noops']:,.0f} against {best['plain']:,.0f} "
          f"moves/s random, {1 - best['noops'] / best['plain']:+.1%} slower (best rounds); "
          f"{statistics.median(ratios):+.1%} slower (median of {count_of(rounds, 'paired round')})",
          flush=True)


def coverage_cost(games: int, seed: int, rounds: int = 4) -> None:
    """CPU time of ``simulate`` on one core with and without rule coverage, alternating
    rounds (the machine's noise is larger than a small effect)."""
    rules = sm.load("blackwood-frey")
    ratios, best = [], {False: 0.0, True: 0.0}
    for _ in range(rounds):
        speed = {}
        for covered in (False, True):
            start = time.process_time()
            summary = simulate(rules, ["greedy"], games, seed, jobs=1, coverage=covered)
            speed[covered] = summary.total_moves / (time.process_time() - start)
            best[covered] = max(best[covered], speed[covered])
        ratios.append(speed[True] / speed[False])
    print(f"simulate blackwood-frey greedy, {count_of(games, 'game')}: {best[False]:,.0f} moves/s "
          "without "
          f"coverage, {best[True]:,.0f} with --coverage (best rounds); coverage on runs at "
          f"{statistics.median(ratios):.0%} of the speed (median of "
          f"{count_of(rounds, 'paired round')})",
          flush=True)


def validate_time(games: int) -> None:
    done, wall, cpu = run_command(["validate", "blackwood-frey", "--games", str(games)])
    status = "passed" if done.returncode == 0 else f"exit {done.returncode}"
    print(f"validate blackwood-frey --games {games}: {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"({status})", flush=True)


def memory(seed: int) -> None:
    rules = sm.load("blackwood-frey")
    peaks = {}
    for games in (200, 1000):
        tracemalloc.start()
        simulate(rules, ["random"], games, seed)
        peaks[games] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    growth = (peaks[1000] - peaks[200]) / 800
    print(f"simulate peak traced memory: {peaks[200] / 2**20:.1f} MiB for 200 games, "
          f"{peaks[1000] / 2**20:.1f} MiB for 1000 ({growth / 1024:+.1f} KiB per game)")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak resident memory of this benchmark process: {peak:.0f} MiB", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games per playout figure")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--validate-games", type=int, default=1000)
    parser.add_argument("--quick", action="store_true", help="blackwood-frey figures only")
    parser.add_argument("--peers", metavar="PEER_PYTHON",
                        help="first the side-by-side section, with the peer engines run by "
                             "this interpreter (a virtual environment with open_spiel, rlcard)")
    parser.add_argument("--search", type=int, metavar="GAMES",
                        help="only the search bots' CPU per decision, over GAMES games each")
    parser.add_argument("--study", type=int, metavar="DEALS",
                        help="only the tournament ismcts v heuristic on DEALS deals")
    parser.add_argument("--pairing", type=int, metavar="POSITIONS",
                        help="only the spread the ismcts root's pairing takes out, over "
                             "POSITIONS positions")
    parser.add_argument("--duel", nargs=2, metavar=("SECONDS[,MCTS_SECONDS]", "DEALS"),
                        help="only ismcts v mcts, SECONDS of CPU per searched decision for "
                             "ismcts and MCTS_SECONDS (default the same) for mcts, on DEALS "
                             "deals with the seats swapped")
    args = parser.parse_args()
    if args.peers:
        side_by_side(args.peers, 3.0)
    print(f"reference workload nqueens(8): {reference_seconds() * 1000:.0f} ms CPU", flush=True)
    if args.search or args.study or args.duel or args.pairing:
        if args.pairing:
            pairing(args.pairing, args.seed)
        if args.duel:
            budgets = [float(part) for part in args.duel[0].split(",")]
            duel(budgets[0], budgets[-1], int(args.duel[1]), args.seed)
        if args.search:
            search_table(args.search, args.seed)
        if args.study:
            study(args.study)
        print(f"reference workload nqueens(8) again: {reference_seconds() * 1000:.0f} ms CPU")
        return
    if args.quick:
        rules = sm.load("blackwood-frey")
        for bot in ("random", "greedy"):
            print(f"blackwood-frey 2 seats {bot}: "
                  f"{rate(rules, bot, args.games, args.seed):,.0f} moves/s", flush=True)
    else:
        engine_table(args.games, args.seed)
    plugin_overhead(args.games, args.seed)
    coverage_cost(max(args.games // 4, 1), args.seed)
    validate_time(args.validate_games)
    memory(args.seed)
    print(f"reference workload nqueens(8) again: {reference_seconds() * 1000:.0f} ms CPU")


if __name__ == "__main__":
    main()
