"""Reading a record: from JSON-ready data (:func:`record_from_dict`), JSON text
(:func:`loads_record`) or a file (:func:`load_record`, capped at
:data:`~spitemalice.limits.MAX_JSON_BYTES` bytes).  Every wrong field is named by its path
(``record.moves[3]``).
"""

from __future__ import annotations

import math
import os
from typing import Any

from spitemalice import files, guards, limits, wording
from spitemalice.errors import (
    DataError,
    NotationError,
    SpiteMaliceError,
)
from spitemalice.formats.json_input import (
    check_header,
    parse_json,
    read_int,
    read_list,
    read_object,
    read_str,
    wrong,
)
from spitemalice.formats.records.record import (
    FORMAT,
    TAKEOVER_REASONS,
    VERSION,
    ArrivalLog,
    ArrivalPolicy,
    DealCommitment,
    GameRecord,
    ParamValue,
    RecordFinding,
    RulesetRef,
    SeatInfo,
    Takeover,
    Undone,
)
from spitemalice.formats.serialize import outcome_from_dict
from spitemalice.moves import parse_move

_FIELDS = ("format", "version", "ruleset", "seats", "seed", "dealer", "moves", "outcome")


_RULESET_FIELDS = ("name", "version", "house_rules", "params")


def record_from_dict(data: Any, path: str = "record") -> GameRecord:
    """The record that :func:`~spitemalice.formats.records.writing.record_to_dict` data states.

    Moves are checked to be strings here; whether they parse and are legal is the replay's
    business (:func:`~spitemalice.formats.replay.replay`,
    :func:`~spitemalice.formats.replay.check_record`), which names the move's number.

    Raises:
        DataError: another format, a newer or unknown version, or a missing, unknown or
            mistyped field, named by its path.
    """
    check_header(data, path, FORMAT, VERSION)
    fields = read_object(data, path, _FIELDS, ("teams", "finding", "undone", "arrivals",
                                                   "commitment", "takeovers"))
    rs = read_object(fields["ruleset"], f"{path}.ruleset", _RULESET_FIELDS, ("data_rules",))
    params = rs["params"]
    if not isinstance(params, dict):
        raise wrong(f"{path}.ruleset.params",
                    'an object of parameter values, as {"players": 3}', params)
    house_rules = tuple(
        _read_name(h, f"{path}.ruleset.house_rules[{i}]")
        for i, h in enumerate(read_list(rs["house_rules"], f"{path}.ruleset.house_rules")))
    ref = RulesetRef(
        _read_name(rs["name"], f"{path}.ruleset.name"),
        _read_name(rs["version"], f"{path}.ruleset.version"),
        house_rules,
        tuple(sorted((str(k), _read_param(v, f"{path}.ruleset.params.{k}"))
                     for k, v in params.items())),
        _read_data_rules(rs.get("data_rules", {}), f"{path}.ruleset.data_rules", house_rules),
    )
    seats = []
    for index, raw in enumerate(read_list(fields["seats"], f"{path}.seats")):
        where = f"{path}.seats[{index}]"
        seat = read_object(raw, where, ("name", "kind"))
        seats.append(SeatInfo(_read_name(seat["name"], f"{where}.name"),
                              _read_name(seat["kind"], f"{where}.kind")))
    dealer = fields["dealer"]
    moves = tuple(read_str(m, f"{path}.moves[{i}]")
                  for i, m in enumerate(read_list(fields["moves"], f"{path}.moves")))
    return GameRecord(
        ref, tuple(seats), read_int(fields["seed"], f"{path}.seed"),
        None if dealer is None else read_int(dealer, f"{path}.dealer"),
        moves,
        outcome_from_dict(fields["outcome"], f"{path}.outcome"),
        _read_teams(fields.get("teams", []), f"{path}.teams"),
        _read_finding(fields.get("finding"), f"{path}.finding"),
        _read_undone(fields.get("undone", []), f"{path}.undone"),
        _read_arrivals(fields["arrivals"], f"{path}.arrivals", len(moves))
        if "arrivals" in fields else None,
        _read_commitment(fields["commitment"], f"{path}.commitment")
        if "commitment" in fields else None,
        _read_takeovers(fields.get("takeovers", []), f"{path}.takeovers", len(seats),
                        len(moves)),
    )


def _read_commitment(data: Any, path: str) -> DealCommitment:
    """A deal's commitment: four texts, each checked by :class:`DealCommitment` (the
    message names the field)."""
    fields = read_object(data, path, ("scheme", "sha256", "salt", "deal_sha256"))
    texts = {key: read_str(value, f"{path}.{key}") for key, value in fields.items()}
    try:
        return DealCommitment(**texts)
    except SpiteMaliceError as error:
        raise DataError(f"{path.removesuffix('.commitment')}.{error}") from None


