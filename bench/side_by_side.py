"""Side-by-side speed figures: the engine, the environments and start-up beside peer engines.

    python bench/side_by_side.py [--peers PEER_PYTHON] [--seconds 3] [--repeats 1] [--games 64]

(``bench/bench.py --peers PEER_PYTHON`` prints the same section first.)  Every figure is
random legal-move play in one process, per CPU second (``time.process_time``):

* the engine's random decisions/s on blackwood-frey with 2 seats, in the library's game loop
  (``bench/loops.py``: ``legal_moves``, one ``randrange`` over the list, ``apply_move``, the
  loop of the shared ``peer_bench.py``), and through :func:`spitemalice.engine.random_move`
  where the installed version has it;
* the PettingZoo AEC environment's steps/s (``agent_iter``, ``last``, a random action among
  those the mask allows, ``step``), with actions by hand slot and by card, and the
  vectorised environment's steps/s (``--games`` games, 64 unless told, stepped at once with
  batched observations and masks) where the installed version has it;
* the CPU time of a fresh interpreter: empty, ``import spitemalice``, and ``python -m
  spitemalice variants`` (with its wall time), median of several runs;
* with ``--peers``: ``peer_bench.py openspiel`` and ``rlcard`` run by the peer virtual
  environment's interpreter (``pip install open_spiel rlcard`` there), in the same run.

The reference workload (``bench/reference.py``) is measured before and after.  With
``--repeats N`` the figures (ours and the peers') are measured in N rounds and each is the
best of them: a shared, busy host only ever slows a loop, so the best round is the least
disturbed, and a ratio of two best figures does not hinge on one burst.
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

import spitemalice as sm
from spitemalice.limits import MAX_VECTOR_ENVS
from spitemalice.wording import count_of

sys.path.insert(0, str(Path(__file__).parent))
from bounds import CHILD_SECONDS, over_cap, run_child
from loops import random_env_steps, random_games
from reference import reference_seconds


def _peer_bench() -> Path:
    """The shared ``peer_bench.py``: in ``shared/bench`` beside the checkout or a parent."""
    for parent in Path(__file__).resolve().parents:
        found = parent / "shared" / "bench" / "peer_bench.py"
        if found.is_file():
            return found
    raise SystemExit("peer_bench.py not found in shared/bench beside this checkout")


def engine_random(name: str, seconds: float, seed: int = 1) -> float:
    """Random decisions per CPU second: the peer_bench loop on the public API."""
    decisions, spent = random_games(sm.load(name), seed, seconds=seconds)
    return decisions / spent


def engine_sampled(name: str, seconds: float, seed: int = 1) -> float | None:
    """Random decisions per CPU second through ``random_move`` (one legal move drawn without
    listing them all), or ``None`` where the engine has no such function."""
    from spitemalice import engine

    sample = getattr(engine, "random_move", None)
    if sample is None:
        return None
    rules = sm.load(name)
    rng = random.Random(seed)
    apply_move, deal = sm.apply_move, sm.deal
    decisions = game = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = deal(rules, seed + game)
        game += 1
        moves = 0
        while state.outcome is None:
            state = apply_move(rules, state, sample(rules, state, rng))
            moves += 1
            over_cap(moves, "engine_sampled")  # a bound: bench/bounds.py
        decisions += moves
    return decisions / (time.process_time() - start)


def env_random(name: str, seconds: float, seed: int = 1, catalogue: str = "slot") -> float:
    """AEC environment steps per CPU second with random masked actions, with the actions
    named by hand slot (``"slot"``, the ``-v0`` ids) or by card (``"card"``, ``-v1``)."""
    from spitemalice import env as sm_env

    steps, spent = random_env_steps(sm_env.make(name, catalogue=catalogue), seed,
                                    seconds=seconds)
    return steps / spent


def vector_random(name: str, seconds: float, games: int = 64, seed: int = 1,
                  catalogue: str = "slot") -> float | None:
    """Vectorised environment steps per CPU second (each game's step counts one), random
    masked actions, actions by hand slot or by card (``catalogue``); ``None`` where the
    installed version has no vectorised environment."""
    from spitemalice import env as sm_env

    make_vector = getattr(sm_env, "vector_env", None)
    if make_vector is None:
        return None
    vec = make_vector(name, games, catalogue=catalogue)
    rng = np.random.default_rng(seed)
    _, infos = vec.reset(seed=seed)
    masks = infos["action_mask"]
    assert masks.shape[1] < 2 ** 15  # the running counts below are int16
    steps = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        # one uniform legal action per game, from one random number per game as the engine's
        # loop draws one per decision: the k-th legal action, k uniform below their count.
        # The running counts are int16 (a catalogue has fewer actions): numpy's default int64
        # wrote 8 bytes per action a step, and missed the second-level cache for it.
        counts = masks.cumsum(axis=1, dtype=np.int16)
        picks = (rng.random(games) * counts[:, -1]).astype(np.int16)
        chosen = (counts > picks[:, None]).argmax(axis=1)
        _, _, _, _, infos = vec.step(chosen)
        masks = infos["action_mask"]
        steps += games
    return steps / (time.process_time() - start)


def _child_cpu(args: list[str]) -> tuple[float, float]:
    """CPU seconds (the child's own, from its rusage) and wall seconds of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = run_child(args, capture_output=True)
    if done.returncode:
        raise SystemExit(f"{args}: exit {done.returncode}")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, wall


def start_up(runs: int = 9) -> dict[str, float]:
    """Median CPU seconds of a fresh interpreter: empty, ``import spitemalice``, and the
    command ``python -m spitemalice variants`` (with its wall seconds)."""
    python = sys.executable
    empty = [_child_cpu([python, "-c", "pass"]) for _ in range(runs)]
    imported = [_child_cpu([python, "-c", "import spitemalice"]) for _ in range(runs)]
    variants = [_child_cpu([python, "-m", "spitemalice", "variants"]) for _ in range(runs)]
    return {"empty": statistics.median(c for c, _ in empty),
            "import": statistics.median(c for c, _ in imported),
            "variants": statistics.median(c for c, _ in variants),
            "variants_wall": statistics.median(w for _, w in variants)}


def peers(python: str, seconds: float) -> list[dict[str, Any]]:
    """The JSON lines of ``peer_bench.py openspiel`` and ``rlcard`` run by ``python``."""
    lines: list[dict[str, Any]] = []
    for which in ("openspiel", "rlcard"):
        done = run_child([python, str(_peer_bench()), which, "--seconds", str(seconds)],
                         timeout=min(CHILD_SECONDS, 60 + 20 * seconds),
                         capture_output=True, text=True)
        if done.returncode:
            lines.append({"kind": "peer-failed", "engine": which, "error": done.stderr[-500:]})
        lines += [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    return lines


def _ours(name: str, seconds: float, games: int = 64) -> dict[str, float | None]:
    """One measurement of each of the library's own figures (rates per CPU second), the
    vectorised environment's with ``games`` games stepped at once."""
    return {"engine": engine_random(name, seconds),
            "sampled": engine_sampled(name, seconds),
            "env": env_random(name, seconds),
            "card": env_random(name, seconds, catalogue="card"),
            "vector": vector_random(name, seconds, games),
            "vector_card": vector_random(name, seconds, games, catalogue="card")}


def _best(rounds: list[dict[str, float | None]]) -> dict[str, float | None]:
    """Each figure's highest rate over the rounds: a busy host only ever slows a loop down,
    so the best of several is the least disturbed (as ``timeit`` takes the least time)."""
    best: dict[str, float | None] = {}
    for key in rounds[0]:
        found = [one[key] for one in rounds if one.get(key) is not None]
        best[key] = max(found) if found else None  # type: ignore[type-var]
    return best


def report(peer_python: str | None, seconds: float, repeats: int = 1, games: int = 64) -> None:
    """Print the side-by-side section (see the module docstring): each figure the best of
    ``repeats`` rounds, a round measuring the library's figures and then the peers'; the
    vectorised environment steps ``games`` games at once."""
    print(f"reference workload nqueens(8): {reference_seconds() * 1000:.0f} ms CPU", flush=True)
    name = "blackwood-frey"
    ours: list[dict[str, float | None]] = []
    theirs: list[dict[str, float | None]] = []
    legal: dict[str, float] = {}
    for _ in range(repeats):
        ours.append(_ours(name, seconds, games))
        found: dict[str, float | None] = {}
        for line in peers(peer_python, seconds) if peer_python else ():
            if line.get("kind") != "peer":
                print(f"peer missing: {line}")
                continue
            key = f"{line['engine']} {line['game']} {line['impl']}"
            found[key] = line["cpu_decisions_per_s"]
            legal[key] = line["mean_legal"]
        theirs.append(found)
    best = _best(ours)
    engine, sampled, env, card = best["engine"], best["sampled"], best["env"], best["card"]
    vector, vector_card = best["vector"], best["vector_card"]
    assert engine is not None and env is not None and card is not None  # always measured
    if repeats > 1:
        print(f"(each figure the best of {count_of(repeats, 'round')})", flush=True)
    print(f"engine random decisions/s ({name}, 2 seats, peer_bench loop): {engine:,.0f}",
          flush=True)
    if sampled is not None:
        print(f"engine random decisions/s through random_move: {sampled:,.0f} "
              f"({sampled / engine:.2f}x the listing loop)", flush=True)
    print(f"AEC env steps/s: {env:,.0f} ({env / engine:.2f}x the engine)", flush=True)
    print(f"AEC env steps/s, actions by card: {card:,.0f} ({card / engine:.2f}x the engine)",
          flush=True)
    print(f"vectorised env steps/s ({count_of(games, 'game')}): " +
          ("none in this version" if vector is None else
           f"{vector:,.0f} ({vector / engine:.2f}x the engine)"), flush=True)
    if vector_card is not None:
        print(f"vectorised env steps/s ({count_of(games, 'game')}), actions by card: "
              f"{vector_card:,.0f} "
              f"({vector_card / engine:.2f}x the engine)", flush=True)
    peer_best = _best(theirs) if theirs and theirs[0] else {}
    for key, rate in peer_best.items():
        if rate is not None:
            print(f"{key}: {rate:,.0f} decisions/s CPU (mean legal {legal[key]:.1f})",
                  flush=True)
    hearts = next((v for k, v in peer_best.items() if " hearts " in k), None)
    uno = next((v for k, v in peer_best.items() if " uno env.step" in k), None)
    if hearts:
        print(f"engine / OpenSpiel C++ hearts: {engine / hearts:.2f}"
              + ("" if sampled is None else f"; through random_move {sampled / hearts:.2f}"))
    if uno:
        print(f"AEC env / RLCard UNO env.step: {env / uno:.2f}; actions by card "
              f"{card / uno:.2f}"
              + ("" if vector is None else f"; vectorised {vector / uno:.2f}"))
    times = start_up()
    print(f"start-up, CPU of a fresh interpreter: empty {times['empty'] * 1000:.0f} ms, "
          f"import spitemalice {times['import'] * 1000:.0f} ms, "
          f"python -m spitemalice variants {times['variants'] * 1000:.0f} ms "
          f"({times['variants_wall'] * 1000:.0f} ms wall)", flush=True)
    print(f"reference workload nqueens(8) again: {reference_seconds() * 1000:.0f} ms CPU",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", metavar="PEER_PYTHON",
                        help="the interpreter of a virtual environment with open_spiel, rlcard")
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU seconds per figure")
    parser.add_argument("--repeats", type=int, default=1,
                        help="rounds; each figure is the best of them (default 1)")
    parser.add_argument("--games", type=int, default=64,
                        help="games the vectorised environment steps at once (default 64; "
                             "32 did best on this machine)")
    args = parser.parse_args()
    if args.repeats < 1:
        parser.error(f"--repeats is a whole number of rounds from 1, not {args.repeats}")
    if not 1 <= args.games <= MAX_VECTOR_ENVS:
        parser.error(f"--games is a whole number from 1 to {MAX_VECTOR_ENVS:,}, not "
                     f"{args.games}")
    report(args.peers, args.seconds, args.repeats, args.games)


if __name__ == "__main__":
    main()
