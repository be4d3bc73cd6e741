"""Game records: a whole game as JSON, to save, resume, replay, check and share.

A record holds what it takes to play the game again through the engine: the rule set (name,
version, house rules and the parameters that differ from their defaults), the seats, the
seed and dealer of the deal, every move in order as its text form, and the outcome with its
scores once the game has ended.  Replaying a record deals from the seed and applies the moves,
so it gives a state equal to the original at every step.

Format (``format`` ``"spitemalice-record"``, ``version`` 1)::

    {
      "format": "spitemalice-record",
      "version": 1,
      "ruleset": {"name": "blackwood-frey", "version": "1.0",
                  "house_rules": [], "params": {"payoff_size": 13}},
      "seats": [{"name": "ann", "kind": "human"}, {"name": "greedy-1", "kind": "greedy"}],
      "seed": 5,
      "dealer": null,
      "moves": ["P:AS>B+", "2H>B1", "9C>D1", "pass"],
      "outcome": {"kind": "win", "winner": 0, "scores": [31, 0]}
    }

* ``teams`` (only in a game with teams, such as the ``partnerships`` house rule): the teams
  as lists of seats, ``[[0, 2], [1, 3]]``; replaying refuses a record whose teams differ
  from those its rules form.

* ``ruleset.params`` maps :class:`~spitemalice.rules.ruleset.Ruleset` field names to values
  (numbers, true/false, strings, ``null``, and lists of ranks for rank sets); loading the
  rule set by name with the house rules and these parameters gives the recorded rules.
* ``seats`` has one entry per seat, in seat order; ``name`` and ``kind`` are free text
  (``kind``: ``"human"``, ``"random"``, ``"greedy"``...).
* ``dealer`` is the dealing seat given to :func:`~spitemalice.engine.deal`, or ``null`` for
  the seeded cut.
* ``moves`` are move texts (:mod:`spitemalice.moves`), numbered from 1 in messages.
* ``outcome`` is ``null`` while the game is live (a saved game in progress).
* ``undone`` (only when moves were taken back, as a person's ``undo`` against bots does):
  each undo in order, as ``{"at": 12, "moves": ["9H>D1", "JD>D1"]}``: the game went back to
  its first ``at`` moves and these moves, made after them, were taken back.  Such a game is
  a practice game (:attr:`GameRecord.practice`): the person saw cards drawn after the moves
  taken back and could play again knowing them, so no study or rating may count it as a
  game played fairly.  ``moves`` holds the game as it was played to the end after the
  last undo.

Reading refuses malformed JSON, a missing, unknown or mistyped field (named by its path,
``record.moves[3]``), another format, a ``version`` that is newer than this library reads or
unknown, text that breaks the bounds of :mod:`spitemalice.limits` (a record of more than
:data:`~spitemalice.limits.MAX_JSON_BYTES` bytes, nested too deep, a number too long) and a
name, kind or rule-set text that is not printable (:func:`~spitemalice.wording.printable`:
control characters, lone surrogates).  A record's rule-set name is an installed rule set's
name: a path there is refused unless the caller allows files
(:func:`~spitemalice.formats.replay.rules_for`).

Replaying a record through the engine, and checking it, is :mod:`spitemalice.formats.replay`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any

import attrs

from spitemalice import files, guards, limits, wording
from spitemalice.errors import (
    DataError,
    NotationError,
    SpiteMaliceError,
)
from spitemalice.files import write_file
from spitemalice.formats.json_input import (
    check_header,
    parse_json,
    read_int,
    read_list,
    read_object,
    read_str,
    wrong,
)
from spitemalice.formats.serialize import outcome_from_dict, outcome_to_dict
from spitemalice.guards import check_int, check_list, check_seed, int_field, json_indent
from spitemalice.model import GameResult, Outcome
from spitemalice.moves import Move, move_text, parse_move
from spitemalice.rules.book import RuleBook, check_book
from spitemalice.rules.ruleset import IDENTITY_FIELDS, Ruleset

FORMAT = "spitemalice-record"
VERSION = 1
"""The record format version this library writes and the newest it reads."""

ParamValue = int | bool | str | None | tuple[int, ...]
"""A recorded parameter's value: rank sets are sorted tuples (a frozenset in a Ruleset)."""


