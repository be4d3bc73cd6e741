"""The play server's protocol: JSON messages over one WebSocket, read and written here.

Every message is one JSON object with a ``type``.  A client sends (schema
``spitemalice schema message``, ``$defs/to-server``):

* ``catalog``: asks for the installed rule sets, house rules and players;
* ``create``: opens a table (``ruleset``, ``house_rules``, ``params``, and ``seats``: per seat
  a ``name`` and a ``player``, ``"human"`` or a bot kind);
* ``join``: sits at seat ``seat`` of table ``table`` with that seat's ``token``
  (``picture: true`` asks for the SVG picture of each position too);
* ``move``: a move's text (``"9H>B2"``), optionally with the ``seat`` it is for and its
  ``number`` (moves played so far + 1), so a stale or misdirected move is refused;
* ``hint``, ``undo``, ``rematch``, ``record``: what the table page's buttons do.

The server answers with ``catalog``, ``created``, ``welcome``, ``state``, ``refused``,
``error``, ``seats``, ``hint`` and ``record`` (``$defs/to-client``); docs/playing.md shows
a whole exchange.  Reading is strict: a message over
:data:`~spitemalice.limits.MAX_MESSAGE_BYTES`, malformed JSON, an unknown ``type``, a
missing or unknown field or a value of the wrong type is a :class:`ProtocolError` whose
``code`` names the kind of fault and whose message names the field and what it should be.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import attrs

from spitemalice import guards, limits, wording
from spitemalice.errors import ProtocolError
from spitemalice.formats import strict_json
from spitemalice.rules.ruleset import closest

PROTOCOL = 1
"""The protocol version this server speaks (``welcome`` and ``catalog`` carry it)."""

PERSON = "human"
"""The ``player`` of a seat taken by a client (a person's browser or a program): ``"human"``,
the value the server reads (:data:`spitemalice.play.session.HUMAN`)."""

MAX_SEATS = 12
"""Most seats a ``create`` message may list (no rule set seats more)."""

MAX_HOUSE_RULES = 16
"""Most house rules a ``create`` message may list."""

MAX_PARAMS = 32
"""Most parameters a ``create`` message may set."""

MAX_TOKEN_CHARS = 64
"""Longest ``table`` id or ``token`` read (the server makes 22 and 32 characters)."""


ERROR_CODES: dict[str, str] = {
    "too-large": "the message is longer than the server reads",
    "rate-limited": "messages came faster than the server takes them",
    "bad-json": "the message is not a JSON object",
    "unknown-type": "the message's type is not one the server knows",
    "missing-field": "a field the message needs is missing",
    "unknown-field": "the message has a field its type does not have",
    "wrong-type": "a field's value has the wrong JSON type or is out of range",
    "not-joined": "the message needs a seat: join a table first",
    "already-joined": "this connection already sits at a seat",
    "no-table": "no table has that id on this server",
    "bad-token": "the token is not that seat's",
    "seat-busy": "too many connections sit at that seat",
    "not-your-seat": "the message is for a seat this connection does not sit at",
    "not-on-turn": "that is for the seat on turn, and this seat is not",
    "not-a-move": "the move's text is not a move",
    "stale": "the move's number is not the next move's",
    "game-over": "the game has ended",
    "game-not-over": "that is only possible once the game has ended",
    "no-undo": "undo is not possible now",
    "bad-rules": "the rule set, house rules, parameters or seats cannot be used",
    "too-many-tables": "this client has as many unfinished tables as it may",
    "server-full": "the server holds as many tables as it may",
    "server-error": "the server could not keep the change (its records folder cannot be "
                    "written); nothing changed",
}
"""Every ``error`` code the server sends, with what it means."""


@attrs.frozen
class SeatRequest:
    """One seat of a ``create`` message: who sits there (``name``) and what plays it
    (``player``: :data:`PERSON` or a bot kind)."""

    name: str
    player: str


@attrs.frozen
class Message:
    """A client's message, read and checked for form (not yet for meaning).

    Attributes:
        type: the kind (``"move"``, ``"join"``...).
        fields: the message's other fields, each of the type the schema gives it; a
            ``create`` message's ``seats`` are :class:`SeatRequest` values.
    """

    type: str
    fields: Mapping[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        """The field ``name``, or ``default`` when the message leaves it out."""
        return self.fields.get(name, default)


# Per kind: required and optional fields, each with its reader.
_STR, _INT, _BOOL, _SEATS, _NAMES, _PARAMS = "str", "int", "bool", "seats", "names", "params"
KINDS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "catalog": ({}, {}),
    "create": ({"ruleset": _STR, "seats": _SEATS}, {"house_rules": _NAMES, "params": _PARAMS}),
    "join": ({"table": _STR, "seat": _INT, "token": _STR}, {"picture": _BOOL}),
    "move": ({"move": _STR}, {"seat": _INT, "number": _INT}),
    "hint": ({}, {}),
    "undo": ({}, {}),
    "rematch": ({}, {}),
    "record": ({}, {}),
}
"""The kinds a client may send: required and optional fields besides ``type``."""


def read_message(data: str | bytes) -> Message:
    """A client's message from the text of one WebSocket message.

    Raises:
        ProtocolError: too long, not a JSON object, an object naming a key twice, an unknown
            type, a missing or unknown field, or a value of the wrong type; the message names
            the field and the form it should have.
    """
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > limits.MAX_MESSAGE_BYTES:
        raise ProtocolError("too-large", f"the message is {size:,} bytes; the server reads "
                            f"messages of at most {limits.MAX_MESSAGE_BYTES:,} bytes")
    try:
        text = data.decode("utf-8") if isinstance(data, bytes) else data
        if guards.json_depth(text) > 4:  # the deepest message, create, nests 3
            raise ProtocolError("bad-json", "the message nests lists and objects more than "
                                "4 deep; no message of this protocol does")
        parsed = strict_json.loads(text)
    except (UnicodeDecodeError, ValueError) as error:
        if isinstance(error, ProtocolError):
            raise
        if isinstance(error, strict_json.DuplicateKey):
            raise ProtocolError("bad-json", error.at("message")) from None
        if not isinstance(error, json.JSONDecodeError | UnicodeDecodeError):
            # guards.json_int: valid JSON, but a number past the digits any field takes
            raise ProtocolError("wrong-type", f"the message holds {error}") from None
        shown = str(error).split(": line")[0] if isinstance(error, json.JSONDecodeError) else ""
        raise ProtocolError("bad-json", "the message is not JSON" + (f" ({shown})" if shown
                            else "") + '; send one JSON object such as {"type": "catalog"}'
                            ) from None
    if not isinstance(parsed, dict):
        raise ProtocolError("bad-json", f"the message is {_kind(parsed)}; send one JSON "
                            'object with a "type" field, such as {"type": "catalog"}')
    kind = parsed.get("type")
    if kind not in KINDS:
        shown = "missing" if "type" not in parsed else _kind(kind)
        hint = closest(kind, KINDS) if isinstance(kind, str) else ""
        raise ProtocolError("unknown-type", f"type: {shown} is not a message type{hint}; the "
                            f"types are {', '.join(KINDS)}")
    required, optional = KINDS[kind]
    for name in required:
        if name not in parsed:
            raise ProtocolError("missing-field", f"{kind}.{name}: missing; a {kind} message "
                                f"has {_field_list(kind)}")
    fields = {}
    for name, value in parsed.items():
        if name == "type":
            continue
        reader = required.get(name) or optional.get(name)
        if reader is None:
            raise ProtocolError("unknown-field", f"{kind}.{_shown(name)}: unknown field"
                                f"{closest(name, [*required, *optional])}; a {kind} message "
                                f"has {_field_list(kind)}")
        fields[name] = _READERS[reader](value, f"{kind}.{name}")
    return Message(kind, fields)


def _field_list(kind: str) -> str:
    required, optional = KINDS[kind]
    if not required and not optional:
        return "no field but type"
    words = [*required, *(f"{name} (optional)" for name in optional)]
    return "the fields " + ", ".join(words)


def _shown(name: str) -> str:
    return json.dumps(wording.clipped(name)) if not name.isidentifier() else name


def _kind(value: Any) -> str:
    if value is None or isinstance(value, bool):
        return json.dumps(value)
    if isinstance(value, list):  # the length, which a bound on it refuses
        return f"a list of {wording.count_of(len(value), 'item')}" if value else "an empty list"
    if isinstance(value, dict):
        return (f"an object of {wording.count_of(len(value), 'field')}" if value
                else "an empty object")
    names = {str: "a string", int: "a number", float: "a number"}
    name = names.get(type(value), type(value).__name__)
    return f"{name} {wording.clipped(json.dumps(value))}"


def _wrong(path: str, expected: str, value: Any) -> ProtocolError:
    return ProtocolError("wrong-type", f"{path}: expected {expected}, not {_kind(value)}")


def _read_str(value: Any, path: str, longest: int = limits.MAX_NAME_CHARS) -> str:
    if not isinstance(value, str):
        raise _wrong(path, "a string", value)
    if not value or len(value) > longest or not wording.printable(value):
        raise ProtocolError("wrong-type", f"{path}: expected 1 to {longest} printable "
                            f"characters, not {json.dumps(wording.clipped(value))}")
    return value


def _read_int(value: Any, path: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value < 1 << 31:
        raise _wrong(path, "a whole number from 0", value)
    return value


def _read_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise _wrong(path, "true or false", value)
    return value


def _read_names(value: Any, path: str) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > MAX_HOUSE_RULES:
        raise _wrong(path, f"a list of at most {MAX_HOUSE_RULES} names", value)
    return tuple(_read_str(name, f"{path}[{i}]") for i, name in enumerate(value))


def _read_params(value: Any, path: str) -> dict[str, int | bool | str | None]:
    if not isinstance(value, dict) or len(value) > MAX_PARAMS:
        raise _wrong(path, f"an object of at most {MAX_PARAMS} parameters", value)
    params: dict[str, int | bool | str | None] = {}
    for key, item in value.items():
        _read_str(key, f"{path} key")
        if item is not None and not isinstance(item, int | bool | str):
            raise _wrong(f"{path}.{_shown(key)}", "a whole number, true/false, a string or null",
                         item)
        params[key] = item
    return params


def _read_seats(value: Any, path: str) -> tuple[SeatRequest, ...]:
    if not isinstance(value, list) or not 1 <= len(value) <= MAX_SEATS:
        raise _wrong(path, f"a list of 1 to {MAX_SEATS} seats", value)
    seats = []
    for i, seat in enumerate(value):
        where = f"{path}[{i}]"
        if not isinstance(seat, dict):
            raise _wrong(where, 'an object {"name": ..., "player": ...}', seat)
        for key in seat:
            if key not in ("name", "player"):
                raise ProtocolError("unknown-field", f"{where}.{_shown(str(key))}: unknown "
                                    "field; a seat has the fields name and player")
        for key in ("name", "player"):
            if key not in seat:
                raise ProtocolError("missing-field", f"{where}.{key}: missing; a seat has "
                                    "the fields name and player")
        seats.append(SeatRequest(
            _read_str(seat["name"], f"{where}.name", limits.MAX_SEAT_NAME_CHARS),
            _read_str(seat["player"], f"{where}.player")))
    return tuple(seats)


_LONGEST = {"join.table": MAX_TOKEN_CHARS, "join.token": MAX_TOKEN_CHARS,
            "move.move": limits.MAX_MOVE_CHARS}


def _read_field(value: Any, path: str) -> str:
    return _read_str(value, path, _LONGEST.get(path, limits.MAX_NAME_CHARS))


_READERS = {_STR: _read_field, _INT: _read_int, _BOOL: _read_bool, _SEATS: _read_seats,
            _NAMES: _read_names, _PARAMS: _read_params}


def encode(message: Mapping[str, Any]) -> str:
    """A server message as the compact JSON text sent (keys in the order built, no spaces):
    equal messages are equal bytes."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error(code: str, message: str) -> dict[str, Any]:
    """An ``error`` message (``code`` one of :data:`ERROR_CODES`)."""
    return {"type": "error", "error": code, "message": message}
