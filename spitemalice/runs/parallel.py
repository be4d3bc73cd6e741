"""Playing the games of a run on one core, on every core, or on a Dask cluster.

The one rule every command builds on: **game ``g`` of a run is a pure function of
(configuration, bots, run seed, ``g``)**.  Its seed is derived from the run seed and ``g``
(:func:`spitemalice.engine.shuffle.derive_seed`), its players from its seed, and nothing else
(no global random state, no shared counter) enters it.  So games may be played in any order,
in any process, on any machine, and the results are the same.

:func:`run_games` takes such a function ``play(g) -> result`` and yields ``play(0)``,
``play(1)``, ... in game order, each as soon as it and every game before it are done, so a
consumer that folds results into running totals needs memory independent of the number of
games.  Games are handed out in chunks of consecutive indices:

* ``jobs=1``: played here, one after another;
* ``jobs=N``: ``N`` worker processes, never forked from this one
  (:mod:`spitemalice.runs.workers`: started by ``forkserver`` or ``spawn``); ``play`` is sent
  to each pickled, once, and rebuilt there (a rule book from its description: plugins by name,
  parameters, a rule-set file's contents); results travel back pickled;
* ``client=distributed.Client(...)``: chunks are Dask tasks on the client's cluster (``play``
  is sent once to every worker; it must pickle, which a rule book of installed plugins or of a
  rule-set file does).  Dask is the optional extra ``spitemalice[dask]``.

``spitemalice simulate`` and ``spitemalice validate`` use it (``--jobs N``,
``--scheduler ADDRESS``); so can any study: wrap the per-game function with
:func:`functools.partial` or a small frozen class, and fold what comes back.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import os
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from spitemalice.errors import SpiteMaliceError
from spitemalice.guards import check_int, check_jobs, check_real
from spitemalice.limits import MAX_GAMES, MAX_JOBS, MAX_SECONDS
from spitemalice.runs import workers
from spitemalice.stops import held_stops
from spitemalice.wording import shown

R = TypeVar("R")

CHUNK_MOST = 50
"""The most games in one chunk: enough that handing out a chunk costs little against playing
it, few enough that results stream steadily and the last chunks keep every worker busy."""


def all_cores() -> int:
    """The cores this process may run on (the default number of jobs on the command line)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: about eight chunks per worker, at least 1, at most :data:`CHUNK_MOST`.

    Raises:
        SpiteMaliceError: ``games`` not 0 to MAX_GAMES or ``workers`` not 1 to MAX_JOBS.
    """
    games = check_int(games, "games", 0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES")
    workers = check_int(workers, "workers", 1, MAX_JOBS, constant="spitemalice.limits.MAX_JOBS")
    return max(1, min(CHUNK_MOST, games // (8 * max(workers, 1))))


def chunks(games: int, size: int) -> Iterator[tuple[int, int]]:
    """``(start, stop)`` spans covering game indices ``0 .. games - 1`` in order, made as they
    are taken (a run of any number of games holds only the chunks in flight).

    Raises:
        SpiteMaliceError: ``games`` not 0 to MAX_GAMES or ``size`` not 1 to MAX_GAMES.
    """
    games = check_int(games, "games", 0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES")
    size = check_int(size, "size (games per chunk)", 1, MAX_GAMES,
                     constant="spitemalice.limits.MAX_GAMES")
    return ((start, min(start + size, games)) for start in range(0, games, size))


def run_games(
    play: Callable[[int], R],
    games: int,
    jobs: int | None = 1,
    client: Any = None,
) -> Iterator[R]:
    """Yield ``play(g)`` for ``g`` in ``0 .. games - 1``, in that order.

    Args:
        play: a pure function of the game index (see the module docstring); with ``client``
            it must pickle.
        games: how many games (0 or more).
        jobs: worker processes on this machine; ``None`` means :func:`all_cores`, 1 plays
            here.  Ignored when ``client`` is given.
        client: a ``distributed.Client``: play the games on its Dask cluster.

    Raises:
        SpiteMaliceError: ``games`` not 0 to :data:`~spitemalice.limits.MAX_GAMES`, ``jobs``
            not 1 to :data:`~spitemalice.limits.MAX_JOBS` (at once); with ``jobs`` above 1,
            when the first game is asked for, a plugin or bot that cannot be rebuilt in a
            worker process (named), or processes that cannot be started or stop early (the
            message says to use ``jobs=1`` or a Dask client).
        Exception: any exception ``play`` raises, re-raised here (from a worker, as the
            worker raised it).
    """
    games = check_int(games, "games", 0, MAX_GAMES, constant="spitemalice.limits.MAX_GAMES")
    jobs = check_jobs(jobs) or all_cores()
    if client is not None:
        return _on_dask(play, games, client)
    if jobs == 1 or games <= 1:
        return (play(game) for game in range(games))
    return _on_processes(play, games, jobs)


def _on_processes(play: Callable[[int], R], games: int, jobs: int) -> Iterator[R]:
    # Refuses, by name, what a worker could not rebuild, before any worker starts.
    data = workers.payload(play)
    jobs = min(jobs, games)
    spans = chunks(games, chunk_size(games, jobs))
    pool = workers.Pool(jobs, data)
    finished = False
    try:
        # A bounded window of chunks in flight, as on Dask: memory does not depend on the
        # number of games, however large.
        for results in pool.play(spans, window=4 * jobs):
            yield from results
        finished = True
    finally:
        with held_stops():  # a second Ctrl-C must not leave workers running
            pool.close(ended=finished)


def _dask_chunk(shipped: workers.Shipped, start: int, stop: int) -> list[Any]:
    play = shipped.install()
    return [play(game) for game in range(start, stop)]


def _on_dask(play: Callable[[int], R], games: int, client: Any) -> Iterator[R]:
    shared = client.scatter(workers.ship(play), broadcast=True)
    cluster = max(len(client.scheduler_info().get("workers", {})), 1)
    spans = chunks(games, chunk_size(games, cluster))
    # A bounded window of chunks in flight: results are gathered in game order, and no more
    # than a few chunks per worker wait in the cluster's memory at any time.
    window = 4 * cluster
    pending: collections.deque[Any] = collections.deque()
    upcoming = iter(spans)
    for start, stop in upcoming:
        pending.append(client.submit(_dask_chunk, shared, start, stop, pure=False))
        if len(pending) >= window:
            break
    while pending:
        results = pending.popleft().result()
        for start, stop in upcoming:
            pending.append(client.submit(_dask_chunk, shared, start, stop, pure=False))
            break
        yield from results


def connect(address: str, timeout: float = 10) -> Any:
    """A ``distributed.Client`` connected to the Dask scheduler at ``address``
    (``tcp://host:8786``), waiting at most ``timeout`` seconds for it.

    Raises:
        SpiteMaliceError: Dask is not installed (``pip install 'spitemalice[dask]'``), or no
            scheduler answers at ``address``.
    """
    try:
        from distributed import Client
    except ImportError:
        raise SpiteMaliceError("--scheduler needs Dask: pip install 'spitemalice[dask]'") from None
    timeout = check_real(timeout, "timeout", 0, MAX_SECONDS, what="a number of seconds")
    try:
        return Client(address, timeout=timeout)
    except (OSError, TimeoutError, ValueError) as error:
        raise SpiteMaliceError(f"no Dask scheduler answers at {address!r}: {error}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add ``--jobs N`` and ``--scheduler ADDRESS`` to a command that plays many games; the
    two exclude each other (a scheduler's cluster has its own workers, and ``--jobs`` would
    be ignored)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--jobs", type=_jobs, default=None, metavar="N",
                        help="worker processes (default: every core); results do not depend "
                             "on it")
    where.add_argument("--scheduler", metavar="ADDRESS",
                        help="play the games on the Dask cluster whose scheduler is at ADDRESS "
                             "(tcp://host:8786; needs spitemalice[dask])")


def _jobs(text: str) -> int:
    """``--jobs``: 1 to :data:`~spitemalice.limits.MAX_JOBS`, as :func:`run_games` checks."""
    if not (0 < len(text) <= 5 and text.isascii() and text.isdigit()) \
            or not 1 <= int(text) <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"--jobs is a number of processes from 1 to "
                                         f"{MAX_JOBS:,}, not {shown(text)}")
    return int(text)


@contextlib.contextmanager
def backend(args: argparse.Namespace) -> Iterator[tuple[int | None, Any]]:
    """``(jobs, client)`` for :func:`run_games` from the options of :func:`add_arguments`;
    a client connected for ``--scheduler`` is closed on leaving.

    Raises:
        SpiteMaliceError: as :func:`connect`.
    """
    address = getattr(args, "scheduler", None)
    if not address:
        yield getattr(args, "jobs", None), None
        return
    client = connect(address)
    try:
        yield None, client
    finally:
        client.close()
