"""The Dask side of ``tests/runs/test_dask.py``, run in its own interpreter.

Starts a LocalCluster of two in-process workers (threads: quick to start, and tasks still
travel through Dask's scheduler and serialisation as on a real cluster), plays the test's
games and summary on it, tries a scheduler that does not answer, and writes the three results,
pickled, to the file named by the first argument.  The test plays the same games serially and
compares.
"""

from __future__ import annotations

import pickle
import sys
from typing import Any

import distributed

import spitemalice as sm
from spitemalice.runs.loop import BotGame
from spitemalice.runs.parallel import connect, run_games
from spitemalice.study.simulate import simulate


def main(out: str) -> None:
    results: dict[str, Any] = {}
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        rules = sm.load("uspcc", payoff_size=4)
        results["games"] = list(run_games(BotGame(rules, ("random", "greedy"), 8), 30,
                                          client=client))
        rules = sm.load("blackwood-frey", ["pair-discards"], players=3, payoff_size=5)
        results["summary"] = simulate(rules, ["greedy"], 25, 3,
                                      client=client).as_dict(timing=False)
    try:
        connect("tcp://127.0.0.1:9", timeout=1)
    except sm.SpiteMaliceError as refusal:
        results["refusal"] = refusal
    else:
        results["refusal"] = None
    with open(out, "wb") as file:
        pickle.dump(results, file)


if __name__ == "__main__":
    main(sys.argv[1])
