"""Scale-out on Dask: a LocalCluster of two workers plays the same games as one core."""

from __future__ import annotations

import pytest

import spitemalice as sm
from spitemalice.parallel import run_games
from spitemalice.simulate import BotGame, simulate

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():  # type: ignore[no-untyped-def]
    # Two in-process workers (threads, no new processes): quick to start, and tasks still
    # travel through Dask's scheduler and serialisation as on a real cluster.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as dask_client:
        yield dask_client


def test_games_on_a_dask_cluster_are_the_serial_games_in_order(client) -> None:  # type: ignore[no-untyped-def]
    rules = sm.load("uspcc", payoff_size=4)
    play = BotGame(rules, ("random", "greedy"), 8)
    serial = list(run_games(play, 30, jobs=1))
    assert list(run_games(play, 30, client=client)) == serial


def test_simulate_on_dask_summarises_like_a_local_run(client) -> None:  # type: ignore[no-untyped-def]
    rules = sm.load("blackwood-frey", ["pair-discards"], players=3, payoff_size=5)
    local = simulate(rules, ["greedy"], 25, 3).as_dict(timing=False)
    assert simulate(rules, ["greedy"], 25, 3, client=client).as_dict(timing=False) == local


def test_a_scheduler_that_does_not_answer_is_a_clear_error() -> None:
    from spitemalice.parallel import connect

    with pytest.raises(sm.SpiteMaliceError, match="no Dask scheduler answers at 'tcp://127"):
        connect("tcp://127.0.0.1:9", timeout=1)
