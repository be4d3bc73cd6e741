"""Per-game data out (``--games-out FILE``): one row per game, written as games finish.

The format follows the file's extension: ``.csv`` writes a header and one line per game, a
column per seat for the bots, scores and pay-off cards left (``bot_0``, ``score_0``,
``payoff_left_0``, ...), ready for a spreadsheet or ``pandas.read_csv``; ``.jsonl`` (or
``.ndjson``) writes one JSON object per line (``pandas.read_json(path, lines=True)``).
Format 2 (:data:`FORMAT_VERSION`) added the columns the designer metrics are computed from
(:data:`SHAPE_FIELDS`); :mod:`spitemalice.runs.games_in` reads both formats back.

With teams (say the partnerships house rule) each row also carries the team of each seat
(``team_0``, ... in CSV, a ``teams`` list in JSONL) and the winning team
(``winning_team``, empty or ``null`` when no seat won), a team written as its seats joined by
``+`` (``"0+2"``): PT-4 names one partner as the winner, and the team is what won.

The configuration that played the games goes to a sidecar file beside the rows,
``FILE.config.json`` (``games.csv.config.json``): the rule set, house rules, changed
parameters and who set them, players, bots, seed, versions and the command that reruns the
run (:mod:`spitemalice.runs.provenance`), and how many games the rows file holds and whether
the run was cut short: ``rows`` (lines after the CSV header, or JSON lines), ``games_finished``
(the games those rows are, one row per game, so the two are equal for every command: a
``compare`` seed is two games, a ``ladder`` deal two games per pair, a ``tournament`` deal one
game per seat or team the challenger took) and ``interrupted``.  A sidecar rather than a
header comment, so the rows file stays plain CSV (or JSON lines) that ``pandas.read_csv``,
``csv.DictReader`` and ``pandas.read_json(lines=True)`` read without options.

Both files follow the library's one rule for files (:mod:`spitemalice.files`): the
rows go to a temporary file beside ``FILE`` as games finish, and both get their names when
the run ends, finished or cut short (:mod:`spitemalice.runs.commit`), never through a link
and over an existing file only with ``force``.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

from spitemalice.errors import OutputError, SpiteMaliceError
from spitemalice.files import NewFile, check_new, write_file
from spitemalice.formats import strict_json
from spitemalice.guards import check_int
from spitemalice.rules.policies import TeamRule
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.runs.commit import Finished, Undo
from spitemalice.runs.outputs import GameOutput
from spitemalice.runs.runner import GameRow
from spitemalice.wording import for_terminal

FORMATS = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}
SIDECAR = ".config.json"
"""What the configuration sidecar's name adds to the rows file's name."""

FORMAT_VERSION = 2
"""The version of the rows' format, written to the sidecar as ``format``: 2 added the
designer-metric columns :data:`SHAPE_FIELDS` (docs/formats.md); a file without them (or a
sidecar without ``format``) is format 1."""

SHAPE_FIELDS = ("lead_changes", "comeback", "lead_taken", "legal_early", "legal_middle",
                "legal_late", "probed", "mattered")
"""The columns format 2 added, after ``decided_at``: what the designer metrics of
:mod:`spitemalice.measures.shape` are computed from (:class:`~spitemalice.runs.runner.GameRow`
says what each holds)."""

_SCALARS = ("game", "seed", "first_seat", "outcome", "winner", "moves", "turns",
            "completed_piles", "recycles", "legal_total", "decided_at", *SHAPE_FIELDS)
_PER_SEAT = (("bot", "bots"), ("score", "scores"), ("payoff_left", "payoff_left"))


class GamesOut:
    """A writer of game rows to ``path`` for games of ``seats`` seats; a part of a run's
    :class:`~spitemalice.runs.commit.Outputs`.

    :meth:`add` writes one game's rows (or :meth:`write` one row), :meth:`close` gives the
    file its name, with the rows written so far, and writes the sidecar.  ``labelled`` adds a
    ``config`` column naming the configuration when a run plays several; ``teams`` adds the
    team columns (``team_0``, ..., ``winning_team``), filled from the :class:`TeamRule` given
    with each row (every seat a team of its own for a configuration without teams).
    ``configuration`` (JSON-ready data, say ``{"configuration": ..., "command": ...}``) is
    written to the sidecar :func:`sidecar_path` names, with ``rows`` (the games written) and
    ``interrupted``, and ``turn_limit`` when given: the turn limit the games were played
    under, one whole number, or one per configuration label (``{"A": 3000, "B": 100}``), so
    a reader keeps a length's interval within what those games can last.

    The file is written by the library's one rule for files (:mod:`spitemalice.files`):
    to a temporary name beside ``path``, given its name by :meth:`close` (also when the run
    is cut short: the rows of the games finished), never through a link, and over an
    existing file only with ``force``.

    Raises:
        SpiteMaliceError: an extension other than ``.csv``, ``.jsonl`` or ``.ndjson``,
            ``seats`` not a whole number from 1 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`, or a ``turn_limit`` not a whole
            number from 0 to :data:`~spitemalice.limits.MAX_INT`.
        OutputError: a file already at ``path`` or at its sidecar's name (without
            ``force``), or one that cannot be written; checked before any game.
    """

    def __init__(self, path: Path, seats: int, labelled: bool = False,
                 teams: bool = False, configuration: Mapping[str, Any] | None = None,
                 force: bool = False, turn_limit: int | Mapping[str, int] | None = None
                 ) -> None:
        check_int(seats, "GamesOut's seats", 1, MAX_SEATS,
                  constant="spitemalice.rules.ruleset.MAX_SEATS")
        self.format = FORMATS.get(path.suffix.lower())
        if self.format is None:
            raise SpiteMaliceError(f"--games-out {for_terminal(str(path))}: name a .csv or "
                                   ".jsonl file (the extension picks the format)")
        self.path, self.force, self.configuration = path, force, configuration
        self.turn_limit = ({label: check_int(limit, f"GamesOut's turn_limit of {label!r}", 0)
                            for label, limit in turn_limit.items()}
                           if isinstance(turn_limit, Mapping) else turn_limit
                           if turn_limit is None else check_int(turn_limit,
                                                                "GamesOut's turn_limit", 0))
        if configuration is not None:
            # the file asked for first, so an error names it rather than its sidecar
            check_new(path, force=force, what="--games-out")
            check_new(sidecar_path(path), force=force, what="--games-out")
        self._new = NewFile(path, force=force, what="--games-out", newline="")
        self.labelled, self.teams = labelled, teams
        self.columns = [*(["config"] if labelled else []), *_SCALARS,
                        *(f"{name}_{s}" for name, _ in _PER_SEAT for s in range(seats)),
                        *([f"team_{s}" for s in range(seats)] + ["winning_team"]
                          if teams else [])]
        if self.format == "csv":
            self._put(self._csv_line(self.columns))
        self.rows = 0

    def add(self, game: int, item: GameOutput) -> Undo | None:
        """Write a game's rows (all or none); returns how to take them back.

        Raises:
            SpiteMaliceError: ``game`` not a whole number from 0 to
                :data:`~spitemalice.limits.MAX_INT`; nothing is written.
        """
        check_int(game, "GamesOut.add's game", 0)
        if not item.rows:
            return None
        start = self._new.file.tell()
        self._put("".join(self._line(row, label, teams) for row, label, teams in item.rows),
                  start)
        self.rows += len(item.rows)

        def undo() -> None:
            self._new.file.seek(start)
            self._new.file.truncate()
            self.rows -= len(item.rows)

        return undo

    def write(self, row: GameRow, label: str = "", teams: TeamRule | None = None) -> None:
        """Append one row; ``teams`` are the teams of the row's rule book (needed when the
        writer has team columns).

        Raises:
            ValueError: a writer with team columns given no ``teams``.
        """
        self._put(self._line(row, label, teams))
        self.rows += 1

    def close(self, finished: Finished | None = None) -> None:
        """Give the file its name with the rows written so far, then write the sidecar;
        ``finished`` (default: not cut short) says whether the run was cut short.  The
        sidecar's ``rows`` and ``games_finished`` both count games (one row each), not the
        run's units of commit: a ``compare`` seed is two games, A's and B's, a ``ladder``
        deal two per pair, a ``tournament`` deal one per seat or team (try-out s5, finding
        11).  Idempotent."""
        if self._new.done:
            return
        self._new.commit()
        if self.configuration is not None:
            said = finished or Finished(self.rows)
            write_file(sidecar_path(self.path),
                       strict_json.dumps({"games": self.path.name, "format": FORMAT_VERSION,
                                          **self.configuration,
                                          **({} if self.turn_limit is None
                                             else {"turn_limit": self.turn_limit}),
                                   "rows": self.rows, "games_finished": self.rows,
                                   "interrupted": said.interrupted}, indent=2) + "\n",
                       force=self.force, what="--games-out")

    def discard(self) -> None:
        """Drop the rows file (nothing is named, no sidecar is written)."""
        self._new.discard()

    def _line(self, row: GameRow, label: str, teams: TeamRule | None) -> str:
        if self.teams and teams is None:
            raise ValueError("this --games-out file has team columns: pass the row's teams")
        if self.format == "csv":
            data = self._flat(row, label, teams)
            return self._csv_line(["" if data[c] is None else data[c] for c in self.columns])
        record: dict[str, object] = {"config": label} if self.labelled else {}
        record.update(row.as_dict())
        if self.teams and teams is not None:
            of_seat, winning = _team_fields(row, teams)
            record.update({"teams": of_seat, "winning_team": winning})
        return strict_json.dumps(record) + "\n"

    def _put(self, text: str, start: int | None = None) -> None:
        """Write ``text`` whole (flushed) or, when the write fails, cut the file back to
        where it was and raise :class:`~spitemalice.errors.OutputError`."""
        file = self._new.file
        start = file.tell() if start is None else start
        try:
            file.write(text)
            file.flush()
        except OSError as error:
            file.seek(start)
            file.truncate()
            raise OutputError(f"cannot write --games-out {for_terminal(str(self.path))}: "
                              f"{for_terminal(error.strerror or str(error))}") from None

    @staticmethod
    def _csv_line(cells: list[Any]) -> str:
        line = io.StringIO()
        csv.writer(line).writerow(cells)
        return line.getvalue()

    def _flat(self, row: GameRow, label: str, teams: TeamRule | None) -> dict[str, object]:
        data: dict[str, object] = {"config": label}
        data.update({name: getattr(row, name) for name in _SCALARS})
        if row.comeback is not None:  # 1 or 0, as a spreadsheet sums it
            data["comeback"] = int(row.comeback)
        for name, field in _PER_SEAT:
            for seat, value in enumerate(getattr(row, field)):
                data[f"{name}_{seat}"] = value
        if self.teams and teams is not None:
            of_seat, data["winning_team"] = _team_fields(row, teams)
            for seat, team in enumerate(of_seat):
                data[f"team_{seat}"] = team
        return data

    def __enter__(self) -> GamesOut:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close(None if kind is None else Finished(self.rows, interrupted=True))


def sidecar_path(path: Path) -> Path:
    """Where the configuration of the rows in ``path`` is written: ``path`` + ``.config.json``
    (``games.csv`` -> ``games.csv.config.json``)."""
    return path.with_name(path.name + SIDECAR)


def _team_fields(row: GameRow, teams: TeamRule) -> tuple[list[str], str | None]:
    """The team of each seat of ``row`` and the winning team (``None`` when no seat won),
    each as its seats joined by ``+``."""
    of_seat = [teams.label(teams.team_of(seat)) for seat in range(len(row.bots))]
    winner = None if row.winner is None else of_seat[row.winner]
    return of_seat, winner