@attrs.frozen
class RulesetRef:
    """What a record says about its rules.

    Attributes:
        name: the rule set's name (what :func:`~spitemalice.load` takes).
        version: the rule set's version when the record was made.
        house_rules: house-rule names, in the order applied.
        params: ``(field, value)`` pairs, sorted by field, for every parameter that differs
            from the rule set's own (house rules applied); rank sets are sorted tuples.
    """

    name: str
    version: str
    house_rules: tuple[str, ...]
    params: tuple[tuple[str, ParamValue], ...]

    @property
    def param_dict(self) -> dict[str, ParamValue]:
        return dict(self.params)


@attrs.frozen
class SeatInfo:
    """Who sat at a seat: a ``name`` and a ``kind`` (``"human"``, ``"greedy"``...)."""

    name: str
    kind: str


@attrs.frozen
class RecordFinding:
    """What ``spitemalice validate`` found wrong in a recorded game (the failure record).

    Attributes:
        invariant: the broken invariant's name (a function of :mod:`spitemalice.engine.invariants`)
            or the kind of fault (``"crash"``, ``"non-termination"``, ...).
        message: what broke, as validate reported it.
    """

    invariant: str
    message: str


@attrs.frozen
class Undone:
    """One undo in a game's record: the game went back to its first ``at`` moves, and
    ``moves`` (made after those, in order) were taken back.

    Raises:
        SpiteMaliceError: ``at`` below 0 or of more than :data:`~spitemalice.limits.MAX_DIGITS`
            digits.
    """

    at: int = attrs.field(validator=int_field(0))
    moves: tuple[str, ...]


@attrs.frozen
class GameRecord:
    """One game, from the deal to its last move so far.

    Attributes:
        ruleset: the rules (:class:`RulesetRef`).
        seats: one :class:`SeatInfo` per seat.
        seed: the deal's seed.
        dealer: the dealer given to the deal, or ``None`` for the seeded cut.
        moves: the moves in order, as text.
        outcome: the outcome once the game has ended, else ``None``.
        teams: the teams, each a tuple of seats, in a game with teams; ``()`` otherwise.
        finding: for a game ``spitemalice validate`` recorded as failing, what broke; else
            ``None`` (the JSON form then has no ``finding`` field).
        undone: every undo of the game, in order (:class:`Undone`); ``()`` when no move was
            taken back (the JSON form then has no ``undone`` field).

    Raises:
        SpiteMaliceError: a seed outside 0 to :data:`~spitemalice.limits.MAX_SEED`, which no
            reader would read back, or a dealer of more than
            :data:`~spitemalice.limits.MAX_DIGITS` digits.
    """

    ruleset: RulesetRef
    seats: tuple[SeatInfo, ...]
    seed: int = attrs.field(validator=lambda _, __, seed: check_seed(seed))
    dealer: int | None = attrs.field(validator=int_field())
    moves: tuple[str, ...]
    outcome: Outcome | None = None
    teams: tuple[tuple[int, ...], ...] = ()
    finding: RecordFinding | None = None
    undone: tuple[Undone, ...] = ()

    @property
    def practice(self) -> bool:
        """Whether moves were taken back (``undone``): the player then saw cards drawn after
        them, so the game is practice, never evidence of how well a seat plays."""
        return bool(self.undone)


# -- making records ----------------------------------------------------------------------


def ruleset_ref(rules: RuleBook) -> RulesetRef:
    """What a record must say to load ``rules`` again.

    The name is the rule-set plugin's (``rules.plugins[0]``) and the version that plugin's
    own; house rules are the house-rule plugins in order; the parameters are those that differ
    from what the rule set and house rules give by themselves.  A rule set read from a custom
    file is recorded as its base rule set, house rules and parameters (its file name, title
    and version are not needed to replay it and are not kept).

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "ruleset_ref")
    defaults = rules.plugins_ruleset()
    params = []
    for field in attrs.fields(Ruleset):
        if field.name in IDENTITY_FIELDS:
            continue
        value = getattr(rules.ruleset, field.name)
        if value != getattr(defaults, field.name):
            params.append((field.name, _param_out(value)))
    house_rules = tuple(
        name for name in rules.plugins[1:]
        if getattr(rules.plugin(name), "KIND", "house-rule") == "house-rule"
    )
    return RulesetRef(rules.plugins[0], own_version(rules), house_rules, tuple(sorted(params)))


def own_version(rules: RuleBook) -> str:
    """The version of the rule-set plugin itself (``rules.plugins[0]``), before any house
    rule or custom file wraps it.

    Raises:
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "own_version")
    return rules.own.version


