"""The finished games a server holds, for the replay page (issue 36 §2).

A finished game's record reveals its seed and so every card, which is why it is shown only
once the game has ended; every hand is drawn face up.  :func:`finished_games` lists the
finished games of public tables (the lobby listed them: :mod:`spitemalice.server.listing`),
newest first; any finished game whose id (``TABLE-N``) is known can be replayed, as any
table whose id is known can be watched.  A record is replayed once and its positions kept
(a few records at a time), so stepping through it costs one picture per step.

A record a server dealt with a commitment (:mod:`spitemalice.formats.commitment`) is shown
with it (:func:`deal_check`): the commitment announced before the first move, the seed and
salt the record reveals, whether they open it (checked here as ``spitemalice check`` does)
and the command lines that let anyone check it again.
"""

from __future__ import annotations

import functools
import hashlib
import re
from pathlib import Path
from typing import Any

import attrs

from spitemalice.engine.views import view_of
from spitemalice.errors import DataError, SpiteMaliceError
from spitemalice.formats.commitment import deal_problem
from spitemalice.formats.picture import isolated, position_svg
from spitemalice.formats.records.reading import load_record, loads_record
from spitemalice.formats.records.record import GameRecord
from spitemalice.formats.replay import replay, rules_for
from spitemalice.formats.serialize import view_to_dict
from spitemalice.model import GameState, top_ranks
from spitemalice.moves import parse_move
from spitemalice.play.screen import move_words
from spitemalice.rules.book import RuleBook
from spitemalice.server.store import Store, read_entry

GAME_ID = re.compile(r"([0-9a-f]{16})-([1-9][0-9]{0,8})")
"""A finished game's id: its table's id and its number there (``0123456789abcdef-2``)."""

FILE_ID = re.compile(r"file-[0-9a-f]{32}")
"""The id of a record file a person sent to be replayed: ``file-`` and the first 32 hex
digits of the SHA-256 of its text (only who holds the file can name it)."""

MAX_FILE_BYTES = 2 * 1024 * 1024
"""The largest record file the replay page may send (a game of several thousand moves)."""

MAX_FILES = 8
"""Record files sent to be replayed that the server keeps at once (the oldest goes)."""

_files: dict[str, Replayed] = {}

MAX_FINISHED = 100
"""Most finished games :func:`finished_games` lists."""


@attrs.frozen
class Replayed:
    """A finished game replayed: its record, its rules and every position (the deal
    first)."""

    record: GameRecord
    rules: RuleBook
    states: tuple[GameState, ...]


@functools.lru_cache(maxsize=8)
def _replayed(path: Path, stamp: tuple[int, int]) -> Replayed:
    record = load_record(path)
    if record.outcome is None:
        raise SpiteMaliceError("that game has not ended; its table can be watched until it does")
    rules = rules_for(record)
    return Replayed(record, rules, tuple(replay(record, rules)))


def sent_file(text: bytes) -> str:
    """Replay a record file a person sent (its bytes, at most :data:`MAX_FILE_BYTES`) and
    keep it under its id (:data:`FILE_ID`), which :func:`replayed` then takes; the game may
    be unfinished (a game saved before its end).

    Raises:
        SpiteMaliceError: the text is too long, or is not a record that replays (the message
            says what is wrong, as ``spitemalice check`` would).
    """
    if len(text) > MAX_FILE_BYTES:
        raise SpiteMaliceError(f"the file is {len(text):,} bytes; the server replays a record "
                               f"file of at most {MAX_FILE_BYTES:,}")
    game_id = "file-" + hashlib.sha256(text).hexdigest()[:32]
    if game_id not in _files:
        try:
            record = loads_record(text)
            rules = rules_for(record)
            game = Replayed(record, rules, tuple(replay(record, rules)))
        except (DataError, SpiteMaliceError) as problem:
            raise SpiteMaliceError(f"that file cannot be replayed: {problem}") from None
        while len(_files) >= MAX_FILES:
            del _files[next(iter(_files))]
        _files[game_id] = game
    return game_id


def replayed(store: Store, game_id: str) -> Replayed:
    """The finished game ``game_id`` (``TABLE-N``) of ``store``, replayed.

    Raises:
        SpiteMaliceError: not a game id, no such record, a game not yet ended, or a record that
            does not replay (the message says which).
    """
    if FILE_ID.fullmatch(game_id):
        if game_id not in _files:
            raise SpiteMaliceError("that record file is no longer kept here; open it again")
        return _files[game_id]
    found = GAME_ID.fullmatch(game_id)
    if found is None:
        raise SpiteMaliceError(f"{game_id[:40]!r} is not a game id: a table's id, a dash and the "
                       "game's number, such as 0123456789abcdef-1")
    path = store.record_path(found[1], int(found[2]))
    try:
        stat = path.stat()
        return _replayed(path, (stat.st_mtime_ns, stat.st_size))
    except FileNotFoundError:
        raise SpiteMaliceError(f"no game {game_id} on this server") from None
    except DataError as problem:
        raise SpiteMaliceError(f"game {game_id} cannot be replayed: {problem}") from None