def _read_data_rules(data: Any, path: str, house_rules: tuple[str, ...]
                     ) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The ``[[rule]]`` tables of the house rules a rule-set file wrote as data, in the order
    of ``house_rules``: each named ``FILE.toml:CLAUSE`` there, its table's ``clause`` that
    CLAUSE.  Only their form is read here; they are compiled (and any fault of an expression
    found) when the rules are loaded (:func:`~spitemalice.formats.replay.rules_for`)."""
    if not isinstance(data, dict):
        raise wrong(path, 'an object of [[rule]] tables by house-rule name, as '
                    '{"my-rules.toml:DD-1": {"clause": "DD-1", ...}}', data)
    if len(data) > limits.MAX_DATA_RULES:
        raise DataError(f"{path}: {wording.count_of(len(data), 'table')}; a rule-set file "
                        f"has at most {limits.MAX_DATA_RULES} (limits.MAX_DATA_RULES)")
    for name, table in data.items():
        where = f"{path}.{name}" if name.isidentifier() else f"{path}[{name!r}]"
        file, colon, clause = name.partition(":")
        if not (colon and file.lower().endswith(".toml")) or name not in house_rules:
            raise DataError(f"{where}: a data rule is named FILE.toml:CLAUSE and listed in "
                            f"record.ruleset.house_rules, which hold {list(house_rules)!r}")
        if not isinstance(table, dict):
            raise wrong(where, 'a [[rule]] table as an object, as {"clause": "DD-1", ...}',
                        table)
        if table.get("clause") != clause:
            raise DataError(f"{where}.clause: the table of {name} states clause {clause}, "
                            f"not {wording.clipped(str(table.get('clause')))!a}")
    return tuple((name, data[name]) for name in house_rules if name in data)


_ARRIVAL_FIELDS = ("policy", "times_ms", "stale")
_POLICY_FIELDS = ("policy", "means_ms", "spread", "distribution")


def _read_arrivals(data: Any, path: str, moves: int) -> ArrivalLog:
    """The arrival log of a game whose seats move at once: one time per move, never
    decreasing (the moves were applied in the order they arrived)."""
    fields = read_object(data, path, _ARRIVAL_FIELDS)
    times = tuple(_read_ms(t, f"{path}.times_ms[{i}]")
                  for i, t in enumerate(read_list(fields["times_ms"], f"{path}.times_ms")))
    if len(times) != moves:
        raise DataError(f"{path}.times_ms: {len(times)} time(s) for {moves} move(s); the log "
                        "holds one arrival time per move")
    for index in range(1, len(times)):
        if times[index] < times[index - 1]:
            raise DataError(f"{path}.times_ms[{index}]: {times[index]!r} ms is earlier than "
                            f"the move before it ({times[index - 1]!r} ms); moves are "
                            "applied in the order they arrive")
    policy = None
    if fields["policy"] is not None:
        where = f"{path}.policy"
        found = read_object(fields["policy"], where, _POLICY_FIELDS)
        means = tuple(_read_ms(m, f"{where}.means_ms[{i}]", positive=True) for i, m in
                      enumerate(read_list(found["means_ms"], f"{where}.means_ms", least=1)))
        policy = ArrivalPolicy(_read_name(found["policy"], f"{where}.policy"), means,
                               _read_ms(found["spread"], f"{where}.spread"),
                               _read_name(found["distribution"], f"{where}.distribution"))
    return ArrivalLog(times, policy, read_int(fields["stale"], f"{path}.stale"))


def _read_ms(data: Any, path: str, *, positive: bool = False) -> float:
    """A finite number of at least 0 (above 0 when ``positive``), as a float."""
    if (isinstance(data, bool) or not isinstance(data, int | float)
            or not math.isfinite(data) or data < 0 or (positive and data == 0)
            or abs(data) > limits.MAX_REAL):
        raise wrong(path, f"a number of milliseconds {'above' if positive else 'of at least'}"
                    " 0", data)
    return float(data)


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


def _read_takeovers(data: Any, path: str, seats: int, moves: int) -> tuple[Takeover, ...]:
    """The seats bots took over, each once, in the order of their moves."""
    taken: list[Takeover] = []
    for index, raw in enumerate(read_list(data, path)):
        where = f"{path}[{index}]"
        fields = read_object(raw, where, ("seat", "at", "player", "why"))
        seat = read_int(fields["seat"], f"{where}.seat", 0, maximum=max(seats - 1, 0))
        at = read_int(fields["at"], f"{where}.at", taken[-1].at if taken else 0,
                      maximum=moves)
        why = read_str(fields["why"], f"{where}.why")
        if why not in TAKEOVER_REASONS:
            raise wrong(f"{where}.why", " or ".join(map(repr, TAKEOVER_REASONS)), why)
        if any(earlier.seat == seat for earlier in taken):
            raise DataError(f"{where}.seat: seat {seat} is taken over twice; a bot takes a "
                            "seat over once, for the rest of the game")
        taken.append(Takeover(seat, at, _read_name(fields["player"], f"{where}.player"),
                              why))
    return tuple(taken)


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


def loads_record(text: str | bytes) -> GameRecord:
    """The record that :func:`~spitemalice.formats.records.writing.dumps_record` text states.

    Raises:
        DataError: malformed JSON or bad data (see :func:`record_from_dict`).
    """
    return record_from_dict(parse_json(text, "record"))


def load_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read a record file: a regular file of at most
    :data:`~spitemalice.limits.MAX_JSON_BYTES` bytes (a device or FIFO is refused, never read).

    Raises:
        DataError: the file cannot be read, is not a regular file, is too large, or its content
            is not a record (the message starts with the file's name).
        TypeError: ``path`` is not a str or a path.
    """
    guards.check_path(path, "load_record", "a record file's path")
    where = wording.for_terminal(os.fspath(path))  # a file's name is outside text too
    try:
        text = files.read_file(path, limits.MAX_JSON_BYTES).decode("utf-8")
    except files.FileRefused as error:
        raise DataError(f"{where}: cannot read the record: {error}") from None
    except UnicodeDecodeError:
        raise DataError(f"{where}: not a text file") from None
    try:
        return loads_record(text)
    except DataError as error:
        raise DataError(f"{where}: {error}") from None
