"""The per-game outputs of a study, as parts of :class:`spitemalice.runs.commit.Outputs`:
what one game gives them (:class:`GameOutput`) and the folder of game records
(``simulate --record DIR``, :class:`RecordFolder`).  The rows file of ``--games-out`` is
:class:`spitemalice.runs.games_out.GamesOut`.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from pathlib import Path

import attrs

from spitemalice.errors import OutputError
from spitemalice.files import check_new, make_folder, write_file
from spitemalice.formats.records.record import GameRecord
from spitemalice.formats.records.writing import dumps_record
from spitemalice.guards import check_int
from spitemalice.rules.policies import TeamRule
from spitemalice.runs.commit import Finished, Undo
from spitemalice.runs.runner import GameRow
from spitemalice.wording import for_terminal


@attrs.frozen
class GameOutput:
    """What one finished game gives a run's outputs.

    Attributes:
        rows: the game's rows for ``--games-out``, each with the label of its configuration
            (``""``, ``"A"``, ``"challenger@1"``) and its rule book's teams.
        record: its game record, for ``--record``; ``None`` when none is kept.
    """

    rows: tuple[tuple[GameRow, str, TeamRule], ...] = ()
    record: GameRecord | None = None


class RecordFolder:
    """``--record DIR``: game ``g``'s record in ``DIR/game-NNNNN.json`` (``g`` in five or
    more digits), each written whole by :func:`~spitemalice.files.write_file`.

    Args:
        folder: the folder, made when missing.
        games: the games the run will play (the names it may write).
        force: replace records already there (without it they are refused, before any game).

    A run cut short with ``force`` removes, when it closes, the records of an earlier run
    under names this run was to replace and did not reach, so the folder holds the games of
    this run only, as many as its other outputs count.

    Raises:
        OutputError: the folder cannot be made or written to, or (without ``force``) a record
            to be written is there already (a file or a link); nothing is written then.
        SpiteMaliceError: ``games`` not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """

    def __init__(self, folder: Path, games: int, force: bool = False) -> None:
        check_int(games, "RecordFolder's games", 0)
        self.folder, self.force = make_folder(folder, what="--record"), force
        # Looking at every name of a huge run would cost as much as the run: what is in the
        # folder is looked at instead, and only names this run will write count.
        there = sorted(n for n in (self._number(p) for p in _listing(folder)) if n is not None
                       and n < games)
        if there and not force:
            others = len(there) - 1
            found = (f"{for_terminal(str(self.path(there[0])))} is" if not others else
                     f"{for_terminal(str(self.path(there[0])))} and {others} other "
                     f"record{'s' if others > 1 else ''} are")
            raise OutputError(f"--record: {found} there already; give --force to replace "
                              f"{'them' if others else 'it'}, or another DIR")
        check_new(self.path(0), force=True, what="--record")  # a folder we can write to
        self.stale = there

    def path(self, game: int) -> Path:
        """The record file of game ``game``.

        Raises:
            SpiteMaliceError: ``game`` not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_INT`.
        """
        return self._path(check_int(game, "RecordFolder.path's game", 0))

    def _path(self, game: int) -> Path:
        return self.folder / f"game-{game:05d}.json"

    def add(self, game: int, item: GameOutput) -> Undo | None:
        """Write game ``game``'s record, when it has one; returns how to take it back.

        Raises:
            SpiteMaliceError: ``game`` not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_INT`; nothing is written.
            OutputError: the record cannot be written.
        """
        check_int(game, "RecordFolder.add's game", 0)
        if item.record is None:
            return None
        path = write_file(self._path(game), dumps_record(item.record) + "\n", force=self.force,
                          what="--record")
        return lambda: path.unlink(missing_ok=True)

    def close(self, finished: Finished) -> None:
        if finished.interrupted:
            for game in self.stale:
                if game >= finished.games:
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(self.path(game))

    def discard(self) -> None:
        """Nothing to drop: each record was whole when written, and none was."""

    def _number(self, name: str) -> int | None:
        stem = name.removeprefix("game-").removesuffix(".json")
        if (name.startswith("game-") and name.endswith(".json") and stem.isascii()
                and stem.isdigit() and name == self._path(int(stem)).name):
            return int(stem)
        return None


def _listing(folder: Path) -> Sequence[str]:
    try:
        return os.listdir(folder)
    except OSError as error:
        raise OutputError(f"--record {for_terminal(str(folder))}: cannot read the folder: "
                          f"{for_terminal(error.strerror or str(error))}") from None


__all__ = ["GameOutput", "RecordFolder"]
