"""A live table whose seats move at once (Spit) rebuilt from its files: at a restart, and
when another process takes it over (``serve --redis``, its owner's lease having run out).

The records stay the source of truth.  Besides the current game's record (the seed, each
move with its seat and arrival time, the stale intents, the commitment to the deal) the
records folder keeps one file per live table, ``ID.spit.json`` (format
``spitemalice-spit-table``, version 1), with what the record lacks: each seat's name,
player (``"human"`` or a bot) and the SHA-256 of a person's token (never the token), the
bots' mean reaction time, the creator's address and the current game's number.  It is
written when the table is opened and at each rematch (:func:`save`), whole or not at all
and readable by the server's owner alone, as :meth:`~spitemalice.server.store.Store.save`
writes a turn-based table's file; a table or a rematch whose file cannot be written is not
dealt (the game's record is taken back), so the file never names an older game than the
one played.

:func:`resume` replays the record's moves from the deal (checking each, as ``spitemalice
check`` does), keeps its log, stale count and commitment, and sets the table's clock so that
the next move arrives no earlier than the last one recorded; a game that has ended stays
ended (a rematch deals the next).  The bots start again.  A table whose files cannot be read
or do not agree is skipped, with a line that says why.
"""

from __future__ import annotations

import asyncio
import json
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from spitemalice import wording
from spitemalice.errors import DataError, SpiteMaliceError
from spitemalice.files import SECRET_FILE, write_file
from spitemalice.formats.arrival_replay import replay_arrivals
from spitemalice.formats.json_input import (
    read_int,
    read_list,
    read_str,
)
from spitemalice.formats.records.reading import load_record
from spitemalice.formats.records.record import GameRecord
from spitemalice.formats.replay import rules_for
from spitemalice.play.session import HUMAN
from spitemalice.runs.arrival import game_bots
from spitemalice.server.spit_bots import start_bots
from spitemalice.server.spit_table import (
    MAX_REACTION_MS,
    MIN_REACTION_MS,
    SpitTable,
    registry,
)
from spitemalice.server.store import TABLE_ID, SeatEntry, Store, read_seat, read_table_file

if TYPE_CHECKING:
    from spitemalice.server.tables import Hub

FORMAT = "spitemalice-spit-table"
VERSION = 1
"""The live table file's format version written, and the newest read."""


@attrs.frozen
class SpitEntry:
    """A live table's file: its id, its current game's number, its seats
    (:class:`~spitemalice.server.store.SeatEntry`), the bots' mean reaction time
    (milliseconds) and the address that opened it (``None`` when unknown)."""

    table: str
    game: int
    seats: tuple[SeatEntry, ...]
    reaction_ms: int
    creator: str | None


def path(store: Store, table: str) -> Path:
    """Where ``store`` keeps live table ``table``'s file."""
    return store.directory / f"{table}.spit.json"


def kept(store: Store, table: Any) -> bool:
    """Whether ``table`` is a table id whose live table file ``store`` holds."""
    return isinstance(table, str) and bool(TABLE_ID.fullmatch(table)) and path(
        store, table).exists()


def save(store: Store, table: SpitTable) -> None:
    """Write ``table``'s file (its seats, reaction time, creator and current game).

    Raises:
        OutputError: the file cannot be written (the old one stays whole).
    """
    data = {"format": FORMAT, "version": VERSION, "table": table.id, "game": table.game,
            "seats": [{"name": name, "player": kind, "token_sha256": digest}
                      for name, kind, digest in zip(table.names, table.kinds, table.hashes,
                                                    strict=True)],
            "reaction_ms": int(table.reaction_ms), "creator": table.creator}
    # as Store.save: a temporary file renamed over the old one, never written through a
    # link; the owner's alone, since it holds the token hashes
    write_file(path(store, table.id), json.dumps(data, indent=1) + "\n", force=True,
               mode=SECRET_FILE)


def read_spit_entry(file: Path) -> SpitEntry:
    """The live table file at ``file``.

    Raises:
        DataError: it cannot be read, or is no live table file of a version this library
            reads (the message names the field).
    """
    data, table = read_table_file(file, (FORMAT, VERSION, ".spit.json"),
                                  ("format", "version", "table", "game", "seats",
                                   "reaction_ms", "creator"))
    seats = []
    for i, seat in enumerate(read_list(data["seats"], "table.seats", least=1)):
        where = f"table.seats[{i}]"
        seats.append(read_seat(seat, where))
        if (seats[-1].player == HUMAN) != (seats[-1].token_sha256 is not None):
            raise DataError(f"{where}.token_sha256: a person's seat has a token hash and a "
                            "bot's none")
    creator = data["creator"]
    return SpitEntry(table, read_int(data["game"], "table.game", 1), tuple(seats),
                     read_int(data["reaction_ms"], "table.reaction_ms", MIN_REACTION_MS,
                              maximum=MAX_REACTION_MS),
                     None if creator is None else read_str(creator, "table.creator"))


_REFUSED: weakref.WeakKeyDictionary[Store, dict[str, tuple[int, int, int] | None]] = \
    weakref.WeakKeyDictionary()
"""Each store's live tables whose files were skipped, with their table file's signature
then (:func:`refused_before`)."""


def _signature(file: Path) -> tuple[int, int, int] | None:
    try:
        stat = file.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size, stat.st_ino


