"""A run's games and their outputs, committed together: the rule that keeps a run that is cut
short consistent.

Every study plays games (:func:`spitemalice.runs.parallel.run_games`) and writes something
per game: a record file, a row of ``--games-out``, a row kept for ``--metrics`` or ``--plot``,
its share of the summary.  A run may be stopped at any instant (Ctrl-C, SIGTERM, a full disk),
and whenever it stops every output must tell the same story.  The rule:

* **A game counts only once all its outputs are written.**  :func:`commit_games` hands each
  finished game, in game order, to a commit function, and a stop that arrives meanwhile waits
  until that game is committed (:func:`held_stops`); the summary, the progress bar and the
  count a command prints add a game only at the end of its commit.
* **A game's outputs are written all or none.**  :class:`Outputs` writes each part in turn and,
  when one fails, takes back the parts already written for that game before the error goes on.
* **Files appear whole, under their names, only when done.**  Every file is written to a
  temporary name and renamed (:mod:`spitemalice.files`); files of the whole run (the
  ``--games-out`` rows, its configuration sidecar) are renamed by :meth:`Outputs.close`, which
  is told how many games finished and whether the run was cut short, so what they say agrees
  with the rest.

A command built on :func:`commit_games` and :class:`Outputs` gets all of this by construction;
``simulate``, ``compare``, ``tournament``, ``validate`` and the studies built on
:func:`spitemalice.runs.runner.play_games` are.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable, Sequence
from types import TracebackType
from typing import Any, Protocol, TypeVar

import attrs

from spitemalice.guards import check_int, int_field
from spitemalice.stops import held_stops

R = TypeVar("R")

@attrs.frozen
class Finished:
    """How a run ended.

    Attributes:
        games: games committed (every output of each written), game ``0`` to ``games - 1``.
        interrupted: a stop (``KeyboardInterrupt``: Ctrl-C, or SIGTERM on the command line)
            cut the run short.

    Raises:
        SpiteMaliceError: ``games`` a whole number outside 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    games: int = attrs.field(validator=int_field(0))
    interrupted: bool = False


def commit_games(results: Iterable[R], commit: Callable[[int, R], bool | None]) -> Finished:
    """Call ``commit(g, result)`` for each result in turn (``g`` from 0), each under
    :func:`held_stops`, and count the game once its commit returned.  A commit that returns
    ``False`` ends the run after its game (the rest would add nothing).

    A stop (``KeyboardInterrupt``) while a game is played or awaited ends the run: the games
    committed so far count, the one in progress does not, and the result says it was cut
    short.  An exception from ``commit`` (a file that cannot be written) ends the run too and
    goes on to the caller; the games committed before it are complete.

    Returns:
        the games committed and whether the run was cut short.
    """
    done = 0
    iterator = iter(results)
    try:
        for result in iterator:
            with held_stops():
                more = commit(done, result)
                done += 1
            if more is False:
                break
    except KeyboardInterrupt:
        return Finished(done, interrupted=True)
    finally:
        # Ends worker processes now (a generator of run_games), not when it is collected.
        close = getattr(iterator, "close", None)
        if close is not None:
            with held_stops():
                close()
    return Finished(done)


Undo = Callable[[], None]


class Output(Protocol):
    """One output of a run (a folder of records, a rows file, rows kept in memory).

    ``add`` writes one game's part and returns how to take it back (``None``: nothing to take
    back); ``close`` makes the output final, told how many games it holds and whether the run
    was cut short; ``discard`` drops it instead (a run that failed before any game).
    """

    def add(self, game: int, item: Any) -> Undo | None: ...

    def close(self, finished: Finished) -> None: ...

    def discard(self) -> None: ...


class Outputs:
    """The outputs of a run, written together game by game (the module's rule).

    Use as a context manager around the run and call :meth:`add` from the run's commit
    function; :meth:`close` when the run returns (told whether it was cut short).  Leaving the
    block on an exception closes the outputs as cut short, holding the games committed before
    it (or discards them when there are none).

    Args:
        parts: the outputs, written in this order for each game.

    Attributes:
        games: games committed so far (each written to every output).
    """

    def __init__(self, parts: Sequence[Output]) -> None:
        self.parts = tuple(parts)
        self.games = 0
        self.closed = False

    def add(self, game: int, item: Any) -> None:
        """Write game ``game``'s part of every output, or none of them; count it when all
        are written.

        Raises:
            Exception: what the failing part raised (an
                :class:`~spitemalice.errors.OutputError` for a file), after the parts already
                written for this game were taken back.
            SpiteMaliceError: ``game`` not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_INT`; nothing is written.
        """
        check_int(game, "Outputs.add's game", 0)
        undo: list[Undo] = []
        try:
            for part in self.parts:
                taken = part.add(game, item)
                if taken is not None:
                    undo.append(taken)
        except BaseException:
            for take in reversed(undo):
                with contextlib.suppress(Exception):
                    take()
            raise
        self.games += 1

    def close(self, interrupted: bool = False) -> Finished:
        """Make every output final (rename the files of the whole run), stops held; the first
        error goes on after every part was closed.  Idempotent.

        Returns:
            what the outputs were told: the games committed and ``interrupted``.
        """
        finished = Finished(self.games, interrupted)
        if not self.closed:
            self.closed = True
            self._each(lambda part: part.close(finished))
        return finished

    def discard(self) -> None:
        """Drop every output (nothing was committed); idempotent."""
        if not self.closed:
            self.closed = True
            self._each(lambda part: part.discard())

    def _each(self, act: Callable[[Output], None]) -> None:
        failure: BaseException | None = None
        with held_stops():
            for part in self.parts:
                try:
                    act(part)
                except Exception as error:
                    failure = failure or error
        if failure is not None:
            raise failure

    def __enter__(self) -> Outputs:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if kind is None:
            self.close()
        elif self.games:
            self.close(interrupted=True)
        else:
            self.discard()


__all__ = ["Finished", "Output", "Outputs", "commit_games"]
