"""How a program is stopped (Ctrl-C, SIGTERM), and how a block that must finish holds a stop
back until it has (issue 20: a game counts only once all its outputs are written).

It imports nothing of the library, so every layer may use it: the runs of
:mod:`spitemalice.runs.commit`, the table of :mod:`spitemalice.play.session`, the command line.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

STOPS = (signal.SIGINT, signal.SIGTERM)
"""The signals that stop a run (Ctrl-C; SIGTERM, which the command line turns into a stop)."""


class Terminated(KeyboardInterrupt):
    """A stop by SIGTERM: what the command line raises for it (:func:`stop_on_sigterm`).  A
    ``KeyboardInterrupt``, so everything that stops cleanly on Ctrl-C stops on it too; what
    would ask a person something on Ctrl-C (the terminal game) does not on SIGTERM, as
    nobody may be there to answer."""


def stop_on_sigterm(signum: int, frame: Any) -> None:
    """A SIGTERM handler that stops the program as Ctrl-C does (raises :class:`Terminated`)."""
    raise Terminated


@contextlib.contextmanager
def held_stops() -> Iterator[None]:
    """Hold back a stop (SIGINT, SIGTERM) that arrives in the block until the block ends,
    then deliver it: its handler runs as soon as the block has ended cleanly.

    Only signals with a Python handler are held (Python's own for SIGINT raises
    ``KeyboardInterrupt``; the command line sets one for SIGTERM); a signal whose action is to
    end the process or to be ignored keeps that action.  Outside the main thread, where Python
    runs no signal handler, the block runs as it is.  Blocks nest.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[tuple[int, Any]] = []
    previous = {stop: signal.getsignal(stop) for stop in STOPS}
    held = {stop: handler for stop, handler in previous.items() if callable(handler)}

    def hold(signum: int, frame: Any) -> None:
        caught.append((signum, frame))

    for stop in held:
        signal.signal(stop, hold)
    clean = False
    try:
        yield
        clean = True
    finally:
        for stop, handler in held.items():
            signal.signal(stop, handler)
        if caught and clean:
            signum, frame = caught[0]
            held[signal.Signals(signum)](signum, frame)  # raises KeyboardInterrupt, say


__all__ = ["STOPS", "Terminated", "held_stops", "stop_on_sigterm"]
