"""Where the play server keeps its tables: a folder of game records and table files.

For each table the folder holds

* ``ID-N.json``: the record of game ``N`` at table ``ID`` (:mod:`spitemalice.formats.records`;
  ``spitemalice check`` and ``replay`` read it).  The session rewrites it after every move,
  before the move is announced (:class:`~spitemalice.play.session.Session`);
* ``ID.table.json``: who sits where and the SHA-256 of each person's token (never the
  token), which game is current, whether the lobby lists the table and which of its seats
  anyone may take there, and the match it plays (format ``spitemalice-table``, version 2;
  version 1, without the last three, is read as a private table of single games);
* ``ID.spit.json``: the same for a live table whose seats move at once (Spit), read and
  written by :mod:`spitemalice.server.spit_restore`.

Every file is written by the library's one rule for files (:mod:`spitemalice.files`):
to a new temporary name beside it, renamed over the old one, so a reader never sees half a
file and a symbolic link planted at the name is replaced, never written through.  When the
server starts, every table whose current game has not ended is rebuilt from these files
(:meth:`Store.unfinished`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

from spitemalice import files, guards, limits, wording
from spitemalice.errors import DataError, SpiteMaliceError
from spitemalice.files import SECRET_FILE, SECRET_FOLDER, make_folder, write_file
from spitemalice.formats.json_input import (
    check_header,
    parse_json,
    read_int,
    read_list,
    read_object,
    read_str,
)
from spitemalice.formats.records.reading import load_record
from spitemalice.formats.records.record import GameRecord

FORMAT = "spitemalice-table"
VERSION = 2
"""The table-file format version written, and the newest read."""
TABLE_ID = re.compile(r"[0-9a-f]{16}")
"""A table id: 16 hex digits (64 random bits; the seats' tokens are the secrets)."""

TOKEN_SHA256 = re.compile(r"[0-9a-f]{64}")
"""A seat's token hash as a table file keeps it (:func:`token_hash`)."""


def default_directory() -> Path:
    """The user's data directory for the server's records: ``$XDG_DATA_HOME/spitemalice/
    tables`` (``~/.local/share/...`` when unset) on Linux and BSD, ``~/Library/Application
    Support/spitemalice/tables`` on macOS, ``%APPDATA%\\spitemalice\\tables`` on Windows."""
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return base / "spitemalice" / "tables"


def token_hash(token: str) -> str:
    """The SHA-256 of a seat's token, in hex: what the table file keeps."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@attrs.frozen
class SeatEntry:
    """One seat in a table file: its name, its player (``"human"`` or a bot kind) and, for a
    person's seat, the SHA-256 of its token (``None`` for a bot's)."""

    name: str
    player: str
    token_sha256: str | None


@attrs.frozen
class Leavers:
    """A table's move clock and what becomes of a seat whose person leaves
    (:mod:`spitemalice.server.leavers`): ``clock``, seconds per move (``None``: no clock);
    ``grace``, seconds a person's seat may stay without a connection (``None``: waited for
    as long as it takes); ``player``, the bot that takes such a seat over."""

    clock: int | None
    grace: int | None
    player: str


@attrs.frozen
class TableEntry:
    """A table file: the table's id, its current game's number and its seats.

    Attributes:
        public: whether the lobby lists the table (its creator chose so).
        free: the people's seats of a public table that nobody has joined or taken yet:
            anyone may take one from the lobby (:mod:`spitemalice.server.listing`).
        match: the target score of the match the table plays (BF-19), or ``None`` for
            single games.
        scores: each finished game's points per seat, in order (a match's running score).
        leavers: the table's move clock and grace for leavers (:class:`Leavers`), or
            ``None`` for a table that waits for its people however long they take.
    """

    table: str
    game: int
    seats: tuple[SeatEntry, ...]
    public: bool = False
    free: tuple[int, ...] = ()
    match: int | None = None
    scores: tuple[tuple[int, ...], ...] = ()
    leavers: Leavers | None = None


class Store:
    """The folder of one server's records and table files.

    Raises:
        OutputError: the folder cannot be made (the message names it and why).
    """

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.directory = make_folder(directory, what="--records", mode=SECRET_FOLDER)

    def record_path(self, table: str, game: int) -> Path:
        """The record file of game ``game`` (1, 2, ...) at ``table``.

        Raises:
            SpiteMaliceError: ``game`` is not a whole number from 1 to
                :data:`~spitemalice.limits.MAX_INT`.
        """
        return self.directory / f"{table}-{guards.check_int(game, 'game', 1)}.json"

    def save(self, entry: TableEntry) -> None:
        """Write ``entry``'s table file (whole, or not at all).

        Raises:
            OutputError: the file cannot be written.
        """
        # The library's one rule for files: a temporary file renamed over the table's own
        # file (force: the server rewrites it), never through a link; readable by the owner
        # alone (it holds the seats' token hashes).
        write_file(self.directory / f"{entry.table}.table.json",
                   json.dumps(entry_data(entry), indent=1) + "\n", force=True, mode=SECRET_FILE)

    def unfinished(self) -> Iterator[tuple[TableEntry, GameRecord] | str]:
        """Every table whose current game has not ended (or whose match has not: its next
        game is still to be dealt), with that game's record; a string says why one table's
        files were skipped (unreadable, or a record missing)."""
        for path in sorted(self.directory.glob("*.table.json")):
            found = self._unfinished(path)
            if found is not None:
                yield found

    def table(self, table: str) -> tuple[TableEntry, GameRecord] | str | None:
        """Table ``table``'s file and its current game's record, as :meth:`unfinished`
        gives them, if its game (or match) has not ended; ``None`` when it has or there is
        no such table; a string says why its files were skipped.

        Raises:
            SpiteMaliceError: ``table`` is no table id (16 hex digits).
        """
        if not isinstance(table, str) or not TABLE_ID.fullmatch(table):
            raise SpiteMaliceError(f"table: {wording.shown(table)} is no table id (16 hex "
                                   "digits, such as 0123456789abcdef)")
        path = self.directory / f"{table}.table.json"
        return self._unfinished(path) if path.exists() else None

    def _unfinished(self, path: Path) -> tuple[TableEntry, GameRecord] | str | None:
        try:
            entry = read_entry(path)
            record = load_record(self.record_path(entry.table, entry.game))
        except (DataError, SpiteMaliceError) as error:
            return f"skipped {wording.for_terminal(path.name)}: {error}"
        if record.outcome is None or _match_on(entry, record.outcome.scores):
            return entry, record
        return None


def _match_on(entry: TableEntry, scores: tuple[int, ...]) -> bool:
    """Whether ``entry``'s table plays a match that no seat has won with the points of its
    finished games and ``scores`` (those of its current game, which has ended)."""
    if entry.match is None:
        return False
    totals = [sum(points) for points in zip(*entry.scores, scores, strict=True)]
    return max(totals) < entry.match


def read_entry(path: Path) -> TableEntry:
    """The table file at ``path``.

    Raises:
        DataError: it cannot be read, or is no table file of a version this library
            reads (the message names the field).
    """
    data, table = read_table_file(path, (FORMAT, VERSION, ".table.json"),
                                  ("format", "version", "table", "game", "seats"),
                                  ("public", "free", "match", "scores", "leavers"))
    seats = [read_seat(seat, f"table.seats[{i}]")
             for i, seat in enumerate(read_list(data["seats"], "table.seats"))]
    public = data.get("public", False)
    if not isinstance(public, bool):
        raise DataError(f"table.public: {wording.shown(public)} is not true or false")
    free = tuple(read_int(seat, f"table.free[{i}]", 0, maximum=len(seats) - 1)
                 for i, seat in enumerate(read_list(data.get("free", []), "table.free")))
    match = data.get("match")
    scores = tuple(tuple(read_int(points, f"table.scores[{i}][{j}]", None)
                         for j, points in enumerate(read_list(game, f"table.scores[{i}]")))
                   for i, game in enumerate(read_list(data.get("scores", []), "table.scores")))
    return TableEntry(table, read_int(data["game"], "table.game", 1), tuple(seats), public,
                      free, None if match is None else read_int(match, "table.match", 1),
                      scores, _read_leavers(data.get("leavers")))


def read_table_file(path: Path, kind: tuple[str, int, str], fields: tuple[str, ...],
                    optional: tuple[str, ...] = ()) -> tuple[dict[str, Any], str]:
    """A table file's object and its table id, for the readers of a turn-based and a live
    table's file: ``kind`` is its format, its version and the end of its name after the
    id, which the ``table`` field must match; ``fields`` must be there, ``optional`` may.

    Raises:
        DataError: it cannot be read (too long, not JSON), a field is missing or unknown,
            the header is not ``kind``'s, or the id is not this file's (the message names
            the field).
    """
    form, version, suffix = kind
    try:
        text = files.read_file(path, limits.MAX_JSON_BYTES // 64)
    except files.FileRefused as error:
        raise DataError(f"cannot read it: {error}") from None
    data = read_object(parse_json(text, "table"), "table", fields, optional)
    check_header(data, "table", form, version)
    table = read_str(data["table"], "table.table")
    if not TABLE_ID.fullmatch(table) or path.name != f"{table}{suffix}":
        raise DataError(f"table.table: {wording.shown(table)} is not this file's table id")
    return data, table


def read_seat(data: Any, where: str) -> SeatEntry:
    """One seat of a table file (``where``: its path in the file, for messages): its name,
    as ``create`` takes it (1 to :data:`~spitemalice.limits.MAX_SEAT_NAME_CHARS` printable
    characters), its player, and its token's SHA-256 (:data:`TOKEN_SHA256`, or null for a
    bot's seat).

    Raises:
        DataError: a field missing, unknown or not of that form (the message names it).
    """
    fields = read_object(data, where, ("name", "player", "token_sha256"))
    digest = fields["token_sha256"]
    if digest is not None and not (isinstance(digest, str) and TOKEN_SHA256.fullmatch(digest)):
        raise DataError(f"{where}.token_sha256: {wording.shown(digest)} is neither a SHA-256 "
                        "in hex (64 digits 0-9 a-f) nor null")
    return SeatEntry(read_str(fields["name"], f"{where}.name",
                              longest=limits.MAX_SEAT_NAME_CHARS),
                     read_str(fields["player"], f"{where}.player"), digest)


def _read_leavers(data: Any) -> Leavers | None:
    """A table file's ``leavers`` (``None`` when absent or null)."""
    if data is None:
        return None
    fields = read_object(data, "table.leavers", ("clock", "grace", "player"))
    clock, grace = fields["clock"], fields["grace"]
    return Leavers(None if clock is None else read_int(clock, "table.leavers.clock", 1),
                   None if grace is None else read_int(grace, "table.leavers.grace", 1),
                   read_str(fields["player"], "table.leavers.player"))


def entry_data(entry: TableEntry) -> dict[str, Any]:
    """``entry`` as JSON-ready data (the table file's content)."""
    return {"format": FORMAT, "version": VERSION, "table": entry.table, "game": entry.game,
            "seats": [attrs.asdict(seat) for seat in entry.seats], "public": entry.public,
            "free": list(entry.free), "match": entry.match,
            "scores": [list(game) for game in entry.scores],
            "leavers": None if entry.leavers is None else attrs.asdict(entry.leavers)}
