"""Reading a ``--games-out`` file back (:mod:`spitemalice.runs.games_out` writes it): its rows
as :class:`~spitemalice.runs.runner.GameRow`, grouped by the configuration that played them
(the ``config`` column of ``compare`` and ``tournament``; one group ``""`` without it), so the
metrics of those games can be computed without playing or replaying them
(``spitemalice metrics FILE``).

Both formats are read.  A format-1 file (written before the designer-metric columns,
:data:`~spitemalice.runs.games_out.SHAPE_FIELDS`) gives rows whose designer-metric fields are
``None``; :attr:`GamesFile.missing` names the columns the file lacks, so a reader says what
cannot be computed rather than guessing it.  The format is told by the columns (a CSV header,
each JSON line's keys); the sidecar (``FILE.config.json``), when it lies beside the file, is
read for what it says of the run, never required.

A file is untrusted input: it is read whole up to :data:`MAX_GAMES_FILE_BYTES`, and each
value is checked (whole numbers of at most :data:`~spitemalice.limits.MAX_DIGITS` digits, an
outcome the library knows); the first wrong value is refused naming its line and column.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import attrs

from spitemalice.errors import DataError
from spitemalice.files import FileRefused, read_file
from spitemalice.formats.json_input import parse_json
from spitemalice.guards import int_field
from spitemalice.limits import MAX_DIGITS, MAX_INT
from spitemalice.model import OUTCOME_KINDS
from spitemalice.rules.ruleset import MAX_SEATS
from spitemalice.runs.games_out import FORMAT_VERSION, FORMATS, SHAPE_FIELDS, sidecar_path
from spitemalice.runs.runner import GameRow
from spitemalice.wording import clipped, count_of, for_terminal, shown

MAX_GAMES_FILE_BYTES = 256 * 1024 * 1024
"""The largest games file read (about a million rows of two seats)."""

_REQUIRED = ("game", "seed", "first_seat", "outcome", "winner", "moves", "turns",
             "completed_piles", "recycles", "legal_total", "decided_at")
_WHOLE = ("game", "seed", "first_seat", "moves", "turns", "completed_piles", "recycles",
          "legal_total",  # never empty; those after may be
          "winner", "decided_at", "lead_changes", "lead_taken", "legal_early", "legal_middle",
          "legal_late", "probed", "mattered")
_PER_SEAT = (("bot", "bots"), ("score", "scores"), ("payoff_left", "payoff_left"))


@attrs.frozen
class GamesFile:
    """A games file read back.

    Raises:
        SpiteMaliceError: ``format`` not 1 or 2, or ``seats`` not 0 to
            :data:`~spitemalice.rules.ruleset.MAX_SEATS`.

    Attributes:
        path: where it was read from.
        format: 2 when it has every designer-metric column, else 1.
        groups: configuration label -> its rows in file order (``""`` when the file has no
            ``config`` column).
        seats: seats per game.
        missing: the designer-metric columns the file lacks (empty for format 2).
        sidecar: the sidecar's data when one lies beside the file, else ``None``.
        turn_limits: configuration label -> the turn limit its games were played under, as
            the sidecar says (a label the sidecar does not name: not known).
    """

    path: Path
    format: int = attrs.field(validator=int_field(1, FORMAT_VERSION))
    groups: dict[str, list[GameRow]]
    seats: int = attrs.field(validator=int_field(0, MAX_SEATS))
    missing: tuple[str, ...]
    sidecar: dict[str, Any] | None = None
    turn_limits: dict[str, int] = attrs.Factory(dict)


def read_games(path: str | Path) -> GamesFile:
    """The rows of the ``--games-out`` file ``path`` (``.csv``, ``.jsonl`` or ``.ndjson``).

    Raises:
        DataError: a file that cannot be read, is larger than :data:`MAX_GAMES_FILE_BYTES`,
            has no rows, lacks a column every format has, or holds a value that is not what
            its column holds (the message names the line and the column); a sidecar that is
            not a JSON object, or whose ``command`` is not a string, or whose ``turn_limit`` is not
            one whole number (or one per configuration the rows hold) from 0 to
            :data:`~spitemalice.limits.MAX_INT` at or above every game's turns the rows
            record.
        TypeError: ``path`` neither a str nor a path.
    """
    if not isinstance(path, str | Path):
        raise TypeError(f"read_games takes path, a str or pathlib.Path, not "
                        f"{type(path).__name__}")
    path = Path(path)
    named = for_terminal(clipped(str(path), 200))
    kind = FORMATS.get(path.suffix.lower())
    if kind is None:
        raise DataError(f"{named}: a games file is .csv, .jsonl or .ndjson (what --games-out "
                        "writes)")
    try:
        data = read_file(path, MAX_GAMES_FILE_BYTES)
    except FileRefused as why:
        raise DataError(f"cannot read {named}: {why}") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DataError(f"{named} is not UTF-8 text") from None
    records = _csv_records(text, named) if kind == "csv" else _json_records(text, named)
    if not records:
        raise DataError(f"{named} holds no game rows")
    columns = set(records[0][1])
    seats = sum(1 for column in columns if column.startswith("bot_"))
    missing = tuple(name for name in SHAPE_FIELDS if name not in columns)
    groups: dict[str, list[GameRow]] = {}
    longest: dict[str, tuple[int, int, int]] = {}  # label -> its longest row's turns, moves, line
    for line, record in records:
        label = record.get("config", "")
        label = "" if label is None else str(label)
        row = _row(record, seats, line, named)
        groups.setdefault(label, []).append(row)
        longest[label] = max(longest.get(label, (0, 0, 0)), (row.turns, row.moves, line))
    side, limits = _side_of(path, named, longest)
    return GamesFile(path, 1 if missing else 2, groups, seats, missing, side, limits)


def _side_of(path: Path, named: str, longest: dict[str, tuple[int, int, int]]
             ) -> tuple[dict[str, Any] | None, dict[str, int]]:
    """The sidecar beside ``path`` (``None`` without one) and each label's turn limit, checked
    against ``longest`` (label -> its longest row's turns, moves and line)."""
    side = _sidecar(path)
    beside = for_terminal(sidecar_path(path).name)
    command = None if side is None else side.get("command")
    if command is not None and not isinstance(command, str):
        raise DataError(f"{beside}: its command is the text of the command that played the "
                        f"games, or null, not {shown(command)}")
    limits = _turn_limits(side, list(longest), beside)
    for label, limit in limits.items():
        turns, moves, line = longest[label]
        if turns > limit or moves > limit * limit:
            of = f" of configuration {for_terminal(clipped(label, 40))}" if label else ""
            raise DataError(
                f"{beside}: its turn_limit{of} is {limit:,}, "
                f"below the game on line {line} of {named}, which lasted "
                f"{count_of(turns, 'turn')} of {count_of(moves, 'move')} (a game under a turn "
                f"limit of {limit:,} lasts at most {count_of(limit, 'turn')} of "
                f"{count_of(limit * limit, 'move')}): the sidecar does not belong to these "
                "games")
    return side, limits


def _csv_records(text: str, named: str) -> list[tuple[int, dict[str, Any]]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    records = []
    for record in reader:
        if None in record or any(value is None for value in record.values()):
            raise DataError(f"{named} line {reader.line_num}: not as many cells as the header "
                            "has columns")
        records.append((reader.line_num, {k: (v if v != "" else None)
                                          for k, v in record.items()}))
    return records


def _json_records(text: str, named: str) -> list[tuple[int, dict[str, Any]]]:
    records = []
    for line, content in enumerate(text.splitlines(), 1):
        if not content.strip():
            continue
        record = parse_json(content, f"{named} line {line}")
        if not isinstance(record, dict):
            raise DataError(f"{named} line {line}: a game row is a JSON object, not "
                            f"{type(record).__name__}")
        for name, field in _PER_SEAT:  # lists, as GameRow.as_dict writes them
            values = record.pop(field, None)
            if isinstance(values, list):
                record.update({f"{name}_{seat}": v for seat, v in enumerate(values)})
        records.append((line, record))
    return records


def _row(record: dict[str, Any], seats: int, line: int, named: str) -> GameRow:
    where = f"{named} line {line}"
    for column in (*_REQUIRED, *(f"{name}_{s}" for name, _ in _PER_SEAT
                                 for s in range(seats))):
        if column not in record:
            raise DataError(f"{where}: no {column} column; is this a file --games-out wrote?")
    if seats < 1:
        raise DataError(f"{where}: no bot_0 column; is this a file --games-out wrote?")
    outcome = record["outcome"]
    if outcome not in OUTCOME_KINDS:
        raise DataError(f"{where}, outcome: one of {', '.join(OUTCOME_KINDS)}, not "
                        f"{for_terminal(clipped(str(outcome), 40))}")
    need = {name: _needed(record.get(name), name, where) for name in _WHOLE[:8]}
    whole = {name: _whole(record.get(name), name, where) for name in _WHOLE[8:]}
    per_seat = {field: tuple(_seat_value(record[f"{name}_{s}"], f"{name}_{s}", where, name)
                             for s in range(seats)) for name, field in _PER_SEAT}
    return GameRow(
        need["game"], need["seed"], per_seat["bots"], need["first_seat"], outcome,
        whole["winner"], per_seat["scores"], need["moves"], need["turns"],
        need["completed_piles"], need["recycles"], per_seat["payoff_left"],
        need["legal_total"], whole["decided_at"], whole["lead_changes"],
        _flag(record.get("comeback"), where), whole["lead_taken"], whole["legal_early"],
        whole["legal_middle"], whole["legal_late"], whole["probed"], whole["mattered"])


def _whole(value: Any, column: str, where: str) -> int | None:
    """A whole number of 0 or more (or ``None`` for an empty cell, a JSON null or a column
    the file lacks)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise DataError(f"{where}, {column}: a whole number, not {json.dumps(value)[:40]}")
    text = str(value).strip()
    if not (text.isdigit() and text.isascii() and len(text) <= MAX_DIGITS):
        raise DataError(f"{where}, {column}: a whole number of 0 or more (at most "
                        f"{MAX_DIGITS} digits), not {for_terminal(clipped(text, 40))!r}")
    return int(text)


def _needed(value: Any, column: str, where: str) -> int:
    """:func:`_whole` of a column that is never empty."""
    number = _whole(value, column, where)
    if number is None:
        raise DataError(f"{where}, {column}: a whole number, not empty")
    return number


def _seat_value(value: Any, column: str, where: str, name: str) -> Any:
    if name == "bot":
        if not isinstance(value, str):
            raise DataError(f"{where}, {column}: a bot's name, not {json.dumps(value)[:40]}")
        return value
    return _needed(value, column, where)


def _flag(value: Any, where: str) -> bool | None:
    """``comeback``: 1 or 0 in CSV, true or false in JSON lines, empty or null for a game
    nobody won."""
    if value is None:
        return None
    if value in (True, 1, "1", "true", "True"):
        return True
    if value in (False, 0, "0", "false", "False"):
        return False
    raise DataError(f"{where}, comeback: 1 or 0 (true or false), or empty, not "
                    f"{for_terminal(clipped(str(value), 40))}")


def _sidecar(path: Path) -> dict[str, Any] | None:
    beside = sidecar_path(path)
    if not beside.is_file():
        return None
    try:
        data = parse_json(read_file(beside, MAX_GAMES_FILE_BYTES), str(beside.name))
    except FileRefused as why:
        raise DataError(f"cannot read {for_terminal(beside.name)}: {why}") from None
    if not isinstance(data, dict):  # the run's own word on its games: never ignored
        raise DataError(f"{for_terminal(beside.name)}: a games file's sidecar is a JSON "
                        f"object (what --games-out writes), not {shown(data)}")
    return data


def _turn_limits(side: dict[str, Any] | None, labels: list[str], where: str) -> dict[str, int]:
    """Each label's turn limit as the sidecar's ``turn_limit`` gives it: one whole number
    for every configuration, or one per label the rows hold (``compare``'s A and B) and no
    other; none without it (a sidecar of before).  ``where``: the sidecar's name, for a
    message.

    Raises:
        DataError: a ``turn_limit`` that is neither (the sidecar is the run's own word on
            what its games could last: a wrong one is refused, never guessed around): a
            table on a file of one configuration, a table naming other labels than the
            rows', or a limit not a whole number from 0 to
            :data:`~spitemalice.limits.MAX_INT`.
    """
    given = None if side is None else side.get("turn_limit")
    if given is None:
        return {}
    names = ", ".join(for_terminal(clipped(label, 40)) for label in labels[:8])
    if isinstance(given, dict) and labels == [""]:
        raise DataError(f"{where}: its turn_limit, on a file of one configuration (no config "
                        f"column), is one whole number, not {shown(given)}")
    each = given if isinstance(given, dict) else dict.fromkeys(labels, given)
    if set(each) != set(labels):
        raise DataError(f"{where}: its turn_limit is one whole number, or one per "
                        f"configuration the file's rows hold ({names}) and no other, not "
                        f"{shown(given)}")
    for label, limit in each.items():
        if type(limit) is not int or not 0 <= limit <= MAX_INT:
            of = f" of configuration {for_terminal(clipped(label, 40))}" if label else ""
            raise DataError(f"{where}: its turn_limit{of} is a whole number from 0 to "
                            f"10**{MAX_DIGITS} - 1, not {shown(limit)}")
    return {label: each[label] for label in labels}
