"""Soak run: every built-in rule set, alone and with each house rule that stacks on it, at every
player count it allows, played by random and by greedy bots, with invariants checked after
every move.  Not a test: a long run whose table goes into reports.

    python bench/soak.py                      # 1000 games per cell, 2 worker processes
    python bench/soak.py --games 50 --rulesets g4a,misery --json soak.json

Per cell it reports mean moves per game, the share of games with no winner (drawn hands,
blocked games, turn limits), the win rate of the seat that moved first, and the games in which
an invariant broke or the engine raised.  Game ``g`` of a cell is dealt from the same seed as
game ``g`` of ``spitemalice simulate --seed SEED``, so a failing game can be replayed there.

Checked after every move (``spitemalice.engine.invariants``): card conservation (the state's cards
equal the deck's cards plus its separate pay-off pack), build piles well formed (each shorter
than the build ceiling, no more than the pile limit, every card standing for a rank it may),
hand and pile limits, pay-off piles only shrinking from the top, a declared outcome that names
a winner only for a win; that a live game always offers a legal move and no seat is left
stuck.  The game is the validator's own checked game (``validation.dynamic.play_checked``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Iterator
from typing import Any

import attrs

import spitemalice as sm
from spitemalice.engine.shuffle import derive_seed
from spitemalice.runs.workers import start_method
from spitemalice.validation.dynamic import play_checked
from spitemalice.wording import count_of

BOTS = ("random", "greedy")
@attrs.frozen
class Cell:
    """One configuration to soak: a rule set, an optional house rule, seats and a bot kind."""

    ruleset: str
    house_rule: str | None
    players: int
    bots: str
    games: int
    seed: int


@attrs.frozen
class CellResult:
    cell: Cell
    games: int
    mean_moves: float
    outcomes: dict[str, int]
    first_seat_wins: int
    failures: int
    examples: tuple[str, ...]
    seconds: float

    @property
    def no_winner_share(self) -> float:
        return 1 - self.outcomes.get("win", 0) / self.games

    @property
    def first_seat_rate(self) -> float:
        return self.first_seat_wins / self.games


def built_in(kind: str) -> list[str]:
    return sorted(p.name for p in sm.installed()
                  if p.kind == kind and p.origin.startswith("spitemalice_variants"))


def cells(games: int, seed: int, rulesets: list[str] | None) -> Iterator[Cell]:
    """Every (rule set, house rule or none, players, bots) that loads; refused ones skipped."""
    for ruleset in rulesets or built_in("ruleset"):
        base = sm.load(ruleset).ruleset
        for rule in (None, *built_in("house-rule")):
            for players in range(base.min_players, base.max_players + 1):
                try:
                    sm.load(ruleset, [rule] if rule else [], players=players)
                except sm.RulesetError:
                    continue
                for bots in BOTS:
                    yield Cell(ruleset, rule, players, bots, games, seed)


def soak(cell: Cell) -> CellResult:
    """Play the cell's games; an engine error in a game counts as a failure, not a crash."""
    start = time.perf_counter()
    rules = sm.load(cell.ruleset, [cell.house_rule] if cell.house_rule else [],
                    players=cell.players)
    outcomes: Counter[str] = Counter()
    total_moves = first_wins = failures = 0
    examples: list[str] = []
    for game in range(cell.games):
        game_seed = derive_seed(cell.seed, "game", game)
        # The validator's checked game: every invariant after every move, a stuck seat, and
        # any exception reported as a failure rather than raised.
        final, first, moves, failure = play_checked(rules, game_seed, cell.bots)
        if failure is not None or final.outcome is None:
            failures += 1
            if len(examples) < 3 and failure is not None:
                examples.append(f"game {game} (seed {game_seed}, move {len(failure.moves)}): "
                                f"{failure.problem}")
            continue
        outcomes[final.outcome.kind] += 1
        total_moves += moves
        first_wins += final.outcome.winner == first
    played = max(cell.games - failures, 1)
    return CellResult(cell, cell.games, total_moves / played, dict(outcomes), first_wins,
                      failures, tuple(examples), time.perf_counter() - start)


HEADER = ("house rule", "players", "bots", "games", "mean moves", "drawn", "blocked",
          "turn limit", "no winner", "first seat wins", "failures")


def row(result: CellResult) -> tuple[str, ...]:
    c, o, n = result.cell, result.outcomes, result.games
    return (c.house_rule or "-", str(c.players), c.bots, str(n), f"{result.mean_moves:.1f}",
            f"{o.get('drawn', 0) / n:.1%}", f"{o.get('blocked', 0) / n:.1%}",
            f"{o.get('turn-limit', 0) / n:.1%}", f"{result.no_winner_share:.1%}",
            f"{result.first_seat_rate:.1%}", str(result.failures))


def table(results: list[CellResult]) -> str:
    """One markdown table per rule set."""
    out = []
    for ruleset in dict.fromkeys(r.cell.ruleset for r in results):
        rows = [row(r) for r in results if r.cell.ruleset == ruleset]
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(HEADER)]
        out.append(f"### {ruleset}\n")
        out.append("| " + " | ".join(h.ljust(w) for h, w in zip(HEADER, widths, strict=True))
                   + " |")
        out.append("|" + "|".join("-" * (w + 2) for w in widths) + "|")
        out += ["| " + " | ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) + " |"
                for r in rows]
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per cell (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--rulesets", help="comma-separated rule sets (default: all built-in)")
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args(argv)
    wanted = args.rulesets.split(",") if args.rulesets else None
    todo = list(cells(args.games, args.seed, wanted))
    print(f"soaking {count_of(len(todo), 'cell')} x {count_of(args.games, 'game')} with "
          f"{count_of(args.workers, 'worker')}",
          file=sys.stderr, flush=True)
    start = time.perf_counter()
    results: list[CellResult] = []
    # Workers start as the library's do, never by fork (spitemalice.runs.workers).
    with multiprocessing.get_context(start_method()).Pool(args.workers) as pool:
        for done, result in enumerate(pool.imap(soak, todo), 1):
            results.append(result)
            c = result.cell
            print(f"[{done}/{len(todo)} {time.perf_counter() - start:6.0f}s] {c.ruleset} "
                  f"{c.house_rule or '-'} {c.players}p {c.bots}: "
                  f"{count_of(result.failures, 'failure')} "
                  f"({result.seconds:.0f}s)", file=sys.stderr, flush=True)
            for example in result.examples:
                print(f"    {example}", file=sys.stderr, flush=True)
    print(table(results))
    failures = sum(r.failures for r in results)
    games = sum(r.games for r in results)
    print(f"{count_of(games, 'game')} in {count_of(len(results), 'cell')}, "
          f"{count_of(failures, 'failure')}, "
          f"{time.perf_counter() - start:.0f}s")
    if args.json:
        data: list[dict[str, Any]] = [
            {**attrs.asdict(r.cell), "mean_moves": r.mean_moves, "outcomes": r.outcomes,
             "first_seat_wins": r.first_seat_wins, "failures": r.failures,
             "examples": list(r.examples), "seconds": r.seconds} for r in results]
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(data, handle, indent=1)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
