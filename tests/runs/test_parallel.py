"""Games played on several cores (and on Dask) give exactly what one core gives, in game
order, and running totals keep memory flat."""

from __future__ import annotations

import functools
import gc
import os
import pickle
import tracemalloc

import pytest

import spitemalice as sm
from spitemalice.cli import main
from spitemalice.model import GameResult
from spitemalice.runs.loop import BotGame
from spitemalice.runs.parallel import chunk_size, chunks, run_games
from spitemalice.study.simulate import simulate


def _square(offset: int, game: int) -> int:
    return offset + game * game


def test_run_games_yields_every_game_in_order_on_any_number_of_jobs(start_method: str) -> None:
    play = functools.partial(_square, 7)
    want = [7 + g * g for g in range(23)]
    assert list(run_games(play, 23, jobs=1)) == want
    assert list(run_games(play, 23, jobs=2)) == want
    assert list(run_games(play, 0, jobs=2)) == []


def test_a_huge_run_holds_only_the_chunks_in_flight() -> None:
    # Making every chunk up front took memory in proportion to the games (gigabytes for
    # --games 10**22); the first results come at once, with little memory, whatever the count.
    tracemalloc.start()
    games = run_games(functools.partial(_square, 0), 5 * 10**6, jobs=2)
    first = [next(games) for _ in range(3)]
    games.close()  # type: ignore[attr-defined]
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert first == [_square(0, g) for g in range(3)]
    assert peak < 2 * 1024 * 1024


def test_chunks_cover_every_game_once_in_order() -> None:
    spans = chunks(1000, chunk_size(1000, 2))
    assert [g for start, stop in spans for g in range(start, stop)] == list(range(1000))
    assert chunk_size(3, 2) == 1 and chunk_size(10**6, 2) == 50


@pytest.mark.parametrize("jobs", [0, -1, True, 1.5])
def test_a_bad_number_of_jobs_is_refused(jobs: object) -> None:
    with pytest.raises(sm.SpiteMaliceError, match="jobs"):
        run_games(functools.partial(_square, 0), 3, jobs=jobs)  # type: ignore[arg-type]


def _games(rules: sm.RuleBook, jobs: int) -> tuple[object, list[tuple[int, GameResult]]]:
    seen: list[tuple[int, GameResult]] = []
    summary = simulate(rules, ["random", "greedy", "random"], 12, 5,
                       on_game=lambda g, result, kinds: seen.append((g, result)), jobs=jobs)
    return summary.as_dict(timing=False), seen


def test_simulate_on_two_jobs_plays_the_same_games_as_on_one(start_method: str) -> None:
    rules = sm.load("misery", players=3, payoff_size=5)
    one, two = _games(rules, 1), _games(rules, 2)
    assert one == two
    assert [g for g, _ in two[1]] == list(range(12))


def test_game_g_is_a_pure_function_of_its_index(start_method: str) -> None:
    rules = sm.load("g4a", payoff_size=4)
    play = BotGame(rules, ("greedy", "random"), 3)
    assert play(5) == play(5) == list(run_games(play, 6, jobs=2))[5]
    assert play(5) != play(4)


def test_simulate_json_is_byte_identical_on_any_number_of_jobs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outputs = []
    for jobs in ("1", "2"):
        assert main(["simulate", "uspcc", "--games", "9", "--seed", "4", "--bots", "random",
                     "--json", "--jobs", jobs]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert '"games": 9' in outputs[0] and "seconds" not in outputs[0]


def test_a_bad_jobs_option_is_one_line_and_status_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "g4a", "--jobs", "0"])
    assert exit_.value.code == 2
    assert "--jobs is a number of processes" in capsys.readouterr().err


def test_simulate_memory_does_not_grow_with_the_number_of_games() -> None:
    rules = sm.load("blackwood-frey", payoff_size=3)
    # The first use fills the engine's bounded caches, and what ran before on this worker
    # left them in any state: warm them with as many games as the larger run plays.
    simulate(rules, ["random"], 150, 1)
    peaks = []
    for games in (10, 150):
        gc.collect()
        tracemalloc.start()
        simulate(rules, ["random"], games, 1)
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    # Keeping every game (as before streaming) grew the peak by some 20 KiB per game here,
    # 2.7 MiB for the 140 more games.  What may grow is bounded whatever the number of
    # games: the engine's caches of moves and build-pile shapes (bounded by size) and the
    # interpreter's free lists of tuples.
    assert peaks[1] - peaks[0] < 1536 * 1024