def refuse(store: Store, table: str) -> None:
    """Remember that ``table``'s files were skipped (said once in the log), until its table
    file changes."""
    _REFUSED.setdefault(store, {})[table] = _signature(path(store, table))


def refused_before(store: Store, table: str) -> bool:
    """Whether ``table``'s files were skipped before and its table file has not changed
    since: a join need not read them again, nor say again why."""
    refused = _REFUSED.get(store, {})
    return table in refused and refused[table] == _signature(path(store, table))


def found(store: Store, table: str) -> tuple[SpitEntry, GameRecord] | str | None:
    """Live table ``table``'s file and its current game's record, ended or not; ``None``
    when there is no such file; a string says why its files were skipped (remembered:
    :func:`refused_before`)."""
    file = path(store, table)
    if not file.exists():
        return None
    try:
        entry = read_spit_entry(file)
        return entry, load_record(store.record_path(entry.table, entry.game))
    except (DataError, SpiteMaliceError) as error:
        refuse(store, table)
        return f"skipped {wording.for_terminal(file.name)}: {error}"


def unended(store: Store, table: str) -> tuple[SpitEntry, GameRecord] | str | None:
    """:func:`found`, but ``None`` too when the table's current game has ended: what a
    process taking a dead one's tables over resumes (an ended table is let go, as
    :meth:`~spitemalice.server.store.Store.table` lets an ended turn-based one go)."""
    got = found(store, table)
    return None if isinstance(got, tuple) and got[1].outcome is not None else got


def unfinished(store: Store) -> Iterator[tuple[SpitEntry, GameRecord] | str]:
    """Every live table of ``store`` whose current game has not ended, with that game's
    record; a string says why one table's files were skipped."""
    for file in sorted(store.directory.glob("*.spit.json")):
        table = file.name.removesuffix(".spit.json")
        if not TABLE_ID.fullmatch(table):
            yield f"skipped {wording.for_terminal(file.name)}: not a table id's file"
            continue
        got = found(store, table)
        if got is not None and (isinstance(got, str) or got[1].outcome is None):
            yield got


def rebuilt(hub: Hub, entry: SpitEntry, record: GameRecord) -> SpitTable:
    """The live table ``entry`` and ``record`` describe, at the record's last move.

    Raises:
        SpiteMaliceError: the record's rules cannot be loaded, it does not replay, or it
            does not fit the table file (its seats, a seat's player).
    """
    rules = rules_for(record)
    if rules.simultaneous is None:
        raise DataError(f"{rules.name} is turn-based; a live table plays a rule set whose "
                        "seats move at once")
    seats = [(seat.name, seat.player) for seat in entry.seats]
    if seats != [(seat.name, seat.kind) for seat in record.seats]:
        raise DataError(f"the record of game {entry.game} seats "
                        f"{[seat.name for seat in record.seats]}, the table file {seats}")
    players = {HUMAN, *game_bots(rules.simultaneous)}
    for at, (_, kind) in enumerate(seats):
        if kind not in players:
            raise DataError(f"table.seats[{at}].player: {wording.shown(kind)} does not play "
                            f"{rules.name}")
    *_, state = replay_arrivals(record, rules)  # every move checked, as spitemalice check does
    times = record.arrivals.times_ms if record.arrivals is not None else ()
    table_id = entry.table
    table = SpitTable(table_id, rules, tuple(k for _, k in seats), tuple(n for n, _ in seats),
                      tuple(seat.token_sha256 for seat in entry.seats), entry.reaction_ms,
                      entry.creator, lambda game: hub.store.record_path(table_id, game),
                      holds=lambda: hub.shared.holds(table_id))
    table.game, table.seed, table.state = entry.game, record.seed, state
    table.commitment = record.commitment
    table.stale = record.arrivals.stale if record.arrivals is not None else 0
    table.log = [(rules.simultaneous.parse_move(text).seat, text, ms)
                 for text, ms in zip(record.moves, times, strict=True)]
    # the clock goes on from the last arrival: the next move's time is never earlier
    table.started = table.clock() - (times[-1] / 1000 if times else 0.0)
    return table


def resume(hub: Hub, entry: SpitEntry, record: GameRecord) -> str:
    """Rebuild live table ``entry.table`` into ``hub`` (:func:`rebuilt`) and start its bots;
    returns the line that says so, or why the table was skipped."""
    try:
        table = rebuilt(hub, entry, record)
    except SpiteMaliceError as problem:
        refuse(hub.store, entry.table)
        return f"skipped live table {entry.table}: {problem}"
    registry(hub)[table.id] = table
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        pass  # restored outside the event loop: the first join or watch starts them
    else:
        start_bots(table)
    ended = ", which has ended" if table.is_over else ""
    return (f"resumed live table {table.id}, game {table.game}{ended}, after "
            + wording.count_of(len(table.log), "move"))


def restore(hub: Hub) -> list[str]:
    """Rebuild every live table of ``hub.store`` whose current game has not ended; one line
    per table resumed or skipped."""
    return [got if isinstance(got, str) else resume(hub, *got)
            for got in unfinished(hub.store)]


__all__ = ["FORMAT", "VERSION", "SpitEntry", "found", "kept", "path", "read_spit_entry",
           "rebuilt", "refuse", "refused_before", "restore", "resume", "save", "unended",
           "unfinished"]