def summary(game_id: str, game: Replayed) -> dict[str, Any]:
    """The game as the replay page lists it and steps through it: its rules, seats,
    outcome and every move, with the move in words."""
    record, rules = game.record, game.rules
    moves = []
    for number, (text, before) in enumerate(zip(record.moves, game.states, strict=False), 1):
        words = move_words(rules, parse_move(text), top_ranks(before.builds,
                                                              before.build_removed))
        moves.append({"number": number, "seat": before.seat, "move": text,
                      "words": f"{record.seats[before.seat].name} {words}"})
    return {"game": game_id, "ruleset": record.ruleset.name,
            "house_rules": list(record.ruleset.house_rules),
            "seats": [{"name": seat.name, "player": seat.kind} for seat in record.seats],
            "outcome": "not finished" if record.outcome is None else record.outcome.describe(),
            "scores": [] if record.outcome is None else list(record.outcome.scores),
            "moves": moves, "practice": record.practice, "deal": deal_check(record, rules)}


def deal_check(record: GameRecord, rules: RuleBook) -> dict[str, Any] | None:
    """The ``deal`` field of the replay page's game: ``None`` for a record with no
    commitment; else the ``scheme``, the ``commitment`` announced (64 hex digits), the
    revealed ``seed`` (decimal text), ``dealer`` and ``salt``, ``holds`` (whether the seed
    opens the commitment and gives the recorded deal, as ``spitemalice check`` finds),
    ``problem`` (what does not hold, or ``None``) and ``check``, how to check it by hand."""
    promised = record.commitment
    if promised is None:
        return None
    problem = deal_problem(record, rules)
    who = "none" if record.dealer is None else str(record.dealer)
    return {"scheme": promised.scheme, "commitment": promised.sha256, "seed": str(record.seed),
            "dealer": record.dealer, "salt": promised.salt, "holds": problem is None,
            "problem": problem,
            "check": f"spitemalice check RECORD, or: printf '%s' '{promised.scheme}:"
                     f"{record.seed}:{who}:{promised.salt}' | sha256sum"}


def position(game: Replayed, number: int) -> dict[str, Any]:
    """The position after move ``number`` (0: the deal) with every hand face up: ``table``,
    a seat's view as :func:`~spitemalice.formats.serialize.view_to_dict` writes it with each
    seat's ``hand`` added (the replay page draws it), and ``picture``, the same drawn as SVG.

    Raises:
        SpiteMaliceError: ``number`` is past the game's last move.
    """
    if not 0 <= number < len(game.states):
        have = ("only position 0 (the deal)" if len(game.states) == 1
                else f"moves 0 to {len(game.states) - 1}")  # not "0 to 0"
        raise SpiteMaliceError(f"the game has {have}, not {number}")
    names = [seat.name for seat in game.record.seats]
    if number == 0:
        caption = f"{game.record.ruleset.name}: the deal"
    else:
        mover = game.states[number - 1].seat
        caption = (f"{game.record.ruleset.name}, move {number}: {isolated(names[mover])} "
                   f"played {game.record.moves[number - 1]}")
    teams = game.rules.teams.teams if game.rules.teams.any else ()
    state = game.states[number]
    # the page draws this (static/board.js): seat 0's view, with every seat's hand face up
    table = view_to_dict(view_of(state, 0), teams)
    for seat, shown in zip(state.seats, table["seats"], strict=True):
        shown["hand"] = [str(card) for card in seat.hand]  # card text, QS
    del table["hand"], table["viewer"]
    return {"number": number, "table": table,
            "picture": position_svg(state, caption=caption, names=names, teams=teams)}


def finished_games(store: Store) -> list[dict[str, Any]]:
    """The finished games of the public tables in ``store``, newest first (at most
    :data:`MAX_FINISHED`): per game its id, rule set, seats, outcome and moves."""
    found = []
    for path in store.directory.glob("*.table.json"):
        entry = _entry(path, path.stat().st_mtime_ns)
        if entry is None or not entry.public:
            continue
        for number in range(1, entry.game + 1):
            record_path = store.record_path(entry.table, number)
            try:
                stat = record_path.stat()
            except FileNotFoundError:
                continue
            record = _record(record_path, stat.st_mtime_ns)
            if record is not None and record.outcome is not None:
                found.append((stat.st_mtime_ns, {
                    "game": f"{entry.table}-{number}", "ruleset": record.ruleset.name,
                    "seats": [seat.name for seat in record.seats],
                    "outcome": record.outcome.describe(), "moves": len(record.moves)}))
    found.sort(key=lambda item: item[0], reverse=True)
    return [game for _, game in found[:MAX_FINISHED]]


@functools.lru_cache(maxsize=1024)
def _entry(path: Path, stamp: int) -> Any:
    try:
        return read_entry(path)
    except (DataError, SpiteMaliceError):
        return None


@functools.lru_cache(maxsize=1024)
def _record(path: Path, stamp: int) -> GameRecord | None:
    try:
        return load_record(path)
    except (DataError, SpiteMaliceError):
        return None


__all__ = ["FILE_ID", "GAME_ID", "MAX_FILES", "MAX_FILE_BYTES", "MAX_FINISHED", "Replayed",
           "finished_games", "position", "replayed", "sent_file", "summary"]