def test_a_rule_book_pickles_as_its_recipe() -> None:
    rules = sm.load("blackwood-frey", ["wild-must-be-covered", "pair-discards"], players=3)
    again = pickle.loads(pickle.dumps(rules))
    assert again.plugins == rules.plugins and again.ruleset == rules.ruleset
    play, replayed = BotGame(rules, ("random",) * 3, 2), BotGame(again, ("random",) * 3, 2)
    assert play(0) == replayed(0)


def test_validate_json_is_byte_identical_on_any_number_of_jobs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    outputs = []
    for jobs in ("1", "2"):
        status = main(["validate", "misery", "--games", "12", "--seed", "6", "--json",
                       "--jobs", jobs])
        outputs.append((status, capsys.readouterr().out))
    assert outputs[0] == outputs[1]
    assert outputs[0][0] == 0 and "12/12 games clean" in outputs[0][1]


def test_validate_gives_the_same_checks_and_statistics_on_two_jobs(start_method: str) -> None:
    from spitemalice.validation.dynamic import dynamic_checks

    rules = sm.load("blackwood-frey", payoff_size=3)
    one = dynamic_checks(rules, 9, 2, jobs=1)
    two = dynamic_checks(rules, 9, 2, jobs=2)
    assert one == two and one[2] is None


@pytest.mark.parametrize("to_group", [False, True])
def test_sigterm_or_ctrl_c_ends_a_parallel_run_and_its_workers(to_group: bool,
                                                              start_method: str) -> None:
    """SIGTERM to the run, or SIGINT to its whole process group (Ctrl-C on a terminal), stops
    `simulate --jobs 2` cleanly: the summary of the finished games, exit 130, no traceback
    (workers leave Ctrl-C to the parent), and no worker process left running."""
    import signal
    import subprocess
    import sys
    import time

    from helpers.processes import STOPPABLE, descendants, ended, running

    with ended(subprocess.Popen(
            [sys.executable, "-c", STOPPABLE, "simulate", "blackwood-frey", "--games",
             "100000", "--jobs", "2"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True, start_new_session=True)) as run:
        # The workers are children of the run (spawn) or of its fork server: every one.
        started: set[int] = set()
        deadline = time.monotonic() + 60
        while len(started) < 3 and time.monotonic() < deadline:
            time.sleep(0.2)
            started |= set(descendants(run.pid))
        assert len(started) >= 3, f"the run never started its workers: {started}"
        time.sleep(1.0)  # a moment into the games (none need have finished)
        if to_group:
            os.killpg(run.pid, signal.SIGINT)
        else:
            run.send_signal(signal.SIGTERM)
        out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    assert "interrupted" in err and "(interrupted)" in out
    assert "Traceback" not in err
    deadline = time.monotonic() + 10
    while (left := [pid for pid in started if running(pid)]) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not left, f"worker processes still running: {left}"


def _spin(game: int) -> int:
    """About 50 ms of CPU in the worker that plays it."""
    import time

    end = time.process_time() + 0.05
    while time.process_time() < end:
        pass
    return game


def test_the_workers_cpu_is_counted_under_every_start_method(start_method: str) -> None:
    """The atlas printed 0.2 CPU-seconds for a configuration its --jobs 2 workers spent
    minutes on: a fork server's workers are not this process's children, so
    RUSAGE_CHILDREN never saw them.  Each worker now reports its CPU when let go."""
    from spitemalice.runs.workers import worker_cpu_seconds

    before = worker_cpu_seconds()
    assert list(run_games(_spin, 8, jobs=2)) == list(range(8))
    assert worker_cpu_seconds() - before >= 8 * 0.05 * 0.9


def test_the_atlas_counts_each_workers_cpu_once(start_method: str) -> None:
    """A spawned worker is this process's child: counted by RUSAGE_CHILDREN when joined and
    again by its report, the atlas's CPU figure had it twice.  It now adds the reports to
    its own CPU, and nothing else."""
    import time

    from spitemalice.runs.workers import worker_cpu_seconds
    from spitemalice.study.atlas import _cpu

    total, reported, own = _cpu(), worker_cpu_seconds(), time.process_time()
    assert list(run_games(_spin, 8, jobs=2)) == list(range(8))
    workers = worker_cpu_seconds() - reported
    assert workers >= 8 * 0.05 * 0.9
    assert _cpu() - total == pytest.approx(workers + time.process_time() - own, abs=0.05)
