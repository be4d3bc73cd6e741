"""Scale-out on Dask: a LocalCluster of two workers plays the same games as one core.

Dask runs in a child interpreter (``tests/helpers/dask_games.py``), never in the test process: a
Dask client leaves threads behind (its event loop), and a process with such threads that later
forks the workers of ``--jobs`` can hand a worker a lock held by a thread that does not exist
in the worker, which then waits for ever.  The serial games are played here and compared with
what the cluster sent back.
"""

from __future__ import annotations

import pickle
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import spitemalice as sm
from spitemalice.runs.loop import BotGame
from spitemalice.runs.parallel import run_games
from spitemalice.study.simulate import simulate

pytest.importorskip("distributed")

SCRIPT = Path(__file__).parents[1] / "helpers" / "dask_games.py"


@pytest.fixture(scope="module")
def on_dask(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What ``tests/helpers/dask_games.py`` computed on a two-worker LocalCluster."""
    out = tmp_path_factory.mktemp("dask") / "results.pickle"
    done = subprocess.run([sys.executable, str(SCRIPT), str(out)], capture_output=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-2000:]
    results: dict[str, Any] = pickle.loads(out.read_bytes())
    return results


def test_games_on_a_dask_cluster_are_the_serial_games_in_order(on_dask: dict) -> None:
    rules = sm.load("uspcc", payoff_size=4)
    serial = list(run_games(BotGame(rules, ("random", "greedy"), 8), 30, jobs=1))
    assert on_dask["games"] == serial


def test_simulate_on_dask_summarises_like_a_local_run(on_dask: dict) -> None:
    rules = sm.load("blackwood-frey", ["pair-discards"], players=3, payoff_size=5)
    local = simulate(rules, ["greedy"], 25, 3).as_dict(timing=False)
    assert on_dask["summary"] == local


def test_a_scheduler_that_does_not_answer_is_a_clear_error(on_dask: dict) -> None:
    assert isinstance(on_dask["refusal"], sm.SpiteMaliceError)
    assert "no Dask scheduler answers at 'tcp://127" in str(on_dask["refusal"])
