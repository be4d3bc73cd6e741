"""Worker processes for ``--jobs``: how they start, what they are sent, how they stop.

**Never forked.**  A fork copies a process with whatever its threads held at that instant
(a Dask client's event loop, a progress bar's monitor, a lock inside the allocator): on macOS
such a child can crash, Python 3.13 warns about it and 3.14 no longer forks by default, and
Windows cannot fork at all.  Workers are started by ``forkserver`` where the platform has it
(Linux, macOS: one clean server process, started once, forks each worker; cheap) and by
``spawn`` elsewhere (a fresh interpreter per worker).  The environment variable
``SPITEMALICE_START_METHOD`` (``spawn`` or ``forkserver``) chooses one explicitly; the tests
run the parallel games under both.

**Rebuilt from a description.**  A fresh worker shares nothing with this process, so the
per-game function is sent to it pickled, once per worker: a rule book travels as its recipe
(rule-set and house-rule plugins by module name, parameters, a rule-set file's contents;
:meth:`spitemalice.rules.book.RuleBook.__reduce__`) and is rebuilt there, bots by their kind's
name, with any kind added to :data:`spitemalice.bots.players.PLAYERS` at run time sent along.
What cannot be rebuilt there (a plugin module made at run time, a plugin object that does not
pickle) is refused before any worker starts, by name, with what to do instead.

**Stopping.**  Ctrl-C reaches the whole process group: workers ignore SIGINT and leave it to
this process, which ends them; SIGTERM ends a worker at once.  Both signals are held back while
workers start, so that a signal arriving then is delivered to those handlers, not to Python's
default (a traceback from every worker).
"""

from __future__ import annotations

import contextlib
import io
import multiprocessing
import os
import pickle
import resource
import signal
import types
from collections.abc import Callable, Iterator
from multiprocessing.connection import Connection
from multiprocessing.connection import wait as connection_wait
from multiprocessing.process import BaseProcess
from typing import Any, NoReturn

import attrs

from spitemalice.bots import players
from spitemalice.errors import RulesetError, SpiteMaliceError
from spitemalice.guards import check_int
from spitemalice.limits import MAX_GAMES, MAX_JOBS
from spitemalice.rules.book import RuleBook
from spitemalice.stops import held_stops
from spitemalice.wording import shown

START_METHOD = "SPITEMALICE_START_METHOD"
"""The environment variable that chooses how workers start: ``forkserver`` or ``spawn``."""

START_METHODS = ("forkserver", "spawn")
"""The start methods workers may use, preferred first (``fork`` never: module docstring)."""

INSTEAD = "use jobs=1 (--jobs 1) or a Dask scheduler (--scheduler)"
"""What every refusal to start workers suggests instead."""

PRELOAD = ("__main__", "spitemalice.runs.workers", "spitemalice.study.simulate",
           "spitemalice.runs.runner", "spitemalice.validation.dynamic", "spitemalice_variants")
"""Modules the fork server imports once, so that each worker forked from it starts with them
(the main module first, as :mod:`multiprocessing` does by default)."""

def start_method() -> str:
    """How worker processes start here: the environment variable :data:`START_METHOD` when
    set, else the first of :data:`START_METHODS` this platform has.

    Raises:
        SpiteMaliceError: the variable names another method (``fork`` included), or one this
            platform lacks, or the platform has neither (the message says to use one job or
            Dask).
    """
    available = multiprocessing.get_all_start_methods()
    chosen = os.environ.get(START_METHOD, "").strip()
    if not chosen:
        for method in START_METHODS:
            if method in available:
                return method
        raise SpiteMaliceError("this platform cannot start worker processes without forking "
                               f"this one (it has {', '.join(available) or 'no way'}); "
                               f"{INSTEAD}")
    if chosen not in START_METHODS:
        raise SpiteMaliceError(f"{START_METHOD} names how worker processes start: "
                               f"{' or '.join(START_METHODS)}, not {shown(chosen)} (workers "
                               "are never forked from a running program)")
    if chosen not in available:
        raise SpiteMaliceError(f"{START_METHOD}={chosen}: this platform cannot start "
                               f"processes that way; unset it, or {INSTEAD}")
    return chosen


