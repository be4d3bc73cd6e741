"""The rule that keeps a run cut short consistent (issue 20 class 3), piece by piece: a stop
waits for the game being committed (spitemalice.stops.held_stops), a game counts once its
commit returned (study.commit.commit_games), and a game's outputs are written all or none
(study.commit.Outputs).  tests/runs/test_interrupted_runs.py stops whole commands."""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Iterator
from typing import Any

import pytest

from spitemalice.runs.commit import Finished, Outputs, commit_games
from spitemalice.stops import Terminated, held_stops, stop_on_sigterm


def _signal_self(signum: int = signal.SIGINT) -> None:
    os.kill(os.getpid(), signum)


def test_a_stop_in_a_held_block_is_delivered_when_the_block_ends() -> None:
    done = []
    with pytest.raises(KeyboardInterrupt):
        with held_stops():
            _signal_self()
            done.append("after the signal")  # still runs: the stop waits
        done.append("never")  # the stop is delivered here, at the end of the block
    assert done == ["after the signal"]


def test_sigterm_is_held_as_well_and_stays_a_terminated(monkeypatch: pytest.MonkeyPatch) -> None:
    previous = signal.signal(signal.SIGTERM, stop_on_sigterm)
    try:
        with pytest.raises(Terminated), held_stops():
            _signal_self(signal.SIGTERM)
            with held_stops():  # nested blocks hold it until the outermost ends
                pass
        assert signal.getsignal(signal.SIGTERM) is stop_on_sigterm  # put back
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_block_that_raises_keeps_its_own_error_and_the_handlers_come_back() -> None:
    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(OSError, match="disk full"), held_stops():
        _signal_self()
        raise OSError("disk full")
    assert signal.getsignal(signal.SIGINT) is before


def test_outside_the_main_thread_a_block_runs_as_it_is() -> None:
    seen: list[object] = []

    def work() -> None:
        with held_stops():
            seen.append(signal.getsignal(signal.SIGINT))

    thread = threading.Thread(target=work)
    thread.start()
    thread.join()
    assert seen == [signal.getsignal(signal.SIGINT)]


def _games(count: int, stop_at: int | None = None) -> Iterator[int]:
    for game in range(count):
        if game == stop_at:
            raise KeyboardInterrupt  # Ctrl-C while game `stop_at` is played
        yield game


def test_a_game_counts_once_its_commit_returned() -> None:
    written: list[int] = []

    def commit(game: int, result: int) -> None:
        if game == 3:
            _signal_self()  # Ctrl-C while game 3 is written: it is written, then counted
        written.append(result)

    assert commit_games(_games(10), commit) == Finished(4, interrupted=True)
    assert written == [0, 1, 2, 3]


def test_a_stop_while_a_game_is_played_keeps_the_games_before_it() -> None:
    written: list[int] = []
    assert commit_games(_games(10, stop_at=6), lambda g, r: written.append(r)) == Finished(
        6, interrupted=True)
    assert written == list(range(6))


def test_a_commit_that_fails_ends_the_run_with_its_error_and_counts_what_came_before() -> None:
    written: list[int] = []

    def commit(game: int, result: int) -> None:
        if game == 2:
            raise OSError("disk full")
        written.append(result)

    with pytest.raises(OSError, match="disk full"):
        commit_games(_games(10), commit)
    assert written == [0, 1]


def test_a_commit_may_end_the_run_early() -> None:
    assert commit_games(_games(10), lambda g, r: g < 4) == Finished(5)


class _Part:
    """An output that keeps its games in a list; ``fail_at`` makes a game's write fail."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.games: list[int] = []
        self.fail_at = fail_at
        self.closed: Finished | None = None
        self.discarded = False

    def add(self, game: int, item: Any) -> Any:
        if game == self.fail_at:
            raise OSError(f"cannot write game {game}")
        self.games.append(game)
        return self.games.pop

    def close(self, finished: Finished) -> None:
        self.closed = finished

    def discard(self) -> None:
        self.discarded = True


def test_outputs_write_a_game_to_every_part_or_to_none() -> None:
    records, rows = _Part(), _Part(fail_at=2)
    with pytest.raises(OSError, match="cannot write game 2"), Outputs([records, rows]) as out:
        for game in range(5):
            out.add(game, None)
    # Game 2's record was taken back when its row failed: both hold games 0 and 1, and are
    # closed as a run cut short of two games.
    assert records.games == rows.games == [0, 1]
    assert records.closed == rows.closed == Finished(2, interrupted=True)


def test_outputs_are_told_the_count_and_a_run_that_wrote_nothing_is_discarded() -> None:
    part = _Part()
    with Outputs([part]) as out:
        out.add(0, None)
        out.add(1, None)
        assert out.close(interrupted=True) == Finished(2, interrupted=True)
    assert part.closed == Finished(2, interrupted=True)
    empty = _Part()
    with pytest.raises(ConnectionError), Outputs([empty]):
        raise ConnectionError("no scheduler")
    assert empty.discarded and empty.closed is None