def _param_out(value: Any) -> ParamValue:
    if isinstance(value, frozenset):
        return tuple(sorted(value))
    return value


def record_game(
    rules: RuleBook,
    seed: int,
    moves: Sequence[Move | str] = (),
    *,
    seats: Sequence[SeatInfo | str] | None = None,
    dealer: int | None = None,
    outcome: Outcome | None = None,
    undone: Sequence[Undone] = (),
) -> GameRecord:
    """A record of the game dealt by ``seed`` (and ``dealer``) and played with ``moves``.

    Args:
        seats: a :class:`SeatInfo` or a kind (``"greedy"``) per seat; default ``"seat N"``
            of kind ``"unknown"``.
        outcome: the game's outcome once it has ended (``final_state.outcome``).
        undone: the moves taken back during the game, each undo in order (:class:`Undone`).

    Raises:
        TypeError: ``seats`` is a bare str (a list is wanted).
        TypeError: ``moves`` is a bare str (a list is wanted).
        SpiteMaliceError: ``seats`` does not have one entry per seat, a seed outside 0 to
            :data:`~spitemalice.limits.MAX_SEED`, or a dealer that is not a seat.
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
        NotationError: a move given as text does not parse (the message names its index and
            what would be right): a record holds only moves the notation reads back.
        TypeError: ``undone`` is not a list (a str, ``None`` or a number, say),
            naming the function and what a right value looks like.
    """
    check_book(rules, "record_game")  # in parameter order: of two wrong, the first is named
    check_seed(seed)
    check_list(moves, "record_game", "moves, a list of moves or move texts,",
               '["AS>B+", "pass"]')
    check_list(seats, "record_game", "seats, a list of seats or names,",
               '["me", "greedy"]', none=True)
    if dealer is not None:
        check_int(dealer, "dealer", 0, rules.players - 1)
    check_list(undone, "record_game", "undone, a list of undone moves,",
               '[Undone(2, ("AS>B+",))]')
    if seats is None:
        infos = tuple(SeatInfo(f"seat {i}", "unknown") for i in range(rules.players))
    else:
        infos = tuple(
            s if isinstance(s, SeatInfo) else SeatInfo(f"{s}-{i}", s) for i, s in enumerate(seats)
        )
    if len(infos) != rules.players:
        raise SpiteMaliceError(f"a record of {rules.players} seats needs {rules.players} seat "
                               f"entries, not {len(infos)}")
    texts = tuple(_written(m, index) for index, m in enumerate(moves))
    teams = rules.teams.teams if rules.teams.any else ()
    return GameRecord(ruleset_ref(rules), infos, seed, dealer, texts, outcome, teams,
                      undone=tuple(undone))


def _written(move: Move | str, index: int) -> str:
    """``move``'s text for a record: a move object written out, a text parsed and written as
    the notation writes it."""
    if not isinstance(move, str):
        return move_text(move)
    try:
        return move_text(parse_move(move))
    except NotationError as error:
        raise NotationError(f"record_game: move {index} is not a move: {error}",
                            error.reason) from None


def record_result(rules: RuleBook, result: GameResult,
                  seats: Sequence[SeatInfo | str] | None = None,
                  dealer: int | None = None) -> GameRecord:
    """The record of a :class:`~spitemalice.model.GameResult` (``seed``, ``moves``,
    ``final``) played with ``dealer`` (``None``: the seeded cut, as ``play_game`` deals).

    Raises:
        TypeError: ``seats`` is a bare str (a list is wanted).
        TypeError: ``rules`` is not a :class:`~spitemalice.rules.book.RuleBook`.
    """
    check_book(rules, "record_result")
    check_list(seats, "record_result", "seats, a list of seats or names,",
               '["me", "greedy"]', none=True)
    return record_game(rules, result.seed, result.moves, seats=seats, dealer=dealer,
                       outcome=result.final.outcome)


# -- JSON --------------------------------------------------------------------------------


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    """``record`` as JSON-ready data (see the module docstring for the shape)."""
    ref = record.ruleset
    data = {
        "format": FORMAT,
        "version": VERSION,
        "ruleset": {
            "name": ref.name, "version": ref.version, "house_rules": list(ref.house_rules),
            "params": {k: list(v) if isinstance(v, tuple) else v for k, v in ref.params},
        },
        "seats": [{"name": seat.name, "kind": seat.kind} for seat in record.seats],
        "seed": record.seed,
        "dealer": record.dealer,
        "moves": list(record.moves),
        "outcome": outcome_to_dict(record.outcome),
    }
    if record.teams:
        data["teams"] = [list(team) for team in record.teams]
    if record.finding is not None:
        data["finding"] = {"invariant": record.finding.invariant,
                           "message": record.finding.message}
    if record.undone:
        data["undone"] = [{"at": undo.at, "moves": list(undo.moves)} for undo in record.undone]
    return data