@attrs.frozen
class Shipped:
    """The per-game function as a worker rebuilds it: ``play`` and this process's registry of
    bot kinds (kind -> factory), which the worker takes on before the first game, so that a
    kind added to :data:`~spitemalice.bots.players.PLAYERS` at run time plays there too."""

    play: Callable[[int], Any]
    bots: tuple[tuple[str, Callable[[int], Any]], ...] = ()

    def install(self) -> Callable[[int], Any]:
        """Register the bots here and return ``play``."""
        players.PLAYERS.update(self.bots)
        return self.play


@attrs.frozen
class _Unsendable:
    """Stands in a worker for a bot kind whose factory does not pickle: the kind is refused,
    by name, only if a game there asks for it."""

    kind: str
    why: str

    def __call__(self, seed: int) -> Any:
        raise RulesetError(f"the bot {self.kind!r} cannot be rebuilt in a worker process: "
                           f"{self.why} (define it at the top level of an importable "
                           f"module); {INSTEAD}")


def ship(play: Callable[[int], Any]) -> Shipped:
    """``play`` with this process's bot kinds (a factory that does not pickle travels as a
    stand-in that refuses it by name)."""
    bots: list[tuple[str, Callable[[int], Any]]] = []
    for kind, make in players.PLAYERS.items():
        try:
            pickle.dumps(make)
        except Exception as error:
            bots.append((kind, _Unsendable(kind, str(error))))
        else:
            bots.append((kind, make))
    return Shipped(play, tuple(bots))


def payload(play: Callable[[int], Any]) -> bytes:
    """``play`` (with :func:`ship`'s bots) pickled for a worker.

    Raises:
        RulesetError: a plugin that cannot be rebuilt in another process, named.
        SpiteMaliceError: anything else that does not pickle, named as pickle names it.
    """
    buffer = io.BytesIO()
    try:
        _Naming(buffer).dump(ship(play))
    except SpiteMaliceError:
        raise  # a plugin refused by name
    except Exception as error:
        raise SpiteMaliceError(f"the games cannot be sent to worker processes, which rebuild "
                               f"them from a description: {error}; {INSTEAD}") from None
    return buffer.getvalue()


class _Naming(pickle.Pickler):
    """A pickler that names the plugin of a rule book that cannot travel (pickle itself would
    name only a class or a function deep inside it)."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, RuleBook):
            for name in obj.plugins:
                plugin = obj.plugin(name)
                if not isinstance(plugin, types.ModuleType):
                    _check_pickles(plugin, f"the plugin {name!r}")
        return NotImplemented


def _check_pickles(thing: object, what: str) -> None:
    try:
        pickle.dumps(thing)
    except Exception as error:
        raise RulesetError(f"{what} cannot be rebuilt in a worker process: {error} (define "
                           f"it at the top level of an importable module); {INSTEAD}") from None


# --- in a worker ------------------------------------------------------------------------

_PLAY: Callable[[int], Any] | None = None  # this worker's per-game function
_BROKEN: str | None = None  # why it could not be rebuilt here


def install(data: bytes) -> None:
    """A worker's initializer: set its signal handlers, then rebuild the per-game function.

    A rebuild that fails is remembered and reported by the first chunk (an initializer that
    raises would break the whole pool with no word of why)."""
    global _PLAY, _BROKEN
    # Ctrl-C reaches the whole process group: only the parent answers it (by ending the
    # workers), so a worker ignores SIGINT instead of dying with a traceback; it dies quietly
    # on SIGTERM (how the parent ends it).  Both have been blocked since the worker started
    # (see held_signals): a SIGINT that came meanwhile is dropped by SIG_IGN, a SIGTERM
    # is delivered by the unblocking.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)
    try:
        _PLAY = pickle.loads(data).install()
    except Exception as error:
        _BROKEN = f"{type(error).__name__}: {error}"


def play_chunk(span: tuple[int, int]) -> list[Any]:
    """Play games ``span[0] .. span[1] - 1`` in a worker, in order.

    Raises:
        SpiteMaliceError: the per-game function could not be rebuilt in this worker, or an
            exception raised by a game cannot travel back (it is then named by its type and
            message instead).
        Exception: whatever a game raises, when it pickles.
    """
    if _PLAY is None:
        raise SpiteMaliceError(f"a worker process could not rebuild the games: {_BROKEN}; "
                               f"{INSTEAD}")
    try:
        return [_PLAY(game) for game in range(*span)]
    except Exception as error:
        if _travels(error):
            raise
        raise SpiteMaliceError(f"{type(error).__name__}: {error}") from None


def serve(connection: Connection, data: bytes) -> None:
    """A worker process's life: rebuild the games from ``data`` (:func:`install`), then play
    each span of games the parent sends and send back ``(True, results)`` or ``(False,
    error)``, until the parent sends ``None`` (answered with the CPU seconds this process
    spent: :func:`worker_cpu_seconds`) or goes away."""
    install(data)
    with connection:
        while True:
            try:
                span = connection.recv()
            except (EOFError, OSError):  # the parent is gone: nothing more to do
                return
            if span is None:
                usage = resource.getrusage(resource.RUSAGE_SELF)
                with contextlib.suppress(OSError):
                    connection.send(usage.ru_utime + usage.ru_stime)
                return
            try:
                answer: tuple[bool, Any] = (True, play_chunk(span))
            except Exception as error:
                answer = (False, error)
            connection.send(answer)


def _travels(error: BaseException) -> bool:
    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return False
    return True


# --- in this process ----------------------------------------------------------------------

_STOPS = {signal.SIGINT, signal.SIGTERM}

_WORKER_CPU = [0.0]  # what worker_cpu_seconds reports: one number, added to by Pool.close


def worker_cpu_seconds() -> float:
    """CPU seconds spent by the workers of every :class:`Pool` this process has let go after
    they finished their games, as each reported when let go (a worker ended mid-game reports
    nothing).  ``resource.RUSAGE_CHILDREN`` misses them: a fork server's workers are its
    children, not this process's."""
    return _WORKER_CPU[0]


