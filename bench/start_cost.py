"""What starting worker processes costs: ``forkserver`` and ``spawn`` against ``fork``.

Each command runs as its own process (``python -m spitemalice ...``), ``--runs`` times per
start method; the table gives the median wall time and the median CPU time of the whole
process tree (the command, its workers and, for forkserver, the server: this script makes
itself their subreaper, so every descendant's CPU is counted when it exits).  ``one job`` is
the same command with ``--jobs 1``, for what the games themselves cost.

    python bench/start_cost.py                         forkserver, spawn, one job
    python bench/start_cost.py --fork-tree DIR         also ``fork``: DIR holds a checkout of
                                                       the code before issue 20 (which forked)

The reference workload (``bench/reference.py``) is measured in the same run and printed first.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from bounds import run_child
from reference import reference_seconds

COMMANDS = {
    "simulate --games 2": ["simulate", "blackwood-frey", "--games", "2", "--json"],
    "simulate --games 400": ["simulate", "blackwood-frey", "--games", "400", "--json"],
    "validate --games 100": ["validate", "blackwood-frey", "--games", "100", "--json"],
}
PR_SET_CHILD_SUBREAPER = 36


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def reap() -> None:
    """Wait for every descendant left to this process (a fork server outlives its command)."""
    while True:
        try:
            os.wait()
        except ChildProcessError:
            return


def run_once(arguments: list[str], env: dict[str, str]) -> tuple[float, float]:
    before, start = children_cpu(), time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:  # where validate would write a failure
        done = run_child([sys.executable, "-m", "spitemalice", *arguments], env=env,
                         capture_output=True, cwd=folder)  # a bound: bench/bounds.py
    wall = time.perf_counter() - start
    reap()
    if done.returncode not in (0, 1):
        raise SystemExit(f"{arguments}: exit {done.returncode}: {done.stderr.decode()[-400:]}")
    return wall, children_cpu() - before


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--fork-tree", type=Path, help="a checkout of the forking code")
    args = parser.parse_args()
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1)
    print(f"reference workload: {reference_seconds() * 1000:.0f} ms CPU (bench/reference.py)")
    base = {k: v for k, v in os.environ.items() if k != "SPITEMALICE_START_METHOD"}
    modes: list[tuple[str, dict[str, str], list[str]]] = [
        ("forkserver", {**base, "SPITEMALICE_START_METHOD": "forkserver"}, ["--jobs", "2"]),
        ("spawn", {**base, "SPITEMALICE_START_METHOD": "spawn"}, ["--jobs", "2"]),
        ("one job", base, ["--jobs", "1"]),
    ]
    if args.fork_tree is not None:
        modes.insert(0, ("fork (before)", {**base, "PYTHONPATH": str(args.fork_tree)},
                         ["--jobs", "2"]))
    print(f"{'command':<22} {'start':<14} {'wall s':>7} {'CPU s':>7}   (median of {args.runs})")
    for name, arguments in COMMANDS.items():
        for mode, env, jobs in modes:
            runs = [run_once([*arguments, *jobs], env) for _ in range(args.runs)]
            wall = statistics.median(r[0] for r in runs)
            cpu = statistics.median(r[1] for r in runs)
            print(f"{name:<22} {mode:<14} {wall:7.2f} {cpu:7.2f}", flush=True)
    print(f"reference workload: {reference_seconds() * 1000:.0f} ms CPU (bench/reference.py)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