_FIELDS = ("format", "version", "ruleset", "seats", "seed", "dealer", "moves", "outcome")
_RULESET_FIELDS = ("name", "version", "house_rules", "params")


def record_from_dict(data: Any, path: str = "record") -> GameRecord:
    """The record that :func:`record_to_dict` data states.

    Moves are checked to be strings here; whether they parse and are legal is the replay's
    business (:func:`~spitemalice.formats.replay.replay`,
    :func:`~spitemalice.formats.replay.check_record`), which names the move's number.

    Raises:
        DataError: another format, a newer or unknown version, or a missing, unknown or
            mistyped field, named by its path.
    """
    check_header(data, path, FORMAT, VERSION)
    fields = read_object(data, path, _FIELDS, ("teams", "finding", "undone"))
    rs = read_object(fields["ruleset"], f"{path}.ruleset", _RULESET_FIELDS)
    params = rs["params"]
    if not isinstance(params, dict):
        raise wrong(f"{path}.ruleset.params",
                    'an object of parameter values, as {"players": 3}', params)
    ref = RulesetRef(
        _read_name(rs["name"], f"{path}.ruleset.name"),
        _read_name(rs["version"], f"{path}.ruleset.version"),
        tuple(_read_name(h, f"{path}.ruleset.house_rules[{i}]")
              for i, h in enumerate(read_list(rs["house_rules"], f"{path}.ruleset.house_rules"))),
        tuple(sorted((str(k), _read_param(v, f"{path}.ruleset.params.{k}"))
                     for k, v in params.items())),
    )
    seats = []
    for index, raw in enumerate(read_list(fields["seats"], f"{path}.seats")):
        where = f"{path}.seats[{index}]"
        seat = read_object(raw, where, ("name", "kind"))
        seats.append(SeatInfo(_read_name(seat["name"], f"{where}.name"),
                              _read_name(seat["kind"], f"{where}.kind")))
    dealer = fields["dealer"]
    return GameRecord(
        ref, tuple(seats), read_int(fields["seed"], f"{path}.seed"),
        None if dealer is None else read_int(dealer, f"{path}.dealer"),
        tuple(read_str(m, f"{path}.moves[{i}]")
              for i, m in enumerate(read_list(fields["moves"], f"{path}.moves"))),
        outcome_from_dict(fields["outcome"], f"{path}.outcome"),
        _read_teams(fields.get("teams", []), f"{path}.teams"),
        _read_finding(fields.get("finding"), f"{path}.finding"),
        _read_undone(fields.get("undone", []), f"{path}.undone"),
    )


def _read_undone(data: Any, path: str) -> tuple[Undone, ...]:
    undone = []
    for index, raw in enumerate(read_list(data, path)):
        where = f"{path}[{index}]"
        fields = read_object(raw, where, ("at", "moves"))
        moves = tuple(_read_move(m, f"{where}.moves[{i}]")
                      for i, m in enumerate(read_list(fields["moves"], f"{where}.moves")))
        if not moves:
            raise DataError(f"{where}.moves: an undo takes back one move or more, not none")
        undone.append(Undone(read_int(fields["at"], f"{where}.at"), moves))
    return tuple(undone)


def _read_move(data: Any, path: str) -> str:
    """A move's text that is never replayed (one taken back): read as a move, so the field
    holds move texts and nothing else."""
    text = read_str(data, path)
    try:
        parse_move(text)
    except NotationError as error:
        raise DataError(f"{path}: {error}") from None
    return text


def _read_finding(data: Any, path: str) -> RecordFinding | None:
    if data is None:
        return None
    found = read_object(data, path, ("invariant", "message"))
    return RecordFinding(_read_name(found["invariant"], f"{path}.invariant"),
                         read_str(found["message"], f"{path}.message"))


