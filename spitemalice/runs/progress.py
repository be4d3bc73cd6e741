"""Progress bars for long runs (simulate, validate, compare, tournament).

One library for the whole project: tqdm.  It is small, has no dependencies of its own, hides
itself when output is not a terminal, and shows count, rate and time left out of the box.  It
is an optional extra (``pip install 'spitemalice[progress]'``) so the core stays attrs +
pluggy; without it every bar is silent.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any, TextIO

from spitemalice.guards import check_int


class Progress:
    """A progress bar over ``total`` games, or nothing when not shown.

    Use as a context manager and call :meth:`advance` after each finished game.  The bar is
    shown only when ``enabled`` is true, the stream is a terminal and tqdm is installed.

    Raises:
        SpiteMaliceError: ``total`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    def __init__(self, total: int, description: str, enabled: bool = True,
                 stream: TextIO | None = None) -> None:
        check_int(total, "Progress's total", 0)
        self._bar: Any = None
        stream = stream if stream is not None else sys.stderr
        if not (enabled and total > 1 and _is_terminal(stream)):
            return
        try:
            from tqdm import tqdm
        except ImportError:  # the progress extra is not installed: stay silent
            return
        self._bar = tqdm(total=total, desc=description, unit="game", file=stream,
                         leave=False, dynamic_ncols=True)

    def advance(self, games: int = 1) -> None:
        """Count ``games`` more finished games.

        Raises:
            SpiteMaliceError: ``games`` not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_INT`.
        """
        check_int(games, "Progress.advance's games", 0)
        if self._bar is not None:
            self._bar.update(games)

    def close(self) -> None:
        """Remove the bar from the terminal (idempotent)."""
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # a closed or unusual stream
        return False
