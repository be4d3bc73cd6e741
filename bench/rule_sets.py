"""Rule sets and house rules against blackwood-frey with 2 seats, and optionally against another
checkout of the library (a benchmark, not a test; figures go to docs/performance.md).

    python bench/rule_sets.py [--games 100] [--rounds 3] [--against /path/to/other/checkout]

Prints moves/s of random and greedy playouts (``bench.playouts``: the plain public API loop,
CPU time of one process) for the configurations whose plugins work on every move or whose
random games are short, each as a change against blackwood-frey with 2 seats measured in the
same run.  Each tree is measured in its own processes, taking turns, ``--rounds`` times; the
best rate of each figure counts (the noise of a shared machine only ever slows a run down).
With ``--against`` the other checkout (its ``spitemalice`` and ``variants`` folders, say a
``git worktree`` of an older commit) is measured the same way, in the same run, as "before".
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bounds import run_child

HERE = Path(__file__).resolve().parent
CONFIGS = [
    "blackwood-frey//2",
    "blackwood-frey/wild-must-be-covered/2",
    "blackwood-frey/pair-discards/2",
    "blackwood-frey/mandatory-aces/2",
    "blackwood-frey/partnerships/4",
    "blackwood-frey//4",
    "skip-bo//2",
    "skip-bo//4",
    "skip-bo//5",
    "skip-bo//6",
]

# Run in a fresh process for one tree: rates of every configuration as JSON.
_ONE_TREE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from bench import playouts
import spitemalice as sm
games, out = int(sys.argv[2]), {}
for spec in sys.argv[3:]:
    name, house_rules, players = spec.split("/")
    rules = sm.load(name, [h for h in house_rules.split(",") if h], players=int(players))
    rates = []
    for bot, count in (("random", games), ("greedy", max(games // 2, 1))):
        moves, seconds = playouts(rules, bot, count, 1)
        rates.append(moves / seconds)
    out[spec] = rates
print(json.dumps(out))
"""


def measure(tree: Path | None, games: int, links: Path) -> dict[str, list[float]]:
    """Rates per configuration in one process running ``tree`` (``None``: this checkout)."""
    env = dict(os.environ)
    if tree is not None:  # the other checkout's packages first on the path
        env["PYTHONPATH"] = str(links)
    bench = HERE if tree is None else tree / "bench"
    # Run from the links' parent: the current folder comes first on the path.
    done = run_child([sys.executable, "-c", _ONE_TREE, str(bench), str(games), *CONFIGS],
                     env=env, cwd=links.parent, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"rule_sets child: exit {done.returncode}: {done.stderr[-400:]}")
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="random games per figure")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--against", type=Path, help="another checkout, measured as 'before'")
    args = parser.parse_args()
    trees: dict[str, Path | None] = {"after": None}
    if args.against:
        trees = {"before": args.against.resolve(), **trees}
    best: dict[str, dict[str, list[float]]] = {name: {} for name in trees}
    with tempfile.TemporaryDirectory() as folder:
        links = Path(folder) / "before"
        links.mkdir()
        if args.against:  # import names of the other checkout: spitemalice, spitemalice_variants
            os.symlink(args.against.resolve() / "spitemalice", links / "spitemalice")
            os.symlink(args.against.resolve() / "variants", links / "spitemalice_variants")
        for _ in range(args.rounds):
            for name, tree in trees.items():
                for spec, rates in measure(tree, args.games, links).items():
                    old = best[name].get(spec, [0.0, 0.0])
                    best[name][spec] = [max(a, b) for a, b in zip(old, rates, strict=True)]
    columns = [f"{bot} {name}" for bot in ("random", "greedy") for name in trees]
    print("| configuration | " + " | ".join(columns) + " | random vs bf 2 | greedy vs bf 2 |")
    print("|---|" + "---:|" * (len(columns) + 2))
    base = {name: best[name][CONFIGS[0]] for name in trees}
    for spec in CONFIGS:
        cells = [f"{best[name][spec][bot] / 1000:.1f}k" for bot in (0, 1) for name in trees]
        shares = [" → ".join(f"{best[name][spec][bot] / base[name][bot] - 1:+.0%}"
                             for name in trees) for bot in (0, 1)]
        name, house_rules, players = spec.split("/")
        label = "+".join(filter(None, [name, house_rules])) + f", {players} seats"
        print(f"| {label} | " + " | ".join(cells + shares) + " |", flush=True)


if __name__ == "__main__":
    main()
