"""Worker processes on every platform (issue 20 class 10): never forked, the games rebuilt in
each worker from their description, refusals by name, and a clear word where workers cannot
start.  tests/runs/test_parallel.py holds the results equal to one process's under both start
methods; tests/runs/test_interrupted_runs.py stops runs at several moments."""

from __future__ import annotations

import importlib
import multiprocessing
import os
import sys
import threading
import types
import warnings
from pathlib import Path

import pytest
from helpers import worker_plugins

import spitemalice as sm
from spitemalice.bots import players
from spitemalice.cli import main
from spitemalice.runs import workers
from spitemalice.runs.loop import BotGame
from spitemalice.runs.parallel import run_games

INSTEAD = "use jobs=1 (--jobs 1) or a Dask scheduler (--scheduler)"


def _serial(play: BotGame, games: int) -> list[object]:
    return list(run_games(play, games, jobs=1))


def test_workers_start_without_a_fork_of_this_process(
        start_method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A fork of a process that runs threads can hang or crash (3.13 warns, 3.14 stops
    # forking by default): a thread is running here, and os.fork must never be called.
    def no_fork() -> int:
        raise AssertionError("os.fork was called")

    monkeypatch.setattr(os, "fork", no_fork)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # Python 3.12+: "use of fork() may lead to deadlocks"
            play = BotGame(sm.load("g4a", payoff_size=4), ("greedy", "random"), 3)
            assert list(run_games(play, 7, jobs=2)) == _serial(play, 7)
    finally:
        stop.set()
        thread.join()


def test_the_start_method_is_forkserver_or_spawn_never_fork(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(workers.START_METHOD, raising=False)
    assert workers.start_method() in ("forkserver", "spawn")
    monkeypatch.setenv(workers.START_METHOD, "fork")
    play = BotGame(sm.load("g4a"), ("random",), 0)
    with pytest.raises(sm.SpiteMaliceError, match='forkserver or spawn, not "fork"'):
        list(run_games(play, 4, jobs=2))


def test_where_workers_cannot_start_the_message_says_use_one_job_or_dask(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # Windows has spawn only; a platform with fork alone (or none) cannot start a worker
    # without forking, and says what to do instead.
    monkeypatch.delenv(workers.START_METHOD, raising=False)
    monkeypatch.setattr(multiprocessing, "get_all_start_methods", lambda: ["fork"])
    play = BotGame(sm.load("g4a"), ("random",), 0)
    with pytest.raises(sm.SpiteMaliceError, match=r"use jobs=1 \(--jobs 1\) or a Dask"):
        list(run_games(play, 4, jobs=2))
    assert main(["simulate", "g4a", "--games", "4", "--jobs", "2"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and INSTEAD in err
    # One job needs no worker at all.
    assert main(["simulate", "g4a", "--games", "4", "--jobs", "1", "--json"]) == 0


def test_a_worker_that_dies_ends_the_run_with_an_error_not_a_hang(start_method: str) -> None:
    with pytest.raises(sm.SpiteMaliceError, match="a worker process stopped") as error:
        list(run_games(worker_plugins.DiesAt(5), 12, jobs=2))
    assert INSTEAD in str(error.value)


def test_a_rule_set_file_travels_by_its_contents(start_method: str, tmp_path: Path) -> None:
    # The worker never reads the file: it is gone before the games start.
    source = Path(__file__).parents[2] / "examples" / "short-three.toml"
    copy = tmp_path / "short-three.toml"
    copy.write_text(source.read_text())
    rules = sm.load(str(copy), payoff_size=5)
    copy.unlink()
    play = BotGame(rules, ("greedy", "random", "greedy"), 11)
    assert list(run_games(play, 6, jobs=2)) == _serial(play, 6)


def test_house_rules_parameters_and_plugin_objects_are_rebuilt_in_the_worker(
        start_method: str) -> None:
    base = sm.load("blackwood-frey")
    rules = sm.RuleBook.from_plugins(
        base.plugin("blackwood-frey"),
        [importlib.import_module("spitemalice_variants.pair_discards"),
         worker_plugins.ShortPayoff(4)], {"players": 3})
    play = BotGame(rules, ("greedy", "random", "greedy"), 2)
    games = list(run_games(play, 6, jobs=2))
    assert games == _serial(play, 6)
    assert all(len(game.final.seats) == 3 for game in games)


def test_a_plugin_module_made_at_run_time_is_refused_by_name(start_method: str) -> None:
    made = types.ModuleType("made_at_run_time")
    made.NAME, made.KIND = "made-now", "house-rule"  # type: ignore[attr-defined]
    base = sm.load("blackwood-frey")
    rules = sm.RuleBook.from_plugins(base.plugin("blackwood-frey"), [made])
    with pytest.raises(sm.RulesetError, match="plugin 'made-now' cannot be rebuilt in a "
                                              "worker process"):
        list(run_games(BotGame(rules, ("random",) * 2, 0), 4, jobs=2))
    assert len(_serial(BotGame(rules, ("random",) * 2, 0), 2)) == 2  # one process plays it


def test_a_plugin_object_that_does_not_pickle_is_refused_by_name(start_method: str) -> None:
    class Local(worker_plugins.ShortPayoff):
        NAME = "local-short-payoff"

    base = sm.load("blackwood-frey")
    rules = sm.RuleBook.from_plugins(base.plugin("blackwood-frey"), [Local(6)])
    with pytest.raises(sm.RulesetError, match="plugin 'local-short-payoff' cannot be "
                                              "rebuilt in a worker process"):
        list(run_games(BotGame(rules, ("random",) * 2, 0), 4, jobs=2))


def test_a_plugin_module_the_worker_cannot_import_is_named(
        start_method: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Importable here when the book was built, gone when the worker imports it.
    source = Path(__file__).parents[2] / "variants" / "short_payoff.py"
    (tmp_path / "vanishing_rule.py").write_text(source.read_text())
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("vanishing_rule")
    rules = sm.RuleBook.from_plugins(sm.load("blackwood-frey").plugin("blackwood-frey"),
                                     [module])
    (tmp_path / "vanishing_rule.py").unlink()
    try:
        with pytest.raises(sm.SpiteMaliceError,
                           match="plugin module 'vanishing_rule' cannot be imported"):
            list(run_games(BotGame(rules, ("random",) * 2, 0), 4, jobs=2))
    finally:
        sys.modules.pop("vanishing_rule", None)


def test_a_bot_kind_added_at_run_time_travels_and_a_local_one_is_refused_when_used(
        start_method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(players.PLAYERS, "timid", worker_plugins.TimidPlayer)
    monkeypatch.setitem(players.PLAYERS, "local", lambda seed: players.RandomPlayer(seed))
    # A kind that cannot travel does not stop a run that does not use it...
    play = BotGame(sm.load("g4a", payoff_size=4), ("timid", "greedy"), 5)
    assert list(run_games(play, 6, jobs=2)) == _serial(play, 6)
    # ... and is refused by name in a run that does.
    with pytest.raises(sm.RulesetError, match="the bot 'local' cannot be rebuilt in a worker"):
        list(run_games(BotGame(sm.load("g4a"), ("local",), 0), 4, jobs=2))


def test_errors_raised_in_a_worker_come_back(start_method: str) -> None:
    with pytest.raises(sm.IllegalMove) as illegal:
        list(run_games(worker_plugins.RaisesIllegal(), 4, jobs=2))
    assert (illegal.value.reason, illegal.value.clause, illegal.value.move) == (
        "buried-card", "BF-8", "p3H")
    # An exception that cannot be pickled back is named by its type and message instead.
    with pytest.raises(sm.SpiteMaliceError, match=r"_Stubborn: lost \(7\)"):
        list(run_games(worker_plugins.RaisesUnpicklable(), 4, jobs=2))


def test_a_stop_while_workers_start_is_held_when_another_thread_takes_it() -> None:
    # The parent may run other threads started before (numpy's OpenBLAS starts one per core at
    # import; a thread begins with its maker's signal mask): the kernel gives a signal to a
    # thread that does not block it.  The sender sends it to itself (pthread_kill), so it is
    # taken there before the sender says so, and no other thread of the test worker (execnet's,
    # OpenBLAS') can take it instead.  The stop must still reach this thread after the block
    # (it was lost while the parent ignored SIGINT there).
    import signal

    go, sent = threading.Event(), threading.Event()

    def send() -> None:
        go.wait()
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        sent.set()

    sender = threading.Thread(target=send)
    sender.start()
    after_the_block = False
    try:
        with pytest.raises(KeyboardInterrupt), workers.held_signals():
            go.set()
            sent.wait()
            after_the_block = True
    finally:
        go.set()
        sender.join()
    assert after_the_block
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def _double(game: int) -> int:
    return 2 * game


def test_the_last_answer_before_the_spans_run_out_ends_the_run(
        start_method: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # A run hung in CI after its last game: every span handed out had been answered before
    # the parent learnt the spans had run out, and it then waited for an answer from no
    # worker (multiprocessing's wait on an empty list blocks for ever).  A window of one span
    # makes that order certain; a wait on nothing fails here instead of hanging.
    real_wait = workers.connection_wait

    def wait(things: list[object]) -> list[object]:
        assert things, "waited for an answer from no worker"
        return real_wait(things)

    monkeypatch.setattr(workers, "connection_wait", wait)
    pool = workers.Pool(1, workers.payload(_double))
    try:
        spans = iter([(0, 2), (2, 3), (3, 5)])
        assert [r for chunk in pool.play(spans, window=1) for r in chunk] == [0, 2, 4, 6, 8]
    finally:
        pool.close()