@contextlib.contextmanager
def held_signals() -> Iterator[None]:
    """Start workers in this block: SIGINT and SIGTERM are held back here meanwhile (a stop
    that arrives is delivered when the block ends), and a started worker begins with both
    blocked, until :func:`install` has set its handlers.

    Both signals are blocked in this thread, so a fork server started now and every worker
    (forked from it, or spawned: ``exec`` keeps the signal mask) begins with them blocked.  This
    process may run other threads (numpy's OpenBLAS starts one per core at import): a signal
    sent to the process then goes to one of them, so this thread's mask alone would not hold
    it back, and an action of "ignore" would discard it.  Hence the Python handlers are held as
    well (:func:`~spitemalice.stops.held_stops`): a stop caught by any thread is recorded and
    delivered here once the workers are started."""
    with held_stops():
        signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
        try:
            yield
        finally:
            # A stop that came to this thread meanwhile was pending: it reaches held_stops now.
            signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)


class Pool:
    """``jobs`` worker processes started by :func:`start_method`, each with a pipe of its own,
    each rebuilding the games from ``data`` (:func:`serve`).

    No thread runs in this process for the pool, and a worker's pipe is known only to it and to
    this process: a worker that dies (or is ended mid-answer) is seen at once, and a worker
    whose parent dies sees its pipe close and ends.  Use :meth:`play` once, then :meth:`close`
    (or the pool as a context manager).

    Raises:
        SpiteMaliceError: processes cannot be started here (no start method, no working
            pipes, a sandbox); the message says to use one job or Dask.
    """

    def __init__(self, jobs: int, data: bytes) -> None:
        jobs = check_int(jobs, "jobs (a number of processes)", 1, MAX_JOBS,
                         constant="spitemalice.limits.MAX_JOBS")
        method = start_method()
        self.workers: list[tuple[BaseProcess, Connection]] = []
        try:
            context: Any = multiprocessing.get_context(method)
            if method == "forkserver":
                # Only heeded by the first pool of this process, which starts the server.
                context.set_forkserver_preload(list(PRELOAD))
            if os.name == "posix":
                # Started here, not in held_signals: starting it unblocks SIGINT and SIGTERM
                # whatever blocked them, so a Ctrl-C meanwhile would be lost.
                from multiprocessing import resource_tracker

                resource_tracker.ensure_running()
            with held_signals():
                for _ in range(jobs):
                    mine, theirs = context.Pipe()
                    process = context.Process(target=serve, args=(theirs, data), daemon=True)
                    self.workers.append((process, mine))
                    process.start()
                    theirs.close()
        except (OSError, ImportError, NotImplementedError, ValueError, RuntimeError) as error:
            self._abandon()
            raise SpiteMaliceError(f"worker processes cannot be started here ({method}: "
                                   f"{error}); {INSTEAD}") from None
        except BaseException:  # a stop held back while they started: no worker outlives it
            self._abandon()
            raise

    def _abandon(self) -> None:
        with held_stops():
            self.close(ended=False)

    def play(self, spans: Iterator[tuple[int, int]], window: int) -> Iterator[list[Any]]:
        """The results of each span of games, in the order of ``spans``; at most ``window``
        spans are handed out ahead of the first one not yet given back (memory does not grow
        with the number of games), at most two to a worker at a time.

        Raises:
            SpiteMaliceError: a worker died, or could not rebuild the games.
            Exception: what a game raised in a worker.
        """
        window = check_int(window, "window (spans ahead)", 1, MAX_GAMES,
                           constant="spitemalice.limits.MAX_GAMES")
        queued: list[list[int]] = [[] for _ in self.workers]  # span numbers per worker
        done: dict[int, list[Any]] = {}
        handed = given = 0
        more = True
        while more or given < handed:
            while more and handed - given < window:
                worker = min(range(len(self.workers)), key=lambda w: len(queued[w]))
                if len(queued[worker]) >= 2:
                    break
                span = next(spans, None)
                if span is None:
                    more = False
                    break
                self._send(worker, span)
                queued[worker].append(handed)
                handed += 1
            if given == handed:
                # Every span handed out is answered, and the spans ran out just now: waiting
                # for an answer here would wait on no worker, for ever.
                continue
            for worker in self._ready(queued):
                done[queued[worker].pop(0)] = self._answer(worker)
            while given in done:
                yield done.pop(given)
                given += 1

    def _ready(self, queued: list[list[int]]) -> list[int]:
        """The workers with an answer waiting (or that died: :meth:`_answer` says so)."""
        busy = [w for w, spans in enumerate(queued) if spans]
        waits = {id(self.workers[w][1]): w for w in busy}
        waits.update({id(self.workers[w][0].sentinel): w for w in busy})
        things: list[Any] = [self.workers[w][1] for w in busy]
        things += [self.workers[w][0].sentinel for w in busy]
        ready = connection_wait(things)
        return sorted({waits[id(thing)] for thing in ready})

    def _send(self, worker: int, span: tuple[int, int]) -> None:
        try:
            self.workers[worker][1].send(span)
        except OSError:  # its end of the pipe is gone: the worker died
            self._died(worker)

    def _answer(self, worker: int) -> list[Any]:
        pipe = self.workers[worker][1]
        try:
            if not pipe.poll():
                raise EOFError
            ok, value = pipe.recv()
        except (EOFError, OSError):
            self._died(worker)
        if not ok:
            raise value
        return list(value)

    def _died(self, worker: int) -> NoReturn:
        process = self.workers[worker][0]
        process.join(timeout=1)
        raise SpiteMaliceError(f"a worker process stopped before its games were done (exit "
                               f"code {process.exitcode}); {INSTEAD}") from None

    def close(self, ended: bool = True) -> None:
        """Let the workers go (``ended``: they finished every span; else they are ended at
        once, mid-game if need be) and wait for them; no worker outlives the pool."""
        for process, pipe in self.workers:
            with contextlib.suppress(OSError, ValueError):
                if ended:
                    pipe.send(None)
                elif process.is_alive():
                    process.terminate()
        for process, pipe in self.workers:
            if ended:  # its answer to None: the CPU seconds it spent
                with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
                    if pipe.poll(5):
                        _WORKER_CPU[0] += float(pipe.recv())
            # A worker still starting holds SIGTERM back until it has set its handlers; one
            # that does not end soon is killed (a signal nothing holds back).
            with contextlib.suppress(OSError, ValueError, AssertionError):
                process.join(timeout=5)
                if process.is_alive():
                    process.kill()
                    process.join(timeout=5)
            pipe.close()
        self.workers = []


__all__ = ["INSTEAD", "START_METHOD", "START_METHODS", "Pool", "Shipped", "held_signals",
           "install", "payload", "play_chunk", "serve", "ship", "start_method",
           "worker_cpu_seconds"]