def _read_teams(data: Any, path: str) -> tuple[tuple[int, ...], ...]:
    """Teams as lists of seat numbers, ``[[0, 2], [1, 3]]``; whether they fit the rules is the
    replay's check."""
    return tuple(tuple(read_int(seat, f"{path}[{i}][{j}]")
                       for j, seat in enumerate(read_list(team, f"{path}[{i}]")))
                 for i, team in enumerate(read_list(data, path)))


def _read_name(data: Any, path: str) -> str:
    """A name, kind or version: printable text (it is shown on terminals), at most
    :data:`~spitemalice.limits.MAX_NAME_CHARS` characters."""
    text = read_str(data, path)
    if not wording.printable(text):
        raise DataError(f"{path}: {wording.clipped(text)!a} is not printable text of at most "
                        f"{limits.MAX_NAME_CHARS} characters (no control characters or lone "
                        "surrogates)")
    return text


def _read_param(value: Any, path: str) -> ParamValue:
    if isinstance(value, str):
        return _read_name(value, path)
    if value is None or isinstance(value, bool | int):
        return value
    if isinstance(value, list):
        return tuple(sorted(read_int(v, f"{path}[{i}]") for i, v in enumerate(value)))
    raise wrong(path, "a number, true/false, a string, null or a list of ranks", value)


def dumps_record(record: GameRecord, indent: int | None = 1) -> str:
    """``record`` as JSON text.

    Raises:
        SpiteMaliceError: ``indent`` is not ``None`` or 0 to
            :data:`~spitemalice.limits.MAX_INDENT`.
    """
    return json.dumps(record_to_dict(record), indent=json_indent(indent))


def loads_record(text: str | bytes) -> GameRecord:
    """The record that :func:`dumps_record` text states.

    Raises:
        DataError: malformed JSON or bad data (see :func:`record_from_dict`).
    """
    return record_from_dict(parse_json(text, "record"))


def require_record(record: object, function: str) -> None:
    """Refuse ``record`` unless it is a :class:`GameRecord`; for a file's path or a record's
    text, say which function reads it.

    Raises:
        TypeError: naming ``function``, what was given and what would be right.
    """
    if isinstance(record, GameRecord):
        return
    given = wording.given_text(record)
    if isinstance(record, str | os.PathLike | bytes):
        given += (": read a record file first with spitemalice.load_record(path) (or a "
                  "record's JSON text with spitemalice.formats.loads_record(text))")
    elif isinstance(record, RuleBook):
        given = "a RuleBook (are the arguments in order? the record comes first)"
    raise TypeError(f"{function} takes a GameRecord (what spitemalice.load_record(path) or "
                    f"spitemalice.record_game returns), not {given}")


def save_record(record: GameRecord, path: str | os.PathLike[str], *,
                overwrite: bool = False) -> None:
    """Write ``record`` to the file ``path`` as JSON, by the one rule for files the library
    writes (:mod:`spitemalice.files`): whole or not at all, never through a
    symbolic link, never over an existing file unless ``overwrite``.

    Args:
        overwrite: whether a file or link already at ``path`` may be replaced (a link is
            replaced, never followed).

    Raises:
        OutputError: ``path`` exists and ``overwrite`` is false, is a folder, or cannot be
            written; nothing was written.
    """
    write_file(path, dumps_record(record) + "\n", force=overwrite,
               how_to_replace="overwrite=True")


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read a record file: a regular file of at most
    :data:`~spitemalice.limits.MAX_JSON_BYTES` bytes (a device or FIFO is refused, never read).

    Raises:
        DataError: the file cannot be read, is not a regular file, is too large, or its content
            is not a record (the message starts with the file's name).
        TypeError: ``path`` is not a str or a path.
    """
    guards.check_path(path, "load_record", "a record file's path")
    try:
        text = files.read_file(path, limits.MAX_JSON_BYTES).decode("utf-8")
    except files.FileRefused as error:
        raise DataError(f"{os.fspath(path)}: cannot read the record: {error}") from None
    except UnicodeDecodeError:
        raise DataError(f"{os.fspath(path)}: not a text file") from None
    try:
        return loads_record(text)
    except DataError as error:
        raise DataError(f"{os.fspath(path)}: {error}") from None


__all__ = [
    "FORMAT", "VERSION", "GameRecord", "RecordFinding", "RulesetRef", "SeatInfo",
    "dumps_record", "load_record", "loads_record", "own_version", "record_from_dict",
    "record_game", "record_result", "record_to_dict", "require_record", "ruleset_ref",
    "save_record",
]
